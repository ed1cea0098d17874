package admission

import (
	"context"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/resolver"
)

// Credential environment variable names (AUTH-2).
const (
	EnvOpenAIAPIKey     = "OPENAI_API_KEY"
	EnvAnthropicAPIKey  = "ANTHROPIC_API_KEY"
	EnvCodexAccessToken = "CODEX_ACCESS_TOKEN"
	EnvCodexLoginMode   = "CODEX_LOGIN_MODE"
)

// Codex login modes rendered as CODEX_LOGIN_MODE.
const (
	LoginModeAPIKey     = "api_key"
	LoginModeCodexPAT   = "codex_pat"
	LoginModeCodexOAuth = "codex_oauth"
)

// bindingPath is where harnessAuth errors point: the Agent's field;
// methodPath is its method, where most of them point.
var (
	bindingPath = occkit.AgentPath("harnessAuth")
	methodPath  = bindingPath.Key("method")
)

// BindingPath is the path harnessAuth refusals carry ("harnessAuth").
func BindingPath() occkit.Path { return bindingPath }

// checkTopology applies the execution-mode table (RES-11,
// [occkit.CheckTopology]) with dedicated OpenClaw's requirements (RES-13)
// for one Compute ("" is Kubernetes), as [resolver.Resolve] does: a pair
// outside the Compute's set is 400; dedicated OpenClaw without
// native-worker support is 400 and without a qualifying SandboxDriver 409
// naming the missing Driver (both are reported together).
func checkTopology(f drivers.AuthFacts) error {
	c := f.Compute
	if c == "" {
		c = occkit.ComputeKubernetes
	}
	t := occkit.Topology{Harness: f.Harness, Mode: f.Mode}
	if err := occkit.CheckSupported(c, f.Topologies, t); err != nil {
		return err
	}
	if c != occkit.ComputeKubernetes || t != (occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}) {
		return nil
	}
	modePath := occkit.AgentPath("executionMode")
	var errs []error
	if f.NativeWorkerSupport != occkit.NativeWorkersPinned && f.NativeWorkerSupport != occkit.NativeWorkersCustomImage {
		errs = append(errs, occkit.Invalid("RES-13", modePath,
			"dedicated openclaw needs native-worker support (pinned runtime image or runtime.nativeWorkerSupport)"))
	}
	if !f.Sandbox.Qualifies() {
		errs = append(errs, occkit.Conflict("RES-13", modePath,
			"dedicated openclaw needs a qualifying SandboxDriver (harness provisioning and the networking, filesystem and process facets); missing Driver: SandboxDriver"))
	}
	return occkit.Join(errs...)
}

// ValidateHarnessAuth is the bundled Computes' harness-auth validation
// (AUTH-1..AUTH-6) of an already parsed binding: RES-11 first (400), then a
// missing binding (409, AUTH-1), then the Compute's rules. It returns the
// credential projection plan. A custom Compute validates through its own
// [HarnessAuthValidator] (see [ValidateWith]).
//
// Refusals: codex-oauth off dedicated Codex → 400 (AUTH-4a); while a
// Credential Gateway is selected, api_key and codex_pat → 409; Kubernetes
// refuses runtime → 409; SSH embedded OpenClaw accepts only runtime, others
// 409; Docker refuses every binding (409); credential_source without a
// gateway → 409 CREDENTIAL_GATEWAY_NOT_CONFIGURED, without its paired
// SandboxDriver or on an embedded topology → 409. The missing gateway is
// checked before the Compute's own rules, so it is the answer on every
// Compute.
func ValidateHarnessAuth(f drivers.AuthFacts) (occkit.Projection, error) {
	if err := f.Binding.Validate(); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkSourceType(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkTopology(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkCodexProvider(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := RequireHarnessAuth(f.Binding); err != nil {
		return occkit.Projection{}, err
	}
	if err := requireCredentialGateway(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkNamespace(f); err != nil {
		return occkit.Projection{}, err
	}
	switch f.Compute {
	case occkit.ComputeKubernetes, "":
		return kubernetesAuth(f)
	case occkit.ComputeSSH:
		// AUTH-5: systemd loads operator-provided host credentials.
		if f.Binding.Method != occkit.MethodRuntime {
			return occkit.Projection{}, occkit.Conflict("AUTH-5", methodPath,
				"ssh Compute accepts only the runtime harnessAuth method")
		}
		return occkit.Projection{Gateway: []occkit.EnvVar{}, Harness: []occkit.EnvVar{}, HostManaged: true}, nil
	case occkit.ComputeDocker:
		return occkit.Projection{}, occkit.Conflict("AUTH-4", methodPath,
			"docker Compute supports no harnessAuth binding")
	}
	return occkit.Projection{}, occkit.New(occkit.CodeDependencyUnavailable, "AUTH-7", occkit.Root(),
		"Compute %s has no harness-auth validator", f.Compute)
}

// requireCredentialGateway refuses a credential_source binding while the
// installation selects no Credential Gateway with 409
// CREDENTIAL_GATEWAY_NOT_CONFIGURED, whatever the Compute (AUTH-4): the
// source lives in the gateway, so without one there is nothing to bind
// and the fix is the gateway, not the Compute. As in the reference
// controller, the deployment check is made before any Compute rule.
func requireCredentialGateway(f drivers.AuthFacts) error {
	if f.Binding.Method == occkit.MethodCredentialSource && !f.CredentialGateway {
		return occkit.New(occkit.CodeCredentialGatewayNotConfigured, "AUTH-3", methodPath,
			"credential_source needs a selected Credential Gateway")
	}
	return nil
}

// checkNamespace refuses a Secret-backed source outside the Agent's tenant
// namespace (AUTH-2: a workload reads Secrets of its own namespace only),
// naming the namespace it must live in. An unknown namespace is left to
// the render, which has the Compute's.
func checkNamespace(f drivers.AuthFacts) error {
	b := f.Binding
	if f.Namespace == "" || (b.Method != occkit.MethodAPIKey && b.Method != occkit.MethodCodexPAT) || b.Source.NamespaceID == f.Namespace {
		return nil
	}
	return occkit.Conflict("AUTH-2", bindingPath.Key("source").Key("namespaceId"),
		"the credential must live in the Agent's tenant namespace %s", f.Namespace)
}

// checkSourceType is the topology part of the binding shape (AUTH-4a):
// codex-oauth sources serve dedicated Codex only.
func checkSourceType(f drivers.AuthFacts) error {
	b := f.Binding
	if b.Method == occkit.MethodCredentialSource && b.SourceType == occkit.SourceTypeCodexOAuth &&
		(f.Harness != occkit.HarnessCodex || f.Mode != occkit.ModeDedicated) {
		return occkit.Invalid("AUTH-4a", bindingPath.Key("sourceType"),
			"the codex-oauth source type serves dedicated codex only")
	}
	return nil
}

// checkCodexProvider is RES-12 on the facts' primary model: dedicated Codex
// serves only the native codex provider or openai (400). An unknown model
// is left to the resolver, which has the Configuration.
func checkCodexProvider(f drivers.AuthFacts) error {
	if f.Harness != occkit.HarnessCodex || f.Mode != occkit.ModeDedicated || f.Model == "" {
		return nil
	}
	ref, ok := resolver.ParseRef(f.Model)
	if ok && (ref.Provider == "codex" || ref.Provider == "openai") {
		return nil
	}
	return occkit.Invalid("RES-12", modelPath(f),
		"dedicated codex accepts only the codex provider or openai")
}

// nativeOpenAI is the provider rule of dedicated OpenClaw (AUTH-2, AUTH-3):
// the native Harness receives only OPENAI_API_KEY (or an OpenAI placeholder
// from the Credential Gateway), so its primary model must be an openai
// model; any other provider, or no model at all, is a binding this Compute
// cannot honour (409).
func nativeOpenAI(f drivers.AuthFacts, rule string) error {
	if ref, ok := resolver.ParseRef(f.Model); ok && ref.Provider == "openai" {
		return nil
	}
	return occkit.Conflict(rule, modelPath(f),
		"dedicated openclaw authenticates only openai models (OPENAI_API_KEY): set the primary model to an openai model")
}

// modelPath is where a refusal that the primary model must change points:
// where the Configuration writes it ([drivers.AuthFacts].ModelPath), else
// agents.defaults.model, where a Configuration without one would set it.
func modelPath(f drivers.AuthFacts) occkit.Path {
	if f.ModelPath.IsRoot() {
		return defaultModelPath
	}
	return f.ModelPath
}

var defaultModelPath = occkit.NewPath("agents", "defaults", "model")

func kubernetesAuth(f drivers.AuthFacts) (occkit.Projection, error) {
	b := f.Binding
	embedded := f.Mode == occkit.ModeEmbedded
	codex := f.Harness == occkit.HarnessCodex
	p := occkit.Projection{Gateway: []occkit.EnvVar{}, Harness: []occkit.EnvVar{}}
	switch b.Method {
	case occkit.MethodRuntime:
		return occkit.Projection{}, occkit.Conflict("AUTH-4", methodPath,
			"kubernetes Compute does not accept the runtime harnessAuth method (the host's own credentials serve SSH only); accepted for %s/%s here: %s",
			f.Harness, f.Mode, kubernetesMethods(f))
	case occkit.MethodAPIKey, occkit.MethodCodexPAT:
		if f.CredentialGateway {
			return occkit.Projection{}, occkit.Conflict("AUTH-4", methodPath,
				"a Credential Gateway is selected: Secret-backed and account harnessAuth methods are refused")
		}
	}
	switch b.Method {
	case occkit.MethodAPIKey:
		switch {
		case embedded:
			name, err := embeddedKeyName(f)
			if err != nil {
				return occkit.Projection{}, err
			}
			p.Harness = []occkit.EnvVar{{Name: name, From: b.Source}}
		case codex:
			p.Harness = []occkit.EnvVar{
				{Name: EnvOpenAIAPIKey, From: b.Source},
				{Name: EnvCodexLoginMode, Value: LoginModeAPIKey},
			}
			p.StdinLogin = true
		default:
			if err := nativeOpenAI(f, "AUTH-2"); err != nil {
				return occkit.Projection{}, err
			}
			p.Harness = []occkit.EnvVar{{Name: EnvOpenAIAPIKey, From: b.Source}}
		}
	case occkit.MethodCodexPAT:
		if !codex || embedded {
			return occkit.Projection{}, occkit.Conflict("AUTH-2", methodPath, "codex_pat serves dedicated codex only")
		}
		p.Harness = []occkit.EnvVar{
			{Name: EnvCodexAccessToken, From: b.Source},
			{Name: EnvCodexLoginMode, Value: LoginModeCodexPAT},
		}
	case occkit.MethodCredentialSource:
		// AUTH-3, in its order: gateway (requireCredentialGateway), paired
		// Sandbox, dedicated Harness.
		if !f.Sandbox.Qualifies() {
			return occkit.Projection{}, occkit.Conflict("AUTH-3", methodPath,
				"credential_source needs the paired SandboxDriver with harness provisioning and all three facets")
		}
		if embedded {
			return occkit.Projection{}, occkit.Conflict("AUTH-3", methodPath,
				"credential_source serves a dedicated Harness, not embedded execution")
		}
		p.EgressProxy = true
		switch {
		case codex && b.SourceType == occkit.SourceTypeCodexOAuth:
			p.Harness = []occkit.EnvVar{
				{Name: EnvCodexAccessToken, Placeholder: true},
				{Name: EnvCodexLoginMode, Value: LoginModeCodexOAuth},
			}
		case codex:
			p.Harness = []occkit.EnvVar{
				{Name: EnvOpenAIAPIKey, Placeholder: true},
				{Name: EnvCodexLoginMode, Value: LoginModeAPIKey},
			}
		default:
			if err := nativeOpenAI(f, "AUTH-3"); err != nil {
				return occkit.Projection{}, err
			}
			p.Harness = []occkit.EnvVar{{Name: EnvOpenAIAPIKey, Placeholder: true}}
		}
	default:
		return occkit.Projection{}, occkit.Invalid("AUTH-4a", methodPath, "unknown harnessAuth method")
	}
	return p, nil
}

// kubernetesMethods lists the harnessAuth methods kubernetesAuth can
// accept for f's topology and Credential Gateway (AUTH-2..AUTH-4), for a
// refusal to name the alternatives.
func kubernetesMethods(f drivers.AuthFacts) string {
	var ms []occkit.Method
	switch {
	case f.Mode == occkit.ModeEmbedded:
		if !f.CredentialGateway {
			ms = append(ms, occkit.MethodAPIKey)
		}
	case f.CredentialGateway:
		ms = append(ms, occkit.MethodCredentialSource)
	case f.Harness == occkit.HarnessCodex:
		ms = append(ms, occkit.MethodAPIKey, occkit.MethodCodexPAT, occkit.MethodCredentialSource)
	default:
		ms = append(ms, occkit.MethodAPIKey, occkit.MethodCredentialSource)
	}
	if len(ms) == 0 {
		return "none"
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = string(m)
	}
	return strings.Join(parts, ", ")
}

// embeddedKeyName chooses the combined process's key variable by the native
// model provider (AUTH-2). Providers other than openai and anthropic have no
// Kubernetes api_key projection: 409, naming the provider. Without a primary
// model there is no provider to choose by: also 409, a binding this Compute
// cannot honour for that Configuration. Both point at the primary model,
// the setting to change (agents.defaults.model when there is none).
func embeddedKeyName(f drivers.AuthFacts) (string, error) {
	ref, ok := resolver.ParseRef(f.Model)
	if !ok {
		return "", occkit.Conflict("AUTH-2", modelPath(f),
			"embedded api_key needs a primary model whose provider chooses the key variable: set agents.defaults.model to an openai or anthropic model")
	}
	switch ref.Provider {
	case "openai":
		return EnvOpenAIAPIKey, nil
	case "anthropic":
		return EnvAnthropicAPIKey, nil
	}
	return "", occkit.Conflict("AUTH-2", modelPath(f),
		"kubernetes projects api_key only for the openai and anthropic providers, not %s", ref.Provider)
}

// ValidateWith runs a custom Compute's validator with the AUTH-7 error
// mapping, after the binding-shape rule and RES-11 (both 400) and the
// missing-binding rule (409). v nil → 503 DEPENDENCY_UNAVAILABLE.
//
// When v is a [drivers.ComputeDriver], facts it leaves empty (Compute,
// Topologies) are read from its declaration.
func ValidateWith(ctx context.Context, v drivers.HarnessAuthValidator, f drivers.AuthFacts) (occkit.Projection, error) {
	if d, ok := v.(drivers.ComputeDriver); ok {
		decl := d.Declaration()
		if f.Compute == "" {
			f.Compute = decl.Name
		}
		if f.Topologies == nil {
			f.Topologies = append([]occkit.Topology(nil), decl.Topologies...)
		}
	}
	return validateWith(ctx, v, f)
}

// validateWith is [ValidateWith] on facts already complete.
func validateWith(ctx context.Context, v drivers.HarnessAuthValidator, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := f.Binding.Validate(); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkSourceType(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkTopology(f); err != nil {
		return occkit.Projection{}, err
	}
	if v == nil {
		return occkit.Projection{}, occkit.New(occkit.CodeDependencyUnavailable, "AUTH-7", occkit.Root(),
			"the ComputeDriver has no harness-auth validator")
	}
	if err := RequireHarnessAuth(f.Binding); err != nil {
		return occkit.Projection{}, err
	}
	if err := requireCredentialGateway(f); err != nil {
		return occkit.Projection{}, err
	}
	if err := checkNamespace(f); err != nil {
		return occkit.Projection{}, err
	}
	p, err := v.ValidateHarnessAuth(ctx, f)
	if err != nil {
		if c := drivers.Cancellation(ctx, "AUTH-7"); c != nil {
			return occkit.Projection{}, c
		}
		return occkit.Projection{}, mapDriverRefusal("AUTH-7", err)
	}
	// AUTH-6: a dedicated gateway never receives the Harness inference
	// credential, whatever the driver planned.
	for _, e := range p.Gateway {
		if e.From != (occkit.SourceRef{}) || e.Placeholder {
			return occkit.Projection{}, occkit.Conflict("AUTH-6", bindingPath,
				"the ComputeDriver projected the Harness credential into the gateway")
		}
	}
	return p.Clone(), nil
}

// mapDriverRefusal applies AUTH-7: a configuration refusal (INVALID_REQUEST)
// stays 400; any other refusal is 409. A driver's plain error text is not
// repeated: it might carry a value.
func mapDriverRefusal(rule string, err error) error {
	return mapRefusal(rule, bindingPath, "the ComputeDriver refused the harnessAuth binding", err)
}
