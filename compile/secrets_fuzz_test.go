package compile

import (
	"slices"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// openclawRefs is OpenClaw's own scan (env-substitution.ts,
// parseEnvTokenAt), transcribed as written: for each '$', an escaped
// $${NAME} or a ${NAME} whose closing brace is the first after it.
func openclawRefs(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		if i+2 < len(s) && s[i+1] == '$' && s[i+2] == '{' {
			if end := strings.IndexByte(s[i+3:], '}'); end >= 0 && refName(s[i+3:i+3+end]) {
				i += 3 + end
				continue
			}
		}
		if i+1 < len(s) && s[i+1] == '{' {
			if end := strings.IndexByte(s[i+2:], '}'); end >= 0 && refName(s[i+2:i+2+end]) {
				out = append(out, s[i+2:i+2+end])
				i += 2 + end
				continue
			}
		}
	}
	return out
}

// FuzzVarRefs: the one-pass scan finds what OpenClaw's scan finds.
func FuzzVarRefs(f *testing.F) {
	for _, s := range []string{"${A}", "$${A}${B}", "x${A", "${${A}}", "$$${A}", "${a}${B}", "${}", "$", "${A}}${B}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendVarRefs(nil, s), openclawRefs(s); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, OpenClaw %q", s, got, want)
		}
	})
}

// FuzzCheckSecretLiterals: any document is checked without a panic, and
// every refusal is a 400 of the rule at a path the document has.
func FuzzCheckSecretLiterals(f *testing.F) {
	for _, s := range []string{
		`{"channels":{"slack":{"botToken":"x"}}}`,
		`{"models":{"providers":{"x":{"baseUrl":"https://u:p@h?key=k#sig=s","headers":{"A":1}}}}}`,
		`{"env":{"vars":{"TOKEN":"t"},"X":"y"},"agents":{"entries":{"a":{"models":{"m":{"params":{"token":["a",{"b":2}]}}}}}}}`,
	} {
		f.Add([]byte(s))
	}
	pol := SecretPolicyFor("")
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := occkit.ParseDocument(b)
		if err != nil {
			return
		}
		for _, e := range occkit.Errors(CheckSecretLiterals(doc, pol)) {
			if e.Code != occkit.CodeInvalidRequest || e.Rule != RuleSecretBytes || !doc.Has(e.Path) {
				t.Fatalf("refusal %v", e)
			}
		}
		_ = ReferencedEnv(doc, pol)
		_ = DefinedEnv(doc, pol)
	})
}

// FuzzNormalKey: the allocation-free normal form is normalizeKey's.
func FuzzNormalKey(f *testing.F) {
	for _, s := range []string{"x-api-Key", "\u212Aey", "İD", "Api_Key", "ÄPI"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := string(appendNormalKey(nil, k)), normalizeKey(k); got != want {
			t.Fatalf("%q: %q, normalizeKey %q", k, got, want)
		}
	})
}

// FuzzCredentialName: the walk's credential-key test, which reads an
// ASCII key from its end, answers as the reference that normalizes the
// whole key.
func FuzzCredentialName(f *testing.F) {
	for _, s := range []string{"apiKey", "x-api-key", "\u212Aey", "api\u212A", "ca", "C.A", "pfx", "maxTokens",
		"authorizationauthorization", "certificate_x_certificate", "İcert", "ß-token", "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-key", "é" + "keys"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := credentialName(k), referenceCredentialName(k); got != want {
			t.Fatalf("credentialName(%q) = %v, reference %v", k, got, want)
		}
	})
}
