package compile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Constants of the work bound stated in the package doc.
const (
	boundK     = 64
	boundLevel = 256 // per level of nesting reached (the path an error names)
	boundC     = 1 << 20
)

// allocated reports the bytes and objects f allocates (runtime.MemStats
// TotalAlloc and Mallocs deltas). It measures allocation, never time.
func allocated(f func()) (bytes, objects uint64) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// bound is the package doc's bound for loading src with opts.
func bound(src []byte, opts LoadOptions) uint64 {
	l := opts.Limits.withDefaults()
	extra := 0
	if len(opts.IncludeRoots) > 0 {
		extra += l.MaxBytes
	}
	if opts.Lookup != nil {
		extra += l.MaxBytes
	}
	levels := min(len(src)+extra, l.MaxDepth+1)
	return uint64(boundK*(len(src)+extra) + boundLevel*levels + boundC)
}

type bomb struct {
	name string
	src  []byte
	opts LoadOptions
}

// bombs are the inputs of issue 15's review and their relatives: each
// once cost hundreds of MiB or more.
func bombs(t testing.TB) []bomb {
	a := strings.Repeat("x", 256)
	lookup := func(string) (string, bool) { return a, true }
	var out []bomb
	one := `{"a":"` + strings.Repeat("${A}", 260_000) + `"}`
	out = append(out, bomb{"one string of 260,000 ${A}", []byte(one), LoadOptions{Lookup: lookup}})
	many := `{"a":[` + strings.Repeat(`"${A}",`, 250_000) + `"${A}"]}`
	out = append(out, bomb{"250,000 strings of ${A}", []byte(many), LoadOptions{Lookup: lookup}})
	big := func(string) (string, bool) { return strings.Repeat("y", 4096), true }
	out = append(out, bomb{"250,000 strings of a 4 KiB ${A}", []byte(many), LoadOptions{Lookup: big}})
	deep := strings.Repeat("[", 1<<20)
	out = append(out, bomb{"1 MiB of [ at the hard depth limit", []byte(deep), LoadOptions{Limits: Limits{MaxDepth: HardMaxDepth}}})
	deepObj := strings.Repeat(`{"a":`, 200_000)
	out = append(out, bomb{`1 MB of {"a": at the hard depth limit`, []byte(deepObj), LoadOptions{Limits: Limits{MaxDepth: HardMaxDepth}}})
	deepRef := `{"a":` + strings.Repeat("[", HardMaxDepth-2) + `"${A}"` + strings.Repeat("]", HardMaxDepth-2) + `}`
	out = append(out, bomb{"a reference 10,000 levels deep", []byte(deepRef), LoadOptions{Lookup: lookup, Limits: Limits{MaxDepth: HardMaxDepth}}})
	deepErr := `{"a":` + strings.Repeat("[", HardMaxDepth-2) + `"${MISSING"]` + strings.Repeat("]", HardMaxDepth-2) + `}`
	out = append(out, bomb{"a bad string 10,000 levels deep", []byte(deepErr), LoadOptions{Lookup: lookup, Limits: Limits{MaxDepth: HardMaxDepth}}})

	dir := t.TempDir()
	leaf := `{"v":"` + strings.Repeat("y", 1<<20-16) + `"}`
	list := func(prefix string) string {
		var names []string
		for i := 0; i < 8; i++ {
			names = append(names, fmt.Sprintf("%q", fmt.Sprintf("%s%d.json", prefix, i)))
		}
		return `{"$include":[` + strings.Join(names, ",") + `]}`
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 8; i++ {
		write(fmt.Sprintf("a%d.json", i), list(fmt.Sprintf("b%d_", i)))
		for j := 0; j < 8; j++ {
			write(fmt.Sprintf("b%d_%d.json", i, j), list(fmt.Sprintf("c%d_%d_", i, j)))
			for k := 0; k < 8; k++ {
				write(fmt.Sprintf("c%d_%d_%d.json", i, j, k), leaf)
			}
		}
	}
	out = append(out, bomb{"include fan-out 8 x 8 x 8 files of 1 MiB", []byte(list("a")), LoadOptions{IncludeRoots: []string{dir}}})
	small := `{"v":[` + strings.Repeat("1,", 30_000) + `1]}`
	for i := 0; i < 40; i++ {
		write(fmt.Sprintf("s%d.json", i), small)
	}
	var names []string
	for i := 0; i < 40; i++ {
		names = append(names, fmt.Sprintf(`"s%d.json"`, i))
	}
	out = append(out, bomb{"40 includes of 60 KB arrays of numbers", []byte(`{"$include":[` + strings.Join(names, ",") + `]}`), LoadOptions{IncludeRoots: []string{dir}}})
	return out
}

// TestLoadWorkBounded: DOC-2 — each bomb, refused or accepted, allocates
// within the package doc's bound. The numbers are logged for the record.
func TestLoadWorkBounded(t *testing.T) {
	for _, b := range bombs(t) {
		t.Run(b.name, func(t *testing.T) {
			var err error
			alloc, objs := allocated(func() { _, err = Load(b.src, b.opts) })
			t.Logf("input %d B, allocated %.2f MiB in %d objects (%.1f x input), refused: %v", len(b.src), float64(alloc)/(1<<20), objs, float64(alloc)/float64(len(b.src)), err != nil)
			if max := bound(b.src, b.opts); alloc > max {
				t.Errorf("allocated %d bytes, bound %d", alloc, max)
			}
		})
	}
}

// TestLoadWorkLinear: DOC-2 — work grows linearly with the input: four
// times the input allocates at most about four times the bytes and
// objects, for every shape, refused or not (allocation stands in for time;
// no test measures time).
func TestLoadWorkLinear(t *testing.T) {
	lookup := func(string) (string, bool) { return "value", true }
	shapes := []struct {
		name string
		gen  func(n int) string
		opts LoadOptions
	}{
		{"nesting", func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }, LoadOptions{Limits: Limits{MaxDepth: HardMaxDepth}}},
		{"refused nesting", func(n int) string { return strings.Repeat("[", n) + "x" }, LoadOptions{Limits: Limits{MaxDepth: HardMaxDepth}}},
		{"keys", func(n int) string {
			var b strings.Builder
			b.WriteString("{")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "k%d: %d, ", i, i)
			}
			return b.String() + "}"
		}, LoadOptions{}},
		{"references", func(n int) string { return `{"a":[` + strings.Repeat(`"${A}x$${B}",`, n) + `"${A}"]}` }, LoadOptions{Lookup: lookup}},
		{"one long string", func(n int) string { return `{"a":"` + strings.Repeat(`\u00e9${A}`, n) + `"}` }, LoadOptions{Lookup: lookup}},
		{"numbers", func(n int) string { return `[` + strings.Repeat("1.5e3,0x1F,", n) + `0]` }, LoadOptions{}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			small, large := []byte(sh.gen(2000)), []byte(sh.gen(8000))
			sb, so := allocated(func() { Load(small, sh.opts) })
			lb, lo := allocated(func() { Load(large, sh.opts) })
			t.Logf("%d B: %d B in %d objects; %d B: %d B in %d objects", len(small), sb, so, len(large), lb, lo)
			if lb > 5*sb+64<<10 || lo > 5*so+256 {
				t.Errorf("4x the input cost %d B / %d objects against %d B / %d objects: not linear", lb, lo, sb, so)
			}
		})
	}
}

// TestLoadWorkBoundedProperty: DOC-2 — random documents of every shape,
// loaded under random limits up to the hard maximum, stay within the
// bound whether they load or are refused.
func TestLoadWorkBoundedProperty(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		genBoundedDoc(t, &b, 0)
		src := b.Bytes()
		opts := LoadOptions{Limits: Limits{
			MaxBytes:       rapid.IntRange(0, 1<<20).Draw(t, "maxBytes"),
			MaxDepth:       rapid.IntRange(0, HardMaxDepth+10).Draw(t, "maxDepth"),
			MaxStringBytes: rapid.IntRange(0, 1<<16).Draw(t, "maxString"),
			MaxKeys:        rapid.IntRange(0, 1000).Draw(t, "maxKeys"),
		}}
		if rapid.Bool().Draw(t, "lookup") {
			v := strings.Repeat("v", rapid.IntRange(1, 5000).Draw(t, "valueLen"))
			opts.Lookup = func(name string) (string, bool) { return v, name != "MISSING" }
		}
		if rapid.Bool().Draw(t, "include") {
			opts.IncludeRoots = []string{dir}
			body := b.String()
			if err := os.WriteFile(filepath.Join(dir, "i.json"), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			src = []byte(`{"$include":["i.json","i.json"],"x":` + body + `}`)
		}
		alloc, _ := allocated(func() { Load(src, opts) })
		if max := bound(src, opts); alloc > max {
			t.Fatalf("%d-byte input allocated %d bytes, bound %d", len(src), alloc, max)
		}
	})
}

// genBoundedDoc writes a random JSON5 value biased to what costs: deep
// nesting, wide arrays, long strings and references.
func genBoundedDoc(t *rapid.T, b *bytes.Buffer, depth int) {
	switch rapid.IntRange(0, 6).Draw(t, "kind") {
	case 0:
		n := rapid.IntRange(0, 20000).Draw(t, "nest")
		b.WriteString(strings.Repeat("[", n))
		if rapid.Bool().Draw(t, "closed") {
			b.WriteString(strings.Repeat("]", n))
		}
	case 1:
		b.WriteString(`"` + strings.Repeat(rapid.SampledFrom([]string{"${A}", "$${A}", "x", `\u00e9`, "${MISSING}"}).Draw(t, "piece"), rapid.IntRange(0, 20000).Draw(t, "len")) + `"`)
	case 2:
		b.WriteString("[" + strings.Repeat(rapid.SampledFrom([]string{`"${A}",`, "1e3,", "0x10,", "{},", "'a',"}).Draw(t, "elem"), rapid.IntRange(0, 20000).Draw(t, "n")) + "0]")
	case 3, 4:
		if depth > 3 {
			b.WriteString("null")
			return
		}
		b.WriteString("{")
		for i := rapid.IntRange(0, 5).Draw(t, "members"); i > 0; i-- {
			fmt.Fprintf(b, "k%d: ", i)
			genBoundedDoc(t, b, depth+1)
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		b.WriteString(rapid.SampledFrom([]string{"1", "true", "null", `"s"`, "1e999", `"\ud800"`}).Draw(t, "scalar"))
	}
}
