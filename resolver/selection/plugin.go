package selection

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// HarnessPlugin is the contract a runtime registers to take part in runtime
// selection (SEL-3, SEL-5; seed 004). The built-in `openclaw` runtime is
// not a plugin: it is what selection falls back to.
//
// Implementations must be deterministic and side-effect free: selection may
// ask the same plugin several times, and never starts it.
type HarnessPlugin interface {
	// ID is the runtime ID the plugin provides, e.g. "codex". It must be a
	// lower-case runtime ID (see [Registry.Register]).
	ID() string
	// AutoProviders lists the providers this plugin may claim in `auto`
	// mode (SEL-3). An empty list means the plugin is explicit-only; the
	// entry "*" means every provider.
	AutoProviders() []string
	// Priority orders plugins that claim the same auto route: highest
	// wins, ties go to the lower ID.
	Priority() int
	// Supports reports whether the plugin can run the described route.
	Supports(RouteFacts) Support
}

// RouteFacts is what a [HarnessPlugin] is told about one provider/model
// turn. It never holds a credential or header value: BaseURL has any
// userinfo, query and fragment removed, and overrides are reported by the
// path of the setting only.
type RouteFacts struct {
	// Provider is the normalized provider ID (REF-2).
	Provider string
	// Model is the model ID, case kept.
	Model string
	// Runtime is the runtime selection asks for: [resolver.RuntimeAuto] when the
	// plugin is asked to claim an automatic route, else its own ID.
	Runtime string
	// BaseURL is the effective base URL (the model row's, else the
	// provider's), or "" when the provider default applies.
	BaseURL string
	// BaseURLStripped reports that userinfo, a query or a fragment was
	// removed from BaseURL. Such a URL is never an official route.
	BaseURLStripped bool
	// API is the effective API adapter (`api` of the model row, else the
	// provider), or "" when unset.
	API string
	// Overrides are the authored request overrides of the route (SEL-6),
	// by setting path, in a stable order.
	Overrides []occkit.Path
}

// HasOverrides reports whether the route carries authored request
// overrides (SEL-6).
func (f RouteFacts) HasOverrides() bool { return len(f.Overrides) > 0 }

// SupportKind is a plugin's answer to [HarnessPlugin.Supports].
type SupportKind string

// The closed set of answers. The zero value is treated as
// [SupportUnsupported]: a plugin that says nothing does not run the turn.
const (
	// SupportSupported: the plugin runs the route natively.
	SupportSupported SupportKind = "supported"
	// SupportUnsupported: the plugin cannot run the route; an explicit
	// selection of it fails closed (SEL-5).
	SupportUnsupported SupportKind = "unsupported"
	// SupportFallback: the plugin cannot run the route natively but
	// declares that OpenClaw reproduces the exact request
	// (`fallbackRuntime: openclaw`, SEL-5).
	SupportFallback SupportKind = "fallback"
)

// AllSupportKinds lists every [SupportKind].
func AllSupportKinds() []SupportKind {
	return []SupportKind{SupportSupported, SupportUnsupported, SupportFallback}
}

// Support is a plugin's answer for one route.
type Support struct {
	Kind SupportKind
	// Reason says why, briefly; it must not contain secrets.
	Reason string
}

// Supported is the answer "runs natively".
func Supported() Support { return Support{Kind: SupportSupported} }

// Unsupported is the answer "cannot run this route", with a reason.
func Unsupported(reason string) Support {
	return Support{Kind: SupportUnsupported, Reason: reason}
}

// FallbackToOpenClaw is the answer "OpenClaw can reproduce this exact
// request", with a reason.
func FallbackToOpenClaw(reason string) Support {
	return Support{Kind: SupportFallback, Reason: reason}
}

func (s Support) kind() SupportKind {
	switch s.Kind {
	case SupportSupported, SupportFallback:
		return s.Kind
	}
	return SupportUnsupported
}

// Registry holds the [HarnessPlugin]s runtime selection may use. It is a
// value, not a global: create one per installation with [NewRegistry]. A
// nil *Registry is an empty registry. Registry is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	plugins map[string]HarnessPlugin
}

// NewRegistry returns a registry holding plugins, or the first
// registration error.
func NewRegistry(plugins ...HarnessPlugin) (*Registry, error) {
	r := &Registry{}
	for _, p := range plugins {
		if err := r.Register(p); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds p. A nil plugin or an invalid ID is 400 INVALID_REQUEST; a
// duplicate ID is 409 RESOURCE_CONFLICT. A valid ID is lower-case, 1–64
// characters of `a-z 0-9 . _ -` starting with a letter or digit, and not
// reserved: `auto`, `default`, `openclaw` and the aliases and CLI backends
// of REF-6 and SEL-7 cannot be registered.
func (r *Registry) Register(p HarnessPlugin) error {
	if p == nil {
		return occkit.Invalid("SEL-3", occkit.Root(), "harness plugin is nil")
	}
	id := p.ID()
	if !validID(id) {
		return occkit.Invalid("SEL-3", occkit.Root(), "harness plugin ID %q is not a valid runtime ID", occkit.Sanitize(id))
	}
	if reservedID(id) {
		return occkit.Invalid("SEL-3", occkit.Root(), "harness plugin ID %q is reserved", id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.plugins[id]; dup {
		return occkit.Conflict("SEL-3", occkit.Root(), "harness plugin %q is already registered", id)
	}
	if r.plugins == nil {
		r.plugins = map[string]HarnessPlugin{}
	}
	r.plugins[id] = p
	return nil
}

// Lookup returns the plugin registered under the runtime ID id (normalized
// per REF-6).
func (r *Registry) Lookup(id string) (HarnessPlugin, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.plugins[resolver.NormalizeRuntime(id)]
	return p, ok
}

// IDs lists the registered runtime IDs in ascending order.
func (r *Registry) IDs() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.plugins))
	for id := range r.plugins {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// autoFor reports whether p may be asked to claim provider in auto
// mode (SEL-3).
func autoFor(p HarnessPlugin, provider string) bool {
	for _, a := range p.AutoProviders() {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "*" || (a != "" && a == provider) {
			return true
		}
	}
	return false
}

// ask calls p.Supports with a private copy of f, so a plugin cannot
// alter what later plugins see.
func ask(p HarnessPlugin, f RouteFacts, runtime string) Support {
	f.Runtime = runtime
	f.Overrides = slices.Clone(f.Overrides)
	s := p.Supports(f)
	s.Kind = s.kind()
	return s
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

func reservedID(id string) bool {
	switch id {
	case resolver.RuntimeAuto, "default", string(occkit.HarnessOpenClaw), "pi", "codex-app-server":
		return true
	}
	_, cli := cliBackends[id]
	return cli
}
