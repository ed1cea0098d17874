package compile_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// renderScalingDoc is a document of n model providers and n channel
// accounts, each with credentials the render removes (a key, a header, a
// URL with user info, a bot token) and an env variable each references.
func renderScalingDoc(n int) occkit.Document {
	var s strings.Builder
	s.WriteString(`{"models":{"providers":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `"p%d":{"apiKey":"${K%d}","baseUrl":"https://u:${K%d}@h%d/v1?key=1","headers":{"X-Key":"${K%d}"},"models":[{"id":"m%d"}]}`, i, i, i, i, i, i)
	}
	s.WriteString(`}},"channels":{"telegram":{"accounts":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `"a%d":{"botToken":"${B%d}","name":"a%d"}`, i, i, i)
	}
	s.WriteString(`}}},"env":{"vars":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `"K%d":"k","B%d":"b"`, i, i)
	}
	s.WriteString(`}}}`)
	return occkit.MustParseDocument(s.String())
}

// BenchmarkRenderDocumentsScaling renders a dedicated gateway's and a
// dedicated harness's documents from documents of 1,000 and 10,000
// providers and channel accounts: the time per place stays flat. Each
// removed place was once a Delete or a SetRaw of the whole document, so
// the time per place grew with the document; the documents are written
// in one pass (10,000: gateway 321 s before, 0.09 s after; harness 103 s
// before, 0.03 s after).
func BenchmarkRenderDocumentsScaling(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		doc := renderScalingDoc(n)
		for _, c := range []struct {
			name string
			h    occkit.Harness
			f    func(occkit.Document, occkit.Harness, occkit.Mode) (occkit.Document, error)
			// gone is what the document must no longer hold: the
			// references and the variables of what it lost.
			gone []string
		}{
			{"gateway", occkit.HarnessCodex, compile.GatewayDocument, []string{"${K", `"K0":`}},
			{"harness", occkit.HarnessOpenClaw, compile.HarnessDocument, []string{"${B", `"B0":`}},
		} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc.String())))
				for i := 0; i < b.N; i++ {
					out, err := c.f(doc, c.h, occkit.ModeDedicated)
					if err != nil {
						b.Fatal(err)
					}
					for _, g := range c.gone {
						if strings.Contains(out.String(), g) {
							b.Fatalf("%s survived", g)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/place")
			})
		}
	}
}
