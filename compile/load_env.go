package compile

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
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
// name, trimmed of JavaScript white space, is a portable variable name
// ([A-Za-z_][A-Za-z0-9_]*) that OpenClaw lets a configuration set
// ([blockedConfigVar]), and its value is not blank and holds no ${NAME}
// reference (an escaped $${NAME} is no reference). Values are kept as
// written, not trimmed and not unescaped.
func documentEnv(env gjson.Result) []envEntry {
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
		if !portableName(name) || blockedConfigVar(name) || hasReference(v.Str) {
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

// DefinedVars returns, sorted, the names of the variables doc defines for
// itself through its `env` section (env.vars and the string shorthand
// keys beside it), as OpenClaw applies them to its environment before it
// substitutes ${NAME} (DOC-4): a name it refuses to let a configuration
// set, a blank value or a value that itself holds a ${NAME} reference
// defines nothing. A ${NAME} reference to one of these names is satisfied
// by the document itself when the process environment does not set it.
// Z_AI_API_KEY also defines ZAI_API_KEY, OpenClaw's canonical spelling.
// doc is read as it is: call it on a loaded document.
func DefinedVars(doc occkit.Document) []string {
	entries := documentEnv(docjson.Get(doc, occkit.NewPath("env")))
	names := make([]string, 0, len(entries)+1)
	alias := false
	for _, e := range entries {
		names = append(names, e.name)
		alias = alias || e.name == zaiAlias
	}
	if alias && !slices.Contains(names, zaiKey) {
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

// portableName reports whether name is a portable environment variable
// name, the only kind OpenClaw takes from a configuration.
func portableName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return name != ""
}

// hasReference reports whether s holds a ${NAME} reference that
// substitution would replace (an escaped $${NAME} is none).
func hasReference(s string) bool {
	var sc refScanner
	sc.s = s
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		if strings.HasPrefix(s[i:], "$${") {
			if kind, end := sc.refAt(i + 3); kind == refEnv {
				i = end
				continue
			}
		}
		if strings.HasPrefix(s[i:], "${") {
			if kind, _ := sc.refAt(i + 2); kind == refEnv {
				return true
			}
		}
	}
	return false
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

// envblock.txt lists the names OpenClaw's loader refuses to take from a
// configuration's env section in the pinned release: names that make a
// runtime or tool load code or change whom it trusts, and OpenClaw's own
// switches. Generated by testdata/envblock.mjs; the differential tier
// compares [blockedConfigVar] with the real predicate.
//
//go:embed envblock.txt
var envBlockText string

// envBlock is envblock.txt read once: upper-case names, prefixes, and the
// prefix and suffixes of the Cargo target pattern
// (CARGO_TARGET_<NAME>_LINKER or _RUNNER).
var envBlock = parseEnvBlock(envBlockText)

type envBlockList struct {
	keys        map[string]bool
	prefixes    []string
	cargo       string
	cargoSuffix []string
}

func parseEnvBlock(text string) envBlockList {
	l := envBlockList{keys: map[string]bool{}}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(line, "#") {
			continue
		}
		switch f[0] {
		case "key":
			l.keys[f[1]] = true
		case "prefix":
			l.prefixes = append(l.prefixes, f[1])
		case "cargo":
			l.cargo, l.cargoSuffix = f[1], f[2:]
		}
	}
	return l
}

// blockedConfigVar reports whether OpenClaw refuses to let a
// configuration's env section set name, compared without case.
func blockedConfigVar(name string) bool {
	up := strings.ToUpper(name)
	if envBlock.keys[up] {
		return true
	}
	for _, p := range envBlock.prefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	// ^CARGO_TARGET_[A-Z0-9_]+_(?:LINKER|RUNNER)$
	if rest, ok := strings.CutPrefix(up, envBlock.cargo); ok && envBlock.cargo != "" {
		for _, s := range envBlock.cargoSuffix {
			if mid, ok := strings.CutSuffix(rest, s); ok && mid != "" && strings.Trim(mid, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
				return true
			}
		}
	}
	return false
}
