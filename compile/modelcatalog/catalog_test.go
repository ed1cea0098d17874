package modelcatalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/compile/modelcatalog"
)

func TestReleases(t *testing.T) {
	want := []string{"2026.8.1", "2026.8.2", "2026.9.1", "2026.9.2", "2026.9.3", "2026.9.4", "2026.9.5", "2026.9.6"}
	if d := cmp.Diff(want, modelcatalog.Releases()); d != "" {
		t.Errorf("releases (-want +got):\n%s", d)
	}
	for _, r := range want {
		c, ok := modelcatalog.For(r)
		if !ok || c.Release() != r || len(c.Providers()) == 0 {
			t.Errorf("For(%s) = %v, %v", r, c, ok)
			continue
		}
		for _, p := range c.Providers() {
			for _, id := range c.Models(p) {
				if known, ok := c.Model(p, id); !known || !ok {
					t.Errorf("%s: %s/%s is listed but not known", r, p, id)
				}
			}
		}
	}
	if _, ok := modelcatalog.For("2025.1.1"); ok {
		t.Error("a release the package does not carry has a catalog")
	}
}

// What the 2026.9.6 package declares (read from its manifests by hand).
func TestCatalog20260906(t *testing.T) {
	c, _ := modelcatalog.For("2026.9.6")
	for _, tt := range []struct {
		provider, id string
		known, ok    bool
	}{
		{"anthropic", "claude-haiku-4-5", true, true},
		{"anthropic", "claude-sonnet-4-6", true, true}, // the target of the alias sonnet-4.6
		{"anthropic", "sonnet-4.6", true, true},        // an alias
		{"anthropic", "claude-sonet-4-6", false, true},
		{"openai", "gpt-5.4", true, true},
		{"openai", "gpt-5.4-turbo", false, true},
		{"openrouter", "anything/at-all", false, false}, // discovered at run time
		{"antropic", "claude-haiku-4-5", false, false},  // not a provider
	} {
		known, ok := c.Model(tt.provider, tt.id)
		if known != tt.known || ok != tt.ok {
			t.Errorf("Model(%s, %s) = %v, %v; want %v, %v", tt.provider, tt.id, known, ok, tt.known, tt.ok)
		}
	}
	if !c.Provider("openrouter") || !c.Provider("anthropic") || c.Provider("antropic") {
		t.Error("Provider")
	}
	if got := c.SuggestProvider("antropic"); got != "anthropic" {
		t.Errorf("SuggestProvider(antropic) = %q", got)
	}
	if got := c.SuggestModel("anthropic", "claude-sonet-4-6"); got != "claude-sonnet-4-6" {
		t.Errorf("SuggestModel = %q", got)
	}
	if got := c.SuggestProvider("vllm-x"); got != "" {
		t.Errorf("a provider without a catalog was suggested: %q", got)
	}
}
