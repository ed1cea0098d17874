package drivers

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// SandboxDeclaration is what a [SandboxDriver] says about itself (DRV-2).
type SandboxDeclaration struct {
	// Name identifies the driver in a [Registry] and in a revision's
	// sandbox binding.
	Name string
	// Facets are the containment facets the driver enforces: at least one,
	// each from [occkit.AllFacets], none twice. There is no exec facet and
	// no per-tool sandbox admission: a Sandbox contains the whole revision.
	Facets []occkit.Facet
	// HarnessHome is where the Harness's home directory lives inside the
	// sandbox: an absolute, normalized POSIX path other than "/". Empty
	// means the driver's default.
	HarnessHome string
}

// SandboxDriver contains a dedicated Harness (DRV-2). It works only beside
// the bundled Kubernetes Compute, which keeps ownership, identity, gateway
// and routing while the SandboxDriver provisions the Harness, and only for
// dedicated execution: embedded revisions never reach it.
//
// The required part is the declaration and cleanup. Optional capabilities
// are separate interfaces found with [As]:
//
//   - [ConfigurationTransformer]: absent, the Configuration is admitted
//     unchanged.
//   - [HarnessProvisioner]: absent, the driver does not qualify to contain
//     dedicated OpenClaw (RES-13) and the installation does not offer it
//     (DRV-3).
//   - [SandboxNamespacePreparer]: absent, nothing runs when the namespace is
//     prepared.
//   - [SandboxLogReader]: absent, sandbox log reads answer 501
//     NOT_IMPLEMENTED.
//   - the lifecycle hooks ([NamespacePreparedHook] …): absent, the phase
//     runs without this driver.
type SandboxDriver interface {
	// SandboxDeclaration returns the driver's declaration. It must return
	// the same value on every call.
	SandboxDeclaration() SandboxDeclaration
	// Cleanup removes what the driver created for one revision (rev != nil)
	// or for the whole namespace (rev == nil). It is required: revision
	// stop, retirement and namespace deletion depend on it. It must be
	// idempotent: cleaning what is already gone succeeds.
	Cleanup(ctx context.Context, ns Namespace, rev Revision) error
}

// HarnessProvisioner is the optional harness provisioning of a
// SandboxDriver: it creates the dedicated Harness workload for rev inside
// the sandbox and returns where it lives. It must be idempotent for the
// same revision. Without it the driver does not qualify (RES-13).
type HarnessProvisioner interface {
	ProvisionHarness(ctx context.Context, ns Namespace, rev Revision) (SandboxRef, error)
}

// SandboxNamespacePreparer optionally prepares sandbox-side state when the
// tenant namespace is ensured. Absent, nothing runs.
type SandboxNamespacePreparer interface {
	EnsureSandboxNamespace(ctx context.Context, ns Namespace) error
}

// SandboxLogReader optionally reads bounded raw log lines of a revision's
// sandbox. It must be read-only. Absent, [ReadSandboxLogs] answers 501
// NOT_IMPLEMENTED.
type SandboxLogReader interface {
	ReadSandboxLogs(ctx context.Context, ns Namespace, rev Revision, req LogRequest) (LogChunk, error)
}

// SandboxRef names the sandbox a [HarnessProvisioner] created.
type SandboxRef struct {
	// Namespace is the runtime placement (e.g. the Kubernetes namespace).
	Namespace string
	// Name is the sandbox resource's name, derived by the driver from the
	// revision.
	Name string
	// AgentID and RevisionDigest identify the revision it serves.
	AgentID        string
	RevisionDigest string
}

// SandboxManifest is a SandboxDriver's declaration as data: what
// registration validates (DRV-2, DRV-4). [SandboxManifestOf] derives it
// from a Go driver; [ParseSandboxManifest] reads one that an
// out-of-process driver publishes as JSON.
type SandboxManifest struct {
	Name   string
	Facets []occkit.Facet
	// Cleanup reports that the driver can clean up (required).
	Cleanup bool
	// ProvisionHarness reports a [HarnessProvisioner].
	ProvisionHarness bool
	// TransformConfiguration reports a [ConfigurationTransformer].
	TransformConfiguration bool
	// HarnessHome is the declared harness home, or "".
	HarnessHome string
	// Hooks are the lifecycle phases the driver hooks.
	Hooks []HookPhase
	// Compute is the Compute the driver is paired with; "" means the
	// bundled Kubernetes Compute, the only one allowed.
	Compute occkit.Compute
}

// SandboxManifestOf describes d. Capabilities are discovered through
// Unwrap chains, so a wrapped driver describes like the driver it wraps.
// A nil d gives the zero manifest, which does not validate.
func SandboxManifestOf(d SandboxDriver) SandboxManifest {
	if isNil(d) {
		return SandboxManifest{}
	}
	decl := d.SandboxDeclaration()
	m := SandboxManifest{
		Name:        decl.Name,
		Facets:      append([]occkit.Facet(nil), decl.Facets...),
		Cleanup:     true,
		HarnessHome: decl.HarnessHome,
		Hooks:       SandboxHookPhases(d),
	}
	_, m.ProvisionHarness = asAny[HarnessProvisioner](d)
	_, m.TransformConfiguration = asAny[ConfigurationTransformer](d)
	return m
}

// Facts returns what resolution needs to know of the driver.
func (m SandboxManifest) Facts() occkit.SandboxFacts {
	return occkit.SandboxFacts{
		Facets:           append([]occkit.Facet(nil), m.Facets...),
		ProvisionHarness: m.ProvisionHarness,
	}
}

// Validate checks the manifest (DRV-2, DRV-4) and returns every problem,
// each a 400 INVALID_REQUEST: facets empty, unknown or repeated; no
// cleanup; a harness home that is not absolute and normalized; a hook
// outside [AllHookPhases]; a Compute other than Kubernetes. The name is the
// [Registry]'s business, not the manifest's.
func (m SandboxManifest) Validate() error {
	var errs []error
	errs = append(errs, CheckFacets(occkit.InstallationPath("facets"), m.Facets))
	if !m.Cleanup {
		errs = append(errs, occkit.Invalid("DRV-2", occkit.InstallationPath("cleanup"), "a SandboxDriver must provide cleanup"))
	}
	if m.HarnessHome != "" {
		errs = append(errs, CheckHarnessHome(occkit.InstallationPath("harnessHome"), m.HarnessHome))
	}
	phases := make([]string, len(m.Hooks))
	for i, p := range m.Hooks {
		phases[i] = string(p)
	}
	errs = append(errs, CheckHookPhases(occkit.InstallationPath("hooks"), phases))
	if m.Compute != "" && m.Compute != occkit.ComputeKubernetes {
		errs = append(errs, occkit.Invalid("DRV-2", occkit.InstallationPath("compute"),
			"a SandboxDriver requires the bundled Kubernetes Compute"))
	}
	return occkit.Join(errs...)
}

// CheckFacets validates a declared facet list (DRV-2): non-empty, each
// from [occkit.AllFacets], none twice. at is the list's path; refusals
// are 400 INVALID_REQUEST at at (empty) or at.Index(i).
func CheckFacets(at occkit.Path, facets []occkit.Facet) error {
	if len(facets) == 0 {
		return occkit.Invalid("DRV-2", at, "a SandboxDriver must declare at least one facet (networking, filesystem, process)")
	}
	var errs []error
	seen := map[occkit.Facet]bool{}
	for i, f := range facets {
		switch {
		case !knownFacet(f):
			errs = append(errs, occkit.Invalid("DRV-2", at.Index(i),
				"unknown facet: facets are networking, filesystem and process (there is no exec facet)"))
		case seen[f]:
			errs = append(errs, occkit.Invalid("DRV-2", at.Index(i), "facet declared twice"))
		}
		seen[f] = true
	}
	return occkit.Join(errs...)
}

func knownFacet(f occkit.Facet) bool {
	for _, g := range occkit.AllFacets() {
		if f == g {
			return true
		}
	}
	return false
}

// CheckHarnessHome validates a declared harness home (DRV-2): an absolute
// POSIX path in normal form (path.Clean leaves it unchanged, so no `.`,
// `..`, empty segment or trailing slash), not "/" itself, without control
// characters. A refusal is 400 INVALID_REQUEST at at.
func CheckHarnessHome(at occkit.Path, home string) error {
	bad := func(why string) error {
		return occkit.Invalid("DRV-2", at, "harnessHome must be %s", why)
	}
	switch {
	case !strings.HasPrefix(home, "/"):
		return bad("an absolute POSIX path")
	case strings.ContainsFunc(home, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return bad("free of control characters")
	case path.Clean(home) != home:
		return bad("a normalized path (no '.', '..', repeated or trailing '/')")
	case home == "/":
		return bad("a directory below '/'")
	}
	for _, seg := range strings.Split(home[1:], "/") {
		if seg == ".." || seg == "." {
			return bad("a normalized path (no '.', '..', repeated or trailing '/')")
		}
	}
	return nil
}

// ParseSandboxManifest reads a SandboxDriver manifest published as JSON:
//
//	{"name": "openshell", "facets": ["networking", "filesystem", "process"],
//	 "cleanup": true, "provisionHarness": true, "transformConfiguration": false,
//	 "harnessHome": "/sandbox/home",
//	 "hooks": ["beforeWorkloadStart"], "compute": "kubernetes"}
//
// hooks may also be an object whose keys are the phases (the values are
// not read); an empty one declares no hooks (DRV-4 restricts which keys
// appear, not how many). Every key is optional; unknown keys are ignored. Wrong types
// are 400 INVALID_REQUEST. ParseSandboxManifest checks only the shape:
// call [SandboxManifest.Validate] for the rules, as [Registry] does.
func ParseSandboxManifest(b []byte) (SandboxManifest, error) {
	// encoding/json's validator first: gjson's recurses once per level and
	// a long run of '[' would exhaust the stack.
	if !json.Valid(b) || !gjson.ValidBytes(b) {
		return SandboxManifest{}, occkit.Invalid("DRV-2", occkit.Root(), "sandbox manifest is not valid JSON")
	}
	v := gjson.ParseBytes(b)
	if !v.IsObject() {
		return SandboxManifest{}, occkit.Invalid("DRV-2", occkit.Root(), "sandbox manifest must be an object")
	}
	var m SandboxManifest
	var errs []error
	str := func(key string) string {
		r := v.Get(occkit.InstallationPath(key).GJSON())
		if !r.Exists() || r.Type == gjson.Null {
			return ""
		}
		if r.Type != gjson.String {
			errs = append(errs, occkit.Invalid("DRV-2", occkit.InstallationPath(key), "%s must be a string", key))
			return ""
		}
		return r.Str
	}
	boolean := func(key string) bool {
		r := v.Get(occkit.InstallationPath(key).GJSON())
		if !r.Exists() || r.Type == gjson.Null {
			return false
		}
		if r.Type != gjson.True && r.Type != gjson.False {
			errs = append(errs, occkit.Invalid("DRV-2", occkit.InstallationPath(key), "%s must be a boolean", key))
			return false
		}
		return r.Bool()
	}
	m.Name = str("name")
	m.Compute = occkit.Compute(str("compute"))
	m.Cleanup = boolean("cleanup")
	m.ProvisionHarness = boolean("provisionHarness")
	m.TransformConfiguration = boolean("transformConfiguration")

	fp := occkit.InstallationPath("facets")
	if f := v.Get(fp.GJSON()); f.Exists() && f.Type != gjson.Null {
		if !f.IsArray() {
			errs = append(errs, occkit.Invalid("DRV-2", fp, "facets must be an array of facet names"))
		} else {
			m.Facets = []occkit.Facet{}
			for i, x := range f.Array() {
				if x.Type != gjson.String {
					errs = append(errs, occkit.Invalid("DRV-2", fp.Index(i), "a facet must be a string"))
					continue
				}
				m.Facets = append(m.Facets, occkit.Facet(x.Str))
			}
		}
	}

	hp := occkit.InstallationPath("harnessHome")
	if h := v.Get(hp.GJSON()); h.Exists() && h.Type != gjson.Null {
		if h.Type != gjson.String {
			errs = append(errs, occkit.Invalid("DRV-2", hp, "harnessHome must be a string"))
		} else if h.Str == "" {
			// Present but empty is a declaration, and not an absolute path.
			errs = append(errs, CheckHarnessHome(hp, h.Str))
		} else {
			m.HarnessHome = h.Str
		}
	}

	kp := occkit.InstallationPath("hooks")
	if h := v.Get(kp.GJSON()); h.Exists() && h.Type != gjson.Null {
		var names []string
		switch {
		case h.IsObject():
			h.ForEach(func(k, _ gjson.Result) bool { names = append(names, k.String()); return true })
		case h.IsArray():
			for i, x := range h.Array() {
				if x.Type != gjson.String {
					errs = append(errs, occkit.Invalid("DRV-4", kp.Index(i), "a hook must be named by a string"))
					continue
				}
				names = append(names, x.Str)
			}
		default:
			errs = append(errs, occkit.Invalid("DRV-4", kp, "hooks must be an object or an array of phase names"))
		}
		for _, n := range names {
			m.Hooks = append(m.Hooks, HookPhase(n))
		}
	}
	if err := occkit.Join(errs...); err != nil {
		return SandboxManifest{}, err
	}
	return m, nil
}
