package openclawdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Gen draws random realistic inputs: the providers, model IDs, keys and
// runtime IDs operators write, with the slips they make (case, white
// space, stray slashes, auth profiles, tag runs, colon forms, retired
// providers, several spellings of one key) in shuffled authored key
// orders. [Gen2] is a second generator built another way; the tier runs
// both.
type Gen struct {
	r    *rand.Rand
	defs bool // the load case being drawn has env sections
}

// NewGen returns a generator for seed.
func NewGen(seed uint64) *Gen { return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (g *Gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *Gen) chance(p float64) bool    { return g.r.Float64() < p }

// obj builds an object from its members in a shuffled authored order:
// never sorted on purpose, so key order is really exercised.
func (g *Gen) obj(ms ...Member) Obj {
	o := Obj(ms)
	return o.Shuffle(g.r.Shuffle)
}

var (
	genProviders = []string{"openai", "anthropic", "google", "vllm", "nvidia", "moonshotai", "openrouter",
		"ollama", "codex", "mistral", "deepseek", "my-proxy", "azure-openai"}
	genModels = []string{"gpt-5", "gpt-5.1-codex", "gpt-4.1-mini", "claude-opus-4-6", "claude-sonnet-4-5", "opus",
		"sonnet", "kimi-k2.5", "moonshotai/kimi-k2.5", "@cf/openai/gpt-oss-20b", "@preset/kimi-2-5",
		"llama3:8b", "qwen2.5-coder", "gemini-3-pro", "gemini-2.5-flash", "meta/llama-3.1-70b-instruct",
		"deepseek-r1", "mistral-large", "o3", "gpt-oss-120b", "Qwen/Qwen3-32B", "z-ai/glm-4.6",
		"qwen3@q4_k_m", "llama3@20251001"}
	genProfiles = []string{"work", "cf:default", "personal", "team-a", "q4_k_m", "Q8_0", "iq3_xxs",
		"8bit", "4BIT", "20251001", "2025", "v2", "20251001@work", "q4_k_m@work", "@x", "",
		// tag runs: a date and a quantization tag, two quantization tags,
		// a tag after the profile.
		"q8_0@8bit", "20251001@q4_k_m@work", "q4@20251001", "8bit@q4_k_m", "Q8_0@IQ3_XXS@team-a",
		"20251001@20251002", "work@q4_k_m"}
	genRuntimes = []string{"codex", "openclaw", "auto", "default", "pi", "codex-app-server", "Codex", " codex ",
		"claude-cli", "google-gemini-cli", "my-h", "my_h", "alpha", "", "  ", "DEFAULT", "Auto"}
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
	switch g.r.IntN(27) {
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
	case 13, 14:
		// colon forms: the OpenRouter compatibility alias and the
		// provider:model spelling of local runtimes.
		s = g.pick("openrouter:auto", "OpenRouter:Auto", " openrouter:auto ", "openrouter:free", "ollama:llama3",
			"lmstudio:qwen3", p+":"+m, "openrouter:auto/x")
	default:
		s = p + "/" + m
	}
	if g.chance(0.4) {
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
	dp := g.pick("openai", "anthropic", "vllm", "openrouter", "")
	if g.chance(0.1) {
		dp = g.provider()
	}
	return RefInput{Raw: g.Ref(), DefaultProvider: dp}
}

// runtimePolicy draws an agentRuntime value (mostly {id}).
func (g *Gen) runtimePolicy() any {
	switch g.r.IntN(25) {
	case 0:
		return Obj{}
	case 1:
		return Obj{{"id", nil}}
	}
	return Obj{{"id", g.pick(genRuntimes...)}}
}

// modelKey draws a key of an agent models map naming (often) the target.
func (g *Gen) modelKey(provider, model string) string {
	p := fold(provider)
	if p == "" {
		p = g.pick(genProviders...)
	}
	if g.chance(0.3) {
		p, model = g.pick(genProviders...), g.model()
	}
	switch g.r.IntN(13) {
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
	case 6:
		return p + " / " + model
	}
	return p + "/" + model
}

// params draws a params object: runtime controls (valid and not), and
// request parameters.
func (g *Gen) params() Obj {
	var ms []Member
	for n := 1 + g.r.IntN(2); n > 0; n-- {
		switch g.r.IntN(7) {
		case 0:
			ms = append(ms, Member{"thinking", g.pickAny("high", "off", "adaptive", "bogus", false, true, "none")})
		case 1:
			ms = append(ms, Member{"fastMode", g.pickAny(true, false, "on", 30, 1.5)})
		case 2:
			ms = append(ms, Member{"fastSeconds", g.pickAny(30, 0, -1, 2.5)})
		case 3:
			ms = append(ms, Member{"fast_mode", g.pickAny(true, "off")})
		default:
			ms = append(ms, Member{g.pick("temperature", "serviceTier", "transport", "maxTokens"), 0.2})
		}
	}
	return g.obj(dedupe(ms)...)
}

func (g *Gen) pickAny(xs ...any) any { return xs[g.r.IntN(len(xs))] }

// dedupe keeps the first member of each name.
func dedupe(ms []Member) []Member {
	seen := map[string]bool{}
	out := ms[:0]
	for _, m := range ms {
		if !seen[m.K] {
			seen[m.K] = true
			out = append(out, m)
		}
	}
	return out
}

func (g *Gen) modelsMap(provider, model string) Obj {
	var ms []Member
	for n := g.r.IntN(5); n > 0; n-- {
		var v []Member
		if g.chance(0.85) {
			v = append(v, Member{"agentRuntime", g.runtimePolicy()})
		}
		if g.chance(0.1) {
			v = append(v, Member{"alias", g.pick("fast", "smart")})
		}
		if g.chance(0.1) {
			v = append(v, Member{"params", g.params()})
		}
		ms = append(ms, Member{g.modelKey(provider, model), g.obj(v...)})
	}
	if g.chance(0.03) {
		ms = append(ms, Member{"__proto__", Obj{{"agentRuntime", Obj{{"id", "codex"}}}}})
	}
	return g.obj(dedupe(ms)...)
}

var genBaseURLs = []string{"https://api.openai.com/v1", "https://api.openai.com", "http://localhost:8000/v1",
	"https://integrate.api.nvidia.com/v1", "https://openrouter.ai/api/v1", "https://chatgpt.com/backend-api/codex",
	"https://api.openai.com/v1/", "http://api.openai.com/v1", "https://API.OpenAI.com/v1", "https://api.openai.com:443/v1",
	"https://chatgpt.com/backend-api"}

func (g *Gen) providerConfig(provider, model string) Obj {
	var pc []Member
	if g.chance(0.4) {
		pc = append(pc, Member{"agentRuntime", g.runtimePolicy()})
	}
	if g.chance(0.5) {
		pc = append(pc, Member{"baseUrl", g.pick(genBaseURLs...)})
	}
	if g.chance(0.2) {
		pc = append(pc, Member{"api", g.pick("openai-responses", "openai-completions", "anthropic-messages", "openai-chatgpt-responses")})
	}
	if g.chance(0.08) {
		pc = append(pc, Member{"headers", g.pickAny(Obj{{"X-Team", "a"}}, Obj{})})
	}
	if g.chance(0.05) {
		pc = append(pc, Member{"timeoutSeconds", 30})
	}
	if g.chance(0.12) {
		pc = append(pc, Member{"params", g.params()})
	}
	if g.chance(0.05) {
		pc = append(pc, Member{"localService", g.pickAny(true, false, Obj{}, Obj{{"command", "/usr/bin/ollama"}}, nil)})
	}
	if g.chance(0.04) {
		pc = append(pc, Member{"authHeader", g.chance(0.5)})
	}
	var rows []any
	for n := g.r.IntN(4); n > 0; n-- {
		var row []Member
		id := model
		switch g.r.IntN(6) {
		case 0:
			id = fold(provider) + "/" + model
		case 1:
			id = g.model()
		case 2:
			if i := strings.LastIndexByte(model, '/'); i >= 0 {
				id = model[i+1:]
			}
		}
		row = append(row, Member{"id", id})
		if g.chance(0.6) {
			row = append(row, Member{"agentRuntime", g.runtimePolicy()})
		}
		if g.chance(0.05) {
			row = append(row, Member{"headers", Obj{{"X-A", "1"}}})
		}
		if g.chance(0.08) {
			row = append(row, Member{"params", g.params()})
		}
		if g.chance(0.06) {
			row = append(row, Member{"compat", g.pickAny(Obj{{"supportsReasoningEffort", true}},
				Obj{{"supportedReasoningEfforts", []any{"low", "high"}}}, Obj{{"supportsStore", false}})})
		}
		rows = append(rows, g.obj(row...))
	}
	if rows != nil || g.chance(0.3) {
		if rows == nil {
			rows = []any{}
		}
		pc = append(pc, Member{"models", rows})
	}
	return g.obj(pc...)
}

// PolicyInput is one runtime-policy lookup input. AgentID "" names no
// agent (OpenClaw then uses its implicit owner agent).
type PolicyInput struct {
	Config   Obj
	Provider string
	ModelID  string
	AgentID  string
}

// agentIDs the generators name.
var genAgents = []string{"main", "main", "work", "Main", "", ""}

// PolicyCase draws a configuration and a turn.
func (g *Gen) PolicyCase() PolicyInput {
	provider, model := g.provider(), g.model()
	in := PolicyInput{Provider: provider, ModelID: model, AgentID: g.pick(genAgents...)}
	switch g.r.IntN(12) {
	case 0:
		in.Provider = "" // bare model ID
	case 1:
		in.Provider, in.ModelID = "", fold(provider)+"/"+model
	case 2:
		in.ModelID = fold(provider) + "/" + model
	}
	var defaults, agents, cfg []Member
	if g.chance(0.8) {
		defaults = append(defaults, Member{"models", g.modelsMap(provider, model)})
	}
	if g.chance(0.15) {
		defaults = append(defaults, Member{"agentRuntime", g.runtimePolicy()})
	}
	if g.chance(0.3) {
		defaults = append(defaults, Member{"model", fold(provider) + "/" + model})
	}
	if g.chance(0.1) {
		defaults = append(defaults, Member{"params", g.params()})
	}
	if g.chance(0.05) {
		defaults = append(defaults, Member{"systemAgent", Obj{{"agentId", g.pick("work", "main", "ghost")}}})
	}
	agents = append(agents, Member{"defaults", g.obj(defaults...)})
	entry := func(id string) Obj {
		var e []Member
		if g.chance(0.7) {
			e = append(e, Member{"models", g.modelsMap(provider, model)})
		}
		if g.chance(0.08) {
			e = append(e, Member{"params", g.params()})
		}
		if g.chance(0.1) {
			e = append(e, Member{"default", true})
		}
		if id != "" {
			e = append(e, Member{"id", id})
		}
		return g.obj(e...)
	}
	switch g.r.IntN(5) {
	case 0, 1, 2:
		var es []Member
		for _, id := range []string{"main", "work", "Main", " work"} {
			if g.chance(0.45) {
				es = append(es, Member{id, entry("")})
			}
		}
		agents = append(agents, Member{"entries", g.obj(es...)})
		if len(es) > 1 || g.chance(0.1) {
			agents = append(agents, Member{"ownership", "explicit"})
		}
		if g.chance(0.1) {
			agents = append(agents, Member{"list", []any{entry("work")}})
		}
	case 3:
		var list []any
		for _, id := range []string{"main", "work", "Main"} {
			if g.chance(0.5) {
				list = append(list, entry(id))
			}
		}
		if list == nil {
			list = []any{}
		}
		agents = append(agents, Member{"list", list})
	}
	cfg = append(cfg, Member{"agents", g.obj(agents...)})
	if g.chance(0.75) {
		var providers []Member
		p := fold(provider)
		switch g.r.IntN(12) {
		case 0:
			p = strings.ToUpper(p[:1]) + p[1:]
		case 1:
			p = " " + p
		}
		providers = append(providers, Member{p, g.providerConfig(provider, model)})
		if g.chance(0.06) {
			// a second spelling of the same provider
			providers = append(providers, Member{g.pick(strings.ToUpper(fold(provider)), fold(provider)+" ", fold(provider)),
				g.providerConfig(provider, model)})
		}
		if g.chance(0.3) {
			q := g.pick(genProviders...)
			providers = append(providers, Member{q, g.providerConfig(q, g.model())})
		}
		cfg = append(cfg, Member{"models", Obj{{"providers", settleOpenAIBesideCodex(g.obj(dedupe(providers)...))}}})
	}
	in.Config = g.obj(cfg...)
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

// codexSpec is the codex harness as data: auto-selected for openai and
// codex, supporting them unless the model is refused.
func (g *Gen) codexSpec() HarnessSpec {
	h := HarnessSpec{ID: "codex", AutoProviders: []string{"openai", "codex"}, SupportsProviders: []string{"openai", "codex"},
		RefusePrefixes: []string{}, Fallback: g.chance(0.5)}
	if g.chance(0.2) {
		h.RefusePrefixes = append(h.RefusePrefixes, "gpt-4")
	}
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
	if p := fold(in.Provider); strings.HasPrefix(in.ModelID, p+"/") {
		in.ModelID = strings.TrimPrefix(in.ModelID, p+"/")
	}
	if g.chance(0.25) {
		// SEL-4: an OpenAI route with the codex harness registered.
		in.Provider = g.pick("openai", "openai", "OpenAI", " openai")
		in.ModelID = g.pick("gpt-5", "gpt-5.1-codex", "gpt-4.1-mini", "o3")
	}
	ids := []string{"codex", "my-h", "my_h", "alpha", "zeta"}
	g.r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids[:g.r.IntN(4)] {
		if id == "codex" && g.chance(0.6) {
			in.Harnesses = append(in.Harnesses, g.codexSpec())
			continue
		}
		in.Harnesses = append(in.Harnesses, g.harness(id))
	}
	if in.Harnesses == nil {
		in.Harnesses = []HarnessSpec{}
	}
	if g.chance(0.15) {
		in.LockedOwner = g.pick("codex", "my-h", "openclaw", "alpha", "claude-cli", "pi", "auto", "default", "Default", " ")
	}
	if g.chance(0.2) {
		in.Override = g.pick("codex", "my-h", "openclaw", "alpha", "claude-cli", "auto", "zeta", "default", "PI")
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
	// genLegacyPairs are one model under its legacy and its canonical
	// provider, so a legacy key can sit beside its canonical key.
	genLegacyPairs = [][2]string{
		{"anthropic-cli/claude-sonnet-4-6", "anthropic/claude-sonnet-4-6"},
		{"claude-cli/claude-opus-4-6", "anthropic/claude-opus-4-6"},
		{"codex/gpt-5.1-codex", "openai/gpt-5.1-codex"},
		{"codex-cli/gpt-5.4", "openai/gpt-5.4"},
		{"google-gemini-cli/gemini-2.5-pro", "google/gemini-2.5-pro"},
	}
)

// DoctorInput is one legacy configuration for doctor's repair.
type DoctorInput struct{ Config Obj }

// legacyRef draws a ref of a legacy configuration, sometimes padded or
// with an auth profile spaced around its `@`.
func (g *Gen) legacyRef() string {
	ref := g.pick(genLegacyRefs...)
	if g.chance(0.04) {
		ref += g.pick(" @work", "@ work", " @ ci")
	}
	if g.chance(0.06) {
		ref = g.pick(" "+ref, ref+" ", "  "+ref+" ")
	}
	return ref
}

func (g *Gen) legacyModel() any {
	if g.chance(0.6) {
		return g.legacyRef()
	}
	m := []Member{{"primary", g.legacyRef()}}
	if g.chance(0.7) {
		fb := []any{}
		for n := g.r.IntN(3); n > 0; n-- {
			fb = append(fb, g.legacyRef())
		}
		m = append(m, Member{"fallbacks", fb})
	}
	return g.obj(m...)
}

func (g *Gen) legacyScope() Obj {
	var s []Member
	var models []Member
	if g.chance(0.25) {
		// a whole-agent pin beside a legacy key and its canonical model
		pair := genLegacyPairs[g.r.IntN(len(genLegacyPairs))]
		s = append(s, Member{"model", pair[1]})
		models = append(models, Member{pair[0], g.obj(Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})})
		if g.chance(0.4) {
			models = append(models, Member{pair[1], g.obj(Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})})
		}
		s = append(s, Member{"agentRuntime", Obj{{"id", g.pick("claude-cli", "google-gemini-cli", "codex", "Claude-CLI")}}})
	} else {
		if g.chance(0.85) {
			s = append(s, Member{"model", g.legacyModel()})
		}
		if g.chance(0.35) {
			s = append(s, Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})
		}
	}
	if g.chance(0.6) || models != nil {
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			var v []Member
			if g.chance(0.6) {
				v = append(v, Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})
			}
			if g.chance(0.3) {
				v = append(v, Member{"alias", g.pick("fast", "smart")})
			}
			if g.chance(0.15) {
				v = append(v, Member{"params", Obj{{"temperature", 0.2}}})
			}
			key := g.pick(genLegacyRefs...)
			if g.chance(0.08) {
				key = g.pick(" "+key, key+" ", " "+key+" ") // padded
			}
			models = append(models, Member{key, g.obj(v...)})
		}
		s = append(s, Member{"models", g.obj(dedupe(models)...)})
	}
	if g.chance(0.1) {
		s = append(s, Member{"embeddedHarness", Obj{{"runtime", g.pick("codex", "pi", "auto")}}})
	}
	if g.chance(0.15) {
		s = append(s, Member{"subagents", Obj{{"model", g.legacyRef()}}})
	}
	if g.chance(0.08) {
		// refs outside the model slots: doctor rewrites and trims them too
		s = append(s, Member{"imageModel", g.legacyRef()}, Member{"mediaModels", Obj{{"image", g.legacyRef()}}})
	}
	return g.obj(s...)
}

// DoctorCase draws a legacy configuration.
func (g *Gen) DoctorCase() DoctorInput {
	defaults := g.legacyScope()
	if g.chance(0.06) {
		// a `codex/*` wildcard blocks the legacy Codex provider's migration
		defaults.Set("modelPolicy", Obj{{"allow", []any{g.pick("codex/*", "openai-codex/*", " Codex/* ")}}})
	}
	agents := []Member{{"defaults", defaults}}
	if g.chance(0.5) {
		entries := []Member{{"main", g.legacyScope()}}
		if g.chance(0.4) {
			entries = append(entries, Member{"work", g.legacyScope()})
			agents = append(agents, Member{"ownership", "explicit"})
		}
		agents = append(agents, Member{"entries", g.obj(entries...)})
	}
	cfg := []Member{{"agents", g.obj(agents...)}}
	if g.chance(0.4) {
		var providers []Member
		for _, p := range []string{"openai", "anthropic", "vllm"} {
			if !g.chance(0.5) {
				continue
			}
			var pc []Member
			if g.chance(0.6) {
				pc = append(pc, Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})
			}
			if g.chance(0.5) {
				pc = append(pc, Member{"models", []any{g.obj(Member{"id", g.pick("gpt-5", "claude-opus-5", "qwen2.5-coder")},
					Member{"agentRuntime", Obj{{"id", g.pick(genLegacyRuntimes...)}}})}})
			}
			providers = append(providers, Member{p, g.obj(pc...)})
		}
		if g.chance(0.5) {
			// legacy Codex provider entries, moved or merged into openai;
			// the defaults get a model, as doctor would otherwise imply a
			// primary from the legacy entry's first row and migrate it
			// (the implicit-primary divergence)
			providers = append(providers, codexProviderEntry(g.r))
			for i := range agents {
				if d, ok := agents[i].V.(Obj); ok && agents[i].K == "defaults" {
					if _, has := d.Get("model"); !has {
						d.Set("model", g.legacyModel())
						agents[i].V = d
					}
				}
			}
			if g.chance(0.3) {
				providers = append(providers, codexProviderEntry(g.r))
			}
			for i := range providers {
				if providers[i].K == "openai" && g.chance(0.6) {
					o := providers[i].V.(Obj)
					o.Set("models", openAIProviderRows(g.r))
					if g.chance(0.2) {
						o.Set("apiKey", "${OPENAI_API_KEY}")
					}
					providers[i].V = o
				}
			}
		}
		cfg = append(cfg, Member{"models", Obj{{"providers", settleOpenAIBesideCodex(g.obj(dedupe(providers)...))}}})
	}
	return DoctorInput{Config: g.obj(cfg...)}
}

// genCodexRowIDs are the catalog row IDs of the legacy Codex provider
// entries and the openai entries they move or merge into: shared IDs make
// colliding rows.
var genCodexRowIDs = []string{"gpt-5.5", "gpt-5.4", "m"}

// codexRow draws a catalog row of a legacy Codex or openai provider entry.
func codexRow(r *rand.Rand) Obj {
	row := Obj{{"id", genCodexRowIDs[r.IntN(len(genCodexRowIDs))]}}
	if r.Float64() < 0.2 {
		row = append(row, Member{"name", "x"})
	}
	return withCodexAPIAndRuntime(r, row, 0.2)
}

// withCodexAPIAndRuntime is o with, each with probability pAPI and 0.2, an
// api (sometimes the legacy Codex one) and an agentRuntime pin.
func withCodexAPIAndRuntime(r *rand.Rand, o Obj, pAPI float64) Obj {
	if r.Float64() < pAPI {
		o = append(o, Member{"api", []string{"openai-codex-responses", "openai-responses"}[r.IntN(2)]})
	}
	if r.Float64() < 0.2 {
		o = append(o, Member{"agentRuntime", Obj{{"id", []string{"auto", "pi", "codex"}[r.IntN(3)]}}})
	}
	return o
}

// codexProviderEntry draws a legacy Codex provider entry (`codex`,
// `openai-codex`, sometimes in another case) of models.providers: catalog
// rows, sometimes provider-level keys doctor cannot carry onto merged rows
// (apiKey) or stamps onto them (baseUrl, api, agentRuntime).
func codexProviderEntry(r *rand.Rand) Member {
	key := []string{"codex", "openai-codex", "codex", "Codex"}[r.IntN(4)]
	var e Obj
	if r.Float64() < 0.85 {
		e = append(e, Member{"models", codexRows(r, 1+r.IntN(2))})
	}
	if r.Float64() < 0.25 {
		e = append(e, Member{"apiKey", "${OPENAI_API_KEY}"})
	}
	if r.Float64() < 0.25 {
		e = append(e, Member{"baseUrl", "https://chatgpt.example/backend"})
	}
	return Member{key, withCodexAPIAndRuntime(r, e, 0.3)}
}

// codexRows draws n catalog rows ([codexRow]).
func codexRows(r *rand.Rand, n int) []any {
	rows := []any{}
	for ; n > 0; n-- {
		rows = append(rows, codexRow(r))
	}
	return rows
}

// openAIProviderRows draws the catalog rows of an openai provider entry
// beside a legacy Codex one: some collide with its rows.
func openAIProviderRows(r *rand.Rand) []any { return codexRows(r, r.IntN(3)) }

// legacyCodexProviderKey reports whether a models.providers key names a
// legacy Codex provider entry, as doctor compares keys.
func legacyCodexProviderKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	return k == "codex" || k == "openai-codex"
}

// settleOpenAIBesideCodex narrows a providers object that holds a legacy
// Codex entry: its openai entry (and rows) lose codex-cli pins (→ codex)
// and the legacy api (→ openai-chatgpt-responses). Doctor judges a legacy
// entry against the openai entry before renaming those, and its second
// pass judges otherwise; Repair gives the second pass's answer to stay
// idempotent (CMP-3), a difference this tier does not draw.
func settleOpenAIBesideCodex(providers Obj) Obj {
	legacy := false
	for _, m := range providers {
		legacy = legacy || legacyCodexProviderKey(m.K)
	}
	if !legacy {
		return providers
	}
	settle := func(o Obj) Obj {
		if api, _ := o.Get("api"); api == "openai-codex-responses" {
			o.Set("api", "openai-chatgpt-responses")
		}
		if id, _ := o.Obj("agentRuntime").Get("id"); id != nil {
			if s, ok := id.(string); ok && strings.ToLower(strings.TrimSpace(s)) == "codex-cli" {
				o.Set("agentRuntime", Obj{{"id", "codex"}})
			}
		}
		return o
	}
	for i, m := range providers {
		e, ok := m.V.(Obj)
		if !ok || strings.ToLower(strings.TrimSpace(m.K)) != "openai" {
			continue
		}
		e = settle(e)
		if rows, ok := e.Get("models"); ok {
			if rs, ok := rows.([]any); ok {
				for j, row := range rs {
					if ro, ok := row.(Obj); ok {
						rs[j] = settle(ro)
					}
				}
			}
		}
		providers[i].V = e
	}
	return providers
}
