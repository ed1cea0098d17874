package admission

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"unsafe"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver"
	"pgregory.net/rapid"
)

// viewsInto appends to out the path of every string, pointer or slice
// reachable from v whose memory lies in [lo, hi).
func viewsInto(v reflect.Value, path string, lo, hi uintptr, seen map[uintptr]bool, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			p := uintptr(unsafe.Pointer(unsafe.StringData(v.String())))
			if p >= lo && p < hi {
				*out = append(*out, path)
			}
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			p := v.Pointer()
			if p >= lo && p < hi {
				*out = append(*out, path+" (ptr)")
			}
			if seen[p] {
				return
			}
			seen[p] = true
		}
		viewsInto(v.Elem(), path, lo, hi, seen, out)
	case reflect.Struct:
		if !v.CanAddr() {
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			v = c
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			viewsInto(f, path+"."+v.Type().Field(i).Name, lo, hi, seen, out)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			p := v.Pointer()
			if p >= lo && p < hi {
				*out = append(*out, path+" (slice)")
			}
		}
		for i := 0; i < v.Len(); i++ {
			viewsInto(v.Index(i), fmt.Sprintf("%s[%d]", path, i), lo, hi, seen, out)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			viewsInto(v.Index(i), fmt.Sprintf("%s[%d]", path, i), lo, hi, seen, out)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			viewsInto(it.Key(), path+"{key}", lo, hi, seen, out)
			viewsInto(it.Value(), path+"{"+fmt.Sprint(it.Key())+"}", lo, hi, seen, out)
		}
	}
}

// TestRevisionKeepsNoViewOfTheSource holds a revision to owning what it
// keeps: no string, pointer or slice reachable from it may point into the
// loaded document's bytes, or the revision would keep the whole source
// alive beside the canonical document it freezes (one more copy of the
// Configuration at every size). The walk is by reflection over every
// field, so a field added later is checked too.
func TestRevisionKeepsNoViewOfTheSource(t *testing.T) {
	a, err := New(Options{
		Authorizer:      AuthorizerFunc(func(context.Context, AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: openclawschema.Release()},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(slices.Clone(bench.Documents), bench.Others...) {
		for _, n := range bench.Sizes[:2] {
			doc, err := compile.Load(d.Make(n), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			view := doc.String() // the document's bytes, not a copy
			lo := uintptr(unsafe.Pointer(unsafe.StringData(view)))
			hi := lo + uintptr(len(view))
			prepared := Prepare(doc)
			dec, err := prepared.Resolve(resolver.Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes})
			if err != nil {
				t.Fatal(err)
			}
			if len(dec.Reasons) == 0 || dec.Primary == "" {
				t.Fatalf("%s models=%d: the decision has no reasons or no primary: the test checks nothing", d.Name, n)
			}
			rev, err := a.Admit(context.Background(), Request{
				Principal: "user_1",
				Agent: Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: dec.Mode,
					HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}},
				Configuration: StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
				Compute:       ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "kubernetes"},
				Prepared:      prepared,
			})
			if err != nil {
				t.Fatal(err)
			}
			var views []string
			viewsInto(reflect.ValueOf(rev), "Revision", lo, hi, map[uintptr]bool{}, &views)
			if len(views) > 0 {
				t.Errorf("%s models=%d: the revision keeps %d views of the source: %v", d.Name, n, len(views), views)
			}
			if diff := cmp.Diff(dec.Reasons, rev.Reasons(), cmp.Comparer(occkit.Path.Equal)); diff != "" {
				t.Errorf("%s models=%d: reasons (-decision +revision):\n%s", d.Name, n, diff)
			}
			if rev.Primary() != dec.Primary || !slices.Equal(rev.Fallbacks(), dec.Fallbacks) {
				t.Errorf("%s models=%d: models %q %q, decided %q %q", d.Name, n, rev.Primary(), rev.Fallbacks(), dec.Primary, dec.Fallbacks)
			}
		}
	}
}

// TestReasonListKeepsReasons holds the compact reason chain to giving
// back the reasons it was made from, whatever their paths: keys empty or
// repeated, indexes from 0 to math.MaxInt32 (and past it, or negative,
// which it keeps as decided), paths of every document, the root; and the
// reasons a rule adds after. The expected answer is the input.
func TestReasonListKeepsReasons(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SampledFrom([]string{"", "agents", "entries", "a.b", "模型", "x"})
		reason := drawnReason(keys)
		dec := resolver.Decision{Primary: "p/m", Fallbacks: []string{"p/f"},
			Reasons: rapid.SliceOfN(reason, 0, 8).Draw(t, "reasons")}
		added := rapid.SliceOfN(reason, 0, 3).Draw(t, "added")
		d := detach(dec)
		for _, r := range added {
			d.reasons.add(r)
		}
		want := append(slices.Clone(dec.Reasons), added...)
		got := d.reasons.all()
		if len(want) == 0 {
			want = nil
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(occkit.Path.Equal)); diff != "" {
			t.Fatalf("reasons (-decided +kept):\n%s", diff)
		}
		for i := range got {
			got[i] = resolver.Reason{Rule: "changed"} // a caller's edit of its copy
		}
		if diff := cmp.Diff(want, d.reasons.all(), cmp.Comparer(occkit.Path.Equal)); diff != "" {
			t.Fatalf("a caller's copy changed the kept reasons:\n%s", diff)
		}
		at := occkit.Root()
		for _, r := range want {
			if r.Rule == "RES-3" {
				at = r.Path
				break
			}
		}
		if p := d.reasons.decidedPrimaryPath(); !p.Equal(at) {
			t.Fatalf("primary path %v, want %v", p, at)
		}
	})
}

// drawnReason draws a reason whose path keys, value and note are drawn
// from text: paths of every document, the root, keys empty or repeated,
// indexes from 0 to math.MaxInt32 (and past it, or negative).
func drawnReason(text *rapid.Generator[string]) *rapid.Generator[resolver.Reason] {
	indexes := rapid.OneOf(rapid.IntRange(0, 3), rapid.Just(math.MaxInt32), rapid.Just(math.MaxInt32+1), rapid.Just(-1))
	path := rapid.Custom(func(t *rapid.T) occkit.Path {
		var b occkit.PathBuilder
		b.Doc = rapid.SampledFrom(occkit.AllDocs()).Draw(t, "doc")
		for range rapid.IntRange(0, 5).Draw(t, "len") {
			if rapid.Bool().Draw(t, "index") {
				b.Index(indexes.Draw(t, "i"))
			} else {
				b.Key(text.Draw(t, "key"))
			}
		}
		return b.Path()
	})
	return rapid.Custom(func(t *rapid.T) resolver.Reason {
		return resolver.Reason{Rule: rapid.SampledFrom([]string{"RES-3", "RES-5", "SEL-9"}).Draw(t, "rule"),
			Path: path.Draw(t, "path"), Value: text.Draw(t, "value"), Note: text.Draw(t, "note")}
	})
}
