package compile_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// BenchmarkCheckSecretLiteralsManyPlaces checks documents of 1,000 and
// 10,000 sensitive places (channel accounts, each with a literal token):
// the time per place stays flat. Each place's value was once found again
// from the root of the document, so that the time per place grew with
// the document; the values are read in the one pass that finds the
// places (10,000 places: 1.26 s before, 0.06 s after).
func BenchmarkCheckSecretLiteralsManyPlaces(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		var s strings.Builder
		s.WriteString(`{"channels":{"telegram":{"accounts":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				s.WriteByte(',')
			}
			fmt.Fprintf(&s, `"a%d":{"botToken":"lit%d"}`, i, i)
		}
		s.WriteString(`}}}}`)
		doc := occkit.MustParseDocument(s.String())
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := compile.CheckSecretLiterals(doc, pinnedSecrets); len(occkit.Errors(err)) != n {
					b.Fatalf("%d refusals, want %d", len(occkit.Errors(err)), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/place")
		})
	}
}

// BenchmarkReferencedEnvSecretRefs finds the variables of documents of
// 1,000 and 10,000 env SecretRefs: the time per reference stays flat. The
// object of each was once found again from the root of the document
// (10,000 references: 13.6 s); it is read as the scan closes it (0.02 s).
func BenchmarkReferencedEnvSecretRefs(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		var s strings.Builder
		s.WriteString(`{"channels":{"telegram":{"accounts":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				s.WriteByte(',')
			}
			fmt.Fprintf(&s, `"a%d":{"botToken":{"source":"env","provider":"default","id":"V%d"}}`, i, i)
		}
		s.WriteString(`}}}}`)
		doc := occkit.MustParseDocument(s.String())
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if got := compile.ReferencedEnv(doc, pinnedSecrets); len(got) != n {
					b.Fatalf("%d variables, want %d", len(got), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/reference")
		})
	}
}
