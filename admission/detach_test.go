package admission

import (
	"context"
	"fmt"
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
	for _, d := range bench.Documents {
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
