package drivers

import (
	"sort"
	"strings"
	"sync"

	"github.com/occkit/occkit"
)

// Registry holds the drivers of one installation, by name. It is a plain
// value (there is no global registry): build one at startup, register
// every driver, then look drivers up. The zero Registry is empty and ready
// to use. A Registry is safe for concurrent use; it must not be copied
// after first use.
//
// Registration validates the driver's declaration, so an invalid driver
// never becomes visible: a ComputeDriver by [ValidateDeclaration], a
// SandboxDriver by [SandboxManifest.Validate] (DRV-2, DRV-4), both 400
// INVALID_REQUEST. A second driver of the same kind under a name already
// taken is 409 RESOURCE_CONFLICT; the first stays registered.
type Registry struct {
	mu        sync.RWMutex
	compute   map[string]ComputeDriver
	sandbox   map[string]SandboxDriver
	manifests map[string]SandboxManifest
}

// RegisterCompute validates d's declaration and registers d under its
// declared name.
func (r *Registry) RegisterCompute(d ComputeDriver) error {
	if isNil(d) {
		return occkit.Invalid("DRV-1", occkit.Root(), "cannot register a nil ComputeDriver")
	}
	decl := d.Declaration()
	if err := ValidateDeclaration(decl); err != nil {
		return err
	}
	name := string(decl.Name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.compute[name]; dup {
		return occkit.Conflict("DRV-1", occkit.InstallationPath("name"), "a ComputeDriver named %s is already registered", name)
	}
	if r.compute == nil {
		r.compute = map[string]ComputeDriver{}
	}
	r.compute[name] = d
	return nil
}

// RegisterSandbox validates d's manifest ([SandboxManifestOf]) and
// registers d under its declared name.
func (r *Registry) RegisterSandbox(d SandboxDriver) error {
	if isNil(d) {
		return occkit.Invalid("DRV-2", occkit.Root(), "cannot register a nil SandboxDriver")
	}
	m := SandboxManifestOf(d)
	if err := occkit.Join(checkName("DRV-2", occkit.InstallationPath("name"), m.Name), m.Validate()); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.sandbox[m.Name]; dup {
		return occkit.Conflict("DRV-2", occkit.InstallationPath("name"), "a SandboxDriver named %s is already registered", m.Name)
	}
	if r.sandbox == nil {
		r.sandbox = map[string]SandboxDriver{}
		r.manifests = map[string]SandboxManifest{}
	}
	r.sandbox[m.Name] = d
	r.manifests[m.Name] = m
	return nil
}

// Compute returns the ComputeDriver registered under name (its
// [Declaration].Name).
func (r *Registry) Compute(name occkit.Compute) (ComputeDriver, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.compute[string(name)]
	return d, ok
}

// LookupCompute is [Registry.Compute] for a name an Agent gives: a name no
// driver is registered under is 400 INVALID_REQUEST (RES-11) at the
// Agent's compute, naming the registered Computes and, for a typo of one
// ("nomda"), carrying it as the Suggestion.
func (r *Registry) LookupCompute(name occkit.Compute) (ComputeDriver, error) {
	if d, ok := r.Compute(name); ok {
		return d, nil
	}
	names := r.ComputeNames()
	list := "none"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	e := occkit.Invalid("RES-11", occkit.AgentPath("compute"), "no Compute %q is registered (registered: %s)%s",
		occkit.Sanitize(string(name)), list, occkit.DidYouMean(string(name), names))
	e.Suggestion = occkit.Suggest(string(name), names)
	return nil, e
}

// Sandbox returns the SandboxDriver registered under name.
func (r *Registry) Sandbox(name string) (SandboxDriver, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.sandbox[name]
	return d, ok
}

// SandboxFacts returns the resolution facts of the SandboxDriver
// registered under name, as validated at registration.
func (r *Registry) SandboxFacts(name string) (occkit.SandboxFacts, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	m, ok := r.manifests[name]
	if !ok {
		return occkit.SandboxFacts{}, false
	}
	return m.Facts(), true
}

// ComputeNames lists the registered ComputeDriver names, sorted.
func (r *Registry) ComputeNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.compute)
}

// SandboxNames lists the registered SandboxDriver names, sorted.
func (r *Registry) SandboxNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.sandbox)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
