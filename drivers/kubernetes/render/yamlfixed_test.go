package render

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"pgregory.net/rapid"
)

// TestInOrderIsList: Objects.YAML and Each walk the objects in the order
// of Objects.List, which they do not make.
func TestInOrderIsList(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		// More than one of a kind, in an order of their own.
		objs.ConfigMaps = append(objs.ConfigMaps, objs.ConfigMaps...)
		objs.Deployments = append(objs.Deployments[:len(objs.Deployments):len(objs.Deployments)], objs.Deployments[0])
		var got []Object
		if err := objs.inOrder(func(obj Object) error { got = append(got, obj); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, objs.List()) {
			t.Fatalf("inOrder walks %d objects not in List's order (%d)", len(got), len(objs.List()))
		}
	})
}

// TestYAMLSize: the room Objects.YAML makes for the stream holds a drawn
// render's YAML (the stream is never copied to grow) and is not much more
// than it.
func TestYAMLSize(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		y, err := objs.YAML()
		if err != nil {
			t.Fatal(err)
		}
		size := objs.yamlSize()
		if size < len(y) || size > len(y)*7/5 {
			t.Fatalf("room for %d bytes of YAML, %d written", size, len(y))
		}
	})
}

// TestYAMLAllocations: the YAML of a render the typed writer covers
// allocates its stream and nothing else: the writer lives in its call's
// frame, and no list of the objects is made. (A value it does not cover,
// Codex's multi-line config.toml, goes to go-yaml's encoder.) What
// others allocate as it writes is not the writer's: the text of a
// quantity ("1.5Ti"), the errors strconv makes of a value that starts
// like a number and is none ("4e5093061234" out of a float's range) and
// the value without its underscores go-yaml reads ("-_"). Under the race
// detector, whose bookkeeping allocates now and then, the count may move
// by one (raceSlack).
func TestYAMLAllocations(t *testing.T) {
	covered := 0
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		for _, obj := range objs.List() {
			if _, read, written := appendTyped(nil, obj); !read || !written {
				return
			}
		}
		covered++
		others := testing.AllocsPerRun(10, func() {
			for _, pvc := range objs.PersistentVolumeClaims {
				for _, q := range pvc.Spec.Resources.Requests {
					_ = q.String()
				}
				for _, q := range pvc.Spec.Resources.Limits {
					_ = q.String()
				}
			}
		})
		y, err := objs.YAML()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range yamlValues(y) {
			others += testing.AllocsPerRun(10, func() { yamlResolvesToString(v) })
		}
		if n := testing.AllocsPerRun(100, func() {
			if _, err := objs.YAML(); err != nil {
				t.Fatal(err)
			}
		}); n < 1+others-raceSlack || n > 1+others+raceSlack {
			t.Fatalf("YAML allocates %v times, not once (and %v for others)", n, others)
		}
	})
	if covered == 0 {
		t.Fatal("the typed writer covered no drawn render")
	}
}

// yamlValues are the scalars of the YAML y (the rendered objects' block
// style: a key and its value, or a sequence's item, a line each),
// without their quotes.
func yamlValues(y []byte) []string {
	var values []string
	for _, line := range strings.Split(string(y), "\n") {
		line = strings.TrimLeft(line, " -")
		if _, v, ok := strings.Cut(line, ": "); ok {
			line = v
		}
		if len(line) >= 2 && (line[0] == '"' || line[0] == '\'') {
			line = line[1 : len(line)-1]
		}
		values = append(values, line)
	}
	return values
}

// TestSortKeys: where totalKeys holds a map's keys total (no digit, no
// non-ASCII byte, as the old test by strings.IndexFunc had it), sortKeys
// puts its members in the order slices.SortFunc puts them in by
// yamlKeyCompare, whatever the order they start in.
func TestSortKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfNDistinct(rapid.StringOfN(rapid.SampledFrom([]rune("aAzZ.-_/~ !09é")), 0, 12, -1),
			0, 20, func(s string) string { return s }).Draw(t, "keys")
		members := make([]member, len(keys))
		total := true
		for i, k := range keys {
			members[i] = member{key: k, text: k}
			total = total && strings.IndexFunc(k, func(c rune) bool { return c >= '0' && c <= '9' || c >= utf8.RuneSelf }) < 0
		}
		if got := totalKeys(members); got != total {
			t.Fatalf("totalKeys(%q) = %v", keys, got)
		}
		if !total {
			return
		}
		want := slices.Clone(members)
		slices.SortFunc(want, func(a, b member) int { return yamlKeyCompare(a.key, b.key) })
		sortKeys(members)
		if !slices.Equal(members, want) {
			t.Fatalf("sortKeys: %q, slices.SortFunc: %q", members, want)
		}
	})
}

// TestFieldNames: every JSON name of every field of every type the typed
// writer reads is a word go-yaml writes plain as it is, so that
// yamlWriter.field writes the names it is given without looking at them.
// (That it is given those names and no others, the differential tests
// of the typed writer check.)
func TestFieldNames(t *testing.T) {
	for _, u := range allUnread {
		for i := 0; i < u.typ.NumField(); i++ {
			f := u.typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !wordScalar(name) || len(name) > 128 {
				t.Errorf("%s.%s: the JSON name %q is not a plain word", u.typ, f.Name, name)
			}
		}
	}
	if len(allUnread) == 0 {
		t.Fatal("no type the typed writer reads")
	}
}

// TestZeroBytes: the unread fields' bytes of a zero value of every type
// the typed writer reads are zero, and each unread field set in turn
// (and what it holds, below it) makes them not zero, as reflection has it.
// Where the bytes are not zero and the fields are (an empty string that
// points somewhere), zero asks reflection.
func TestZeroBytes(t *testing.T) {
	for _, u := range allUnread {
		v := reflect.New(u.typ).Elem()
		if !u.zeroBytes(v.Addr().UnsafePointer()) {
			t.Errorf("%s: the zero value's bytes are not zero", u.typ)
		}
		covered := 0
		for _, i := range u.fields {
			if !u.typ.Field(i).IsExported() {
				continue
			}
			setValues(v.Field(i), 3, func(path string) {
				covered++
				if u.zeroBytes(v.Addr().UnsafePointer()) || u.zeroFields(v) {
					t.Errorf("%s%s set: the unread fields are zero", u.typ, path)
				}
			}, "."+u.typ.Field(i).Name)
		}
		if covered == 0 && len(u.fields) > 0 {
			t.Errorf("%s: no unread field set", u.typ)
		}
	}
	// An empty string whose pointer is not nil.
	type named struct {
		S string `json:"s,omitempty"`
		T string `json:"t,omitempty"`
	}
	u := unreadFields[named]("T")
	allUnread = allUnread[:len(allUnread)-1]
	x := named{S: "ab"[:0], T: "t"}
	if u.zeroBytes(unsafe.Pointer(&x)) || !zero(u, &x) {
		t.Errorf("an empty string: zeroBytes %v, zero %v", u.zeroBytes(unsafe.Pointer(&x)), zero(u, &x))
	}
}

// TestLongMaps: a map of more members than the typed writer holds in its
// frame (typedWriter.scratch), with keys in a total order or not, is
// written as the JSON tree and sigs.k8s.io/yaml write it.
func TestLongMaps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		dep := objs.Deployments[0]
		digits := rapid.Bool().Draw(t, "digits")
		n := rapid.IntRange(len(typedWriter{}.scratch)-2, 3*len(typedWriter{}.scratch)).Draw(t, "n")
		labels := map[string]string{}
		for len(labels) < n {
			k := rapid.StringMatching(`[a-z][a-z./-]{0,12}`).Draw(t, "key")
			if digits {
				k = rapid.StringMatching(`[a-z0-9][a-z0-9./-]{0,12}`).Draw(t, "key")
			}
			labels[k] = rapid.SampledFrom([]string{"x", "1", "yes", "a b"}).Draw(t, "value")
		}
		dep.Spec.Template.Labels = labels
		if !checkTyped(t, dep) {
			t.Fatal("the typed writer does not read the Deployment")
		}
	})
}
