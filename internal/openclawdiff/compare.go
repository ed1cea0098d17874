package openclawdiff

import (
	"encoding/json"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// RefOut is a parsed model ref, or Valid false.
type RefOut struct {
	Valid                 bool
	Provider, ID, Profile string
}

func (r RefOut) String() string {
	if !r.Valid {
		return "invalid"
	}
	return fmt.Sprintf("%q/%q@%q", r.Provider, r.ID, r.Profile)
}

type clawRef struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Profile  string `json:"profile"`
}

func (c *clawRef) out() RefOut {
	if c == nil {
		return RefOut{}
	}
	return RefOut{Valid: true, Provider: c.Provider, ID: c.ID, Profile: c.Profile}
}

// RefAnswer is OpenClaw's answer for one ref input.
type RefAnswer struct {
	Strict, Lenient RefOut
	// OccNorm is OpenClaw's model-ID normalization of occkit's lenient
	// answer (used to recognise the normalization class).
	OccNorm RefOut
}

func occRef(r resolver.Ref, ok bool) RefOut {
	if !ok {
		return RefOut{}
	}
	return RefOut{Valid: true, Provider: r.Provider, ID: r.ID, Profile: r.Profile}
}

// RefItem builds the oracle item for in, with occkit's lenient answer.
func RefItem(in RefInput) (item map[string]any, strict, lenient RefOut) {
	strict = occRef(resolver.ParseRef(in.Raw))
	lenient = occRef(resolver.ParseRefLenient(in.Raw, in.DefaultProvider))
	item = map[string]any{"op": "ref", "raw": in.Raw, "defaultProvider": in.DefaultProvider}
	if lenient.Valid {
		item["occ"] = map[string]any{"provider": lenient.Provider, "id": lenient.ID, "profile": lenient.Profile}
	}
	return item, strict, lenient
}

// DecodeRef decodes the oracle's answer to a ref item.
func DecodeRef(raw json.RawMessage) (RefAnswer, error) {
	var a struct {
		Strict, Lenient, OccNorm *clawRef
		Fatal                    string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return RefAnswer{}, err
	}
	if a.Fatal != "" {
		return RefAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	return RefAnswer{Strict: a.Strict.out(), Lenient: a.Lenient.out(), OccNorm: a.OccNorm.out()}, nil
}

// PolicyOut is a runtime policy: the normalized runtime and its source.
type PolicyOut struct {
	Runtime string
	Source  string
	Err     bool
}

func (p PolicyOut) String() string {
	if p.Err {
		return "error"
	}
	return p.Runtime + "/" + p.Source
}

// PolicyAnswer is OpenClaw's answer for the authored key order and two
// permutations of every object's keys.
type PolicyAnswer struct {
	R, Asc, Desc PolicyOut
}

// OrderDependent reports whether OpenClaw's answer changed with key order.
func (a PolicyAnswer) OrderDependent() bool { return a.R != a.Asc || a.R != a.Desc }

// Any reports whether one of OpenClaw's answers under some key order is p.
func (a PolicyAnswer) Any(p PolicyOut) bool { return p == a.R || p == a.Asc || p == a.Desc }

func clawPolicy(id *string, source *string) PolicyOut {
	if id == nil {
		return PolicyOut{Runtime: resolver.RuntimeAuto, Source: string(resolver.SourceImplicit)}
	}
	s := ""
	if source != nil {
		s = *source
	}
	return PolicyOut{Runtime: resolver.NormalizeRuntime(*id), Source: s}
}

// PolicyItem builds the oracle item and occkit's answer for in.
func PolicyItem(in PolicyInput) (map[string]any, PolicyOut, error) {
	raw, err := json.Marshal(in.Config)
	if err != nil {
		return nil, PolicyOut{}, err
	}
	doc, err := occkit.ParseDocument(raw)
	if err != nil {
		return nil, PolicyOut{}, err
	}
	item := map[string]any{"op": "policy", "config": in.Config, "provider": in.Provider, "modelId": in.ModelID, "agentId": in.AgentID}
	p, err := resolver.LookupPolicy(doc, resolver.SelectRequest{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID})
	if err != nil {
		return item, PolicyOut{Err: true}, nil
	}
	return item, PolicyOut{Runtime: p.Runtime, Source: string(p.Source)}, nil
}

// DecodePolicy decodes the oracle's answer to a policy item.
func DecodePolicy(raw json.RawMessage) (PolicyAnswer, error) {
	type one struct {
		ID     *string `json:"id"`
		Source *string `json:"source"`
	}
	var a struct {
		R, Asc, Desc one
		Fatal        string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return PolicyAnswer{}, err
	}
	if a.Fatal != "" {
		return PolicyAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	return PolicyAnswer{R: clawPolicy(a.R.ID, a.R.Source), Asc: clawPolicy(a.Asc.ID, a.Asc.Source), Desc: clawPolicy(a.Desc.ID, a.Desc.Source)}, nil
}
