package admission

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/deploy"
)

// Shape rules (AUTH-4a): for each method, its required keys and, per key,
// what it must hold.
var bindingKeys = map[deploy.Method][]string{
	deploy.MethodAPIKey:           {"method", "source"},
	deploy.MethodCodexPAT:         {"method", "source"},
	deploy.MethodCredentialSource: {"method", "sourceId", "sourceType"},
	deploy.MethodRuntime:          {"method"},
}

var sourceKeys = []string{"id", "kind", "namespaceId"}

// maxRefLen caps a reference ID; IDs are opaque but bounded.
const maxRefLen = 256

// ParseBinding checks the shape of a harnessAuth value (AUTH-4a) and
// returns it as a [deploy.Binding]. v absent or JSON null gives the zero Binding
// and no error (AUTH-1: "no binding" is a valid stored state). at is the
// path of the value, used in errors: every refusal is 400 INVALID_REQUEST
// naming the offending key.
//
// The shape does not depend on the topology: that codex-oauth is for
// dedicated Codex only is checked by [ValidateHarnessAuth].
func ParseBinding(v gjson.Result, at occkit.Path) (deploy.Binding, error) {
	if !v.Exists() || v.Type == gjson.Null {
		return deploy.Binding{}, nil
	}
	// A Result from gjson.Parse over truncated text still reads as an
	// object: only whole, valid JSON is a binding.
	if !v.IsObject() || !gjson.Valid(v.Raw) {
		return deploy.Binding{}, occkit.Invalid("AUTH-4a", at, "harnessAuth must be an object or null")
	}
	if err := noDuplicateKeys(v, at); err != nil {
		return deploy.Binding{}, err
	}
	m := v.Get("method")
	mp := at.Key("method")
	if !m.Exists() {
		return deploy.Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method is required")
	}
	if m.Type != gjson.String {
		return deploy.Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be a string")
	}
	method := deploy.Method(m.Str)
	keys, ok := bindingKeys[method]
	if !ok {
		return deploy.Binding{}, occkit.Invalid("AUTH-4a", mp,
			"harnessAuth.method must be one of api_key, codex_pat, credential_source, runtime")
	}
	if err := exactKeys(v, at, keys); err != nil {
		return deploy.Binding{}, err
	}
	b := deploy.Binding{Method: method}
	switch method {
	case deploy.MethodAPIKey, deploy.MethodCodexPAT:
		src, err := parseSource(v.Get("source"), at.Key("source"), method)
		if err != nil {
			return deploy.Binding{}, err
		}
		b.Source = src
	case deploy.MethodCredentialSource:
		id, err := refString(v.Get("sourceId"), at.Key("sourceId"))
		if err != nil {
			return deploy.Binding{}, err
		}
		t := v.Get("sourceType")
		tp := at.Key("sourceType")
		if t.Type != gjson.String {
			return deploy.Binding{}, occkit.Invalid("AUTH-4a", tp, "harnessAuth.sourceType must be a string")
		}
		st := deploy.SourceType(t.Str)
		if st != deploy.SourceTypeAPIKey && st != deploy.SourceTypeCodexOAuth {
			return deploy.Binding{}, occkit.Invalid("AUTH-4a", tp, "harnessAuth.sourceType must be api_key or codex-oauth")
		}
		b.SourceID, b.SourceType = id, st
	}
	return b, nil
}

func parseSource(v gjson.Result, at occkit.Path, method deploy.Method) (deploy.SourceRef, error) {
	if !v.IsObject() {
		return deploy.SourceRef{}, occkit.Invalid("AUTH-4a", at, "harnessAuth.source must be an object")
	}
	if err := noDuplicateKeys(v, at); err != nil {
		return deploy.SourceRef{}, err
	}
	if err := exactKeys(v, at, sourceKeys); err != nil {
		return deploy.SourceRef{}, err
	}
	k := v.Get("kind")
	kp := at.Key("kind")
	if k.Type != gjson.String {
		return deploy.SourceRef{}, occkit.Invalid("AUTH-4a", kp, "harnessAuth.source.kind must be a string")
	}
	kind := deploy.SourceKind(k.Str)
	switch {
	case kind == deploy.SourceSecret:
	case kind == deploy.SourceServiceAccount && method == deploy.MethodCodexPAT:
	case method == deploy.MethodCodexPAT:
		return deploy.SourceRef{}, occkit.Invalid("AUTH-4a", kp, "harnessAuth.source.kind must be secret or service_account")
	default:
		return deploy.SourceRef{}, occkit.Invalid("AUTH-4a", kp, "harnessAuth.source.kind must be secret for %s", method)
	}
	ns, err := refString(v.Get("namespaceId"), at.Key("namespaceId"))
	if err != nil {
		return deploy.SourceRef{}, err
	}
	id, err := refString(v.Get("id"), at.Key("id"))
	if err != nil {
		return deploy.SourceRef{}, err
	}
	return deploy.SourceRef{Kind: kind, NamespaceID: ns, ID: id}, nil
}

// refString checks an opaque reference: a non-blank string of valid UTF-8
// without control characters, at most maxRefLen bytes. Invalid UTF-8 would
// not survive the snapshot's JSON encoding, so the frozen reference would
// name something else than the one admitted.
func refString(v gjson.Result, at occkit.Path) (string, error) {
	if v.Type != gjson.String {
		return "", occkit.Invalid("AUTH-4a", at, "%s must be a string reference", at.String())
	}
	s := v.Str
	if strings.TrimSpace(s) == "" || len(s) > maxRefLen || s != strings.TrimSpace(s) {
		return "", occkit.Invalid("AUTH-4a", at, "%s must be a non-blank, trimmed reference of at most %d bytes", at.String(), maxRefLen)
	}
	if !utf8.ValidString(s) {
		return "", occkit.Invalid("AUTH-4a", at, "%s must be valid UTF-8", at.String())
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return "", occkit.Invalid("AUTH-4a", at, "%s must not contain control characters", at.String())
		}
	}
	return s, nil
}

// exactKeys refuses a missing required key or any extra key, reporting the
// first problem in key order so the error is deterministic.
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
		return occkit.Invalid("AUTH-4a", at.Key(extra[0]), "unknown key in harnessAuth")
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
