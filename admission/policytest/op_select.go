package policytest

// Handler for the runtime.select op.

import (
	"github.com/occkit/occkit"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/resolver/selection"
)

// opRuntimeSelect runs selection.Select. input.harnesses lists the
// registered plugins: "codex" is the library's own codex harness, an
// object a test plugin. input.env is deliberately never read (SEL-2).
func opRuntimeSelect(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	reg, err := selectRegistry(in.Get("harnesses"))
	if err != nil {
		return nil, err
	}
	s := in.Get("session")
	sel, err := selection.Select(doc, selection.Request{
		Provider: in.Get("provider").String(),
		Model:    in.Get("model").String(),
		AgentID:  in.Get("agentId").String(),
		Session: selection.Session{
			LockedOwner:         s.Get("lockedOwner").String(),
			Override:            s.Get("override").String(),
			ACPBackend:          s.Get("acpBackend").String(),
			HistoricalHarnessID: s.Get("historicalHarnessId").String(),
		},
	}, reg)
	if err != nil {
		return nil, err
	}
	return result{"runtime": sel.Runtime, "source": string(sel.Source), "cliBackend": optString(sel.CLIBackend)}, nil
}

// selectRegistry registers input.harnesses: an array of "codex" (the
// library's own codex harness), "openclaw" (the built-in, always present)
// or test plugin objects; a lone entry outside an array is read as a list
// of one.
func selectRegistry(list gjson.Result) (*selection.Registry, error) {
	reg, _ := selection.NewRegistry()
	for _, h := range list.Array() {
		if h.Type == gjson.String {
			switch h.Str {
			case "codex":
				if err := reg.Register(selection.CodexHarness()); err != nil {
					return nil, err
				}
			case string(occkit.HarnessOpenClaw):
				// The built-in harness is always there: naming it
				// registers nothing.
			default:
				// Not a library refusal: the case names no harness the
				// runner knows.
				return nil, caseErrorf("harnesses: unknown built-in harness %q (\"codex\", or an object)", h.Str)
			}
			continue
		}
		if !h.IsObject() {
			return nil, caseErrorf("harnesses: %s is neither a built-in harness name nor an object", h.Raw)
		}
		if err := reg.Register(selectTestPlugin(h)); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// selectTestPlugin answers every route the same way. Without
// autoProviders it may claim any provider ("*").
type selectTestPluginT struct {
	id       string
	auto     []string
	priority int
	support  selection.Support
}

func selectTestPlugin(h gjson.Result) selectTestPluginT {
	p := selectTestPluginT{id: h.Get("id").String(), priority: int(h.Get("priority").Int()), auto: []string{"*"}}
	// null is the same omission as absence: any provider.
	if a := h.Get("autoProviders"); a.Exists() && a.Type != gjson.Null {
		p.auto = []string{}
		for _, v := range a.Array() {
			p.auto = append(p.auto, v.String())
		}
	}
	switch s := h.Get("supports"); {
	case s.Type == gjson.True:
		p.support = selection.Supported()
	case s.Type == gjson.String && s.String() == "fallback":
		p.support = selection.FallbackToOpenClaw("test harness declares the OpenClaw fallback")
	default:
		p.support = selection.Unsupported("test harness does not support the route")
	}
	return p
}

func (p selectTestPluginT) ID() string                                      { return p.id }
func (p selectTestPluginT) AutoProviders() []string                         { return p.auto }
func (p selectTestPluginT) Priority() int                                   { return p.priority }
func (p selectTestPluginT) Supports(selection.RouteFacts) selection.Support { return p.support }
