package drivertest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
)

// RevisionOptions describe a fixture revision. The zero value of each
// field is a sensible default.
type RevisionOptions struct {
	// AgentID defaults to "drivertest".
	AgentID string
	// Compute defaults to "drivertest", a custom Compute that runs
	// exactly Topology and projects credentials as Kubernetes does (the
	// runtime method as SSH does).
	Compute occkit.Compute
	// Topology defaults to embedded OpenClaw.
	Topology occkit.Topology
	// Binding defaults to the runtime method on SSH and to an api_key
	// binding on a Secret reference elsewhere.
	Binding occkit.Binding
	// Configuration defaults to [DefaultConfiguration] of the topology
	// (also when it is the empty object, which the zero Document is).
	Configuration occkit.Document
	// Generation defaults to 1.
	Generation int64
	// Level is the admitted log level the document is stamped with and
	// the revision records; it defaults to info.
	Level occkit.LogLevel
	// SandboxDriverID is the SandboxDriver bound to a dedicated deployment
	// on Kubernetes (DRV-2); for dedicated OpenClaw, which RES-13 runs in
	// one, it defaults to [SandboxDriverID]. Admission binds none on
	// another Compute.
	SandboxDriverID string
	// SecretBindings are the Configuration's secretBindings the revision
	// freezes (AUTH-6); none by default. Each must name a variable the
	// gateway's document references (DOC-4).
	SecretBindings []occkit.SecretBinding
}

// SandboxDriverID is the sandbox binding of fixture dedicated OpenClaw
// revisions: a driver under test that checks the binding configures a
// SandboxDriver of this name.
const SandboxDriverID = "drivertest-sandbox"

// Harness versions fixtures are admitted with.
const (
	// CodexVersion is the approved Codex version of fixture revisions.
	CodexVersion = "0.171.0"
)

// DefaultConfiguration is the Configuration a fixture of topology t is
// admitted from unless RevisionOptions.Configuration says otherwise: one
// main Agent on a model of a built-in catalog with the explicit runtime
// policy its provider needs (RES-6), the Codex plugin on its websocket
// app-server for Codex (RES-7).
func DefaultConfiguration(t occkit.Topology) occkit.Document {
	if t.Harness == occkit.HarnessCodex {
		return occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/gpt-5.4",` +
			`"models":{"codex/gpt-5.4":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{}}}}`)
	}
	return occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5.4",` +
		`"models":{"openai/gpt-5.4":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}}}`)
}

// fixtureAdmitter admits every fixture: an allow-all Authorizer, the
// pinned OpenClaw release and [CodexVersion].
var fixtureAdmitter = sync.OnceValues(func() (*admission.Admitter, error) {
	v, err := openclawschema.New()
	if err != nil {
		return nil, err
	}
	return admission.New(admission.Options{
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{
			occkit.HarnessOpenClaw: v.Version(), occkit.HarnessCodex: CodexVersion,
		},
	})
})

// NewRevision admits a fixture revision, for driver tests that need one
// outside the suite: what admission.Admitter.Admit returns for the
// options, with the pinned OpenClaw release, so its credential projection
// (AUTH-2), logging stamp (LOG-1), sandbox binding and render plan
// ([drivers.Plan]) are real. A custom Compute (the default "drivertest")
// runs exactly the topology and validates harnessAuth as Kubernetes does,
// so an api_key binding projects OPENAI_API_KEY (or ANTHROPIC_API_KEY for
// an anthropic model) into the process that calls the model; it accepts
// the runtime method as SSH does. What
// admission refuses, NewRevision returns as the refusal; for a revision no
// admission would make for its Compute, see [ForeignRevision].
func NewRevision(o RevisionOptions) (*admission.Revision, error) {
	o = o.withDefaults()
	a, err := fixtureAdmitter()
	if err != nil {
		return nil, err
	}
	req := admission.Request{
		Principal: "drivertest",
		Agent: admission.Agent{ID: o.AgentID, ConfigurationID: fixtureConfigurationID,
			ExecutionMode: o.Topology.Mode, HarnessAuth: o.Binding},
		Configuration: admission.StaticConfiguration{ID: fixtureConfigurationID, Generation: o.Generation, Document: o.Configuration},
		Compute:       admission.ComputeInfo{Kind: o.Compute, ID: string(o.Compute)},
		Level:         o.Level,
		// Dedicated OpenClaw needs native workers and a qualifying
		// SandboxDriver on Kubernetes (RES-13).
		NativeWorkerSupport: occkit.NativeWorkersPinned,
		SecretBindings:      o.SecretBindings,
	}
	if o.SandboxDriverID != "" {
		req.Sandbox = &admission.SandboxInfo{ID: o.SandboxDriverID, Facts: qualifyingSandbox()}
	}
	if !o.Compute.Bundled() {
		d := fixtureCompute{name: o.Compute, t: o.Topology}
		req.Compute = admission.ComputeOf(d, string(o.Compute))
	}
	return a.Admit(context.Background(), req)
}

const fixtureConfigurationID = "drivertest-configuration"

func (o RevisionOptions) withDefaults() RevisionOptions {
	if o.AgentID == "" {
		o.AgentID = "drivertest"
	}
	if o.Compute == "" {
		o.Compute = "drivertest"
	}
	if o.Topology == (occkit.Topology{}) {
		o.Topology = occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	}
	if o.Binding.IsZero() {
		o.Binding = occkit.Binding{
			Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "drivertest", ID: "model-key"},
		}
		if o.Compute == occkit.ComputeSSH {
			o.Binding = occkit.Binding{Method: occkit.MethodRuntime}
		}
	}
	if o.Generation == 0 {
		o.Generation = 1
	}
	if o.Level == "" {
		o.Level = occkit.LevelInfo
	}
	// The zero Document is the empty object: both mean the default.
	if o.Configuration.Equal(occkit.Document{}) {
		o.Configuration = DefaultConfiguration(o.Topology)
	}
	if o.SandboxDriverID == "" && o.Topology == (occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}) {
		o.SandboxDriverID = SandboxDriverID
	}
	return o
}

func qualifyingSandbox() occkit.SandboxFacts {
	return occkit.SandboxFacts{Facets: []occkit.Facet{occkit.FacetNetworking, occkit.FacetFilesystem, occkit.FacetProcess}, ProvisionHarness: true}
}

// fixtureCompute is the custom Compute of fixtures: it runs one topology
// and validates harnessAuth by the Kubernetes rules (AUTH-2), with the
// installation facts dedicated OpenClaw needs there, except the runtime
// method, which it accepts as SSH does (the host's credentials, AUTH-5).
type fixtureCompute struct {
	name occkit.Compute
	t    occkit.Topology
}

func (c fixtureCompute) Declaration() drivers.Declaration {
	return drivers.Declaration{Name: c.name, Topologies: []occkit.Topology{c.t}}
}
func (fixtureCompute) EnsureNamespace(context.Context, drivers.Namespace) error { return nil }
func (fixtureCompute) DeleteNamespace(context.Context, drivers.Namespace) error { return nil }
func (fixtureCompute) Prepare(context.Context, drivers.Revision) error          { return nil }
func (fixtureCompute) Retire(context.Context, string, string) error             { return nil }

func (fixtureCompute) ValidateHarnessAuth(_ context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	f.Compute, f.Topologies = occkit.ComputeKubernetes, nil
	if f.Binding.Method == occkit.MethodRuntime {
		// The host's own credentials, as on SSH (AUTH-5).
		f.Compute = occkit.ComputeSSH
	}
	facts := qualifyingSandbox()
	f.Sandbox, f.NativeWorkerSupport = &facts, occkit.NativeWorkersPinned
	return admission.ValidateHarnessAuth(f)
}

// ForeignRevision builds a revision no admission would make for its
// Compute (a Codex revision for SSH, any binding for Docker, a Harness
// version of the suite's own), restored from a record with
// [admission.ParseRevision] as a control plane restores one: for testing
// that a driver refuses what it cannot run (RES-11, ADM-5). Its
// Configuration is stamped (LOG-1) but not validated; its projection is
// empty. Prefer [NewRevision] for anything a driver should run.
func ForeignRevision(o RevisionOptions) (*admission.Revision, error) {
	o = o.withDefaults()
	doc, err := logging.Stamp(o.Configuration, o.Level, occkit.OwnedByPlatform)
	if err != nil {
		return nil, err
	}
	primary := ""
	if p := doc.Get(occkit.NewPath("agents", "defaults", "model")); p.IsString() {
		primary = p.String()
	}
	rec := map[string]any{
		"version":       1,
		"agentId":       o.AgentID,
		"source":        map[string]any{"id": fixtureConfigurationID, "generation": o.Generation},
		"harness":       map[string]any{"id": string(o.Topology.Harness), "version": "drivertest", "mode": string(o.Topology.Mode)},
		"compute":       map[string]any{"kind": string(o.Compute), "id": string(o.Compute)},
		"harnessAuth":   json.RawMessage(o.Binding.JSON()),
		"projection":    map[string]any{"gateway": []any{}, "harness": []any{}},
		"primary":       primary,
		"fallbacks":     []string{},
		"logging":       map[string]any{"level": string(o.Level), "ownership": string(occkit.OwnedByPlatform)},
		"configuration": json.RawMessage(occkit.Canonical(doc)),
	}
	if o.Topology.Harness == occkit.HarnessCodex {
		// The release of the dedicated Codex gateway (OpenClaw): a
		// Compute pins what it runs to it.
		rec["openclawSchema"] = "drivertest"
	}
	if o.SandboxDriverID != "" && o.Topology.Mode == occkit.ModeDedicated {
		rec["sandboxDriverId"] = o.SandboxDriverID
	}
	// The digest is the SHA-256 of the canonical record without it.
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	unsealed, err := occkit.ParseDocument(b)
	if err != nil {
		return nil, err
	}
	rec["digest"] = occkit.CanonicalDigest(unsealed)
	if b, err = json.Marshal(rec); err != nil {
		return nil, err
	}
	return admission.ParseRevision(b)
}
