package logging

import (
	"context"
	"io"
	"log/slog"
)

// WithheldMessage replaces a record message that is not on a [Filter]'s
// message allowlist.
const WithheldMessage = "withheld"

// FilterOptions configures [Filter]. The zero value allows exactly the
// startup-phase fields and the worker attributes, and the message
// [EventStartupPhase].
type FilterOptions struct {
	// Attributes lists the attribute keys that may pass; a key inside groups
	// is named by its group path, e.g. "G.H.k". Empty: [DefaultAttributes].
	Attributes []string
	// Messages lists the record messages that may pass unchanged; any other
	// message is replaced by [WithheldMessage]. Empty: [EventStartupPhase].
	Messages []string
}

// DefaultAttributes is the allowlist of a zero [FilterOptions]: the
// startup-phase fields (LOG-7) and the worker attributes (LOG-6).
func DefaultAttributes() []string {
	keys := []string{keyContainer, keyPhase, keyOutcome, keyMs, keySinceStartMs, keyCode}
	for _, w := range AllWorkAttributes() {
		keys = append(keys, string(w))
	}
	return keys
}

// Filter wraps next so that only allowlisted attributes and messages reach
// it (LOG-7): any other attribute is dropped, whatever its value, so
// provider, model, credential and path values cannot reach the output
// through a field the allowlist does not name. On top of the allowlist:
//
//   - the startup-phase fields must hold legal values (a known container,
//     phase and outcome; integer ms and sinceStartMs; a code matching
//     ^[A-Z][A-Z0-9_]{0,63}$), or they are dropped too;
//   - the Collector identity attributes (service.name, service.version,
//     container.name, …; see [ProtectedKey.Attribute]) are always dropped,
//     so a payload can never claim an identity (LOG-6);
//   - a group is kept only when one of its attributes is.
//
// Filter follows the slog.Handler contract (it passes testing/slogtest when
// the allowlist names the keys used).
func Filter(next slog.Handler, opts FilterOptions) slog.Handler {
	allow := opts.Attributes
	if len(allow) == 0 {
		allow = DefaultAttributes()
	}
	msgs := opts.Messages
	if len(msgs) == 0 {
		msgs = []string{EventStartupPhase}
	}
	f := &filter{next: next, allow: map[string]bool{}, messages: map[string]bool{}}
	for _, k := range allow {
		f.allow[k] = true
	}
	for _, m := range msgs {
		f.messages[m] = true
	}
	return f
}

type filter struct {
	next     slog.Handler
	allow    map[string]bool
	messages map[string]bool
	prefix   string // the open groups, each followed by "."
}

// Enabled defers to the wrapped handler.
func (f *filter) Enabled(ctx context.Context, l slog.Level) bool { return f.next.Enabled(ctx, l) }

// Handle passes a copy of r with the message and attributes filtered.
func (f *filter) Handle(ctx context.Context, r slog.Record) error {
	msg := r.Message
	if !f.messages[msg] {
		msg = WithheldMessage
	}
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if kept, ok := f.keep(a, f.prefix); ok {
			out.AddAttrs(kept)
		}
		return true
	})
	return f.next.Handle(ctx, out)
}

// WithAttrs filters attrs once, at the current group path.
func (f *filter) WithAttrs(attrs []slog.Attr) slog.Handler {
	var kept []slog.Attr
	for _, a := range attrs {
		if k, ok := f.keep(a, f.prefix); ok {
			kept = append(kept, k)
		}
	}
	c := *f
	if len(kept) > 0 {
		c.next = f.next.WithAttrs(kept)
	}
	return &c
}

// WithGroup opens a group; allowlist names below it carry its path.
func (f *filter) WithGroup(name string) slog.Handler {
	if name == "" {
		return f
	}
	c := *f
	c.next = f.next.WithGroup(name)
	c.prefix = f.prefix + name + "."
	return &c
}

// keep returns a (resolved, filtered) when some of it may pass.
func (f *filter) keep(a slog.Attr, prefix string) (slog.Attr, bool) {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		inner := prefix
		if a.Key != "" {
			inner = prefix + a.Key + "."
		}
		var kept []slog.Attr
		for _, m := range a.Value.Group() {
			if k, ok := f.keep(m, inner); ok {
				kept = append(kept, k)
			}
		}
		if len(kept) == 0 {
			return slog.Attr{}, false
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(kept...)}, true
	}
	if a.Key == "" {
		return slog.Attr{}, false // an empty attribute, or one hiding its key
	}
	name := prefix + a.Key
	if !f.allow[name] || protectedAttributes[name] || !legalValue(name, a.Value) {
		return slog.Attr{}, false
	}
	return a, true
}

// legalValue checks the values of the startup-phase fields (LOG-7); other
// allowlisted keys take any value.
func legalValue(name string, v slog.Value) bool {
	switch name {
	case keyContainer:
		return v.Kind() == slog.KindString && (v.String() == startupGateway || v.String() == startupAgent)
	case keyPhase:
		return v.Kind() == slog.KindString && Phase(v.String()).Valid()
	case keyOutcome:
		return v.Kind() == slog.KindString && PhaseOutcome(v.String()).Valid()
	case keyCode:
		return v.Kind() == slog.KindString && ValidCode(v.String())
	case keyMs, keySinceStartMs:
		return v.Kind() == slog.KindInt64
	}
	return true
}

// NewStartupHandler returns a handler that writes each record as one JSON
// line in the wrappers' wire form: the message becomes "event", time and
// level are left out, and the attributes pass through [Filter] with the zero
// options. A [StartupRecord] logged through it ([StartupRecord.Log]) comes
// out byte for byte as its [StartupRecord.MarshalJSON] plus a newline.
func NewStartupHandler(w io.Writer) slog.Handler {
	return Filter(slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) > 0 {
				return a
			}
			switch a.Key {
			case slog.TimeKey, slog.LevelKey:
				return slog.Attr{}
			case slog.MessageKey:
				return slog.String("event", a.Value.String())
			}
			return a
		},
	}), FilterOptions{})
}
