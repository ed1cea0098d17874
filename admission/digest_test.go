package admission_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/resolver"
)

// ADM-3: the digest identifies the whole frozen revision. Rebinding the
// credential, or changing the admitted level, with the same Configuration
// is a different revision; the document digest is the same.
func TestDigestCoversTheWholeRevision(t *testing.T) {
	a, err := admission.New(admission.Options{
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
	admit := func(secretID string, level logging.Level) *admission.Revision {
		t.Helper()
		auth, err := admission.CreateHarnessAuth(gjson.Parse(
			`{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"` + secretID + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		rev, err := a.Admit(context.Background(), admission.Request{
			Agent:         admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: auth},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: resolver.ComputeKubernetes},
			Level:         level,
		})
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	base := admit("sec_1", logging.LevelInfo)
	tests := []struct {
		name string
		rev  *admission.Revision
		same bool
	}{
		{"same input", admit("sec_1", logging.LevelInfo), true},
		{"other secret", admit("sec_2", logging.LevelInfo), false},
		{"other level", admit("sec_1", logging.LevelWarn), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rev.Digest() == base.Digest(); got != tt.same {
				t.Errorf("digest equal = %v, want %v", got, tt.same)
			}
		})
	}
	if tests[1].rev.DocumentDigest() != base.DocumentDigest() {
		t.Error("rebinding the credential changed the document digest")
	}
	if base.DocumentDigest() != occkit.CanonicalDigest(base.Document()) {
		t.Error("DocumentDigest is not the canonical document's digest")
	}
	// A restored record keeps its digest; a tampered one is refused.
	rec, err := base.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := admission.ParseRevision(rec)
	if err != nil || back.Digest() != base.Digest() {
		t.Fatalf("round trip: %v", err)
	}
	tampered := []byte(string(rec))
	if i := bytes.Index(rec, []byte(`"sec_1"`)); i >= 0 {
		copy(tampered[i:], `"sec_9"`)
	}
	if _, err := admission.ParseRevision(tampered); err == nil {
		t.Error("a record with a changed binding kept its digest")
	}
}

// ADM-3: an Agent ID that could not be shown or matched safely is refused
// before any work, with nothing frozen.
func TestAdmitRefusesUnsafeAgentIDs(t *testing.T) {
	a, err := admission.New(admission.Options{
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
	for name, id := range map[string]string{
		"empty": "", "untrimmed": " main", "bidi": "ma\u202ein", "isolate": "m\u2066", "control": "ma\x1bin",
		"invalid UTF-8": "ma\xffin", "too long": strings.Repeat("a", 257),
	} {
		t.Run(name, func(t *testing.T) {
			rev, err := a.Admit(context.Background(), admission.Request{
				Agent:         admission.Agent{ID: id, ConfigurationID: "cfg_1"},
				Configuration: admission.StaticConfiguration{ID: "cfg_1", Document: doc},
			})
			e := occkit.First(err)
			if rev != nil || e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "ADM-3" || e.Path.String() != "agent.id" {
				t.Fatalf("Admit(%q) = %v, %v", id, rev, err)
			}
		})
	}
}

// AUTH-4a: a binding parsed from truncated text is refused, not read.
func TestParseBindingRefusesTruncatedJSON(t *testing.T) {
	for _, s := range []string{`{"method":"runtime"`, `{"method":"api_key","source":{"kind":"secret","namespaceId":"n","id":"s"}`} {
		if _, err := admission.ParseBinding(gjson.Parse(s), admission.BindingPath()); err == nil {
			t.Errorf("ParseBinding(%s) accepted", s)
		}
	}
	if _, err := admission.ParseBinding(gjson.Parse(`{"method":"runtime"}`), admission.BindingPath()); err != nil {
		t.Errorf("a whole binding was refused: %v", err)
	}
}
