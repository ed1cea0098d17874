package selection

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

func TestRegistryRegister(t *testing.T) {
	tests := []struct {
		name string
		id   string
		code occkit.Code
	}{
		{"valid", "acme-agent", ""},
		{"valid dotted", "acme.v2_x", ""},
		{"empty", "", occkit.CodeInvalidRequest},
		{"upper case", "Acme", occkit.CodeInvalidRequest},
		{"leading dash", "-acme", occkit.CodeInvalidRequest},
		{"space", "ac me", occkit.CodeInvalidRequest},
		{"slash", "a/b", occkit.CodeInvalidRequest},
		{"too long", strings.Repeat("a", 65), occkit.CodeInvalidRequest},
		{"reserved openclaw", "openclaw", occkit.CodeInvalidRequest},
		{"reserved pi alias", "pi", occkit.CodeInvalidRequest},
		{"reserved auto", "auto", occkit.CodeInvalidRequest},
		{"reserved default", "default", occkit.CodeInvalidRequest},
		{"reserved codex alias", "codex-app-server", occkit.CodeInvalidRequest},
		{"reserved CLI backend", "claude-cli", occkit.CodeInvalidRequest},
		{"reserved gemini CLI backend", "google-gemini-cli", occkit.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := NewRegistry()
			err := r.Register(fakePlugin{id: tt.id})
			if tt.code == "" {
				if err != nil {
					t.Fatalf("Register(%q) = %v", tt.id, err)
				}
				return
			}
			if e := occkit.First(err); e == nil || e.Code != tt.code || e.Rule != "SEL-3" {
				t.Fatalf("Register(%q) = %v, want %s [SEL-3]", tt.id, err, tt.code)
			}
		})
	}
}

func TestRegistryDuplicateAndNil(t *testing.T) {
	r, err := NewRegistry(CodexHarness())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Register(fakePlugin{id: "codex"}); !errors.Is(err, occkit.ErrResourceConflict) {
		t.Errorf("duplicate: %v, want RESOURCE_CONFLICT", err)
	}
	if err := r.Register(nil); !errors.Is(err, occkit.ErrInvalidRequest) {
		t.Errorf("nil: %v, want INVALID_REQUEST", err)
	}
	if _, err := NewRegistry(CodexHarness(), CodexHarness()); err == nil {
		t.Error("NewRegistry accepted a duplicate")
	}
	if _, ok := r.Lookup(" Codex-App-Server "); !ok {
		t.Error("REF-6: Lookup does not normalize aliases")
	}
	var nilReg *Registry
	if _, ok := nilReg.Lookup("codex"); ok || nilReg.IDs() != nil {
		t.Error("nil registry is not empty")
	}
}

func TestRegistryConcurrent(t *testing.T) {
	r, _ := NewRegistry()
	doc := occkit.MustParseDocument(`{}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			_ = r.Register(fakePlugin{id: "p" + strings.Repeat("x", i), auto: []string{"*"}, sup: Supported()})
		}(i)
		go func() {
			defer wg.Done()
			if _, err := Select(doc, Request{Provider: "vllm", Model: "q"}, r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := len(r.IDs()); got != 8 {
		t.Errorf("IDs = %d, want 8", got)
	}
}

func TestSupportKinds(t *testing.T) {
	want := map[SupportKind]Support{
		SupportSupported:   Supported(),
		SupportUnsupported: Unsupported("r"),
		SupportFallback:    FallbackToOpenClaw("r"),
	}
	if len(AllSupportKinds()) != len(want) {
		t.Fatalf("AllSupportKinds has %d members, want %d", len(AllSupportKinds()), len(want))
	}
	for _, k := range AllSupportKinds() {
		s, ok := want[k]
		if !ok || s.Kind != k || s.kind() != k {
			t.Errorf("kind %q is not constructed or mapped", k)
		}
	}
	if (Support{}).kind() != SupportUnsupported || (Support{Kind: "maybe"}).kind() != SupportUnsupported {
		t.Error("unknown support kinds must fail closed")
	}
}

// pluginMutator tries to alter the facts it is given.
type pluginMutator struct{ fakePlugin }

func (p pluginMutator) Supports(f RouteFacts) Support {
	for i := range f.Overrides {
		f.Overrides[i] = occkit.NewPath("mutated")
	}
	return Unsupported("no")
}

func TestPluginCannotMutateFacts(t *testing.T) {
	doc := occkit.MustParseDocument(`{"models":{"providers":{"vllm":{"headers":{"X":"1"}}}}}`)
	reg := testRegistry(t, pluginMutator{fakePlugin{id: "a", auto: []string{"*"}}}, fakePlugin{id: "b", auto: []string{"*"}, sup: Supported()})
	got, err := Select(doc, Request{Provider: "vllm", Model: "q"}, reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got.Reasons() {
		if strings.Contains(r.Path.String(), "mutated") {
			t.Fatalf("a plugin altered the shared facts: %+v", r)
		}
	}
	if got.Runtime != "b" {
		t.Errorf("runtime = %s, want b", got.Runtime)
	}
}

func TestCodexHarnessSupports(t *testing.T) {
	hdr := []occkit.Path{occkit.NewPath("models", "providers", "openai", "headers")}
	tests := []struct {
		name  string
		facts RouteFacts
		want  SupportKind
	}{
		{"official default", RouteFacts{Provider: "openai"}, SupportSupported},
		{"official v1", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v1"}, SupportSupported},
		{"official v1 slash", RouteFacts{Provider: "openai", BaseURL: "https://API.OpenAI.com/v1/"}, SupportSupported},
		{"official port 443", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com:443"}, SupportSupported},
		{"official responses adapter", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com", API: "openai-responses"}, SupportSupported},
		{"chatgpt route", RouteFacts{Provider: "openai", BaseURL: "https://chatgpt.com/backend-api/codex", API: "openai-chatgpt-responses"}, SupportSupported},
		{"chatgpt adapter default URL", RouteFacts{Provider: "openai", API: "openai-chatgpt-responses"}, SupportSupported},
		{"chatgpt backend-api base (SEL-4)", RouteFacts{Provider: "openai", BaseURL: "https://chatgpt.com/backend-api", API: "openai-chatgpt-responses"}, SupportSupported},
		{"chatgpt backend-api base slash (SEL-4)", RouteFacts{Provider: "openai", BaseURL: "https://chatgpt.com/backend-api/"}, SupportSupported},
		{"chatgpt other path (SEL-4)", RouteFacts{Provider: "openai", BaseURL: "https://chatgpt.com/backend-api/v2", API: "openai-chatgpt-responses"}, SupportUnsupported},
		{"chatgpt plain http (SEL-4)", RouteFacts{Provider: "openai", BaseURL: "http://chatgpt.com/backend-api", API: "openai-chatgpt-responses"}, SupportUnsupported},
		{"chatgpt URL with platform adapter", RouteFacts{Provider: "openai", BaseURL: "https://chatgpt.com/backend-api/codex", API: "openai-responses"}, SupportUnsupported},
		{"platform URL with chatgpt adapter", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v1", API: "openai-chatgpt-responses"}, SupportUnsupported},
		{"v2 path", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v2"}, SupportUnsupported},
		{"deeper path", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v1/responses"}, SupportUnsupported},
		{"plain http", RouteFacts{Provider: "openai", BaseURL: "http://api.openai.com/v1"}, SupportUnsupported},
		{"other port", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com:8443/v1"}, SupportUnsupported},
		{"look-alike host", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com.evil.example/v1"}, SupportUnsupported},
		{"stripped URL", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v1", BaseURLStripped: true}, SupportUnsupported},
		{"query in raw URL", RouteFacts{Provider: "openai", BaseURL: "https://api.openai.com/v1?x=1"}, SupportUnsupported},
		{"completions adapter", RouteFacts{Provider: "openai", API: "openai-completions"}, SupportUnsupported},
		{"official with overrides", RouteFacts{Provider: "openai", Overrides: hdr}, SupportFallback},
		{"custom with overrides", RouteFacts{Provider: "openai", BaseURL: "https://proxy.example", Overrides: hdr}, SupportUnsupported},
		{"native codex provider", RouteFacts{Provider: "codex", BaseURL: "https://proxy.example"}, SupportSupported},
		{"native codex with overrides", RouteFacts{Provider: "codex", Overrides: hdr}, SupportFallback},
		{"other provider", RouteFacts{Provider: "anthropic"}, SupportUnsupported},
	}
	c := CodexHarness()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Supports(tt.facts).Kind; got != tt.want {
				t.Errorf("Supports(%+v) = %s, want %s", tt.facts, got, tt.want)
			}
		})
	}
	if diff := cmp.Diff([]string{"codex", "openai"}, c.AutoProviders()); diff != "" || c.ID() != "codex" {
		t.Errorf("codex identity: id %s, auto %s", c.ID(), diff)
	}
}

func TestCodexSanitizeURL(t *testing.T) {
	tests := []struct {
		in, want string
		stripped bool
	}{
		{"", "", false},
		{"https://api.openai.com/v1", "https://api.openai.com/v1", false},
		{"https://user:sk-1@proxy.example/v1?key=sk-2#frag", "https://proxy.example/v1", true},
		{"https://proxy.example/v1?", "https://proxy.example/v1", true},
		{"://bad url", "", true},
	}
	for _, tt := range tests {
		got, stripped := sanitizeURL(tt.in)
		if got != tt.want || stripped != tt.stripped {
			t.Errorf("sanitizeURL(%q) = %q, %v; want %q, %v", tt.in, got, stripped, tt.want, tt.stripped)
		}
	}
}
