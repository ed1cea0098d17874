package celrules

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// scanned is what the scanner reads of the value at s[0]: its text, and
// for a container its members (key, then text) or elements.
func scanned(s string) []string {
	out := []string{text(s)}
	switch s[0] {
	case '{':
		for i := first(s); i >= 0; i = after(s, i) {
			k, v, ok := memberAt(s, i)
			if !ok {
				break
			}
			out = append(out, unquote(k), text(s[v:]))
			i = v
		}
	case '[':
		eachElement(s, func(v string) { out = append(out, text(v)) })
	}
	return out
}

// read is what gjson reads of the same value: the reference.
func read(r gjson.Result) []string {
	out := []string{r.Raw}
	switch {
	case r.IsObject():
		r.ForEach(func(k, v gjson.Result) bool {
			out = append(out, k.Str, v.Raw)
			return true
		})
	case r.IsArray():
		r.ForEach(func(_, v gjson.Result) bool {
			out = append(out, v.Raw)
			return true
		})
	}
	return out
}

// checkScan compares the scanner with gjson on the valid JSON value that
// starts at s[0], and below it, followed by tail (the scanner must stop
// at the value's end).
func checkScan(t *testing.T, s, tail string) {
	t.Helper()
	r := gjson.Parse(s)
	if !r.IsObject() && !r.IsArray() {
		r = gjson.Parse("[" + s + "]").Array()[0]
	}
	if diff := cmp.Diff(read(r), scanned(s+tail)); diff != "" {
		t.Fatalf("scanner and gjson differ on %q (-gjson +scanner):\n%s", s, diff)
	}
	if r.IsObject() {
		// Looked up in a varied order, by the object as CEL sees it: each
		// key (the first of a repeated one, as gjson's Get) and an absent
		// one, twice, so that both the first lookup's scan and the later
		// ones' reading are compared; then iterated, after the reading.
		o := jsonValue(s + tail).(*jsonObject)
		var before []string // iterated before any lookup: by a scan
		for it := o.Iterator(); it.HasNext() == types.True; {
			before = append(before, string(it.Next().(types.String)))
		}
		var keys, all []string // all: a repeated key again, as gjson's ForEach
		r.ForEach(func(k, v gjson.Result) bool {
			if !slices.Contains(keys, k.Str) {
				keys = append(keys, k.Str)
			}
			all = append(all, k.Str)
			return true
		})
		for _, k := range append(slices.Concat(keys[len(keys)/2:], keys[:len(keys)/2], []string{"\x00absent"}), keys...) {
			got, found := o.Find(types.String(k))
			want := r.Get(gjson.Escape(k))
			if found != want.Exists() || found && !reflect.DeepEqual(got.Value(), jsonValue(want.Raw).Value()) {
				t.Fatalf("Find(%q) in %q = %v, %v; want %s", k, s, got, found, want.Raw)
			}
		}
		var iterated []string
		for it := o.Iterator(); it.HasNext() == types.True; {
			iterated = append(iterated, string(it.Next().(types.String)))
		}
		if diff := cmp.Diff(all, iterated); diff != "" {
			t.Fatalf("keys of %q (-gjson +iterator):\n%s", s, diff)
		}
		if diff := cmp.Diff(all, before); diff != "" {
			t.Fatalf("keys of %q before a lookup (-gjson +iterator):\n%s", s, diff)
		}
	}
	if r.IsObject() || r.IsArray() {
		r.ForEach(func(_, v gjson.Result) bool {
			checkScan(t, v.Raw, tail)
			return true
		})
	}
}

func TestScan(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1}`, `[1,"x",true,false,null,-1.5e3]`,
		`{"a":{"b":[1,{"c":"}"}]},"d":"\"]","a":2}`,
		`{ "k\"ey" : "v\\" , "k\u00e9" : [ { } , [ ] ] , "e" : "\\\\" }`,
		`{"agents":{"defaults":{"maxConcurrent":4,"models":{"a/b":{"alias":"x"}}}},"logging":{"level":"info"}}`,
		`"s"`, `12`, `true`, `null`,
	} {
		t.Run(s, func(t *testing.T) {
			checkScan(t, s, "")
			checkScan(t, s, `,"after":{"x":1}}`)
		})
	}
}

// FuzzScan checks the scanner against gjson on any valid JSON.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":{"b":[1,{"c":"}"}]},"d":"\"]"}`, `[1,[2,[3]],{"x":null}]`, `{"\\":"\\\""}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.TrimSpace(s)
		if s == "" || !gjson.Valid(s) || strings.Count(s, "[")+strings.Count(s, "{") > 64 {
			return
		}
		checkScan(t, s, "]}")
	})
}
