package compile

import (
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// A Configuration's `env` section defines variables for itself (DOC-4, as
// OpenClaw's loader applies it before it substitutes; the package doc,
// "Variables the document defines"). envEntry is one of them.
type envEntry struct{ name, value string }

// zaiKey and zaiAlias are the one pair of names OpenClaw treats as one
// variable: the legacy spelling fills the canonical one when that is
// blank, in the process environment at start and again after the env
// section is applied.
const (
	zaiKey   = "ZAI_API_KEY"
	zaiAlias = "Z_AI_API_KEY"
)

// documentEnv returns the variables a document defines through its
// top-level `env` object, env: the string members of
// env.vars, then the string members of env itself other than `vars` and
// `shellEnv` (a later definition of a name replaces an earlier one, so
// the shorthand wins over env.vars). A definition counts only when its
// name, trimmed of JavaScript white space, is one OpenClaw applies, and
// its value is not blank and holds no ${NAME}
// reference (an escaped $${NAME} is no reference). Values are kept as
// written, not trimmed and not unescaped. applies is the release's
// [envpolicy.Policy.ConfigEnvApplies]: a portable variable name that
// OpenClaw lets a configuration set.
func documentEnv(env gjson.Result, applies func(name string) bool) []envEntry {
	if !env.IsObject() {
		return nil
	}
	var out []envEntry
	index := map[string]int{}
	add := func(k, v gjson.Result) bool {
		if v.Type != gjson.String || jsTrim(v.Str) == "" {
			return true
		}
		name := jsTrim(k.Str)
		if !applies(name) || appendVarRefs(nil, v.Str) != nil {
			return true
		}
		if i, ok := index[name]; ok {
			out[i].value = v.Str
			return true
		}
		index[name] = len(out)
		out = append(out, envEntry{name, v.Str})
		return true
	}
	if vars := env.Get("vars"); vars.IsObject() {
		vars.ForEach(add)
	}
	env.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "vars" || k.Str == "shellEnv" {
			return true
		}
		return add(k, v)
	})
	return out
}

// definedNames returns, sorted, the names entries define, with
// ZAI_API_KEY when Z_AI_API_KEY is among them: OpenClaw fills the
// canonical spelling from the legacy one.
func definedNames(entries []envEntry) []string {
	names := make([]string, 0, len(entries)+1)
	for _, e := range entries {
		names = append(names, e.name)
	}
	if slices.Contains(names, zaiAlias) && !slices.Contains(names, zaiKey) {
		names = append(names, zaiKey)
	}
	sort.Strings(names)
	return names
}

// envLookup is lookup (the process environment) as OpenClaw's loader sees
// it after applying the document's env section, entries: a variable the
// environment sets to a non-blank value keeps it, the document's value
// fills the others, and the ZAI_API_KEY pair is normalized before and
// after. Only names the document defines or the pair are looked up
// eagerly; every other name goes to lookup as it is asked.
func envLookup(lookup func(string) (string, bool), entries []envEntry) func(string) (string, bool) {
	// The process environment as OpenClaw starts with it: the legacy
	// spelling fills a blank canonical name.
	base := func(name string) (string, bool) {
		v, ok := lookup(name)
		if name == zaiKey && jsTrim(v) == "" {
			if a, aok := lookup(zaiAlias); jsTrim(a) != "" {
				return a, aok
			}
		}
		return v, ok
	}
	set := map[string]string{}
	var pairValues []string // the document's values of either name of the pair
	for _, e := range entries {
		if e.name == zaiKey || e.name == zaiAlias {
			pairValues = append(pairValues, e.value)
		}
	}
	for _, e := range entries {
		if e.name == zaiKey || e.name == zaiAlias {
			// A non-blank environment value of either name that the
			// document does not itself define wins, the canonical
			// name first.
			won := false
			for _, n := range []string{zaiKey, zaiAlias} {
				if v, _ := base(n); jsTrim(v) != "" && !slices.Contains(pairValues, v) {
					set[e.name], won = v, true
					break
				}
			}
			if won {
				continue
			}
		}
		if v, _ := base(e.name); jsTrim(v) != "" {
			continue
		}
		set[e.name] = e.value
	}
	get := func(name string) (string, bool) {
		if v, ok := set[name]; ok {
			return v, true
		}
		return base(name)
	}
	if v, _ := get(zaiKey); jsTrim(v) == "" {
		if a, _ := get(zaiAlias); jsTrim(a) != "" {
			set[zaiKey] = a
		}
	}
	return get
}

// jsTrim is JavaScript's String.prototype.trim: it removes white space
// and line terminators as ECMAScript defines them (U+FEFF included,
// U+0085 not, unlike strings.TrimSpace).
func jsTrim(s string) string {
	start := 0
	for start < len(s) {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !jsSpace(r) {
			break
		}
		start += n
	}
	end := len(s)
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !jsSpace(r) {
			break
		}
		end -= n
	}
	return s[start:end]
}

func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
