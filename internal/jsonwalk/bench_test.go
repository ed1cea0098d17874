package jsonwalk

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchDoc is a provider's models as a configuration holds them, 200 of
// them, and a long prompt, compact or indented.
func benchDoc(b *testing.B, indent bool) string {
	var models []map[string]any
	for i := range 200 {
		models = append(models, map[string]any{
			"id": fmt.Sprintf("model-%d", i), "name": fmt.Sprintf("Model %d (preview)", i),
			"reasoning": i%2 == 0, "input": []string{"text", "image"},
			"cost":          map[string]any{"input": 2.5, "output": 10, "cacheRead": 1.25, "cacheWrite": 0},
			"contextWindow": 128000, "maxTokens": 16384,
			"headers": map[string]string{"X-Title": "occkit \"bench\"", "User-Agent": "occkit/1.0"},
		})
	}
	doc := map[string]any{"baseUrl": "https://api.example.com/v1", "api": "openai-completions", "models": models,
		"prompt": strings.Repeat("You are a careful assistant; answer \"briefly\".\n", 80)}
	var out []byte
	var err error
	if indent {
		out, err = json.MarshalIndent(doc, "", "  ")
	} else {
		out, err = json.Marshal(doc)
	}
	if err != nil {
		b.Fatal(err)
	}
	return string(out)
}

// BenchmarkSkip skips a whole document (skip) and each of its members
// (members), against the byte-by-byte scan (bytewise), and walks every
// member and element of it (walk).
func BenchmarkSkip(b *testing.B) {
	for _, indent := range []bool{false, true} {
		s := benchDoc(b, indent)
		name := map[bool]string{false: "compact", true: "indented"}[indent]
		for _, f := range []struct {
			name string
			skip func(string, int) int
		}{{"skip", skip}, {"bytewise", skipBytewise}} {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for range b.N {
					if f.skip(s, 0) != len(s) {
						b.Fatal("skip did not reach the end")
					}
				}
			})
		}
		b.Run(name+"/walk", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			var walk func(at int) int
			walk = func(at int) int {
				switch s[at] {
				case '{':
					return Members(s, at, func(_ string, _ bool, at int) int { return walk(at) })
				case '[':
					return Elements(s, at, func(_, at int) int { return walk(at) })
				}
				return Skip(s, at)
			}
			for range b.N {
				if walk(0) != len(s) {
					b.Fatal("the walk did not reach the end")
				}
			}
		})
		b.Run(name+"/members", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for range b.N {
				if Members(s, 0, func(_ string, _ bool, at int) int {
					if s[at] != '[' {
						return Skip(s, at)
					}
					return Elements(s, at, func(_, at int) int { return Skip(s, at) })
				}) != len(s) {
					b.Fatal("Members did not reach the end")
				}
			}
		})
	}
}
