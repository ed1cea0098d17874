package releasedata

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestDeltaRoundTrip: Apply(base, Delta(base, target)) is target, for
// targets made from the base by edits (as releases are) and for
// unrelated ones; the delta is deterministic.
func TestDeltaRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := rapid.SampledFrom([]byte(`{}[]":,abcdefgh01`))
		base := rapid.SliceOfN(alphabet, 0, 4000).Draw(t, "base")
		target := append([]byte(nil), base...)
		for range rapid.IntRange(0, 8).Draw(t, "edits") {
			at := rapid.IntRange(0, len(target)).Draw(t, "at")
			cut := rapid.IntRange(0, min(64, len(target)-at)).Draw(t, "cut")
			ins := rapid.SliceOfN(alphabet, 0, 64).Draw(t, "insert")
			target = append(append(append([]byte(nil), target[:at]...), ins...), target[at+cut:]...)
		}
		if rapid.Bool().Draw(t, "unrelated") {
			target = rapid.SliceOfN(alphabet, 0, 2000).Draw(t, "target")
		}
		d := Delta(base, target)
		got, err := Apply(base, d)
		if err != nil || !bytes.Equal(got, target) {
			t.Fatalf("round trip: %v", err)
		}
		if !bytes.Equal(d, Delta(base, target)) {
			t.Fatal("the delta is not deterministic")
		}
	})
}

// TestDeltaIsSmallForSimilarTexts: a few edits cost a few bytes, not the
// text.
func TestDeltaIsSmallForSimilarTexts(t *testing.T) {
	base := bytes.Repeat([]byte(`{"type":"object","properties":{"a":{"type":"string"}}},`), 2000)
	target := append(append([]byte(nil), base[:50000]...), append([]byte(`"new":true,`), base[50000:]...)...)
	if n := len(Delta(base, target)); n > 200 {
		t.Errorf("a one-edit delta of a %d-byte text takes %d bytes", len(target), n)
	}
}

// TestApplyRefusesDamage: a damaged delta is an error, never a text.
func TestApplyRefusesDamage(t *testing.T) {
	base := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz0123456789"), 20)
	target := append(append([]byte(nil), base[:300]...), []byte("INSERTED")...)
	target = append(target, base[100:]...)
	d := Delta(base, target)
	for i := range d {
		bad := bytes.Clone(d)
		bad[i] ^= 0x41
		if got, err := Apply(base, bad); err == nil && !bytes.Equal(got, target) {
			t.Fatalf("a flipped byte %d rebuilt another text without an error", i)
		}
	}
	for n := range len(d) {
		if _, err := Apply(base, d[:n]); err == nil {
			t.Fatalf("a delta cut at %d of %d applied", n, len(d))
		}
	}
	other := bytes.Clone(base)
	other[150] = '#'
	if _, err := Apply(other, d); err == nil {
		t.Error("a delta applied to another base")
	}
}

func FuzzApply(f *testing.F) {
	base := []byte(`{"a":{"b":[1,2,3]},"c":"dddddddddddddddddddddddddddddddd"}`)
	f.Add(Delta(base, []byte(`{"a":{"b":[1,2,3,4]},"c":"dddddddddddddddddddddddddddddddd"}`)))
	f.Add([]byte(header))
	f.Fuzz(func(t *testing.T, d []byte) {
		out, err := Apply(base, d)
		if err == nil && len(out) > maxTarget {
			t.Fatalf("%d bytes rebuilt", len(out))
		}
	})
}

func TestBundle(t *testing.T) {
	files := Files{"a.txt": []byte("x\ny 3\n"), "b.json": []byte(""), "c": []byte("{}")}
	b := Bundle(files, []string{"a.txt", "b.json", "c"})
	got, err := Split(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(files, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"a 5\nabc", "a\n", "a -1\n", "no newline"} {
		if _, err := Split([]byte(bad)); err == nil {
			t.Errorf("Split(%q) accepted", bad)
		}
	}
}

func TestCompare(t *testing.T) {
	order := []string{"", "garbage", "latest", "2026.5.1", "2026.8.1", "2026.8.2", "2026.9.1", "2026.9.10", "2026.10.1", "2027.1.1"}
	for i, a := range order {
		for j, b := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}
