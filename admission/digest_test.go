package admission_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// ADM-3: the digest identifies the whole frozen revision. Rebinding the
// credential, or changing the admitted level, with the same Configuration
// is a different revision; the document digest is the same.
func TestDigestCoversTheWholeRevision(t *testing.T) {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
	admit := func(secretID string, level occkit.LogLevel) *admission.Revision {
		t.Helper()
		auth, err := admission.CreateHarnessAuth([]byte(
			`{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"` + secretID + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		rev, err := a.Admit(context.Background(), admission.Request{
			Agent:         admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: auth},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
			Level:         level,
		})
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	base := admit("sec_1", occkit.LevelInfo)
	tests := []struct {
		name string
		rev  *admission.Revision
		same bool
	}{
		{"same input", admit("sec_1", occkit.LevelInfo), true},
		{"other secret", admit("sec_2", occkit.LevelInfo), false},
		{"other level", admit("sec_1", occkit.LevelWarn), false},
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
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
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
			if rev != nil || e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "ADM-3" || !e.Path.Equal(occkit.AgentPath("id")) {
				t.Fatalf("Admit(%q) = %v, %v", id, rev, err)
			}
		})
	}
}

// AUTH-4a: a binding parsed from truncated text is refused, not read.
func TestParseBindingRefusesTruncatedJSON(t *testing.T) {
	for _, s := range []string{`{"method":"runtime"`, `{"method":"api_key","source":{"kind":"secret","namespaceId":"n","id":"s"}`} {
		if _, err := admission.ParseBinding([]byte(s), admission.BindingPath()); err == nil {
			t.Errorf("ParseBinding(%s) accepted", s)
		}
	}
	if _, err := admission.ParseBinding([]byte(`{"method":"runtime"}`), admission.BindingPath()); err != nil {
		t.Errorf("a whole binding was refused: %v", err)
	}
}

// TestRecordDigestSplice: ADM-3 defines the digest as the SHA-256 of the
// canonical persisted record without its digest member. Admission
// computes it without re-canonicalizing the document; whatever the
// document holds (keys sorting on both sides of the record's own,
// escapes, non-ASCII), the result is the one a reader of the record gets
// the plain way. A small document is hashed with the record around it in
// one buffer, a large one (a long value drawn) between the record's two
// parts: both are taken.
func TestRecordDigestSplice(t *testing.T) {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	auth, err := admission.CreateHarnessAuth([]byte(`{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"sec_1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"a", "configuration", "digest", "zz", `q"uote`, "é", "\u2028", "0", "agents2", "Ω"}
	values := []string{`1`, `-0.5e3`, `"x"`, `"\u00e9\n"`, `null`, `true`, `[]`, `{}`, `[1,"two",{"b":2,"a":1}]`, `{"configuration":0}`,
		`"` + strings.Repeat("plain words ", 250) + `"`}
	var small, large int
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		// The drawn keys sit in an open map of OpenClaw's schema
		// (agents.defaults.params), which admission lets through as is.
		b.WriteString(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6","params":{"p":0`)
		for i, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 6, rapid.ID[string]).Draw(t, "keys") {
			kj, _ := json.Marshal(k)
			fmt.Fprintf(&b, ",%s:%s", kj, rapid.SampledFrom(values).Draw(t, fmt.Sprint("value", i)))
		}
		b.WriteString(`}}}}`)
		doc, err := occkit.ParseDocument([]byte(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		level := rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level")
		rev, err := a.Admit(context.Background(), admission.Request{
			Agent:         admission.Agent{ID: rapid.SampledFrom([]string{"main", "agt_1"}).Draw(t, "agent"), ConfigurationID: "cfg_1", HarnessAuth: auth},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
			Level:         level,
		})
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		rec, err := rev.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		whole, err := occkit.ParseDocument(rec)
		if err != nil {
			t.Fatal(err)
		}
		if whole, err = whole.Delete(occkit.NewPath("digest")); err != nil {
			t.Fatal(err)
		}
		if got, want := rev.Digest(), occkit.CanonicalDigest(whole); got != want {
			t.Fatalf("digest of %s = %s, the canonical record's is %s", b.String(), got, want)
		}
		switch n := len(rev.Canonical()); {
		case n < 1024:
			small++
		case n > 2048:
			large++
		}
		if err := admission.Verify(context.Background(), rev, admission.VerifyFacts{AgentID: rev.AgentID(), Compute: admission.ComputeInfo{Kind: rev.Compute()}}); err != nil && occkit.First(err).Path.String() == "digest" {
			t.Fatalf("Verify refused its own digest: %v", err)
		}
	})
	if small == 0 || large == 0 {
		t.Errorf("%d small documents and %d large ones: the test takes both", small, large)
	}
}

// The document digest is hashed on first use: every caller, however many
// at once, reads the SHA-256 of the canonical bytes (hashed here by
// crypto/sha256 itself), and a Revision admission did not make has none.
func TestDocumentDigestOnFirstUse(t *testing.T) {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)},
		Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(rev.Canonical())
	want := hex.EncodeToString(sum[:])
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = rev.DocumentDigest() }()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Fatalf("caller %d read %q, want %q", i, g, want)
		}
	}
	if d := new(admission.Revision).DocumentDigest(); d != "" {
		t.Errorf("a Revision admission did not make has document digest %q", d)
	}
}
