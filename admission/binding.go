package admission

import (
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// Shape rules (AUTH-4a): for each method, its required keys and, per key,
// what it must hold.
var bindingKeys = map[occkit.Method][]string{
	occkit.MethodAPIKey:           {"method", "source"},
	occkit.MethodCodexPAT:         {"method", "source"},
	occkit.MethodCredentialSource: {"method", "sourceId", "sourceType"},
	occkit.MethodRuntime:          {"method"},
}

var sourceKeys = []string{"id", "kind", "namespaceId"}

// ParseBinding checks the shape of a harnessAuth value (AUTH-4a) and
// returns it as a [occkit.Binding]. v absent or JSON null gives the zero Binding
// and no error (AUTH-1: "no binding" is a valid stored state). at is the
// path of the value, used in errors: every refusal is 400 INVALID_REQUEST
// naming the offending key.
//
// The JSON-only rules (an object, no duplicate or unknown keys, every
// required key present, strings where strings belong) are checked here;
// everything else is [Binding.Validate], the one check a typed Binding
// built as a Go value goes through too.
//
// The shape does not depend on the topology: that codex-oauth is for
// dedicated Codex only is checked by [ValidateHarnessAuth].
//
// raw is the JSON text of the value; nil or empty is absent.
func ParseBinding(raw []byte, at occkit.Path) (occkit.Binding, error) {
	return parseBinding(jsonValue(raw), at)
}

// parseBinding is the parser behind the exported function, on a value already read.
func parseBinding(v gjson.Result, at occkit.Path) (occkit.Binding, error) {
	if !v.Exists() || v.Type == gjson.Null {
		return occkit.Binding{}, nil
	}
	// A Result from gjson.Parse over truncated text still reads as an
	// object: only whole, valid JSON is a binding.
	if !v.IsObject() || !gjson.Valid(v.Raw) {
		return occkit.Binding{}, occkit.Invalid("AUTH-4a", at, "harnessAuth must be an object or null")
	}
	if err := noDuplicateKeys(v, at); err != nil {
		return occkit.Binding{}, err
	}
	m := v.Get("method")
	mp := at.Key("method")
	if !m.Exists() {
		return occkit.Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method is required; accepted: %s", methodList())
	}
	if m.Type != gjson.String {
		return occkit.Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be a string; accepted: %s", methodList())
	}
	method := occkit.Method(m.Str)
	keys, ok := bindingKeys[method]
	if !ok {
		e := occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be one of %s%s", methodList(), occkit.DidYouMean(m.Str, methodNames()))
		e.Suggestion = occkit.Suggest(m.Str, methodNames())
		return occkit.Binding{}, e
	}
	if err := exactKeys(v, at, keys); err != nil {
		return occkit.Binding{}, err
	}
	b := occkit.Binding{Method: method}
	switch method {
	case occkit.MethodAPIKey, occkit.MethodCodexPAT:
		src := v.Get("source")
		sp := at.Key("source")
		if !src.IsObject() {
			return occkit.Binding{}, occkit.Invalid("AUTH-4a", sp, "harnessAuth.source must be an object")
		}
		if err := noDuplicateKeys(src, sp); err != nil {
			return occkit.Binding{}, err
		}
		if err := exactKeys(src, sp, sourceKeys); err != nil {
			return occkit.Binding{}, err
		}
		for _, k := range sourceKeys {
			if src.Get(k).Type != gjson.String {
				return occkit.Binding{}, occkit.Invalid("AUTH-4a", sp.Key(k), "%s must be a string", sp.Key(k).String())
			}
		}
		b.Source = occkit.SourceRef{Kind: occkit.SourceKind(src.Get("kind").Str), NamespaceID: src.Get("namespaceId").Str, ID: src.Get("id").Str}
	case occkit.MethodCredentialSource:
		for _, k := range []string{"sourceId", "sourceType"} {
			if v.Get(k).Type != gjson.String {
				return occkit.Binding{}, occkit.Invalid("AUTH-4a", at.Key(k), "%s must be a string", at.Key(k).String())
			}
		}
		b.SourceID, b.SourceType = v.Get("sourceId").Str, occkit.SourceType(v.Get("sourceType").Str)
	}
	if err := b.ValidateAt(at); err != nil {
		return occkit.Binding{}, err
	}
	return b, nil
}

// exactKeys refuses a missing required key or any extra key, reporting the
// first problem in key order so the error is deterministic. An extra key
// that is a typo of an accepted one ("sorce") carries it as its
// Suggestion, preferring the keys the object lacks.
func exactKeys(v gjson.Result, at occkit.Path, want []string) error {
	allowed := make(map[string]bool, len(want))
	for _, k := range want {
		allowed[k] = true
	}
	var extra []string
	v.ForEach(func(k, _ gjson.Result) bool {
		if !allowed[k.String()] {
			extra = append(extra, k.String())
		}
		return true
	})
	if len(extra) > 0 {
		sort.Strings(extra)
		var missing []string
		for _, k := range want {
			if !v.Get(occkit.NewPath(k).GJSON()).Exists() {
				missing = append(missing, k)
			}
		}
		s := ""
		if !knownBindingKey(extra[0]) {
			// A key of another method's shape is misplaced, not misspelt.
			if s = occkit.Suggest(extra[0], missing); s == "" {
				s = occkit.Suggest(extra[0], want)
			}
		}
		e := occkit.Invalid("AUTH-4a", at.Key(extra[0]), "unknown key in harnessAuth; accepted here: %s", strings.Join(want, ", "))
		if s != "" {
			e.Suggestion = at.Key(s).String()
			e.Detail += "; did you mean " + e.Suggestion + "?"
		}
		return e
	}
	sorted := append([]string(nil), want...)
	sort.Strings(sorted)
	for _, k := range sorted {
		if !v.Get(occkit.NewPath(k).GJSON()).Exists() {
			return occkit.Invalid("AUTH-4a", at.Key(k), "%s is required", at.Key(k).String())
		}
	}
	return nil
}

// knownBindingKey reports whether k is a key of some binding or source
// shape.
func knownBindingKey(k string) bool {
	for _, keys := range bindingKeys {
		if slices.Contains(keys, k) {
			return true
		}
	}
	return slices.Contains(sourceKeys, k)
}

// noDuplicateKeys refuses an object that names a key twice: gjson reads the
// first and encoding/json the last, so two readers could see two bindings
// (DOC-2).
func noDuplicateKeys(v gjson.Result, at occkit.Path) error {
	seen := map[string]bool{}
	var dup string
	v.ForEach(func(k, _ gjson.Result) bool {
		if seen[k.String()] {
			dup = k.String()
			return false
		}
		seen[k.String()] = true
		return true
	})
	if dup != "" {
		return occkit.Invalid("AUTH-4a", at.Key(dup), "duplicate key in harnessAuth")
	}
	return nil
}

// methodList names the accepted methods for refusals.
func methodList() string { return strings.Join(methodNames(), ", ") }

func methodNames() []string {
	names := make([]string, 0, len(occkit.AllMethods()))
	for _, m := range occkit.AllMethods() {
		names = append(names, string(m))
	}
	return names
}

// jsonValue reads raw JSON text as a gjson value; nil or empty raw is an
// absent value (so absent and JSON null stay distinct).
func jsonValue(raw []byte) gjson.Result {
	if len(raw) == 0 {
		return gjson.Result{}
	}
	return gjson.ParseBytes(raw)
}
