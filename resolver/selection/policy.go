package selection

import (
	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// Policy is the runtime policy the SEL-1 lookup finds for one
// provider/model turn, before any session fact or registered harness is
// consulted.
type Policy struct {
	// Runtime is the normalized runtime the policy names (REF-6), or
	// [resolver.RuntimeAuto] when no policy applies.
	Runtime string
	// Source is [SourceModel] (model key, catalog row or wildcard key),
	// [SourceProvider], or [SourceImplicit] when no policy applies.
	Source Source
	// Path is the agentRuntime.id setting that decided, or the root.
	Path occkit.Path
	// Ambiguous reports a bare model ID that matches keys of different
	// providers: no policy, and later stages are skipped (SEL-1).
	Ambiguous bool
	// Provider is the effective provider: the request's, or the one the
	// matching key names for a bare model ID.
	Provider string
	// Reasons is the lookup's reason chain (SEL-9), held as a slice like
	// [resolver.Decision.Reasons]; only a [Result], which builds its chain
	// on demand, offers it as the method [Result.Reasons].
	Reasons []resolver.Reason
}

// LookupPolicy applies only the SEL-1 lookup order to req (its Session is
// ignored): the model keys of the agent entry and of agents.defaults, the
// provider catalog row, the provider wildcard keys, the provider's own
// agentRuntime. It is the policy [Select] starts from; it never consults a
// [Registry]. A request without a provider and a model ID is 400.
func LookupPolicy(doc occkit.Document, req Request) (Policy, error) {
	provider, model, err := target(req.Provider, req.Model)
	if err != nil {
		return Policy{}, err
	}
	x := Prepare(doc)
	lookup, params, err := x.agentsFor(req.AgentID)
	if err != nil {
		return Policy{}, err
	}
	d := decision{trail: trail{x: x, agent: lookup, params: params}, provider: provider, model: model}
	var reasons []resolver.Reason
	pol := d.lookup(&reasons)
	out := Policy{Runtime: resolver.RuntimeAuto, Source: SourceImplicit, Path: occkit.Root(), Ambiguous: pol.ambiguous, Provider: provider}
	if p := pol.provider(); p != "" && out.Provider == "" {
		out.Provider = p
	}
	if pol.found() {
		out.Runtime, out.Source, out.Path = pol.runtime(), pol.source(), pol.path()
	}
	out.Reasons = reasons
	return out, nil
}
