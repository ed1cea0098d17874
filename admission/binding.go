package admission

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// Method is a harnessAuth method (AUTH-4a). The set is closed: see
// [AllMethods].
type Method string

// The harnessAuth methods.
const (
	// MethodAPIKey: a provider API key read from an OCC Secret.
	MethodAPIKey Method = "api_key"
	// MethodCodexPAT: a Codex access token read from an OCC Secret or a
	// managed ServiceAccount.
	MethodCodexPAT Method = "codex_pat"
	// MethodCredentialSource: a Credential Gateway source; the Harness only
	// ever sees a placeholder and the Sandbox egress proxy inserts the key.
	MethodCredentialSource Method = "credential_source"
	// MethodRuntime: the runtime host supplies its own credentials (SSH).
	MethodRuntime Method = "runtime"
)

// AllMethods lists every [Method].
func AllMethods() []Method {
	return []Method{MethodAPIKey, MethodCodexPAT, MethodCredentialSource, MethodRuntime}
}

// SourceKind says where a Secret-backed method reads its credential.
type SourceKind string

// Source kinds.
const (
	// SourceSecret is an OCC Secret.
	SourceSecret SourceKind = "secret"
	// SourceServiceAccount is a managed ServiceAccount (codex_pat only).
	SourceServiceAccount SourceKind = "service_account"
)

// AllSourceKinds lists every [SourceKind].
func AllSourceKinds() []SourceKind { return []SourceKind{SourceSecret, SourceServiceAccount} }

// SourceType is the type of a Credential Gateway source (AUTH-3).
type SourceType string

// Credential source types.
const (
	// SourceTypeAPIKey is an OpenAI API key held by the gateway.
	SourceTypeAPIKey SourceType = "api_key"
	// SourceTypeCodexOAuth is the external ChatGPT authentication contract;
	// dedicated Codex only.
	SourceTypeCodexOAuth SourceType = "codex-oauth"
)

// AllSourceTypes lists every [SourceType].
func AllSourceTypes() []SourceType { return []SourceType{SourceTypeAPIKey, SourceTypeCodexOAuth} }

// SourceRef is an exact reference to a stored credential: never its bytes
// (ADM-7 freezes the reference, not historical Secret bytes).
type SourceRef struct {
	Kind        SourceKind
	NamespaceID string
	ID          string
}

// Binding is a harnessAuth binding: which credential authenticates the
// Harness to its model provider (AUTH-1). It holds references only. The zero
// Binding is "no binding" (JSON null).
type Binding struct {
	Method Method
	// Source is set for api_key and codex_pat.
	Source SourceRef
	// SourceID and SourceType are set for credential_source.
	SourceID   string
	SourceType SourceType
}

// IsZero reports whether b is "no binding".
func (b Binding) IsZero() bool { return b == Binding{} }

// JSON renders the binding as the canonical (key-sorted) JSON of its public
// shape; the zero Binding renders as null. This is the frozen snapshot.
func (b Binding) JSON() []byte {
	var s strings.Builder
	switch b.Method {
	case "":
		return []byte("null")
	case MethodAPIKey, MethodCodexPAT:
		s.WriteString(`{"method":`)
		s.Write(gjson.AppendJSONString(nil, string(b.Method)))
		s.WriteString(`,"source":{"id":`)
		s.Write(gjson.AppendJSONString(nil, b.Source.ID))
		s.WriteString(`,"kind":`)
		s.Write(gjson.AppendJSONString(nil, string(b.Source.Kind)))
		s.WriteString(`,"namespaceId":`)
		s.Write(gjson.AppendJSONString(nil, b.Source.NamespaceID))
		s.WriteString(`}}`)
	case MethodCredentialSource:
		s.WriteString(`{"method":"credential_source","sourceId":`)
		s.Write(gjson.AppendJSONString(nil, b.SourceID))
		s.WriteString(`,"sourceType":`)
		s.Write(gjson.AppendJSONString(nil, string(b.SourceType)))
		s.WriteString(`}`)
	default:
		s.WriteString(`{"method":`)
		s.Write(gjson.AppendJSONString(nil, string(b.Method)))
		s.WriteString(`}`)
	}
	return []byte(s.String())
}

// Shape rules (AUTH-4a): for each method, its required keys and, per key,
// what it must hold.
var bindingKeys = map[Method][]string{
	MethodAPIKey:           {"method", "source"},
	MethodCodexPAT:         {"method", "source"},
	MethodCredentialSource: {"method", "sourceId", "sourceType"},
	MethodRuntime:          {"method"},
}

var sourceKeys = []string{"id", "kind", "namespaceId"}

// maxRefLen caps a reference ID; IDs are opaque but bounded.
const maxRefLen = 256

// ParseBinding checks the shape of a harnessAuth value (AUTH-4a) and
// returns it as a [Binding]. v absent or JSON null gives the zero Binding
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
func ParseBinding(v gjson.Result, at occkit.Path) (Binding, error) {
	if !v.Exists() || v.Type == gjson.Null {
		return Binding{}, nil
	}
	// A Result from gjson.Parse over truncated text still reads as an
	// object: only whole, valid JSON is a binding.
	if !v.IsObject() || !gjson.Valid(v.Raw) {
		return Binding{}, occkit.Invalid("AUTH-4a", at, "harnessAuth must be an object or null")
	}
	if err := noDuplicateKeys(v, at); err != nil {
		return Binding{}, err
	}
	m := v.Get("method")
	mp := at.Key("method")
	if !m.Exists() {
		return Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method is required; accepted: %s", methodList())
	}
	if m.Type != gjson.String {
		return Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be a string; accepted: %s", methodList())
	}
	method := Method(m.Str)
	keys, ok := bindingKeys[method]
	if !ok {
		return Binding{}, occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be one of %s", methodList())
	}
	if err := exactKeys(v, at, keys); err != nil {
		return Binding{}, err
	}
	b := Binding{Method: method}
	switch method {
	case MethodAPIKey, MethodCodexPAT:
		src := v.Get("source")
		sp := at.Key("source")
		if !src.IsObject() {
			return Binding{}, occkit.Invalid("AUTH-4a", sp, "harnessAuth.source must be an object")
		}
		if err := noDuplicateKeys(src, sp); err != nil {
			return Binding{}, err
		}
		if err := exactKeys(src, sp, sourceKeys); err != nil {
			return Binding{}, err
		}
		for _, k := range sourceKeys {
			if src.Get(k).Type != gjson.String {
				return Binding{}, occkit.Invalid("AUTH-4a", sp.Key(k), "%s must be a string", sp.Key(k).String())
			}
		}
		b.Source = SourceRef{Kind: SourceKind(src.Get("kind").Str), NamespaceID: src.Get("namespaceId").Str, ID: src.Get("id").Str}
	case MethodCredentialSource:
		for _, k := range []string{"sourceId", "sourceType"} {
			if v.Get(k).Type != gjson.String {
				return Binding{}, occkit.Invalid("AUTH-4a", at.Key(k), "%s must be a string", at.Key(k).String())
			}
		}
		b.SourceID, b.SourceType = v.Get("sourceId").Str, SourceType(v.Get("sourceType").Str)
	}
	if err := b.validate(at); err != nil {
		return Binding{}, err
	}
	return b, nil
}

// Validate checks a Binding built as a Go value by the rules [ParseBinding]
// applies to JSON (AUTH-4a), so both paths admit the same bindings: a known
// method; for api_key a Secret source and for codex_pat a Secret or
// ServiceAccount source, each with a namespaceId and an id; for
// credential_source a sourceId and a known sourceType; no field another
// method uses. The zero Binding ("no binding") is valid here; deploying
// without one is refused by [RequireHarnessAuth]. Refusals are 400 at
// harnessAuth.<key> and name the accepted alternatives.
func (b Binding) Validate() error {
	if b.IsZero() {
		return nil
	}
	return b.validate(bindingPath)
}

func (b Binding) validate(at occkit.Path) error {
	mp := at.Key("method")
	if _, ok := bindingKeys[b.Method]; !ok {
		return occkit.Invalid("AUTH-4a", mp, "harnessAuth.method must be one of %s", methodList())
	}
	usesSource := b.Method == MethodAPIKey || b.Method == MethodCodexPAT
	switch {
	case !usesSource && b.Source != (SourceRef{}):
		return occkit.Invalid("AUTH-4a", at.Key("source"), "unknown key in harnessAuth: %s takes no source", b.Method)
	case b.Method != MethodCredentialSource && b.SourceID != "":
		return occkit.Invalid("AUTH-4a", at.Key("sourceId"), "unknown key in harnessAuth: %s takes no sourceId", b.Method)
	case b.Method != MethodCredentialSource && b.SourceType != "":
		return occkit.Invalid("AUTH-4a", at.Key("sourceType"), "unknown key in harnessAuth: %s takes no sourceType", b.Method)
	}
	switch b.Method {
	case MethodAPIKey, MethodCodexPAT:
		sp := at.Key("source")
		kp := sp.Key("kind")
		switch {
		case b.Source.Kind == SourceSecret:
		case b.Source.Kind == SourceServiceAccount && b.Method == MethodCodexPAT:
		case b.Method == MethodCodexPAT:
			return occkit.Invalid("AUTH-4a", kp, "harnessAuth.source.kind must be secret or service_account")
		default:
			return occkit.Invalid("AUTH-4a", kp, "harnessAuth.source.kind must be secret for %s", b.Method)
		}
		if err := refString(b.Source.NamespaceID, sp.Key("namespaceId")); err != nil {
			return err
		}
		return refString(b.Source.ID, sp.Key("id"))
	case MethodCredentialSource:
		if err := refString(b.SourceID, at.Key("sourceId")); err != nil {
			return err
		}
		if b.SourceType != SourceTypeAPIKey && b.SourceType != SourceTypeCodexOAuth {
			return occkit.Invalid("AUTH-4a", at.Key("sourceType"), "harnessAuth.sourceType must be api_key or codex-oauth")
		}
	}
	return nil
}

// methodList names the accepted methods for refusals.
func methodList() string {
	names := make([]string, 0, len(AllMethods()))
	for _, m := range AllMethods() {
		names = append(names, string(m))
	}
	return strings.Join(names, ", ")
}

// refString checks an opaque reference: a non-blank string of valid UTF-8
// without control characters, at most maxRefLen bytes. Invalid UTF-8 would
// not survive the snapshot's JSON encoding, so the frozen reference would
// name something else than the one admitted.
func refString(s string, at occkit.Path) error {
	if strings.TrimSpace(s) == "" || len(s) > maxRefLen || s != strings.TrimSpace(s) {
		return occkit.Invalid("AUTH-4a", at, "%s must be a non-blank, trimmed reference of at most %d bytes", at.String(), maxRefLen)
	}
	if !utf8.ValidString(s) {
		return occkit.Invalid("AUTH-4a", at, "%s must be valid UTF-8", at.String())
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return occkit.Invalid("AUTH-4a", at, "%s must not contain control characters", at.String())
		}
	}
	return nil
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
