package drivertest

import (
	"encoding/json"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/logging"
)

// RevisionOptions describe a fixture revision. The zero value of each
// field is a sensible default.
type RevisionOptions struct {
	// AgentID defaults to "drivertest".
	AgentID string
	// Compute defaults to "drivertest".
	Compute occkit.Compute
	// Topology defaults to embedded OpenClaw.
	Topology occkit.Topology
	// Binding defaults to an api_key binding on a Secret reference.
	Binding occkit.Binding
	// Configuration defaults to a minimal document whose primary model
	// fits the topology's Harness.
	Configuration occkit.Document
	// Generation defaults to 1.
	Generation int64
	// Level is the admitted log level the document is stamped with and
	// the revision records; it defaults to info.
	Level occkit.LogLevel
	// SandboxDriverID is the sandbox binding; "" means none, except for
	// dedicated OpenClaw, which defaults to [SandboxDriverID] (RES-13: it
	// always runs inside a SandboxDriver).
	SandboxDriverID string
	// SecretBindings are the Configuration's secretBindings the revision
	// freezes (AUTH-6); none by default.
	SecretBindings []occkit.SecretBinding
}

// SandboxDriverID is the sandbox binding of fixture dedicated OpenClaw
// revisions: a driver under test that checks the binding configures a
// SandboxDriver of this name.
const SandboxDriverID = "drivertest-sandbox"

// NewRevision builds a frozen fixture revision, for driver tests that need
// one outside the suite. It goes through [admission.ParseRevision], so the
// revision is exactly what a control plane restores from its record.
func NewRevision(o RevisionOptions) (*admission.Revision, error) {
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
	}
	if o.Generation == 0 {
		o.Generation = 1
	}
	primary := "openai/gpt-5"
	if o.Topology.Harness == occkit.HarnessCodex {
		primary = "codex/gpt-5-codex"
	}
	doc := o.Configuration
	if len(doc.Bytes()) == 0 {
		var err error
		doc, err = occkit.MustParseDocument(`{"agents":{"defaults":{}}}`).Set(occkit.NewPath("agents", "defaults", "model"), primary)
		if err != nil {
			return nil, err
		}
	} else if p := doc.Get(occkit.NewPath("agents", "defaults", "model")); p.IsString() {
		primary = p.String()
	}
	// A fixture is what admission freezes: a platform-owned document
	// carries the logging stamp (LOG-1), so rendering drivers can guard it
	// (LOG-2).
	if o.Level == "" {
		o.Level = occkit.LevelInfo
	}
	doc, err := logging.Stamp(doc, o.Level, occkit.OwnedByPlatform)
	if err != nil {
		return nil, err
	}
	if o.SandboxDriverID == "" && o.Topology == (occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}) {
		o.SandboxDriverID = SandboxDriverID
	}
	rec := map[string]any{
		"version":       1,
		"agentId":       o.AgentID,
		"source":        map[string]any{"id": "drivertest-configuration", "generation": o.Generation},
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
	if o.SandboxDriverID != "" {
		rec["sandboxDriverId"] = o.SandboxDriverID
	}
	if len(o.SecretBindings) > 0 {
		var bs []any
		for _, b := range o.SecretBindings {
			bs = append(bs, map[string]any{"env": b.Env, "source": map[string]any{
				"kind": string(b.Source.Kind), "namespaceId": b.Source.NamespaceID, "id": b.Source.ID}})
		}
		rec["secretBindings"] = bs
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
