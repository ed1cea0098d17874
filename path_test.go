package occkit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

func TestPathRender(t *testing.T) {
	tests := []struct {
		name     string
		path     occkit.Path
		dot, ptr string
	}{
		{"root", occkit.Root(), "", ""},
		{"keys", occkit.NewPath("agents", "entries", "main", "model"), "agents.entries.main.model", "/agents/entries/main/model"},
		{"index", occkit.NewPath("agents", "defaults", "model", "fallbacks").Index(0), "agents.defaults.model.fallbacks[0]", "/agents/defaults/model/fallbacks/0"},
		{"slash key", occkit.NewPath("agents", "defaults", "models", "openai/gpt-5"), `agents.defaults.models["openai/gpt-5"]`, "/agents/defaults/models/openai~1gpt-5"},
		{"dot key", occkit.NewPath("a", "k.y"), `a["k.y"]`, "/a/k.y"},
		{"tilde key", occkit.NewPath("a~b"), `["a~b"]`, "/a~0b"},
		{"empty key", occkit.NewPath(""), `[""]`, "/"},
		{"quote key", occkit.NewPath(`x"y`), `["x\"y"]`, `/x"y`},
		{"wildcard key", occkit.NewPath("models", "openai/*"), `models["openai/*"]`, "/models/openai~1*"},
		{"nested index", occkit.NewPath("m").Index(2).Index(3).Key("id"), "m[2][3].id", "/m/2/3/id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.path.String(); got != tt.dot {
				t.Errorf("String() = %q, want %q", got, tt.dot)
			}
			if got := tt.path.Pointer(); got != tt.ptr {
				t.Errorf("Pointer() = %q, want %q", got, tt.ptr)
			}
			back, err := occkit.ParsePath(tt.dot)
			if err != nil {
				t.Fatalf("ParsePath(%q): %v", tt.dot, err)
			}
			if !back.Equal(tt.path) {
				t.Errorf("ParsePath(%q) = %q", tt.dot, back.String())
			}
		})
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, s := range []string{".a", "a.", "a..b", "a[", "a[x]", "a[-1]", "a[01]", `a["x]`, `a["x"`, "a.[0]"} {
		if _, err := occkit.ParsePath(s); err == nil {
			t.Errorf("ParsePath(%q) accepted", s)
		}
	}
	for _, s := range []string{"a", "/a~2"} {
		if _, err := occkit.ParsePointer(s); err == nil {
			t.Errorf("ParsePointer(%q) accepted", s)
		}
	}
}

func genPath(t *rapid.T) occkit.Path {
	p := occkit.Root()
	n := rapid.IntRange(0, 6).Draw(t, "len")
	for i := 0; i < n; i++ {
		if rapid.Bool().Draw(t, "isIndex") {
			p = p.Index(rapid.IntRange(0, 1000).Draw(t, "index"))
		} else {
			p = p.Key(rapid.String().Draw(t, "key"))
		}
	}
	return p
}

// The three renderings are converted in one place; each must round-trip.
func TestPathRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPath(t)
		back, err := occkit.ParsePath(p.String())
		if err != nil {
			t.Fatalf("ParsePath(%q): %v", p.String(), err)
		}
		if !back.Equal(p) {
			t.Fatalf("dot round trip: %q -> %q", p.String(), back.String())
		}
		fromPtr, err := occkit.ParsePointer(p.Pointer())
		if err != nil {
			t.Fatalf("ParsePointer(%q): %v", p.Pointer(), err)
		}
		if fromPtr.Pointer() != p.Pointer() {
			t.Fatalf("pointer round trip: %q -> %q", p.Pointer(), fromPtr.Pointer())
		}
	})
}

// A path built from untrusted keys addresses exactly that key through gjson
// and sjson: no key can act as a wildcard, modifier or query.
func TestPathGJSONProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.String().Draw(t, "key")
		p := occkit.NewPath("root", key)
		doc, err := occkit.MustParseDocument(`{"root":{"other":1}}`).Set(p, "v")
		if err != nil {
			t.Skip("sjson cannot set this key")
		}
		if got := doc.Get(p).String(); got != "v" {
			t.Fatalf("Get(%q) = %q in %s", p.String(), got, doc.String())
		}
		if got := doc.Get(occkit.NewPath("root", "other")).Int(); got != 1 {
			t.Fatalf("sibling changed: %s", doc.String())
		}
	})
}

func TestPathImmutable(t *testing.T) {
	base := occkit.NewPath("a", "b")
	x := base.Key("x")
	y := base.Key("y")
	if diff := cmp.Diff([]string{"a.b", "a.b.x", "a.b.y"}, []string{base.String(), x.String(), y.String()}); diff != "" {
		t.Fatal(diff)
	}
	if p := x.Parent().Key("z"); !x.Equal(occkit.NewPath("a", "b", "x")) || p.String() != "a.b.z" {
		t.Fatalf("Parent aliases its child: x=%s p=%s", x, p)
	}
}

func TestPathCompare(t *testing.T) {
	ordered := []occkit.Path{
		occkit.Root(),
		occkit.NewPath("a"),
		occkit.NewPath("a").Index(0),
		occkit.NewPath("a").Index(1),
		occkit.NewPath("a", "b"),
		occkit.NewPath("b"),
	}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := ordered[i].Compare(ordered[j]); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

// The root prints as (root) (issue 12); its dot path stays "".
func TestRootPrints(t *testing.T) {
	root := occkit.Root()
	if got := fmt.Sprintf("at %s: x", root); got != "at (root): x" {
		t.Errorf("%%s of the root = %q", got)
	}
	if got := fmt.Sprintf("%v|%q|%s", occkit.NewPath("agents", "list"), root, root.String()); got != `agents.list|""|` {
		t.Errorf("printing = %q", got)
	}
}

// A Path says which document it addresses; its three renderings do not,
// Equal, Compare and the error templates do.
func TestPathDocuments(t *testing.T) {
	agent := occkit.AgentPath("harnessAuth", "method")
	conf := occkit.NewPath("harnessAuth", "method")
	if agent.String() != conf.String() || agent.Pointer() != conf.Pointer() || agent.GJSON() != conf.GJSON() {
		t.Errorf("renderings differ: %s %s", agent, conf)
	}
	if agent.Equal(conf) || agent.Compare(conf) == 0 {
		t.Errorf("an Agent path equals a Configuration path")
	}
	if !agent.Equal(conf.In(occkit.DocAgent)) {
		t.Errorf("In does not move a path into a document")
	}
	for _, p := range []occkit.Path{agent.Key("x"), agent.Index(0), agent.Parent(), occkit.AgentPath()} {
		if p.Doc() != occkit.DocAgent {
			t.Errorf("%s lost its document", p)
		}
	}
	if p, _ := occkit.ParsePath("harnessAuth.method"); p.Doc() != occkit.DocConfiguration {
		t.Errorf("ParsePath gives a %s path", p.Doc())
	}
	var b occkit.PathBuilder
	b.Doc = occkit.DocRender
	b.Key("kubernetes")
	if got := b.Path(); got.Doc() != occkit.DocRender || !got.Equal(occkit.RenderPath("kubernetes")) {
		t.Errorf("PathBuilder = %s in %s", got, got.Doc())
	}
	// Reset builds the next path after the last, which does not change.
	b.Reset()
	b.Grow(4)
	b.Key("a")
	first := b.Path()
	b.Reset()
	b.Key("b")
	b.Index(1)
	if second := b.Path(); !first.Equal(occkit.RenderPath("a")) || !second.Equal(occkit.RenderPath("b").Index(1)) {
		t.Errorf("after Reset: %s and %s", first, second)
	}
	// Same elements order by document, after every element comparison.
	if occkit.NewPath("a").Compare(occkit.AgentPath("a")) >= 0 || occkit.AgentPath("a").Compare(occkit.NewPath("b")) >= 0 {
		t.Errorf("Compare does not order by elements first, then document")
	}
	e := occkit.Invalid("AUTH-4a", agent, "m")
	for _, tt := range []struct {
		name string
		tmpl *occkit.Error
		want bool
	}{
		{"same path and document", &occkit.Error{Path: agent}, true},
		{"same path, Configuration", &occkit.Error{Path: conf}, false},
		{"any Agent path", &occkit.Error{Path: occkit.AgentPath()}, true},
		{"any installation path", &occkit.Error{Path: occkit.InstallationPath()}, false},
		{"any path", &occkit.Error{Code: occkit.CodeInvalidRequest}, true},
	} {
		if got := errors.Is(e, tt.tmpl); got != tt.want {
			t.Errorf("%s: errors.Is = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, d := range occkit.AllDocs() {
		back, err := occkit.ParseDoc(d.String())
		if err != nil || back != d {
			t.Errorf("ParseDoc(%q) = %v, %v", d, back, err)
		}
	}
	if _, err := occkit.ParseDoc("Agent"); err == nil {
		t.Errorf("ParseDoc accepts a capitalised name")
	}
}
