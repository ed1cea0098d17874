package occkit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
)

// The one-edit-at-a-time reference: sjson on a copy, the way Document's
// edits worked before they were spliced.
func refSetRaw(doc []byte, p occkit.Path, raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return sjson.SetRawBytes(bytes.Clone(doc), p.GJSON(), buf.Bytes())
}

func refDelete(doc []byte, p occkit.Path) ([]byte, error) {
	if !gjson.GetBytes(doc, p.GJSON()).Exists() {
		return doc, nil
	}
	return sjson.DeleteBytes(bytes.Clone(doc), p.GJSON())
}

// editKeys are few, so that edits meet existing members and each other;
// some of them sjson reads specially (an index, an escape).
var editKeys = []string{"a", "b", "c", "logging", "level", "0", "x.y", "é", `q"`}

func genValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kind := rapid.IntRange(0, 5).Draw(t, "kind")
		if depth >= 3 && kind >= 4 {
			kind = 0
		}
		switch kind {
		case 0:
			return rapid.SampledFrom([]string{"info", "debug", "\u00e9", "a\"b", "<x>"}).Draw(t, "s")
		case 1:
			return rapid.IntRange(-3, 3).Draw(t, "n")
		case 2:
			return rapid.Bool().Draw(t, "b")
		case 3:
			return nil
		case 4:
			n := rapid.IntRange(0, 3).Draw(t, "len")
			arr := make([]any, n)
			for i := range arr {
				arr[i] = genValue(depth+1).Draw(t, "el")
			}
			return arr
		}
		m := map[string]any{}
		for n := rapid.IntRange(0, 4).Draw(t, "members"); n > 0; n-- {
			m[rapid.SampledFrom(editKeys).Draw(t, "key")] = genValue(depth+1).Draw(t, "v")
		}
		return m
	})
}

func genEditPath(t *rapid.T) occkit.Path {
	p := occkit.Root()
	for n := rapid.IntRange(1, 3).Draw(t, "depth"); n > 0; n-- {
		if rapid.IntRange(0, 9).Draw(t, "index") == 0 {
			p = p.Index(rapid.IntRange(0, 2).Draw(t, "i"))
		} else {
			p = p.Key(rapid.SampledFrom(editKeys).Draw(t, "k"))
		}
	}
	return p
}

// genDocument is a random object with keys in a random order (Go's map
// marshalling sorts them, so the members are shuffled through gjson).
func genDocument(t *rapid.T) occkit.Document {
	m := map[string]any{}
	for n := rapid.IntRange(0, 5).Draw(t, "members"); n > 0; n-- {
		m[rapid.SampledFrom(editKeys).Draw(t, "key")] = genValue(1).Draw(t, "v")
	}
	b, _ := json.Marshal(m)
	if rapid.Bool().Draw(t, "escape") {
		// An escaped spelling of a key: "\u0061" is the key "a".
		b = bytes.Replace(b, []byte(`"a":`), []byte(`"\u0061":`), 1)
	}
	return occkit.MustParseDocument(string(b))
}

// lookUp looks a member of doc up, or not: a document whose root members
// are located splices from their places instead of reading past them.
func lookUp(t *rapid.T, doc occkit.Document) {
	if rapid.Bool().Draw(t, "look up") {
		doc.Get(occkit.NewPath(rapid.SampledFrom(editKeys).Draw(t, "look up key")))
	}
}

// TestApplyMatchesOneAtATime checks the splice against sjson edits made one
// after another: the same bytes, or an error from both.
func TestApplyMatchesOneAtATime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := genDocument(t)
		lookUp(t, doc)
		var edits []occkit.Edit
		for n := rapid.IntRange(1, 5).Draw(t, "edits"); n > 0; n-- {
			e := occkit.Edit{Path: genEditPath(t), Delete: rapid.IntRange(0, 3).Draw(t, "delete") == 0}
			if !e.Delete {
				e.Raw, _ = json.Marshal(genValue(2).Draw(t, "raw"))
				if rapid.Bool().Draw(t, "indent") {
					// White space, which Apply compacts away.
					var buf bytes.Buffer
					_ = json.Indent(&buf, e.Raw, " ", "\t")
					e.Raw = append(buf.Bytes(), '\n')
				}
			}
			edits = append(edits, e)
		}
		want, werr := doc.Bytes(), error(nil)
		for _, e := range edits {
			if e.Delete {
				want, werr = refDelete(want, e.Path)
			} else {
				want, werr = refSetRaw(want, e.Path, e.Raw)
			}
			if werr != nil {
				break
			}
		}
		before := doc.String()
		got, err := doc.Apply(edits...)
		if doc.String() != before {
			t.Fatalf("Apply changed its receiver")
		}
		if (err != nil) != (werr != nil) {
			t.Fatalf("Apply(%s) error %v, one at a time %v", describe(edits), err, werr)
		}
		if err == nil && got.String() != string(want) {
			t.Fatalf("Apply(%s) on %s\n got %s\nwant %s", describe(edits), doc, got, want)
		}
		if len(edits) == 1 {
			e := edits[0]
			var one occkit.Document
			if e.Delete {
				one, err = doc.Delete(e.Path)
			} else {
				one, err = doc.SetRaw(e.Path, e.Raw)
			}
			if err == nil && one.String() != string(want) {
				t.Fatalf("one edit %s: got %s, want %s", describe(edits), one, want)
			}
		}
	})
}

// TestSetMatchesSjson checks Set's own encoding of Go values against
// sjson's.
func TestSetMatchesSjson(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := genDocument(t)
		lookUp(t, doc)
		p := genEditPath(t)
		v := rapid.SampledFrom([]any{"local", "a<b", "é", "x\ny", []byte("raw"), true, 7, int64(-2), uint8(3),
			1.5, float32(2), 1e21, map[string]any{"mode": "token", "token": "${T}"}, []string{"a"}, nil}).Draw(t, "v")
		want, werr := sjson.SetBytes(doc.Bytes(), p.GJSON(), v)
		got, err := doc.Set(p, v)
		if (err != nil) != (werr != nil) {
			t.Fatalf("Set(%s, %#v) error %v, sjson %v", p, v, err, werr)
		}
		if err == nil && got.String() != string(want) {
			t.Fatalf("Set(%s, %#v) on %s\n got %s\nwant %s", p, v, doc, got, want)
		}
	})
}

func describe(edits []occkit.Edit) string {
	var b strings.Builder
	for _, e := range edits {
		if e.Delete {
			fmt.Fprintf(&b, "delete %s; ", e.Path)
		} else {
			fmt.Fprintf(&b, "set %s=%s; ", e.Path, e.Raw)
		}
	}
	return b.String()
}

// TestApplyIsOneAllocation: edits of distinct members write the result
// once, whatever the document's size.
func TestApplyIsOneAllocation(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"agents":{"list":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"a%d"}`, i)
	}
	b.WriteString(`]},"logging":{"redactSensitive":"off","level":"debug"},"diagnostics":{"otel":{}}}`)
	doc := occkit.MustParseDocument(b.String())
	edits := []occkit.Edit{
		{Path: occkit.NewPath("logging", "redactSensitive"), Delete: true},
		{Path: occkit.NewPath("logging", "level"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("logging", "consoleLevel"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("diagnostics", "otel", "logs"), Raw: []byte(`false`)},
	}
	var out occkit.Document
	allocs := testing.AllocsPerRun(20, func() { out, _ = doc.Apply(edits...) })
	// The result, the edit tree and the compacted values: a constant.
	if allocs > 40 {
		t.Errorf("Apply made %v allocations", allocs)
	}
	// Only the result is the document's size.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < 10; i++ {
		out, _ = doc.Apply(edits...)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > uint64(len(doc.String()))+4096 {
		t.Errorf("Apply allocated %d bytes for a %d-byte document", per, len(doc.String()))
	}
	if !strings.HasSuffix(out.String(), `"logging":{"level":"info","consoleLevel":"info"},"diagnostics":{"otel":{"logs":false}}}`) {
		t.Errorf("Apply = …%s", out.String()[len(out.String())-90:])
	}
}

// TestWriteToDoesNotCopy: WriteTo hands the document's bytes to the writer
// as they are.
func TestWriteToDoesNotCopy(t *testing.T) {
	doc := occkit.MustParseDocument(`{"a":[1,2,3],"b":"x"}`)
	var buf bytes.Buffer
	buf.Grow(64)
	if n := testing.AllocsPerRun(10, func() { buf.Reset(); _, _ = doc.WriteTo(&buf) }); n != 0 {
		t.Errorf("WriteTo made %v allocations", n)
	}
	if buf.String() != doc.String() {
		t.Errorf("WriteTo wrote %s", buf.String())
	}
}

// stampEdits are edits like logging.Stamp's: members of two root
// objects set, one deleted, one object created.
func stampEdits() []occkit.Edit {
	return []occkit.Edit{
		{Path: occkit.NewPath("logging", "redactSensitive"), Delete: true},
		{Path: occkit.NewPath("logging", "level"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("logging", "consoleLevel"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("logging", "consoleStyle"), Raw: []byte(`"json"`)},
		{Path: occkit.NewPath("diagnostics", "otel", "logs"), Raw: []byte(`false`)},
	}
}

func BenchmarkApply(b *testing.B) {
	for _, n := range bench.Sizes[:2] {
		doc, err := compile.Load(bench.Documents[0].Make(n), compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		edits := stampEdits()
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := doc.Apply(edits...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
