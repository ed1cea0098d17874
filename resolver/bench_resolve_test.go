package resolver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// benchDoc generates a valid dedicated-Codex Configuration with n
// models: the primary and n-1 fallbacks on provider openai, each listed in
// agents.defaults.models with an explicit codex runtime and as a provider
// catalog row, plus two Agent entries inheriting the selection. Every model
// takes every rule's path (RES-3, RES-5, RES-7, RES-8, RES-9).
func benchDoc(n int) occkit.Document {
	var b strings.Builder
	ref := func(i int) string { return fmt.Sprintf("openai/vendor/model-%05d", i) }
	b.WriteString(`{"agents":{"ownership":"explicit","defaults":{"model":{"primary":"` + ref(0) + `","fallbacks":[`)
	for i := 1; i < n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + ref(i) + `"`)
	}
	b.WriteString(`]},"workspace":"/home/node/workspace","models":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s":{"alias":"m%d","agentRuntime":{"id":"codex"},"params":{"temperature":0.2}}`, ref(i), i)
	}
	b.WriteString(`}},"entries":{"main":{"workspace":"/w/main"},"helper":{"workspace":"/w/helper"}}},`)
	b.WriteString(`"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1","models":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"vendor/model-%05d","name":"Model %d","contextWindow":128000,"maxTokens":8192}`, i, i)
	}
	b.WriteString(`]}}},` + codexPluginJSON + `,"logging":{"level":"info"}}`)
	return occkit.MustParseDocument(b.String())
}

var benchSizes = []int{40, 1000, 10000}

// BenchmarkResolve measures one full resolution (prepare and evaluate).
func BenchmarkResolve(b *testing.B) {
	for _, n := range benchSizes {
		doc := benchDoc(n)
		if _, err := Resolve(doc, Request{Mode: occkit.ModeDedicated}); err != nil {
			b.Fatalf("benchmark document does not resolve: %v", err)
		}
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc.String())))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Resolve(doc, Request{Mode: occkit.ModeDedicated}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUnmarshalFloor is the yardstick: one encoding/json Unmarshal of
// the same documents into map[string]any.
func BenchmarkUnmarshalFloor(b *testing.B) {
	for _, n := range benchSizes {
		raw := benchDoc(n).Bytes()
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
