package drivers

import "reflect"

// Wrapper is implemented by a ComputeDriver that wraps another (for
// metrics, tracing, retries, …). Unwrap returns the wrapped driver, or nil.
//
// [As] follows Unwrap chains, so wrapping a driver never hides one of its
// optional capabilities: a wrapper need only forward the required methods.
// A wrapper that implements a capability itself wins over the wrapped
// driver's, which lets it intercept one capability deliberately.
type Wrapper interface {
	Unwrap() ComputeDriver
}

// SandboxWrapper is [Wrapper] for a SandboxDriver.
type SandboxWrapper interface {
	Unwrap() SandboxDriver
}

// maxUnwrap bounds an Unwrap chain, so a cycle cannot hang discovery.
const maxUnwrap = 32

// As reports whether d, or a driver it wraps, implements capability T, and
// returns the outermost such implementation. T is normally one of this
// package's optional capability interfaces, e.g.
//
//	if logs, ok := drivers.As[drivers.RuntimeLogReader](d); ok { … }
//
// A nil d (or a typed nil pointer) has no capabilities.
func As[T any](d ComputeDriver) (T, bool) { return asAny[T](d) }

// AsSandbox is [As] for a [SandboxDriver].
func AsSandbox[T any](d SandboxDriver) (T, bool) { return asAny[T](d) }

func asAny[T any](d any) (T, bool) {
	var zero T
	for i := 0; i < maxUnwrap && !isNil(d); i++ {
		if t, ok := d.(T); ok {
			return t, true
		}
		switch w := d.(type) {
		case Wrapper:
			d = w.Unwrap()
		case SandboxWrapper:
			d = w.Unwrap()
		default:
			return zero, false
		}
	}
	return zero, false
}

// isNil reports whether v is nil or an interface holding a nil pointer,
// map, slice, func or channel: calling a method on it would panic or lie.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}
