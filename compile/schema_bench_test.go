package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// policyConfig is the document of admission's BenchmarkAdmit: an embedded
// Configuration whose selectable catalog holds n models (RES-8).
func policyConfig(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":{"primary":"anthropic/m0","fallbacks":["anthropic/m1"]},"models":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"anthropic/m%d":{"alias":"model %d","agentRuntime":{"id":"openclaw"},"params":{"temperature":0.%d}}`, i, i, i%10)
	}
	b.WriteString(`}}},"channels":{"slack":{"enabled":true}},"logging":{"level":"debug"}}`)
	return []byte(b.String())
}

// catalogConfig spreads n catalog rows over four providers: arrays of
// objects whose settings the schema asserts (DOC-5), beside unasserted ones.
func catalogConfig(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"maxConcurrent":4,"model":"p0/m0"}},"models":{"providers":{`)
	for p := 0; p < 4; p++ {
		if p > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"baseUrl":"https://p%d.example.com/v1","api":"openai-responses","headers":{"X-Team":"a"},"models":[`, p, p)
		for i := p; i < n; i += 4 {
			if i > 3 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"m%d","name":"Model %d","reasoning":%v,"contextWindow":%d,"maxTokens":%d,"cost":{"input":0.5,"output":2}}`, i, i, i%2 == 0, 128000+i, 8192+i)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`}},"plugins":{"entries":{"codex":{"enabled":true}}},"logging":{"level":"info"}}`)
	return []byte(b.String())
}

// BenchmarkValidateSizes measures [Validator.Validate] (DOC-5) beside the
// floor of one encoding/json Unmarshal of the same document.
func BenchmarkValidateSizes(b *testing.B) {
	v, err := NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	for _, kind := range []struct {
		name string
		gen  func(int) []byte
	}{{"policy", policyConfig}, {"catalog", catalogConfig}} {
		for _, n := range []int{40, 1000, 10000} {
			src := kind.gen(n)
			doc, err := occkit.ParseDocument(src)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d/validate", kind.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.Validate(doc); err != nil {
						b.Fatal(err)
					}
				}
			})
			// A refused document takes the validator's path for its errors.
			bad, err := doc.Set(occkit.NewPath("agents", "defaults", "maxConcurrent"), "x")
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d/validate-refused", kind.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.Validate(bad); err == nil {
						b.Fatal("want a DOC-5 error")
					}
				}
			})
			// The schema validator on the document already decoded: what the
			// fast path is measured against (it should cost a tenth of this
			// or less).
			dec := json.NewDecoder(bytes.NewReader(src))
			dec.UseNumber()
			var decoded any
			if err := dec.Decode(&decoded); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d/jsonschema-decoded", kind.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.schema.Validate(decoded); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/models=%d/unmarshal-floor", kind.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					var x any
					if err := json.Unmarshal(src, &x); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPairedDocuments measures [Validator.Validate] on the documents
// of the paired benchmarks (internal/bench), as Load returns them.
func BenchmarkPairedDocuments(b *testing.B) {
	v, err := NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1000} {
			doc, err := Load(d.Make(n), LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.Validate(doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
