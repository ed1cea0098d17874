package openclawdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Gen draws random realistic inputs: the providers, model IDs, keys and
// runtime IDs operators write, with the slips they make (case, white
// space, stray slashes, auth profiles, retired providers).
type Gen struct {
	r    *rand.Rand
	defs bool // the load case being drawn has env sections
}

// NewGen returns a generator for seed.
func NewGen(seed uint64) *Gen { return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (g *Gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *Gen) chance(p float64) bool    { return g.r.Float64() < p }

var (
	genProviders = []string{"openai", "anthropic", "google", "vllm", "nvidia", "moonshotai", "openrouter",
		"ollama", "codex", "mistral", "deepseek", "my-proxy", "azure-openai"}
	genModels = []string{"gpt-5", "gpt-5.1-codex", "gpt-4.1-mini", "claude-opus-4-6", "claude-sonnet-4-5", "opus",
		"sonnet", "kimi-k2.5", "moonshotai/kimi-k2.5", "@cf/openai/gpt-oss-20b", "@preset/kimi-2-5",
		"llama3:8b", "qwen2.5-coder", "gemini-3-pro", "gemini-2.5-flash", "meta/llama-3.1-70b-instruct",
		"deepseek-r1", "mistral-large", "o3", "gpt-oss-120b", "Qwen/Qwen3-32B", "z-ai/glm-4.6"}
	genProfiles = []string{"work", "cf:default", "personal", "team-a", "q4_k_m", "Q8_0", "iq3_xxs",
		"8bit", "4BIT", "20251001", "2025", "v2", "20251001@work", "q4_k_m@work", "@x", ""}
	genRuntimes = []string{"codex", "openclaw", "auto", "default", "pi", "codex-app-server", "Codex", " codex ",
		"claude-cli", "google-gemini-cli", "my-h", "my_h", "alpha", "", "  "}
)

func (g *Gen) provider() string {
	p := g.pick(genProviders...)
	switch g.r.IntN(20) {
	case 0:
		return strings.ToUpper(p[:1]) + p[1:]
	case 1:
		return " " + p
	case 2:
		return strings.ToUpper(p)
	}
	return p
}

func (g *Gen) model() string { return g.pick(genModels...) }

// Ref draws a model reference string as an operator writes one.
func (g *Gen) Ref() string {
	p, m := g.provider(), g.model()
	var s string
	switch g.r.IntN(24) {
	case 0:
		s = m // bare
	case 1:
		s = p + "/"
	case 2:
		s = "/" + m
	case 3:
		s = "/"
	case 4:
		s = ""
	case 5:
		s = p + "/" + m + "/"
	case 6:
		s = p + "//" + m
	case 7:
		s = p + "/ " + m
	case 8:
		s = " " + p + " / " + m + " "
	case 9:
		s = p + "/@" + g.pick("cf", "work", "preset")
	case 10:
		s = p + "/" + p + "/" + m
	case 11:
		s = "@" + g.pick("work", "cf") + "/" + m
	case 12:
		s = p + " /" + m
	default:
		s = p + "/" + m
	}
	if g.chance(0.35) {
		if prof := g.pick(genProfiles...); prof != "" || g.chance(0.5) {
			sep := "@"
			if g.chance(0.1) {
				sep = g.pick(" @", "@ ", " @ ")
			}
			s += sep + prof
		}
	}
	return s
}

// RefInput is one model-ref comparison input.
type RefInput struct {
	Raw             string
	DefaultProvider string
}

// RefCase draws a ref and a default provider for lenient parsing.
func (g *Gen) RefCase() RefInput {
	dp := g.pick("openai", "anthropic", "vllm", "")
	if g.chance(0.1) {
		dp = g.provider()
	}
	return RefInput{Raw: g.Ref(), DefaultProvider: dp}
}

// runtimePolicy draws an agentRuntime value (mostly {id}).
func (g *Gen) runtimePolicy() any {
	switch g.r.IntN(25) {
	case 0:
		return map[string]any{}
	case 1:
		return map[string]any{"id": nil}
	}
	return map[string]any{"id": g.pick(genRuntimes...)}
}

// modelKey draws a key of an agent models map naming (often) the target.
func (g *Gen) modelKey(provider, model string) string {
	p := strings.ToLower(strings.TrimSpace(provider))
	if p == "" {
		p = g.pick(genProviders...)
	}
	if g.chance(0.3) {
		p, model = g.pick(genProviders...), g.model()
	}
	switch g.r.IntN(12) {
	case 0:
		return model
	case 1:
		return p + "/*"
	case 2:
		return strings.ToUpper(p) + "/" + model
	case 3:
		return " " + p + "/" + model + " "
	case 4:
		return g.pick(genProviders...) + "/*"
	case 5:
		return p + "/" + p + "/" + model
	}
	return p + "/" + model
}

func (g *Gen) modelsMap(provider, model string) map[string]any {
	m := map[string]any{}
	for n := g.r.IntN(5); n > 0; n-- {
		v := map[string]any{}
		if g.chance(0.85) {
			v["agentRuntime"] = g.runtimePolicy()
		}
		if g.chance(0.1) {
			v["alias"] = g.pick("fast", "smart")
		}
		if g.chance(0.08) {
			v["params"] = map[string]any{g.pick("temperature", "thinking", "fastMode"): 0.2}
		}
		m[g.modelKey(provider, model)] = v
	}
	return m
}

func (g *Gen) providerConfig(provider, model string) map[string]any {
	pc := map[string]any{}
	if g.chance(0.4) {
		pc["agentRuntime"] = g.runtimePolicy()
	}
	if g.chance(0.5) {
		pc["baseUrl"] = g.pick("https://api.openai.com/v1", "https://api.openai.com", "http://localhost:8000/v1",
			"https://integrate.api.nvidia.com/v1", "https://openrouter.ai/api/v1", "https://chatgpt.com/backend-api/codex",
			"https://api.openai.com/v1/", "http://api.openai.com/v1")
	}
	if g.chance(0.2) {
		pc["api"] = g.pick("openai-responses", "openai-completions", "anthropic-messages", "openai-codex-responses")
	}
	if g.chance(0.1) {
		pc["headers"] = map[string]any{"X-Team": "a"}
	}
	if g.chance(0.05) {
		pc["timeoutSeconds"] = 30
	}
	var rows []any
	for n := g.r.IntN(4); n > 0; n-- {
		row := map[string]any{}
		id := model
		switch g.r.IntN(6) {
		case 0:
			id = strings.ToLower(strings.TrimSpace(provider)) + "/" + model
		case 1:
			id = g.model()
		case 2:
			if i := strings.LastIndexByte(model, '/'); i >= 0 {
				id = model[i+1:]
			}
		}
		row["id"] = id
		if g.chance(0.6) {
			row["agentRuntime"] = g.runtimePolicy()
		}
		if g.chance(0.05) {
			row["headers"] = map[string]any{"X-A": "1"}
		}
		rows = append(rows, row)
	}
	if rows != nil || g.chance(0.3) {
		if rows == nil {
			rows = []any{}
		}
		pc["models"] = rows
	}
	return pc
}

// PolicyInput is one runtime-policy lookup input.
type PolicyInput struct {
	Config   map[string]any
	Provider string
	ModelID  string
	AgentID  string
}

// PolicyCase draws a configuration and a turn.
func (g *Gen) PolicyCase() PolicyInput {
	provider, model := g.provider(), g.model()
	in := PolicyInput{Provider: provider, ModelID: model, AgentID: g.pick("main", "main", "work", "Main")}
	switch g.r.IntN(12) {
	case 0:
		in.Provider = "" // bare model ID
	case 1:
		in.Provider, in.ModelID = "", strings.ToLower(strings.TrimSpace(provider))+"/"+model
	case 2:
		in.ModelID = strings.ToLower(strings.TrimSpace(provider)) + "/" + model
	}
	cfg := map[string]any{}
	agents := map[string]any{}
	defaults := map[string]any{}
	if g.chance(0.8) {
		defaults["models"] = g.modelsMap(provider, model)
	}
	if g.chance(0.15) {
		defaults["agentRuntime"] = g.runtimePolicy()
	}
	if g.chance(0.3) {
		defaults["model"] = strings.ToLower(strings.TrimSpace(provider)) + "/" + model
	}
	agents["defaults"] = defaults
	if g.chance(0.6) {
		entries := map[string]any{}
		for _, id := range []string{"main", "work"} {
			if g.chance(0.6) {
				e := map[string]any{}
				if g.chance(0.7) {
					e["models"] = g.modelsMap(provider, model)
				}
				entries[id] = e
			}
		}
		agents["entries"] = entries
		if len(entries) > 1 {
			agents["ownership"] = "explicit"
		}
	}
	cfg["agents"] = agents
	if g.chance(0.75) {
		providers := map[string]any{}
		p := strings.ToLower(strings.TrimSpace(provider))
		if g.chance(0.1) {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		providers[p] = g.providerConfig(provider, model)
		if g.chance(0.3) {
			q := g.pick(genProviders...)
			providers[q] = g.providerConfig(q, g.model())
		}
		cfg["models"] = map[string]any{"providers": providers}
	}
	in.Config = cfg
	return in
}

func (in PolicyInput) String() string {
	return fmt.Sprintf("provider=%q model=%q agent=%q", in.Provider, in.ModelID, in.AgentID)
}

// HarnessSpec is a data-driven harness plugin both sides implement with
// the same rules (see oracle.mjs makeHarness and [SpecPlugin]).
type HarnessSpec struct {
	ID                string   `json:"id"`
	Priority          int      `json:"priority"`
	AutoProviders     []string `json:"autoProviders"` // nil: asked for every provider
	SupportsProviders []string `json:"supportsProviders"`
	RefusePrefixes    []string `json:"refusePrefixes"`
	Fallback          bool     `json:"fallback"`
}

// SelectInput is one harness-selection input.
type SelectInput struct {
	PolicyInput
	Harnesses   []HarnessSpec
	LockedOwner string
	Override    string
}

func (g *Gen) harness(id string) HarnessSpec {
	h := HarnessSpec{ID: id, Priority: g.r.IntN(3) * 10, SupportsProviders: []string{}, RefusePrefixes: []string{}}
	switch g.r.IntN(4) {
	case 0:
		h.AutoProviders = nil
	case 1:
		h.AutoProviders = []string{}
	default:
		h.AutoProviders = []string{g.pick(genProviders...), g.pick(genProviders...)}
	}
	if g.chance(0.3) {
		h.SupportsProviders = append(h.SupportsProviders, "*")
	}
	for n := g.r.IntN(3); n > 0; n-- {
		h.SupportsProviders = append(h.SupportsProviders, g.pick(genProviders...))
	}
	if g.chance(0.3) {
		h.RefusePrefixes = append(h.RefusePrefixes, g.pick("gpt-5", "claude", "kimi", "@cf", "llama"))
	}
	h.Fallback = g.chance(0.3)
	return h
}

// SelectCase draws a configuration, registered harnesses and a session.
func (g *Gen) SelectCase() SelectInput {
	in := SelectInput{PolicyInput: g.PolicyCase()}
	// The turn always names its provider, and the model ID is given
	// without it, as a running agent asks.
	if strings.TrimSpace(in.Provider) == "" {
		in.Provider = g.provider()
	}
	if p := strings.ToLower(strings.TrimSpace(in.Provider)); strings.HasPrefix(in.ModelID, p+"/") {
		in.ModelID = strings.TrimPrefix(in.ModelID, p+"/")
	}
	ids := []string{"codex", "my-h", "my_h", "alpha", "zeta"}
	g.r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids[:g.r.IntN(4)] {
		in.Harnesses = append(in.Harnesses, g.harness(id))
	}
	if in.Harnesses == nil {
		in.Harnesses = []HarnessSpec{}
	}
	if g.chance(0.1) {
		in.LockedOwner = g.pick("codex", "my-h", "openclaw", "alpha", "claude-cli", "pi")
	}
	if g.chance(0.15) {
		in.Override = g.pick("codex", "my-h", "openclaw", "alpha", "claude-cli", "auto", "zeta")
	}
	return in
}

var (
	genLegacyRefs = []string{"codex/gpt-5.1-codex", "codex/gpt-5", "codex-cli/gpt-5", "codex-cli/gpt-5.1-codex",
		"claude-cli/opus", "claude-cli/sonnet", "claude-cli/claude-opus-4-6", "claude-cli/opus-4.6", "claude-cli/haiku",
		"anthropic-cli/sonnet", "anthropic-cli/claude-sonnet-4-5", "google-gemini-cli/gemini-2.5-pro",
		"google-gemini-cli/gemini-3-pro", "google-gemini-cli/gemini-3-flash", "Claude-CLI/opus",
		"openai/gpt-5", "openai/gpt-5.1-codex", "anthropic/claude-sonnet-4-5", "anthropic/claude-opus-5",
		"google/gemini-2.5-pro", "vllm/qwen2.5-coder", "openrouter/meta/llama-3.1-70b-instruct"}
	genLegacyRuntimes = []string{"codex", "codex-cli", "claude-cli", "google-gemini-cli", "auto", "default", "openclaw", "Codex-CLI"}
)

// DoctorInput is one legacy configuration for doctor's repair.
type DoctorInput struct{ Config map[string]any }

func (g *Gen) legacyModel() any {
	if g.chance(0.6) {
		return g.pick(genLegacyRefs...)
	}
	m := map[string]any{"primary": g.pick(genLegacyRefs...)}
	if g.chance(0.7) {
		fb := []any{}
		for n := g.r.IntN(3); n > 0; n-- {
			fb = append(fb, g.pick(genLegacyRefs...))
		}
		m["fallbacks"] = fb
	}
	return m
}

func (g *Gen) legacyScope() map[string]any {
	s := map[string]any{}
	if g.chance(0.85) {
		s["model"] = g.legacyModel()
	}
	if g.chance(0.6) {
		models := map[string]any{}
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			v := map[string]any{}
			if g.chance(0.6) {
				v["agentRuntime"] = map[string]any{"id": g.pick(genLegacyRuntimes...)}
			}
			if g.chance(0.3) {
				v["alias"] = g.pick("fast", "smart")
			}
			if g.chance(0.15) {
				v["params"] = map[string]any{"temperature": 0.2}
			}
			models[g.pick(genLegacyRefs...)] = v
		}
		s["models"] = models
	}
	if g.chance(0.35) {
		s["agentRuntime"] = map[string]any{"id": g.pick(genLegacyRuntimes...)}
	}
	if g.chance(0.1) {
		s["embeddedHarness"] = map[string]any{"runtime": g.pick("codex", "pi", "auto")}
	}
	if g.chance(0.15) {
		s["subagents"] = map[string]any{"model": g.pick(genLegacyRefs...)}
	}
	return s
}

// DoctorCase draws a legacy configuration.
func (g *Gen) DoctorCase() DoctorInput {
	agents := map[string]any{"defaults": g.legacyScope()}
	if g.chance(0.5) {
		entries := map[string]any{"main": g.legacyScope()}
		if g.chance(0.4) {
			entries["work"] = g.legacyScope()
			agents["ownership"] = "explicit"
		}
		agents["entries"] = entries
	}
	cfg := map[string]any{"agents": agents}
	if g.chance(0.4) {
		providers := map[string]any{}
		for _, p := range []string{"openai", "anthropic", "vllm"} {
			if !g.chance(0.5) {
				continue
			}
			pc := map[string]any{}
			if g.chance(0.6) {
				pc["agentRuntime"] = map[string]any{"id": g.pick(genLegacyRuntimes...)}
			}
			if g.chance(0.5) {
				pc["models"] = []any{map[string]any{"id": g.pick("gpt-5", "claude-opus-5", "qwen2.5-coder"),
					"agentRuntime": map[string]any{"id": g.pick(genLegacyRuntimes...)}}}
			}
			providers[p] = pc
		}
		cfg["models"] = map[string]any{"providers": providers}
	}
	return DoctorInput{Config: cfg}
}
