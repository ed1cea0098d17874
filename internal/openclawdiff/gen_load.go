package openclawdiff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LoadInput is one configuration file tree written under Dir: Main is the
// file to load, Env the variables the lookup knows.
type LoadInput struct {
	Dir  string
	Main string
	Env  map[string]string
	// Duplicate: a file of the tree names one key twice in an object.
	Duplicate bool
	// EnvSection: some file of the tree has an env section.
	EnvSection bool
}

var genVarNames = []string{"OPENAI_KEY", "MODEL", "TEAM", "BASE_URL", "EMPTY", "MISSING_ONE"}

// genDefNames are the names an env section defines and a reference asks
// for: ordinary ones (some also in the environment), names OpenClaw will
// not take from a configuration, and the ZAI_API_KEY pair.
var genDefNames = []string{"DEF_A", "DEF_B", "TEAM", "BLANKENV", "NODE_OPTIONS", "LD_AUDIT", "GIT_CONFIG_COUNT", "OPENCLAW_INCLUDE_ROOTS", "ZAI_API_KEY", "Z_AI_API_KEY"}

func (g *Gen) envMap() map[string]string {
	env := map[string]string{"OPENAI_KEY": "sk-test-1", "MODEL": "openai/gpt-5", "TEAM": "core", "BASE_URL": "http://localhost:8000/v1"}
	if g.chance(0.3) {
		env["EMPTY"] = ""
	}
	if g.chance(0.3) {
		env["BLANKENV"] = g.pick(" ", "\t", "")
	}
	if g.chance(0.2) {
		env[g.pick("ZAI_API_KEY", "Z_AI_API_KEY")] = g.pick("zai-env", " ")
	}
	return env
}

// envSection draws an `env` section as OpenClaw configurations write it:
// env.vars and shorthand keys, with values that are plain, blank,
// escaped, referencing or not strings, and keys written with spaces.
func (g *Gen) envSection() map[string]any {
	value := func() any {
		switch g.r.IntN(9) {
		case 0:
			return "${" + g.pick(append(genVarNames[:4:4], genDefNames...)...) + "}"
		case 1:
			return "$${" + g.pick(genDefNames...) + "}"
		case 2:
			return g.pick(" ", "", "\u00a0")
		case 3:
			return g.r.IntN(10)
		}
		return g.pick("v1", "v2", " padded ", "sk-doc")
	}
	name := func() string {
		n := g.pick(genDefNames...)
		if g.chance(0.1) {
			n = g.pick(" ", "\t") + n + " "
		}
		if g.chance(0.05) {
			n = strings.ToLower(n)
		}
		return n
	}
	sec := map[string]any{}
	if g.chance(0.8) {
		vars := map[string]any{}
		for n := 1 + g.r.IntN(4); n > 0; n-- {
			vars[name()] = value()
		}
		sec["vars"] = vars
	}
	for n := g.r.IntN(3); n > 0; n-- {
		sec[name()] = value()
	}
	if g.chance(0.1) {
		sec["shellEnv"] = map[string]any{"enabled": false}
	}
	return sec
}

// defRef draws a string referencing a name an env section may define.
func (g *Gen) defRef() string {
	return g.pick("", "x-") + "${" + g.pick(genDefNames...) + "}"
}

// str draws a string value, sometimes with ${VAR} references or escapes.
func (g *Gen) str() string {
	switch g.r.IntN(10) {
	case 0:
		return "${" + g.pick(genVarNames[:4]...) + "}"
	case 1:
		return "prefix-${" + g.pick(genVarNames...) + "}-suffix"
	case 2:
		return "$${" + g.pick(genVarNames...) + "}"
	case 3:
		return "${lower_case}"
	case 4:
		return "cost $5 ${TEAM}"
	case 5:
		if g.defs {
			return g.defRef()
		}
	}
	return g.pick("openai/gpt-5", "fast", "anthropic/claude-sonnet-4-5", "info", "explicit", "main")
}

func (g *Gen) loadValue(depth int) any {
	if depth <= 0 || g.chance(0.4) {
		switch g.r.IntN(6) {
		case 0:
			return g.r.IntN(100)
		case 1:
			return g.chance(0.5)
		case 2:
			return []any{g.str(), g.str()}
		}
		return g.str()
	}
	var ms []Member
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		ms = append(ms, Member{g.pick("agents", "defaults", "model", "models", "logging", "level", "providers", "headers", "tags", "list", "name"), g.loadValue(depth - 1)})
	}
	if g.chance(0.005) {
		ms = append(ms, Member{"__proto__", g.loadValue(depth - 1)})
	}
	return g.obj(dedupe(ms)...)
}

// LoadCase writes a random include tree into dir and returns it. A
// third of the trees have an env section, in the main file or an
// included one, and references to what it may define.
func (g *Gen) LoadCase(dir string) (LoadInput, error) {
	g.defs = g.chance(0.33)
	defer func() { g.defs = false }()
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		return LoadInput{}, err
	}
	files := map[string]Obj{}
	section := false
	names := []string{"main.json", "inc/a.json5", "inc/b.json", "inc/c.json5"}
	// Included files first, each may include a later one (or make a cycle).
	for i := len(names) - 1; i >= 1; i-- {
		var v Obj
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			v.Set(g.pick("agents", "logging", "models", "tags", "name", "list"), g.loadValue(2))
		}
		if i+1 < len(names) && g.chance(0.4) {
			v.Set("$include", "./"+filepath.Base(names[i+1]))
		}
		if g.chance(0.03) {
			v.Set("$include", "../main.json") // cycle
		}
		if g.defs && g.chance(0.2) {
			v.Set("env", ToObj(g.envSection()).(Obj).Shuffle(g.r.Shuffle))
			section = true
		}
		files[names[i]] = v.Shuffle(g.r.Shuffle)
	}
	var main Obj
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		main.Set(g.pick("agents", "logging", "gateway", "tags", "name"), g.loadValue(2))
	}
	switch g.r.IntN(8) {
	case 0, 1:
		main.Set("$include", "./inc/a.json5")
	case 2:
		main.Set("$include", []any{"./inc/a.json5", "./inc/b.json"})
	case 3:
		main.Set("agents", g.obj(Member{"$include", "./inc/b.json"}, Member{"ownership", g.str()}))
	case 4:
		main.Set("$include", g.pick("./inc/missing.json", "../outside.json", "/etc/hostname", "./inc/c.json5"))
	}
	if g.defs && g.chance(0.7) {
		main.Set("env", ToObj(g.envSection()).(Obj).Shuffle(g.r.Shuffle))
		section = true
	}
	files[names[0]] = main.Shuffle(g.r.Shuffle)
	in := LoadInput{Dir: dir, Main: filepath.Join(dir, names[0]), Env: g.envMap(), EnvSection: section}
	for _, name := range names {
		v := files[name]
		if len(v) > 0 && g.chance(0.02) {
			// a duplicate key: the same member name twice
			m := v[g.r.IntN(len(v))]
			v = append(v, Member{m.K, g.str()})
			in.Duplicate = true
		}
		var text string
		if strings.HasSuffix(name, ".json5") || g.chance(0.2) {
			text = g.json5(v, 0)
		} else {
			b, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				return LoadInput{}, err
			}
			text = string(b)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return LoadInput{}, err
		}
	}
	return in, nil
}

// json5 writes v as JSON5 as people write it: unquoted keys, single
// quotes, comments and trailing commas.
func (g *Gen) json5(v any, indent int) string {
	pad := strings.Repeat("  ", indent)
	switch x := v.(type) {
	case Obj:
		var b strings.Builder
		b.WriteString("{\n")
		for i, m := range x {
			if g.chance(0.15) {
				b.WriteString(pad + "  // note\n")
			}
			key := strconv.Quote(m.K)
			if isIdent(m.K) && g.chance(0.7) {
				key = m.K
			}
			b.WriteString(pad + "  " + key + ": " + g.json5(m.V, indent+1))
			if i < len(x)-1 || g.chance(0.5) {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(pad + "}")
		return b.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = g.json5(e, indent+1)
		}
		tail := ""
		if len(parts) > 0 && g.chance(0.5) {
			tail = ","
		}
		return "[" + strings.Join(parts, ", ") + tail + "]"
	case string:
		if !strings.ContainsAny(x, `'\`) && g.chance(0.6) {
			return "'" + x + "'"
		}
		return strconv.Quote(x)
	case int:
		return strconv.Itoa(x)
	case bool:
		return fmt.Sprint(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
