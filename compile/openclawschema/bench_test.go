package openclawschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// modelsConfig is an embedded Configuration whose selectable catalog
// holds n models and whose provider lists n catalog rows.
func modelsConfig(n int) occkit.Document {
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":{"primary":"anthropic/m0","fallbacks":["anthropic/m1"]},"models":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"anthropic/m%d":{"alias":"model %d","agentRuntime":{"id":"openclaw"},"params":{"temperature":0.%d}}`, i, i, i%10)
	}
	b.WriteString(`}}},"models":{"providers":{"vllm":{"baseUrl":"http://127.0.0.1:8000/v1","api":"openai-completions","models":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","name":"Model %d","reasoning":%v,"contextWindow":%d,"maxTokens":%d}`, i, i, i%2 == 0, 128000+i, 8192+i)
	}
	b.WriteString(`]}}},"logging":{"level":"debug","consoleStyle":"json"}}`)
	return occkit.MustParseDocument(b.String())
}

func TestModelsConfigValid(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(modelsConfig(40)); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkValidate measures a full document check (DOC-5) of the
// pinned OpenClaw schema at 40, 1,000 and 10,000 models.
func BenchmarkValidate(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{40, 1000, 10000} {
		doc := modelsConfig(n)
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) { benchValidate(b, v, doc) })
	}
}

// BenchmarkCompile measures compiling the pinned schema (once per
// Admitter).
func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalFloor is the floor the check is compared with: one
// encoding/json Unmarshal of the same document into maps.
func BenchmarkUnmarshalFloor(b *testing.B) {
	for _, n := range []int{40, 1000, 10000} {
		raw := modelsConfig(n).Bytes()
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var v any
				if err := json.Unmarshal(raw, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidateSecretRef is BenchmarkValidate with one SecretRef in
// the document, which sends the check down the shape refinements' walk
// beside the schema.
func BenchmarkValidateSecretRef(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{40, 1000, 10000} {
		doc, err := modelsConfig(n).Set(occkit.NewPath("models", "providers", "vllm", "apiKey"),
			map[string]any{"source": "env", "provider": "default", "id": "VLLM_API_KEY"})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) { benchValidate(b, v, doc) })
	}
}

// benchValidate checks doc, which v accepts, b.N times.
func benchValidate(b *testing.B, v *Validator, doc occkit.Document) {
	b.SetBytes(int64(len(doc.Bytes())))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := v.Validate(doc); err != nil {
			b.Fatal(err)
		}
	}
}
