package admission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// modelsConfig is an embedded OpenClaw Configuration whose selectable
// catalog holds n models, each with explicit openclaw policy (RES-8).
func modelsConfig(n int) []byte {
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

func TestModelsConfigAdmits(t *testing.T) {
	req := embeddedRequest(string(modelsConfig(40)))
	if _, err := newAdmitter(t, allow()).Admit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkAdmit measures full admission (read, stamp, schema, resolution,
// roster, harness auth, freeze) beside the floor of one encoding/json
// Unmarshal of the same document.
func BenchmarkAdmit(b *testing.B) {
	for _, n := range []int{40, 1000, 10000} {
		src := modelsConfig(n)
		doc, err := occkit.ParseDocument(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("models=%d/admit", n), func(b *testing.B) {
			benchAdmit(b, newAdmitter(b, allow()), doc, len(src))
		})
		b.Run(fmt.Sprintf("models=%d/admit-without-openclaw-schema", n), func(b *testing.B) {
			a, err := admission.New(admission.Options{Authorizer: allow(), DisableOpenClawSchema: true,
				HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}})
			if err != nil {
				b.Fatal(err)
			}
			benchAdmit(b, a, doc, len(src))
		})
		b.Run(fmt.Sprintf("models=%d/unmarshal-floor", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var v any
				if err := json.Unmarshal(src, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchAdmit admits doc with a, b.N times.
func benchAdmit(b *testing.B, a *admission.Admitter, doc occkit.Document, size int) {
	req := admission.Request{
		Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
		Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.Admit(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
