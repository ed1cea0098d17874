package admission

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// marshalledRecord is the plain computation canonicalRecord replaces:
// marshal the record around a placeholder document, parse it,
// canonicalize it and split it at the placeholder.
func marshalledRecord(t *rapid.T, r *Revision) (before, after []byte) {
	rec := r.record(json.RawMessage("0"))
	rec.Digest = ""
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := occkit.ParseDocument(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	c := occkit.Canonical(doc)
	at := gjson.GetBytes(c, "configuration")
	if at.Raw != "0" {
		t.Fatalf("no placeholder in %s", c)
	}
	return c[:at.Index], c[at.Index+1:]
}

// TestCanonicalRecordMatchesMarshal: the record written canonically is
// byte for byte the canonical form of the marshalled record, whatever its
// strings hold (escapes, HTML characters, U+2028, invalid UTF-8), its
// numbers (beyond 2^53) and which optional members it has.
func TestCanonicalRecordMatchesMarshal(t *testing.T) {
	str := rapid.OneOf(
		rapid.SampledFrom([]string{"", "a", "main", `q"u\o`, "<&>", "\u2028\u2029", "é", "\U0001F600", "\x00\x1f\x7f\b\f\n\r\t",
			"\xff", "bad\xc3", "\xed\xa0\x80", "\uFFFD", "\uE000"}),
		rapid.String(),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }),
	)
	ref := func(t *rapid.T, label string) occkit.SourceRef {
		if !rapid.Bool().Draw(t, label) {
			return occkit.SourceRef{}
		}
		return occkit.SourceRef{Kind: occkit.SourceKind(str.Draw(t, label+"kind")), NamespaceID: str.Draw(t, label+"ns"), ID: str.Draw(t, label+"id")}
	}
	env := func(t *rapid.T, label string) []occkit.EnvVar {
		n := rapid.IntRange(0, 3).Draw(t, label)
		out := make([]occkit.EnvVar, n)
		for i := range out {
			out[i] = occkit.EnvVar{Name: str.Draw(t, label+"name"), Value: str.Draw(t, label+"value"),
				Placeholder: rapid.Bool().Draw(t, label+"placeholder"), From: ref(t, label+"from")}
		}
		return out
	}
	auths := []occkit.Binding{
		{},
		{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_é<1>"}},
		{Method: occkit.MethodCredentialSource, SourceID: "src\u2028", SourceType: "vault"},
		{Method: "other\x01"},
	}
	rapid.Check(t, func(t *rapid.T) {
		r := &Revision{
			agentID:         str.Draw(t, "agent"),
			source:          drivers.SourceIdentity{ID: str.Draw(t, "source"), Generation: rapid.Int64().Draw(t, "generation")},
			harness:         drivers.HarnessIdentity{ID: occkit.Harness(str.Draw(t, "harness")), Version: str.Draw(t, "version")},
			mode:            occkit.Mode(str.Draw(t, "mode")),
			compute:         ComputeIdentity{Kind: occkit.Compute(str.Draw(t, "computeKind")), ID: str.Draw(t, "computeID")},
			sandboxDriverID: str.Draw(t, "sandbox"),
			auth:            rapid.SampledFrom(auths).Draw(t, "auth"),
			projection: occkit.Projection{Gateway: env(t, "gateway"), Harness: env(t, "harnessEnv"),
				StdinLogin: rapid.Bool().Draw(t, "stdin"), EgressProxy: rapid.Bool().Draw(t, "egress"), HostManaged: rapid.Bool().Draw(t, "host")},
			primary:        str.Draw(t, "primary"),
			level:          occkit.LogLevel(str.Draw(t, "level")),
			ownership:      occkit.LogOwnership(str.Draw(t, "ownership")),
			namespace:      str.Draw(t, "namespace"),
			openclawSchema: str.Draw(t, "openclaw"),
			digest:         str.Draw(t, "digest"),
		}
		for i, n := 0, rapid.IntRange(0, 3).Draw(t, "fallbacks"); i < n; i++ {
			r.fallbacks = append(r.fallbacks, str.Draw(t, "fallback"))
		}
		for i, n := 0, rapid.IntRange(0, 2).Draw(t, "bindings"); i < n; i++ {
			r.secretBindings = append(r.secretBindings, occkit.SecretBinding{Env: str.Draw(t, "env"), Source: ref(t, "bindingSource")})
		}
		if rapid.Bool().Draw(t, "account") {
			r.account = Account{BackendID: str.Draw(t, "backend"), DriverID: str.Draw(t, "driver"), WorkspaceID: str.Draw(t, "workspace"),
				Credential: ref(t, "credential")}
		}
		before, after, ok := r.canonicalRecord(nil)
		if !ok {
			t.Fatal("canonicalRecord not ok")
		}
		wantBefore, wantAfter := marshalledRecord(t, r)
		if string(before) != string(wantBefore) || string(after) != string(wantAfter) {
			t.Fatalf("canonical record\n got %q 0 %q\nwant %q 0 %q", before, after, wantBefore, wantAfter)
		}
	})
}

// TestPlainBindingIsCanonical: the binding written directly is the
// canonical form of its JSON, for every method and for strings plain or
// not (which take the long way, so the writer never sees them).
func TestPlainBindingIsCanonical(t *testing.T) {
	var direct int
	rapid.Check(t, func(t *rapid.T) {
		str := rapid.SampledFrom([]string{"", "a", "sec_1", "ns-1", "<&>", `q"`, `b\s`, "é", "\x01", "\x7f", "\xff"})
		b := occkit.Binding{
			Method: occkit.Method(rapid.SampledFrom([]string{"", string(occkit.MethodAPIKey), string(occkit.MethodCodexPAT),
				string(occkit.MethodCredentialSource), string(occkit.MethodRuntime), "x<y"}).Draw(t, "method")),
			Source:     occkit.SourceRef{Kind: occkit.SourceKind(str.Draw(t, "kind")), NamespaceID: str.Draw(t, "ns"), ID: str.Draw(t, "id")},
			SourceID:   str.Draw(t, "sourceId"),
			SourceType: occkit.SourceType(str.Draw(t, "sourceType")),
		}
		got, ok := appendPlainBinding([]byte("x"), b)
		if !ok {
			if string(got) != "x" {
				t.Fatalf("%+v: refused, yet wrote %q", b, got)
			}
			return
		}
		direct++
		doc, err := occkit.ParseDocument(b.JSON())
		if err != nil {
			t.Fatalf("%+v: written directly, but its JSON %s does not parse: %v", b, b.JSON(), err)
		}
		if want := "x" + string(occkit.Canonical(doc)); string(got) != want {
			t.Fatalf("%+v: got %s, want %s", b, got, want)
		}
	})
	if direct == 0 {
		t.Fatal("no binding was written directly")
	}
}

// TestPlainRecordStringBytewise holds plainRecordString, which reads
// eight bytes at a time, to its definition read one byte at a time:
// printable ASCII (DEL included) without a quote or a backslash, over
// strings of plain bytes with, now and then, one of the bytes next to
// each class's edges at any place.
func TestPlainRecordStringBytewise(t *testing.T) {
	bytewise := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	edges := []byte{0x00, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7e, 0x7f, 0x80, 0xa0, 0xc3, 0xff}
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.ByteRange('a', 'z'), 0, 40).Draw(t, "plain")
		for n := rapid.IntRange(0, 2).Draw(t, "edges"); n > 0 && len(b) > 0; n-- {
			b[rapid.IntRange(0, len(b)-1).Draw(t, "at")] = rapid.SampledFrom(edges).Draw(t, "edge")
		}
		if got, want := plainRecordString(string(b)), bytewise(string(b)); got != want {
			t.Fatalf("plainRecordString(%q) = %v, want %v", b, got, want)
		}
	})
}
