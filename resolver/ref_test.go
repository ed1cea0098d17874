package resolver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Ref
		ok   bool
	}{
		{"REF-1 plain pair", "openai/gpt-4.1", Ref{Provider: "openai", ID: "gpt-4.1"}, true},
		{"REF-1 first slash splits", "openai/vendor/model", Ref{Provider: "openai", ID: "vendor/model"}, true},
		{"REF-2 provider lower-cased and trimmed", "  OpenAI / GPT-5 ", Ref{Provider: "openai", ID: "GPT-5"}, true},
		{"REF-2 id keeps case", "mlx/mlx-community/Qwen3-30B-A3B-6bit", Ref{Provider: "mlx", ID: "mlx-community/Qwen3-30B-A3B-6bit"}, true},
		{"REF-3 empty", "", Ref{}, false},
		{"REF-3 blank", "   ", Ref{}, false},
		{"REF-3 bare id", "gpt-5.1", Ref{}, false},
		{"REF-3 lone slash", "/", Ref{}, false},
		{"REF-3 leading slash", "/missing-provider", Ref{}, false},
		{"REF-3 trailing slash", "openai/", Ref{}, false},
		{"REF-3 trailing slash deep", "openai/vendor/", Ref{}, false},
		{"REF-3 blank provider", "  /gpt", Ref{}, false},
		{"REF-3 blank id", "openai/   ", Ref{}, false},
		{"REF-3 blank provider half", " \t/x", Ref{}, false},
		{"REF-3 blank id after slash", "openai/ ", Ref{}, false},
		{"REF-5 profile", "anthropic/claude@work", Ref{Provider: "anthropic", ID: "claude", Profile: "work"}, true},
		{"REF-5 profile with colon", "openai/gpt-5@cf:default", Ref{Provider: "openai", ID: "gpt-5", Profile: "cf:default"}, true},
		{"REF-5 @ before last slash is id", "openai/@cf/openai/gpt-oss-20b", Ref{Provider: "openai", ID: "@cf/openai/gpt-oss-20b"}, true},
		{"REF-5 @ right after last slash is a profile: empty id", "openrouter/@preset", Ref{}, false},
		{"REF-5 vllm/@cf has an empty id", "vllm/@cf", Ref{}, false},
		{"REF-5 @ after white space is a profile: empty id", "openrouter/ \t@preset", Ref{}, false},
		{"REF-5 leading @ then profile, spaced as unspaced", "0/ @@0", Ref{}, false},
		{"REF-5 leading @ then profile", "0/@@0", Ref{}, false},
		{"REF-5 @-prefixed segment before the last slash", "openrouter/@preset/kimi@work", Ref{Provider: "openrouter", ID: "@preset/kimi", Profile: "work"}, true},
		{"REF-5 spaced quantization tag is a profile", "ollama/llama3@ q4_k_m", Ref{Provider: "ollama", ID: "llama3", Profile: "q4_k_m"}, true},
		{"REF-5 date is id", "anthropic/claude-3@20251001", Ref{Provider: "anthropic", ID: "claude-3@20251001"}, true},
		{"REF-5 date then profile", "anthropic/claude-3@20251001@work", Ref{Provider: "anthropic", ID: "claude-3@20251001", Profile: "work"}, true},
		{"REF-5 q4_k_m", "ollama/llama3@q4_k_m", Ref{Provider: "ollama", ID: "llama3@q4_k_m"}, true},
		{"REF-5 iq3_xxs", "lmstudio/qwen3.6-27b@iq3_xxs", Ref{Provider: "lmstudio", ID: "qwen3.6-27b@iq3_xxs"}, true},
		{"REF-5 upper-case quant", "lmstudio/qwen@Q8_0", Ref{Provider: "lmstudio", ID: "qwen@Q8_0"}, true},
		{"REF-5 8bit", "mlx/qwen@8bit", Ref{Provider: "mlx", ID: "qwen@8bit"}, true},
		{"REF-5 4-bit is a profile", "mlx/qwen@4-BIT", Ref{Provider: "mlx", ID: "qwen", Profile: "4-BIT"}, true},
		{"REF-5 bf16 is a profile", "mlx/qwen@bf16", Ref{Provider: "mlx", ID: "qwen", Profile: "bf16"}, true},
		{"REF-5 version is a profile", "openai/gpt@v2", Ref{Provider: "openai", ID: "gpt", Profile: "v2"}, true},
		{"REF-5 seven digits is a profile", "openai/gpt@2025100", Ref{Provider: "openai", ID: "gpt", Profile: "2025100"}, true},
		{"REF-5 8bit upper case", "mlx/qwen@8BIT", Ref{Provider: "mlx", ID: "qwen@8BIT"}, true},
		{"REF-5 quant then profile", "ollama/llama3@q4_k_m@home", Ref{Provider: "ollama", ID: "llama3@q4_k_m", Profile: "home"}, true},
		{"REF-5 profile that only looks alike", "ollama/llama3@quiet", Ref{Provider: "ollama", ID: "llama3", Profile: "quiet"}, true},
		{"REF-5 empty profile stays in id", "openai/gpt@", Ref{Provider: "openai", ID: "gpt@"}, true},
		{"REF-5 profile on bare id is still invalid", "gpt@work", Ref{}, false},
		{"REF-5 a space after @ keeps a quant-like profile", "0/0@ q0", Ref{Provider: "0", ID: "0", Profile: "q0"}, true},
		{"REF-5 a space after @ keeps a profile holding @", "a/b@ 8bit@x", Ref{Provider: "a", ID: "b", Profile: "8bit@x"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseRef(tt.in)
			if ok != tt.ok {
				t.Fatalf("ParseRef(%q) ok = %v, want %v (got %+v)", tt.in, ok, tt.ok, got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRef(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// String renders a ref ParseRef reads back unchanged, also when the
// profile would read as a model suffix without the space.
func TestRefString(t *testing.T) {
	tests := []struct {
		ref  Ref
		want string
	}{
		{Ref{Provider: "openai", ID: "gpt-5"}, "openai/gpt-5"},
		{Ref{Provider: "anthropic", ID: "claude", Profile: "work"}, "anthropic/claude@work"},
		{Ref{Provider: "0", ID: "0", Profile: "q0"}, "0/0@ q0"},
		{Ref{Provider: "a", ID: "b", Profile: "8bit@x"}, "a/b@ 8bit@x"},
		{Ref{Provider: "a", ID: "b", Profile: "20251001"}, "a/b@ 20251001"},
		{Ref{Provider: "ollama", ID: "llama3@q4_k_m", Profile: "home"}, "ollama/llama3@q4_k_m@home"},
	}
	for _, tt := range tests {
		if got := tt.ref.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.ref, got, tt.want)
		}
		if back, ok := ParseRef(tt.ref.String()); !ok || back != tt.ref {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v", tt.ref.String(), back, ok, tt.ref)
		}
	}
}

func TestParseRefLenient(t *testing.T) {
	tests := []struct {
		name, in, def string
		want          Ref
		ok            bool
	}{
		{"REF-5a bare id gets default", "gpt-5.5", "openai", Ref{Provider: "openai", ID: "gpt-5.5"}, true},
		{"REF-5a default provider normalized", "gpt-5.5", " OpenAI ", Ref{Provider: "openai", ID: "gpt-5.5"}, true},
		{"REF-5a bare id with profile", "gpt-5.5@work", "openai", Ref{Provider: "openai", ID: "gpt-5.5", Profile: "work"}, true},
		{"REF-5a qualified wins", "anthropic/claude", "openai", Ref{Provider: "anthropic", ID: "claude"}, true},
		{"REF-5a empty", "", "openai", Ref{}, false},
		{"REF-5a slash", "/", "openai", Ref{}, false},
		{"REF-5a p/", "p/", "openai", Ref{}, false},
		{"REF-5a /m", "/m", "openai", Ref{}, false},
		{"REF-5a no default", "gpt-5.5", "", Ref{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseRefLenient(tt.in, tt.def)
			if ok != tt.ok {
				t.Fatalf("ParseRefLenient(%q, %q) ok = %v, want %v", tt.in, tt.def, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatchRow(t *testing.T) {
	tests := []struct {
		name, ref, row string
		want           bool
	}{
		{"REF-4 full ref", "openai/gpt-4.1", "openai/gpt-4.1", true},
		{"REF-4 bare id", "openai/gpt-4.1", "gpt-4.1", true},
		{"REF-4 provider prefix any case", "openai/gpt-4.1", "OpenAI/gpt-4.1", true},
		{"REF-4 id after first slash", "openai/vendor/model", "vendor/model", true},
		{"REF-4 never the last segment", "openai/vendor/model", "model", false},
		{"REF-4 other model", "openai/gpt-4.1", "gpt-4.1-mini", false},
		{"REF-4 other provider prefix", "openai/gpt-4.1", "azure/gpt-4.1", false},
		{"REF-4 id case kept", "openai/gpt-4.1", "GPT-4.1", false},
		{"REF-4 row trimmed", "openai/gpt-4.1", " gpt-4.1 ", true},
		{"REF-4 profile ignored", "openai/gpt-4.1@work", "gpt-4.1", true},
		{"REF-4 empty row", "openai/gpt-4.1", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := ParseRef(tt.ref)
			if !ok {
				t.Fatalf("bad fixture %q", tt.ref)
			}
			if got := MatchRow(r, tt.row); got != tt.want {
				t.Errorf("MatchRow(%q, %q) = %v, want %v", tt.ref, tt.row, got, tt.want)
			}
		})
	}
}

func TestNormalizeRuntime(t *testing.T) {
	tests := map[string]string{
		"":                 RuntimeAuto,
		"  ":               RuntimeAuto,
		"auto":             RuntimeAuto,
		"Default":          RuntimeAuto,
		"PI":               "openclaw",
		" pi ":             "openclaw",
		"Codex-App-Server": "codex",
		"codex":            "codex",
		" OpenClaw ":       "openclaw",
		"Acme-Agent":       "acme-agent",
	}
	for in, want := range tests {
		if got := NormalizeRuntime(in); got != want {
			t.Errorf("REF-6 NormalizeRuntime(%q) = %q, want %q", in, got, want)
		}
	}
}

// refGen draws valid refs, also with profiles that read as model suffixes
// after a bare @ (q4, 8bit, dates), whose String form must parse back.
func refGen() *rapid.Generator[Ref] {
	return rapid.Custom(func(t *rapid.T) Ref {
		provider := rapid.StringMatching(`[a-z][a-z0-9-]{0,12}`).Draw(t, "provider")
		id := rapid.StringMatching(`[A-Za-z0-9][A-Za-z0-9._-]{0,10}(/[A-Za-z0-9][A-Za-z0-9._-]{0,10}){0,2}`).Draw(t, "id")
		profile := ""
		if rapid.Bool().Draw(t, "withProfile") {
			profile = rapid.StringMatching(`(work|home|team|cf:default|ops-[a-z]{1,4}|q[0-9](_k_m)?|[0-9]bit(@[a-z]{1,4})?|2025[0-9]{4})`).Draw(t, "profile")
		}
		return Ref{Provider: provider, ID: id, Profile: profile}
	})
}

func TestParseRefRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := refGen().Draw(t, "ref")
		got, ok := ParseRef(r.String())
		if !ok {
			t.Fatalf("ParseRef(%q) invalid", r.String())
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Fatalf("round trip of %q (-want +got):\n%s", r.String(), diff)
		}
		if !MatchRow(got, r.ID) || !MatchRow(got, strings.ToUpper(r.Provider)+"/"+r.ID) {
			t.Fatalf("REF-4: %q does not match its own rows", r.String())
		}
	})
}

func TestTrimRef(t *testing.T) {
	tests := []struct{ in, want string }{
		{" vllm/m ", "vllm/m"},
		{"Vllm / m", "Vllm / m"}, // case and inner spacing kept
		{" a/b @ work ", "a/b@work"},
		{"a/m@q4@ p ", "a/m@q4@p"},
		{"c/d@ q4", "c/d@ q4"}, // the space keeps q4 a profile
		{"c/d @q4", "c/d @q4"}, // q4 is a model suffix: no profile to unpad
		{" fast ", "fast"},
		{"   ", ""},
		{"@x ", "@x"},
	}
	for _, tt := range tests {
		if got := TrimRef(tt.in); got != tt.want {
			t.Errorf("TrimRef(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(` ?[A-Za-z]{1,3} ?/ ?[a-z0-9@ _]{1,10} ?`).Draw(t, "ref")
		r1, ok1 := ParseRef(s)
		r2, ok2 := ParseRef(TrimRef(s))
		if ok1 != ok2 || r1 != r2 {
			t.Fatalf("TrimRef(%q) = %q parses as %+v %v, not %+v %v", s, TrimRef(s), r2, ok2, r1, ok1)
		}
		if TrimRef(TrimRef(s)) != TrimRef(s) {
			t.Fatalf("TrimRef not idempotent on %q", s)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"openai/gpt-4.1", "a/b/c@work", "x/y@q4_k_m@p", "/", "p/", "/m", "@", "a/@b", "a/b@20251001@c", " A / b "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := ParseRef(s)
		if !ok {
			if r != (Ref{}) {
				t.Fatalf("invalid parse returned %+v", r)
			}
			return
		}
		if r.Provider == "" || r.ID == "" || strings.Contains(r.Provider, "/") {
			t.Fatalf("REF-3 violated: %+v from %q", r, s)
		}
		if r.Provider != strings.ToLower(strings.TrimSpace(r.Provider)) || r.ID != strings.TrimSpace(r.ID) {
			t.Fatalf("REF-2 violated: %+v", r)
		}
		// Parsing is idempotent: the rendered ref parses back unchanged.
		again, ok := ParseRef(r.String())
		if !ok || again != r {
			t.Fatalf("re-parse of %q gave %+v, %v; want %+v", r.String(), again, ok, r)
		}
		if l, ok := ParseRefLenient(s, "fallback"); !ok || l != r {
			t.Fatalf("lenient parse of a strict ref differs: %+v", l)
		}
	})
}
