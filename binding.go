package occkit

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
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

// Known reports whether m is one of [AllMethods].
func (m Method) Known() bool {
	switch m {
	case MethodAPIKey, MethodCodexPAT, MethodCredentialSource, MethodRuntime:
		return true
	}
	return false
}

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

// IsZero reports whether r names nothing.
func (r SourceRef) IsZero() bool { return r == SourceRef{} }

// SecretBinding is one Configuration secretBinding (AUTH-6): the variable
// Env of the gateway process is projected from the OCC Secret Source. It
// supplies a channel or gateway feature credential (a channel token the
// document references as ${Env}, memory embeddings) and reaches the
// gateway process only, never a dedicated Harness. Like [SourceRef] it
// holds a reference, never secret bytes.
//
// Env must be a variable the gateway's document references (${Env}, $Env
// or a SecretRef {source: "env", id: Env}); it may not be one the render
// sets, one that makes the gateway or a program it starts load code or
// change whom it trusts or talks through (LD_*, NODE_*, BASH_ENV, proxies,
// CA files, …), nor, on a dedicated topology, a model inference variable
// (compile.CheckSecretBindings, on every Compute).
type SecretBinding struct {
	Env    string
	Source SourceRef
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

// EnvVar is one environment variable the Compute sets for a process: the
// variables it projects for model auth, and the literal settings of the
// logging render (package logging). It never holds secret bytes: a credential variable names the [SourceRef]
// the Compute reads at render time, a placeholder variable holds a fixed
// non-secret value that the Sandbox egress proxy replaces, and only
// non-secret settings (a login mode) carry a literal Value.
type EnvVar struct {
	Name string
	// Value is the literal value of a non-secret variable, else "".
	Value string
	// From is the reference whose bytes the Compute projects; zero for
	// literal and placeholder variables.
	From SourceRef
	// Placeholder marks a variable whose value the Sandbox egress proxy
	// substitutes from the Credential Gateway (AUTH-3).
	Placeholder bool
}

// Projection is the credential projection plan of a harnessAuth binding on
// one topology (AUTH-2): which process receives which variables, and how
// the Harness logs in. It is a value: slices are copied on the way in and
// out of a [Revision].
type Projection struct {
	// Gateway lists the variables of a dedicated gateway process; AUTH-6:
	// never the Harness inference credential, so empty for every binding.
	Gateway []EnvVar
	// Harness lists the variables of the Harness process (for an embedded
	// topology, the one combined process).
	Harness []EnvVar
	// StdinLogin: the Harness logs in by reading the key on stdin
	// (dedicated Codex with api_key).
	StdinLogin bool
	// EgressProxy: the Sandbox egress proxy inserts the key (credential_source).
	EgressProxy bool
	// HostManaged: the runtime host supplies credentials outside version
	// immutability (SSH runtime, AUTH-5).
	HostManaged bool
}

// Names returns the sorted variable names projected into process p.
func (p Projection) Names(proc Process) []string {
	var vars []EnvVar
	switch proc {
	case ProcessGateway:
		vars = p.Gateway
	case ProcessHarness:
		vars = p.Harness
	}
	names := make([]string, 0, len(vars))
	for _, v := range vars {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return names
}

// Clone returns a deep copy of p.
func (p Projection) Clone() Projection {
	q := p
	q.Gateway = append([]EnvVar(nil), p.Gateway...)
	q.Harness = append([]EnvVar(nil), p.Harness...)
	return q
}

// maxRefLen caps a reference ID; IDs are opaque but bounded.
const maxRefLen = 256

// Validate checks a Binding built as a Go value by the rules admission.ParseBinding
// applies to JSON (AUTH-4a), so both paths admit the same bindings: a known
// method; for api_key a Secret source and for codex_pat a Secret or
// ServiceAccount source, each with a namespaceId and an id; for
// credential_source a sourceId and a known sourceType; no field another
// method uses. The zero Binding ("no binding") is valid here; deploying
// without one is refused by admission.RequireHarnessAuth. Refusals are 400 at
// harnessAuth.<key> and name the accepted alternatives.
func (b Binding) Validate() error {
	if b.IsZero() {
		return nil
	}
	return b.ValidateAt(AgentPath("harnessAuth"))
}

// ValidateAt is [Binding.Validate] for a binding found at path at (every
// refusal names a key below it); unlike Validate it refuses the zero
// Binding, whose method is missing.
func (b Binding) ValidateAt(at Path) error {
	// Every path is built for the refusal that names it: an accepted
	// binding (every admission's) builds none.
	if !b.Method.Known() {
		return suggested(Invalid("AUTH-4a", at.Key("method"), "harnessAuth.method must be one of %s", methodList()),
			string(b.Method), strings.Split(methodList(), ", "))
	}
	usesSource := b.Method == MethodAPIKey || b.Method == MethodCodexPAT
	switch {
	case !usesSource && b.Source != (SourceRef{}):
		return Invalid("AUTH-4a", at.Key("source"), "unknown key in harnessAuth: %s takes no source", b.Method)
	case b.Method != MethodCredentialSource && b.SourceID != "":
		return Invalid("AUTH-4a", at.Key("sourceId"), "unknown key in harnessAuth: %s takes no sourceId", b.Method)
	case b.Method != MethodCredentialSource && b.SourceType != "":
		return Invalid("AUTH-4a", at.Key("sourceType"), "unknown key in harnessAuth: %s takes no sourceType", b.Method)
	}
	switch b.Method {
	case MethodAPIKey, MethodCodexPAT:
		switch {
		case b.Source.Kind == SourceSecret:
		case b.Source.Kind == SourceServiceAccount && b.Method == MethodCodexPAT:
		case b.Method == MethodCodexPAT:
			return suggested(Invalid("AUTH-4a", at.Key("source").Key("kind"), "harnessAuth.source.kind must be secret or service_account"),
				string(b.Source.Kind), []string{string(SourceSecret), string(SourceServiceAccount)})
		default:
			return suggested(Invalid("AUTH-4a", at.Key("source").Key("kind"), "harnessAuth.source.kind must be secret for %s", b.Method),
				string(b.Source.Kind), []string{string(SourceSecret)})
		}
		if err := refString(b.Source.NamespaceID, at, "source", "namespaceId"); err != nil {
			return err
		}
		return refString(b.Source.ID, at, "source", "id")
	case MethodCredentialSource:
		if err := refString(b.SourceID, at, "sourceId"); err != nil {
			return err
		}
		if b.SourceType != SourceTypeAPIKey && b.SourceType != SourceTypeCodexOAuth {
			return suggested(Invalid("AUTH-4a", at.Key("sourceType"), "harnessAuth.sourceType must be api_key or codex-oauth"),
				string(b.SourceType), []string{string(SourceTypeAPIKey), string(SourceTypeCodexOAuth)})
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
// name something else than the one admitted. The reference stands at at's
// keys, a path built only for a refusal.
func refString(s string, at Path, keys ...string) error {
	var problem string
	switch {
	case strings.TrimSpace(s) == "" || len(s) > maxRefLen || s != strings.TrimSpace(s):
		problem = "must be a non-blank, trimmed reference of at most " + strconv.Itoa(maxRefLen) + " bytes"
	case !utf8.ValidString(s):
		problem = "must be valid UTF-8"
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		problem = "must not contain control characters"
	default:
		return nil
	}
	for _, k := range keys {
		at = at.Key(k)
	}
	return Invalid("AUTH-4a", at, "%s %s", at.String(), problem)
}
