package compile

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// benchConfig is a realistic Configuration in JSON5 with n catalog models
// spread over four providers, a selectable catalog and a few entries.
func benchConfig(n int) []byte {
	var b strings.Builder
	providers := []string{"openai", "anthropic", "google", "my-proxy"}
	b.WriteString("// generated benchmark configuration\n{\n  agents: {\n    defaults: {\n")
	b.WriteString("      model: {primary: 'openai/model-0', fallbacks: ['openai/model-4', 'openai/model-8']},\n")
	b.WriteString("      maxConcurrent: 8,\n      models: {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "        '%s/model-%d': {alias: 'm%d', params: {temperature: 0.%d}},\n", providers[i%4], i, i, i%10)
	}
	b.WriteString("      },\n    },\n    entries: {\n")
	for _, id := range []string{"main", "ops", "research"} {
		fmt.Fprintf(&b, "      %s: {model: 'openai/model-0', workspace: '/home/node/%s', tools: {allow: ['read', 'write', 'exec']}},\n", id, id)
	}
	b.WriteString("    },\n    ownership: 'explicit',\n  },\n  models: {\n    providers: {\n")
	for p, name := range providers {
		fmt.Fprintf(&b, "      '%s': {\n        baseUrl: 'https://%s.example.com/v1',\n        api: 'openai-responses',\n        headers: {'X-Team': 'platform'},\n        models: [\n", name, name)
		for i := p; i < n; i += 4 {
			fmt.Fprintf(&b, "          {id: 'model-%d', name: \"Model %d\", reasoning: %v, contextWindow: %d, maxTokens: 0x%x, cost: {input: .5, output: 2.}},\n", i, i, i%2 == 0, 128000+i, 8192+i)
		}
		b.WriteString("        ],\n      },\n")
	}
	b.WriteString("    },\n  },\n  plugins: {entries: {codex: {enabled: true, config: {appServer: {transport: 'websocket'}}}}},\n")
	b.WriteString("  logging: {level: 'info', consoleLevel: 'info', consoleStyle: 'json'},\n  diagnostics: {otel: {logs: false}},\n}\n")
	return []byte(b.String())
}

func BenchmarkLoad(b *testing.B) {
	json5Src := benchConfig(40)
	doc, err := Load(json5Src, LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(doc.Bytes(), &v); err != nil {
		b.Fatal(err)
	}
	jsonSrc, _ := json.MarshalIndent(v, "", "  ")
	for _, bc := range []struct {
		name string
		src  []byte
	}{{"json5", json5Src}, {"json", jsonSrc}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Load(bc.src, LoadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadDocuments loads the paired benchmarks' documents
// (internal/bench): the compact one a control plane stores and the
// indented one an author writes, at each catalog size.
func BenchmarkLoadDocuments(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			src := d.Make(n)
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := Load(src, LoadOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLoadOthers loads the other shapes of the paired benchmarks
// (internal/bench.Others), the bare document among them, where the
// loader's share of the user's path weighs most.
func BenchmarkLoadOthers(b *testing.B) {
	for _, d := range bench.Others {
		src := d.Make(40)
		b.Run(d.Name+"/models=40", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Load(src, LoadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
