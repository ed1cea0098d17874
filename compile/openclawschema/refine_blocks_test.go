package openclawschema

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// largeRoster is a document whose refinements index thousands of
// members: agents.entries with n entries of a dozen settings each.
func largeRoster(n int) string {
	var b strings.Builder
	b.WriteString(`{"agents":{"entries":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"agent-%d":{"name":"A%d","workspace":"/w/%d","heartbeat":{"every":"%dm","target":"last"},`+
			`"tools":{"exec":{"mode":"sandbox"},"allow":["read"],"deny":["write"]},"identity":{"name":"B","emoji":"x"},`+
			`"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}`, i, i, i, i%60+1)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// TestRefinerIndexBlocks: the refiner's index of a large document finds
// what the lookup before it found (runs that moved to a new block
// included), and the blocks its runs live in hold little more than the
// members indexed: r.kids is never grown in place, which would leave a
// copy of every run indexed before to the runs that point into it.
func TestRefinerIndexBlocks(t *testing.T) {
	patterns := append(lookupPatterns, "agents.entries.*.tools.allow", "agents.entries.*.identity.name", "agents.entries.*.*")
	for _, n := range []int{3, 40, 400} {
		src := largeRoster(n)
		newer := &refiner{src: src, doc: rootIndex(src)}
		older := &lookupBefore{src: src, doc: &indexBefore{v: gjson.Parse(src), at: 0}}
		for _, p := range patterns {
			got, want := lookups(newer, older, p)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("n=%d each(%q) (-before +now):\n%s", n, p, d)
			}
		}
		members, maps := 0, 0
		var count func(x *index)
		count = func(x *index) {
			kids := x.members()
			members += len(kids)
			if x.byKey != nil {
				maps++
			}
			for i := range kids {
				count(&kids[i])
			}
		}
		count(&newer.doc)
		if n == 400 && members < 5000 {
			t.Fatalf("n=%d: %d members indexed, want thousands", n, members)
		}

		// What a fresh refiner keeps once every pattern ran: before the
		// blocks, 3.15 MB for 8,002 members; 1.04 MB after (the maps of
		// the objects with more than manyKids members included); 0.84 MB
		// with 48-byte nodes.
		before := liveHeap()
		r := &refiner{src: src, doc: rootIndex(src)}
		for _, p := range patterns {
			r.each(p, func(gjson.Result, occkit.Path) {})
		}
		kept := int(liveHeap()) - int(before)
		runtime.KeepAlive(r)
		t.Logf("n=%d: %d members, %d maps, %d bytes kept", n, members, maps, kept)
		// The limit: twice the members' nodes (a block's unused room is
		// at most what its runs use), a kibibyte for each object's map of
		// its members (more than manyKids of them; a dozen here), and
		// 64 KiB.
		if limit := 2*members*int(unsafe.Sizeof(index{})) + maps<<10 + 64<<10; kept > limit {
			t.Errorf("n=%d: the index keeps %d bytes for %d members, more than %d", n, kept, members, limit)
		}
	}
}

// liveHeap is the heap live after a collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtime.GC()
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestRefinerScansForKeys: a lookup below a wildcard reads each entry's
// text for its key and indexes none of the entry's members; a wildcard
// over the entries' own members indexes them; a key that is nowhere in
// the entries' text indexes not even the entries.
func TestRefinerScansForKeys(t *testing.T) {
	const n = 40
	src := largeRoster(n)
	for _, tc := range []struct {
		pattern string
		found   int
		built   bool // each entry's members indexed
	}{
		{"agents.entries.*.tools.exec", n, false},
		{"agents.entries.*.heartbeat.every", n, false},
		{"agents.entries.*.absent", 0, false},
		{"agents.entries.*.*", 12 * n, true},
	} {
		r := &refiner{src: src, doc: rootIndex(src)}
		found := 0
		r.each(tc.pattern, func(gjson.Result, occkit.Path) { found++ })
		if found != tc.found {
			t.Errorf("%s: %d found, want %d", tc.pattern, found, tc.found)
		}
		entries := r.child(r.child(&r.doc, "agents"), "entries")
		if tc.found == 0 {
			if entries == nil || entries.built {
				t.Fatalf("%s: agents.entries indexed for a key its text lacks", tc.pattern)
			}
			continue
		}
		if entries == nil || !entries.built || len(entries.members()) != n {
			t.Fatalf("%s: agents.entries not indexed with its %d entries", tc.pattern, n)
		}
		for _, e := range entries.members() {
			if want := map[bool]int{false: 0, true: 12}[tc.built]; e.built != tc.built || len(e.members()) != want {
				t.Fatalf("%s: entry %s built %v with %d members, want %v and %d", tc.pattern, e.key, e.built, len(e.members()), tc.built, want)
			}
		}
	}
}
