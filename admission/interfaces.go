package admission

import (
	"context"
	"errors"
	"reflect"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/resolver"
)

// The interfaces below are what admission needs from its collaborators.
// They are structural: a drivers package value satisfies them without
// admission importing drivers. Optional capabilities are found by type
// assertion through Unwrap() chains ([Capability]), so wrapping a driver
// never hides one.

// Authorizer decides whether a deployment may proceed (ADM-2). It must
// authorize the exact Agent, Configuration and selected managed harness
// credential source. A nil error allows; any refusal is reported as 403
// FORBIDDEN, except a *occkit.Error with code DEPENDENCY_UNAVAILABLE (the
// Authorizer could not decide), which stays 503. Both fail closed.
type Authorizer interface {
	Authorize(ctx context.Context, req AuthorizeRequest) error
}

// AuthorizeRequest is what one deployment asks the [Authorizer].
type AuthorizeRequest struct {
	// Principal is the caller, as the control plane identifies it.
	Principal string
	AgentID   string
	// Configuration is the stored Configuration the Agent names.
	Configuration SourceIdentity
	// HarnessAuth is the selected credential source (references only).
	HarnessAuth Binding
}

// AuthorizerFunc adapts a function to [Authorizer].
type AuthorizerFunc func(ctx context.Context, req AuthorizeRequest) error

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, req AuthorizeRequest) error {
	return f(ctx, req)
}

// ConfigurationReader reads the stored Configuration an Agent names
// (ADM-1: after authorization). It returns the document and the generation
// it read.
type ConfigurationReader interface {
	ReadConfiguration(ctx context.Context, id string) (occkit.Document, int64, error)
}

// StaticConfiguration is a [ConfigurationReader] over one in-memory
// document: the reader for callers that already hold the Configuration.
type StaticConfiguration struct {
	ID         string
	Generation int64
	Document   occkit.Document
}

// ReadConfiguration returns the document when id matches, else a 409.
func (s StaticConfiguration) ReadConfiguration(_ context.Context, id string) (occkit.Document, int64, error) {
	if id != s.ID {
		return occkit.Document{}, 0, occkit.Conflict("ADM-1", occkit.NewPath("configurationId"), "the Configuration is not available")
	}
	return s.Document, s.Generation, nil
}

// ConfigurationTransformer is a SandboxDriver's optional configuration
// transform (DRV-2, ADM-1). It must be pure: it receives an immutable
// [occkit.Document] and returns the transformed copy; the stored source is
// never changed. Absent: the document is admitted untransformed. A refusal
// that is an INVALID_REQUEST *occkit.Error stays 400; any other is 409.
type ConfigurationTransformer interface {
	TransformConfiguration(ctx context.Context, doc occkit.Document) (occkit.Document, error)
}

// GatewaySettingsValidator is a ComputeDriver's optional gateway-settings
// check (ADM-1, AUTH-7), run after harness-auth validation. Absent: no
// check. Any refusal is 409 RESOURCE_CONFLICT naming the setting (the
// refusal's Path), never its value: the driver's message is not repeated.
type GatewaySettingsValidator interface {
	ValidateGatewaySettings(ctx context.Context, doc occkit.Document, t resolver.Topology) error
}

// ComputeInfo declares a Compute to admission (DRV-1).
type ComputeInfo struct {
	// Kind is the bundled kind or the custom driver's name.
	Kind resolver.Compute
	// ID is the configured driver's identity, frozen into the revision.
	ID string
	// RuntimeLogging is who owns native logging; the zero value is the
	// platform (LOG-1); [logging.OwnedByDriver] preserves the native
	// configuration (LOG-3).
	RuntimeLogging logging.Ownership
	// Topologies is the (Harness, Mode) set a custom Compute supports
	// (RES-11). Ignored for the bundled kinds.
	Topologies []resolver.Topology
	// Driver is the ComputeDriver value, asked for optional capabilities
	// ([HarnessAuthValidator], [GatewaySettingsValidator]) by type
	// assertion. nil for a bundled kind uses the built-in harness-auth
	// rules ([ValidateHarnessAuth]); a custom kind without a validator is
	// 503 (AUTH-7).
	Driver any
}

// SandboxInfo declares the configured SandboxDriver.
type SandboxInfo struct {
	// ID is the driver identity, frozen into the revision as the sandbox
	// binding (ADM-3).
	ID    string
	Facts resolver.SandboxFacts
	// Driver is asked for [ConfigurationTransformer] by type assertion.
	Driver any
}

// Capability finds an optional capability of type T on v or on any value
// its Unwrap chain reaches: a method Unwrap with no arguments and one
// result, whatever that result's declared type (drivers declare their own).
// The chain is followed at most 32 steps, so a cycle cannot hang admission.
func Capability[T any](v any) (T, bool) {
	for i := 0; i < 32 && v != nil; i++ {
		if c, ok := v.(T); ok {
			return c, true
		}
		v = unwrap(v)
	}
	var zero T
	return zero, false
}

// unwrap calls v's Unwrap method, or returns nil when it has none.
func unwrap(v any) any {
	if u, ok := v.(interface{ Unwrap() any }); ok {
		return u.Unwrap()
	}
	m := reflect.ValueOf(v).MethodByName("Unwrap")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return nil
	}
	out := m.Call(nil)[0]
	if (out.Kind() == reflect.Interface || out.Kind() == reflect.Pointer) && out.IsNil() {
		return nil
	}
	return out.Interface()
}

// mapRefusal keeps a 400 or 409 refusal and turns any other into 409,
// without repeating the text of a plain error.
func mapRefusal(rule string, at occkit.Path, what string, err error) error {
	var oe *occkit.Error
	if errors.As(err, &oe) {
		if oe.Code == occkit.CodeInvalidRequest || oe.HTTPStatus() == 409 {
			return oe
		}
		out := *oe
		out.Code = occkit.CodeResourceConflict
		if out.Rule == "" {
			out.Rule = rule
		}
		return &out
	}
	return occkit.Conflict(rule, at, "%s", what)
}
