package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// allocated reports the bytes f allocates (runtime.MemStats.TotalAlloc)
// and, for the report only, how long it took.
func allocated(f func()) (uint64, time.Duration) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, took
}

type bomb struct {
	name  string
	src   []byte
	opts  LoadOptions
	input int // bytes the loader may read: the document and every file it could include
}

func bombs(t testing.TB) []bomb {
	a := strings.Repeat("x", 256)
	lookup := func(string) (string, bool) { return a, true }
	var out []bomb
	one := `{"a":"` + strings.Repeat("${A}", 260_000) + `"}`
	out = append(out, bomb{"one string of 260,000 ${A}", []byte(one), LoadOptions{Lookup: lookup}, len(one)})
	many := `{"a":[` + strings.Repeat(`"${A}",`, 250_000) + `"${A}"]}`
	out = append(out, bomb{"250,000 strings of ${A}", []byte(many), LoadOptions{Lookup: lookup}, len(many)})
	deep := strings.Repeat("[", 1<<20)
	out = append(out, bomb{"1 MiB of [ at the hard depth limit", []byte(deep), LoadOptions{Limits: Limits{MaxDepth: HardMaxDepth}}, len(deep)})
	deepRef := `{"a":` + strings.Repeat("[", HardMaxDepth-2) + `"${A}"` + strings.Repeat("]", HardMaxDepth-2) + `}`
	out = append(out, bomb{"a reference 10,000 levels deep", []byte(deepRef), LoadOptions{Lookup: lookup, Limits: Limits{MaxDepth: HardMaxDepth}}, len(deepRef)})

	dir := t.(interface{ TempDir() string }).TempDir()
	leaf := `{"v":"` + strings.Repeat("y", 1<<20-16) + `"}`
	total := 0
	list := func(prefix string) string {
		var names []string
		for i := 0; i < 8; i++ {
			names = append(names, fmt.Sprintf("%q", fmt.Sprintf("%s%d.json", prefix, i)))
		}
		return `{"$include":[` + strings.Join(names, ",") + `]}`
	}
	write := func(name, body string) {
		total += len(body)
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
	root := list("a")
	out = append(out, bomb{"include fan-out 8 x 8 x 8 files of 1 MiB", []byte(root), LoadOptions{IncludeRoots: []string{dir}}, len(root) + total})
	return out
}

func TestLoadBombsMeasure(t *testing.T) {
	for _, b := range bombs(t) {
		var err error
		alloc, took := allocated(func() { _, err = Load(b.src, b.opts) })
		t.Logf("%s: input %d B, allocated %.1f MiB (%.1f x input), %v, err=%v", b.name, len(b.src), float64(alloc)/(1<<20), float64(alloc)/float64(len(b.src)), took, err != nil)
	}
}
