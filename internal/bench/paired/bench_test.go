package main

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver/selection"
)

// benchPath runs one path of the user on every document and size, for
// pprof and benchstat; the paired ratios are the program's.
func benchPath(b *testing.B, path func(u *user, src []byte) error) {
	benchPathOn(b, bench.Documents, bench.Sizes, path)
}

// benchPathOn is benchPath on docs at sizes.
func benchPathOn(b *testing.B, docs []bench.Document, sizes []int, path func(u *user, src []byte) error) {
	u, err := newUser()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range docs {
		for _, n := range sizes {
			src := d.Make(n)
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if err := path(u, src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkFloor(b *testing.B) {
	benchPath(b, func(_ *user, src []byte) error { _, err := floor(src); return err })
}

func BenchmarkObjects(b *testing.B) {
	benchPath(b, func(u *user, src []byte) error { _, err := u.objects(src); return err })
}

// BenchmarkObjectsOthers is the objects path on the documents of other
// shapes at the sizes the -others run measures (40 and 1,000 models), to
// profile a shape the report shows missing a target.
func BenchmarkObjectsOthers(b *testing.B) {
	benchPathOn(b, bench.Others, []int{40, 1_000}, func(u *user, src []byte) error { _, err := u.objects(src); return err })
}

func BenchmarkManifests(b *testing.B) {
	benchPath(b, func(u *user, src []byte) error { _, err := u.manifests(src); return err })
}

func BenchmarkUnit(b *testing.B) {
	benchPath(b, func(u *user, src []byte) error { _, err := u.unit(src); return err })
}

// BenchmarkOneShot is occkit's side of the one-shot measure: a decision
// from the document's bytes, the four decisions in turn.
func BenchmarkOneShot(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			src, ds := d.Make(n), bench.Decisions(n)
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := decideBytes(src, ds[i%len(ds)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkPrepare is occkit's side of prepare/U: selection.Prepare of
// the loaded document.
func BenchmarkPrepare(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			src := d.Make(n)
			doc, err := compile.Load(src, compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					selection.Prepare(doc)
				}
			})
		}
	}
}

// BenchmarkPrepared is occkit's side of the prepared-decision measure:
// the four decisions on a prepared Index.
func BenchmarkPrepared(b *testing.B) {
	benchPreparedOn(b, bench.Documents, bench.Sizes)
}

// BenchmarkPreparedOthers is the prepared-decision measure on the
// documents of other shapes at the sizes the -others run measures.
func BenchmarkPreparedOthers(b *testing.B) {
	benchPreparedOn(b, bench.Others, []int{40, 1_000})
}

// benchPreparedOn takes the four decisions on a prepared Index of each
// of docs at sizes.
func benchPreparedOn(b *testing.B, docs []bench.Document, sizes []int) {
	for _, d := range docs {
		for _, n := range sizes {
			src := d.Make(n)
			doc, err := compile.Load(src, compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			x := selection.Prepare(doc)
			ds := bench.Decisions(n)
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, q := range ds {
						if _, err := x.Select(request(q), nil); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
