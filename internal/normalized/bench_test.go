package normalized_test

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/normalized"
)

// BenchmarkDocument is what the hand-over costs compile.Load per document
// (a type assertion and a call, no allocation), against the reading it
// saves (ParseDocument of the same bytes).
func BenchmarkDocument(b *testing.B) {
	n, err := json5.Normalize([]byte(`{agents: {defaults: {model: 'openai/gpt-5'}, list: [{id: 'main'}, {id: 'ops'}]}, gateway: {port: 18789}}`), json5.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("handover", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = normalized.Document[occkit.Document](n)
		}
	})
	b.Run("reparse", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := occkit.ParseDocument(n.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
