package openclawdiff

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Gen2 is the tier's second generator, built unlike [Gen] so that the
// agreement it measures does not depend on one generator's blind spots:
// refs are token strings from a small grammar; configurations start from
// a hand-written corpus of realistic documents (the shapes of the seed
// documents and of operators' configs) and take a random number of
// mutations (keys under other spellings, runtime pins at every scope,
// params, catalog rows, agents rosters, reordered members); requests are
// drawn from what the document names, then perturbed. Its random stream
// is ChaCha8, not PCG.
type Gen2 struct{ r *rand.Rand }

// NewGen2 returns the second generator for seed.
func NewGen2(seed uint64) *Gen2 {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	binary.LittleEndian.PutUint64(key[8:], ^seed)
	copy(key[16:], "occkit-openclaw!")
	return &Gen2{r: rand.New(rand.NewChaCha8(key))}
}

func (g *Gen2) one(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *Gen2) p(x float64) bool        { return g.r.Float64() < x }
func (g *Gen2) anyOf(xs ...any) any     { return xs[g.r.IntN(len(xs))] }

// ---- refs ------------------------------------------------------------------

var (
	g2Providers = []string{"openai", "anthropic", "google", "vllm", "lmstudio", "ollama", "openrouter", "nvidia",
		"vercel-ai-gateway", "xai", "mlx", "codex", "github-copilot", "huggingface", "custom-llm"}
	g2Models = []string{"gpt-5.5", "gpt-5.6-sol", "gpt-4o", "claude-opus-5", "claude-sonnet-4-6", "sonnet-4.6", "opus-4.7",
		"haiku", "gemini-3-pro-preview", "gemini-3-flash", "qwen3.6-27b", "llama3.3", "grok-4.3-latest", "kimi-k2",
		"mlx-community/Qwen3-30B-A3B-6bit", "meta-llama/Llama-3.3-70B", "auto", "free", "deepseek-v3"}
	g2Tags     = []string{"q4_k_m", "Q5_K_S", "iq2_xs", "q8_0", "16bit", "8BIT", "20250929", "20260101"}
	g2Profiles = []string{"default", "work", "ops:east", "team_b", "ci", "v3", "2026"}
)

// RefCase draws a ref as a token string.
func (g *Gen2) RefCase() RefInput {
	var b strings.Builder
	// provider part (sometimes none, sometimes several segments)
	switch g.r.IntN(10) {
	case 0:
	case 1:
		b.WriteString(strings.ToUpper(g.one(g2Providers...)) + "/")
	case 2:
		b.WriteString(g.one(g2Providers...) + ":")
	default:
		b.WriteString(g.one(g2Providers...) + "/")
	}
	b.WriteString(g.one(g2Models...))
	// suffixes: tags and profiles in any order, up to three
	for k := g.r.IntN(4); k > 0; k-- {
		sep := "@"
		if g.p(0.08) {
			sep = " @"
		}
		if g.p(0.55) {
			b.WriteString(sep + g.one(g2Tags...))
		} else {
			b.WriteString(sep + g.one(g2Profiles...))
		}
	}
	s := b.String()
	switch g.r.IntN(14) {
	case 0:
		s = " " + s + " "
	case 1:
		s += "/"
	case 2:
		s = strings.Replace(s, "/", "//", 1)
	case 3:
		s = strings.Replace(s, "/", " / ", 1)
	}
	return RefInput{Raw: s, DefaultProvider: g.one("openai", "anthropic", "ollama", "openrouter", "nvidia", "", " Google ")}
}

// ---- configurations --------------------------------------------------------

// g2Corpus are realistic starting documents.
var g2Corpus = []string{
	`{"agents":{"defaults":{"model":"openai/gpt-5.5"}}}`,
	`{"agents":{"defaults":{"model":"anthropic/claude-opus-5","models":{"anthropic/claude-opus-5":{"agentRuntime":{"id":"claude-cli"}}}}}}`,
	`{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"vllm":{"baseUrl":"http://127.0.0.1:8000/v1","api":"openai-completions","models":[{"id":"qwen3.6-27b"}]}}}}`,
	`{"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1","agentRuntime":{"id":"codex"},"models":[]}}}}`,
	`{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.6-sol","compat":{"supportsReasoningEffort":true}}]}}}}`,
	`{"agents":{"defaults":{"model":"github-copilot/gpt-5.5","models":{"github-copilot/gpt-5.5":{"agentRuntime":{"id":"copilot"}}}}}}`,
	`{"agents":{"ownership":"explicit","defaults":{"model":"openai/gpt-5.5"},"entries":{"main":{"models":{"openai/gpt-5.5":{"agentRuntime":{"id":"openclaw"}}}},"ops":{"model":"openai/gpt-5.5"}}}}`,
	`{"agents":{"list":[{"id":"main","models":{"ollama/llama3.3":{"agentRuntime":{"id":"openclaw"}}}}]},"models":{"providers":{"ollama":{"baseUrl":"http://localhost:11434","models":[{"id":"llama3.3"}]}}}}`,
	`{"models":{"providers":{"nvidia":{"baseUrl":"https://integrate.api.nvidia.com/v1","models":[{"id":"moonshotai/kimi-k2","agentRuntime":{"id":"pi"}}]}}}}`,
	`{"agents":{"defaults":{"params":{"fastMode":true},"models":{"openai/gpt-5.5":{"params":{"thinking":"high"}}}}},"models":{"providers":{"openai":{"params":{"thinking":"low"}}}}}`,
	`{}`,
}

func (g *Gen2) corpusDoc() Obj {
	var v any
	if err := json.Unmarshal([]byte(g2Corpus[g.r.IntN(len(g2Corpus))]), &v); err != nil {
		panic(err) // the corpus is literal JSON
	}
	return ToObj(v).(Obj)
}

// getIn is the object at path in o (empty when missing or not an object).
func getIn(o Obj, path ...string) Obj {
	for _, k := range path {
		o = o.Obj(k)
	}
	return o
}

// putIn sets path in o to v, creating objects on the way, and returns o.
func putIn(o Obj, v any, path ...string) Obj {
	if len(path) == 1 {
		o.Set(path[0], v)
		return o
	}
	o.Set(path[0], putIn(o.Obj(path[0]), v, path[1:]...))
	return o
}

func (g *Gen2) spellProvider(p string) string {
	switch g.r.IntN(14) {
	case 0:
		return strings.ToUpper(p)
	case 1:
		return " " + p
	case 2:
		return strings.ToUpper(p[:1]) + p[1:]
	}
	return p
}

func (g *Gen2) runtime() any {
	switch g.r.IntN(30) {
	case 0:
		return Obj{}
	case 1:
		return Obj{{"id", ""}}
	}
	return Obj{{"id", g.one("codex", "openclaw", "auto", "default", "pi", "PI", "Codex", "codex-app-server", "claude-cli",
		"google-gemini-cli", "copilot", "acme", "zz-h", "zz_h", " openclaw ")}}
}

func (g *Gen2) controlParams() Obj {
	o := Obj{}
	for k := 1 + g.r.IntN(2); k > 0; k-- {
		switch g.r.IntN(6) {
		case 0:
			o.Set("thinking", g.anyOf("medium", "xhigh", "off", "maximal", true, false, "disabled"))
		case 1:
			o.Set("fastMode", g.anyOf(true, false, 5, "yes"))
		case 2:
			o.Set("fast_auto_on_seconds", g.anyOf(10, 0))
		case 3:
			o.Set("temperature", 0.7)
		case 4:
			o.Set("serviceTier", "flex")
		default:
			o.Set("fast_mode", g.anyOf(false, true))
		}
	}
	return o
}

// mutate applies one random edit to cfg around the provider/model pair.
func (g *Gen2) mutate(cfg Obj, provider, model string) Obj {
	scope := []string{"agents", "defaults"}
	if g.p(0.25) {
		scope = []string{"agents", "entries", g.one("main", "ops", "Main")}
	}
	in := func(path ...string) []string { return append(append([]string(nil), scope...), path...) }
	switch g.r.IntN(16) {
	case 0, 1, 2:
		key := provider + "/" + model
		switch g.r.IntN(8) {
		case 0:
			key = model
		case 1:
			key = g.spellProvider(provider) + "/" + model
		case 2:
			key = provider + "/*"
		case 3:
			key = " " + key
		case 4:
			key = g.one(g2Providers...) + "/" + model
		}
		entry := Obj{}
		if g.p(0.8) {
			entry.Set("agentRuntime", g.runtime())
		}
		if g.p(0.15) {
			entry.Set("params", g.controlParams())
		}
		return putIn(cfg, entry, in("models", key)...)
	case 3, 4:
		return putIn(cfg, g.runtime(), "models", "providers", g.spellProvider(provider), "agentRuntime")
	case 5:
		rows, _ := getIn(cfg, "models", "providers", provider).Get("models")
		list, _ := rows.([]any)
		row := Obj{{"id", g.one(model, provider+"/"+model, " "+model)}}
		if g.p(0.6) {
			row.Set("agentRuntime", g.runtime())
		}
		if g.p(0.1) {
			row.Set("params", g.controlParams())
		}
		if g.p(0.08) {
			row.Set("compat", g.anyOf(Obj{{"supportedReasoningEfforts", []any{"low", "max"}}}, Obj{{"thinkingFormat", "qwen"}}))
		}
		return putIn(cfg, append(list, row), "models", "providers", provider, "models")
	case 6:
		return putIn(cfg, g.one("https://api.openai.com", "https://api.openai.com/v1/", "https://chatgpt.com/backend-api/codex/",
			"https://proxy.internal/v1", "http://api.openai.com/v1", "https://api.openai.com/v1?x=1"), "models", "providers", provider, "baseUrl")
	case 7:
		at := []string{"models", "providers", provider}
		switch g.r.IntN(5) {
		case 0:
			return putIn(cfg, g.controlParams(), append(at, "params")...)
		case 1:
			return putIn(cfg, g.anyOf(true, Obj{{"command", "/opt/llm/serve"}}, false, 1), append(at, "localService")...)
		case 2:
			return putIn(cfg, Obj{{"x-org", "acme"}}, append(at, "headers")...)
		case 3:
			return putIn(cfg, g.one("openai-responses", "openai-completions", "openai-chatgpt-responses"), append(at, "api")...)
		}
		return putIn(cfg, 45, append(at, "timeoutSeconds")...)
	case 8:
		return putIn(cfg, g.controlParams(), in("params")...)
	case 9:
		return putIn(cfg, Obj{{"id", g.one("codex", "claude-cli", "openclaw")}}, in("agentRuntime")...)
	case 10:
		list := []any{}
		for _, id := range []string{"main", "ops"} {
			if g.p(0.6) {
				item := Obj{{"id", id}}
				if g.p(0.7) {
					item.Set("models", Obj{{provider + "/" + model, Obj{{"agentRuntime", g.runtime()}}}})
				}
				list = append(list, item)
			}
		}
		return putIn(cfg, list, "agents", "list")
	case 11:
		cfg = putIn(cfg, "explicit", "agents", "ownership")
		if g.p(0.5) {
			cfg = putIn(cfg, Obj{{"agentId", g.one("ops", "main")}}, "agents", "defaults", "systemAgent")
		}
		return cfg
	case 12:
		return putIn(cfg, true, "agents", "entries", g.one("main", "ops"), "default")
	case 13:
		// a second spelling of a provider
		return putIn(cfg, Obj{{"agentRuntime", g.runtime()}}, "models", "providers", g.one(strings.ToUpper(provider), provider+" ", " "+provider))
	}
	key := provider + "/" + model
	return putIn(cfg, g.anyOf(key, Obj{{"primary", key}}), "agents", "defaults", "model")
}

func (g *Gen2) config(provider, model string) Obj {
	cfg := g.corpusDoc()
	for k := g.r.IntN(7); k > 0; k-- {
		cfg = g.mutate(cfg, provider, model)
	}
	return cfg.reorderEach(g)
}

// reorderEach gives every object of o its own authored order.
func (o Obj) reorderEach(g *Gen2) Obj {
	for i := range o {
		switch x := o[i].V.(type) {
		case Obj:
			o[i].V = x.reorderEach(g)
		case []any:
			for j, e := range x {
				if eo, ok := e.(Obj); ok {
					x[j] = eo.reorderEach(g)
				}
			}
		}
	}
	switch g.r.IntN(3) {
	case 0:
		for i, j := 0, len(o)-1; i < j; i, j = i+1, j-1 {
			o[i], o[j] = o[j], o[i]
		}
	case 1:
		g.r.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	}
	return o
}

func (g *Gen2) route() (string, string) {
	p := g.one(g2Providers...)
	if g.p(0.3) {
		p = "openai"
	}
	return p, g.one(g2Models...)
}

// PolicyCase draws a configuration and a turn taken from what it names.
func (g *Gen2) PolicyCase() PolicyInput {
	provider, model := g.route()
	in := PolicyInput{Config: g.config(provider, model), Provider: provider, ModelID: model,
		AgentID: g.one("main", "ops", "", "", "MAIN", "nobody")}
	switch g.r.IntN(10) {
	case 0:
		in.Provider = ""
	case 1:
		in.Provider, in.ModelID = "", provider+"/"+model
	case 2:
		in.Provider = g.spellProvider(provider)
	case 3:
		in.ModelID = provider + "/" + model
	}
	return in
}

// SelectCase draws a configuration, harnesses and a session.
func (g *Gen2) SelectCase() SelectInput {
	in := SelectInput{PolicyInput: g.PolicyCase()}
	if strings.TrimSpace(in.Provider) == "" {
		if p, _, ok := strings.Cut(in.ModelID, "/"); ok {
			in.Provider, in.ModelID = p, in.ModelID[len(p)+1:]
		} else {
			in.Provider = g.one(g2Providers...)
		}
	}
	// A running agent asks with the model ID after the provider's slash.
	if p := fold(in.Provider); strings.HasPrefix(fold(in.ModelID), p+"/") {
		in.ModelID = in.ModelID[len(p)+1:]
	}
	in.Harnesses = []HarnessSpec{}
	for _, id := range []string{"codex", "copilot", "zz-h", "zz_h", "acme"} {
		if !g.p(0.3) {
			continue
		}
		h := HarnessSpec{ID: id, Priority: g.r.IntN(2) * 5, SupportsProviders: []string{}, RefusePrefixes: []string{}}
		switch id {
		case "codex":
			h.AutoProviders, h.SupportsProviders = []string{"openai", "codex"}, []string{"openai", "codex"}
		case "copilot":
			h.AutoProviders, h.SupportsProviders = []string{}, []string{"github-copilot"}
		default:
			if g.p(0.5) {
				h.AutoProviders = []string{g.one(g2Providers...)}
			}
			h.SupportsProviders = []string{g.one("*", g.one(g2Providers...))}
		}
		if g.p(0.2) {
			h.RefusePrefixes = []string{g.one("gpt-4", "claude", "qwen")}
		}
		h.Fallback = g.p(0.4)
		in.Harnesses = append(in.Harnesses, h)
	}
	switch g.r.IntN(8) {
	case 0:
		in.LockedOwner = g.one("codex", "openclaw", "copilot", "auto", "default", "claude-cli", "zz-h")
	case 1:
		in.Override = g.one("codex", "openclaw", "copilot", "auto", "default", "google-gemini-cli", "acme")
	case 2:
		in.LockedOwner = g.one("auto", "default", "codex")
		in.Override = g.one("openclaw", "codex", "zz_h")
	}
	return in
}

// ---- doctor ----------------------------------------------------------------

var g2LegacyCorpus = []string{
	`{"agents":{"defaults":{"model":"claude-cli/claude-opus-4-7","agentRuntime":{"id":"claude-cli"}}}}`,
	`{"agents":{"defaults":{"model":{"primary":"codex/gpt-5.5","fallbacks":["codex-cli/gpt-5.4","openai/gpt-5.5"]},"models":{"codex/gpt-5.5":{"alias":"main"}}}}}`,
	`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6","models":{"anthropic-cli/claude-sonnet-4-6":{"agentRuntime":{"id":"codex"}}},"agentRuntime":{"id":"claude-cli"}}}}`,
	`{"agents":{"entries":{"main":{"model":"google-gemini-cli/gemini-3-pro","embeddedHarness":{"runtime":"pi"}}}}}`,
	`{"agents":{"defaults":{"models":{"openai/gpt-5.5":{"agentRuntime":{"id":"auto"}},"codex/gpt-5.5":{"agentRuntime":{"id":"codex-cli"}}}}},"models":{"providers":{"openai":{"agentRuntime":{"id":"codex-cli"}}}}}`,
	`{"agents":{"defaults":{"subagents":{"model":"claude-cli/haiku"},"heartbeat":{"model":"anthropic-cli/sonnet"}}}}`,
}

var g2LegacyRefs = []string{"claude-cli/opus", "anthropic-cli/claude-opus-4-6", "codex/gpt-5.5", "codex-cli/gpt-5.4",
	"google-gemini-cli/gemini-3-flash", "anthropic/claude-opus-4-6", "openai/gpt-5.4", "google/gemini-2.5-pro",
	"vllm/qwen3.6-27b", "Codex/gpt-5.5"}

// legacyRef draws a legacy-configuration ref, sometimes padded or with a
// spaced auth profile.
func (g *Gen2) legacyRef() string {
	ref := g.one(g2LegacyRefs...)
	switch g.r.IntN(25) {
	case 0:
		ref = "\t" + ref + " "
	case 1:
		ref = " " + ref
	case 2:
		ref += " @" + g.one(g2Profiles...)
	}
	return ref
}

// DoctorCase draws a legacy configuration: a corpus document with
// mutations.
func (g *Gen2) DoctorCase() DoctorInput {
	var v any
	if err := json.Unmarshal([]byte(g2LegacyCorpus[g.r.IntN(len(g2LegacyCorpus))]), &v); err != nil {
		panic(err) // the corpus is literal JSON
	}
	cfg := ToObj(v).(Obj)
	for k := g.r.IntN(5); k > 0; k-- {
		scope := []string{"agents", "defaults"}
		if g.p(0.3) {
			scope = []string{"agents", "entries", g.one("main", "ops")}
		}
		in := func(path ...string) []string { return append(append([]string(nil), scope...), path...) }
		switch g.r.IntN(9) {
		case 0:
			cfg = putIn(cfg, g.legacyRef(), in("model")...)
		case 1:
			key := g.one(g2LegacyRefs...)
			if g.p(0.1) {
				key = g.one(key+" ", " "+key, key+"  ")
			}
			cfg = putIn(cfg, Obj{{"agentRuntime", Obj{{"id", g.one("codex", "claude-cli", "auto", "codex-cli", "openclaw", "default")}}}}, in("models", key)...)
		case 2:
			cfg = putIn(cfg, Obj{{"id", g.one("claude-cli", "google-gemini-cli", "codex", "auto")}}, in("agentRuntime")...)
		case 3:
			cfg = putIn(cfg, Obj{{"primary", g.legacyRef()}, {"fallbacks", []any{g.legacyRef()}}}, in("model")...)
		case 4:
			cfg = putIn(cfg, Obj{{"id", g.one("codex-cli", "codex", "openclaw")}}, "models", "providers", g.one("openai", "anthropic"), "agentRuntime")
		case 5:
			allow := []any{g.legacyRef(), g.legacyRef()}
			if g.p(0.15) {
				allow[0] = g.one("codex/*", "openai-codex/*", "Codex/*")
			}
			cfg = putIn(cfg, Obj{{"allow", allow}}, in("modelPolicy")...)
		case 6:
			e := codexProviderEntry(g.r)
			cfg = putIn(cfg, e.V, "models", "providers", e.K)
		case 7:
			cfg = putIn(cfg, openAIProviderRows(g.r), "models", "providers", "openai", "models")
			if g.p(0.2) {
				cfg = putIn(cfg, "${OPENAI_API_KEY}", "models", "providers", "openai", "apiKey")
			}
		default:
			cfg = putIn(cfg, g.legacyRef(), in("subagents", "model")...)
		}
	}
	for _, p := range getIn(cfg, "models", "providers") {
		if _, has := getIn(cfg, "agents", "defaults").Get("model"); legacyCodexProviderKey(p.K) && !has {
			// doctor would imply a primary from the legacy entry's first
			// row and migrate it (the implicit-primary divergence)
			cfg = putIn(cfg, g.legacyRef(), "agents", "defaults", "model")
		}
	}
	if providers := getIn(cfg, "models", "providers"); len(providers) > 0 {
		cfg = putIn(cfg, settleOpenAIBesideCodex(providers), "models", "providers")
	}
	if len(getIn(cfg, "agents", "entries")) > 1 {
		cfg = putIn(cfg, "explicit", "agents", "ownership")
	}
	return DoctorInput{Config: cfg.reorderEach(g)}
}

// ---- load ------------------------------------------------------------------

// LoadCase writes a tree of nested directories, each file including the
// next through a relative path or an array, with variables and escapes.
func (g *Gen2) LoadCase(dir string) (LoadInput, error) {
	depth := 1 + g.r.IntN(4)
	env := map[string]string{"HOME_DIR": "/home/x", "REGION": "eu", "TOKEN_A": "tok-a"}
	in := LoadInput{Dir: dir, Env: env}
	var paths []string
	for i := 0; i < depth; i++ {
		paths = append(paths, filepath.Join(dir, strings.Repeat("sub/", i), "c"+strconv.Itoa(i)+g.one(".json", ".json5")))
	}
	for i := depth - 1; i >= 0; i-- {
		o := Obj{}
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			o.Set(g.one("gateway", "logging", "agents", "tools", "meta", "notes"), g.loadValue2(2))
		}
		if i+1 < depth {
			rel := "./sub/" + filepath.Base(paths[i+1])
			if g.p(0.3) {
				o.Set("$include", []any{rel})
			} else if g.p(0.2) {
				o.Set("agents", Obj{{"$include", rel}})
			} else {
				o.Set("$include", rel)
			}
		}
		if g.p(0.02) {
			o.Set("__proto__", Obj{{"polluted", true}})
		}
		if g.p(0.12) {
			// an env section (main or included file): vars and shorthand
			// keys OpenClaw applies before substituting
			vars := Obj{{g.one("REGION", "UNSET_B", "NEW_C"), g.one("us", "${REGION}", " ", "", "$${TOKEN_A}")}}
			if g.p(0.3) {
				vars.Set(g.one("NODE_OPTIONS", " UNSET_B", "new_c"), g.one("v", "--x"))
			}
			env := Obj{{"vars", vars}}
			if g.p(0.3) {
				env.Set(g.one("UNSET_B", "NEW_C"), g.anyOf("short", 7))
			}
			o.Set("env", env)
			in.EnvSection = true
		}
		text, dup := g.write(o.reorderEach(g), strings.HasSuffix(paths[i], ".json5"))
		in.Duplicate = in.Duplicate || dup
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			return LoadInput{}, err
		}
		if err := os.WriteFile(paths[i], []byte(text), 0o644); err != nil {
			return LoadInput{}, err
		}
	}
	in.Main = paths[0]
	return in, nil
}

func (g *Gen2) loadValue2(depth int) any {
	if depth == 0 || g.p(0.35) {
		switch g.r.IntN(9) {
		case 0:
			return g.r.IntN(1000) - 10
		case 1:
			return nil
		case 2:
			return []any{"${REGION}", 1}
		case 3:
			return "${" + g.one("HOME_DIR", "TOKEN_A", "UNSET_B", "NEW_C") + "}/x"
		case 4:
			return "$${REGION} literal"
		}
		return g.one("a b", "info", "ollama/llama3.3", "")
	}
	o := Obj{}
	for k := 1 + g.r.IntN(3); k > 0; k-- {
		o.Set(g.one("level", "file", "primary", "models", "bind", "port", "x-y"), g.loadValue2(depth-1))
	}
	return o
}

// write renders o as JSON or JSON5 (line comments, unquoted keys,
// trailing commas), sometimes with one key written twice.
func (g *Gen2) write(o Obj, json5 bool) (string, bool) {
	dup := false
	var val func(v any) string
	val = func(v any) string {
		switch x := v.(type) {
		case Obj:
			var parts []string
			for _, m := range x {
				k := strconv.Quote(m.K)
				if json5 && isIdent(m.K) {
					k = m.K
				}
				parts = append(parts, k+": "+val(m.V))
			}
			if len(x) > 0 && !dup && g.p(0.005) {
				parts = append(parts, strconv.Quote(x[0].K)+": "+val("dup"))
				dup = true
			}
			sep := ","
			if json5 {
				sep = ", // c\n"
			}
			return "{" + strings.Join(parts, sep) + "}"
		case []any:
			var parts []string
			for _, e := range x {
				parts = append(parts, val(e))
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	return val(o), dup
}

func (in LoadInput) String() string { return fmt.Sprintf("load %s", in.Main) }
