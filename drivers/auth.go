package drivers

import (
	"context"

	"github.com/occkit/occkit"
)

// AuthFacts are the facts harnessAuth validation depends on: the admitted
// topology, the binding, and the installation around it.
type AuthFacts struct {
	// Compute is the Compute kind.
	Compute occkit.Compute
	// Topologies is the (Harness, Mode) set a custom Compute declares
	// (RES-11); ignored for the bundled kinds.
	Topologies []occkit.Topology
	Harness    occkit.Harness
	Mode       occkit.Mode
	// Binding is the Agent's harnessAuth; the zero Binding is "none".
	Binding occkit.Binding
	// CredentialGateway reports whether the installation selects a
	// Credential Gateway.
	CredentialGateway bool
	// Sandbox is the configured SandboxDriver, or nil.
	Sandbox             *occkit.SandboxFacts
	NativeWorkerSupport occkit.NativeWorkerSupport
	// Model is the admitted primary model ref; embedded OpenClaw chooses its
	// credential variable by the model's provider.
	Model string
	// ModelPath is where the Configuration writes the primary model
	// (agents.defaults.model.primary, an entry's model, …), for a refusal
	// that the model must change to point at; the root means
	// agents.defaults.model.
	ModelPath occkit.Path
	// AgentID is the Agent being deployed (for custom validators).
	AgentID string
	// Namespace is the Agent's tenant namespace ID when known; a
	// Secret-backed source must live there (AUTH-2).
	Namespace string
}

// HarnessAuthValidator is the harness-auth check a ComputeDriver provides
// (DRV-1, AUTH-7). It returns the credential projection plan for the
// binding. Its refusals map as follows: an *occkit.Error with code
// INVALID_REQUEST is a configuration refusal and stays 400; every other
// refusal is 409 RESOURCE_CONFLICT. A ComputeDriver without one is 503.
type HarnessAuthValidator interface {
	ValidateHarnessAuth(ctx context.Context, f AuthFacts) (occkit.Projection, error)
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
	ValidateGatewaySettings(ctx context.Context, doc occkit.Document, t occkit.Topology) error
}
