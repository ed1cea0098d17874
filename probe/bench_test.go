package probe

import (
	"net/http"
	"testing"
)

func BenchmarkClassifyCodex(b *testing.B) {
	r := CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(b, "codex/reconnect-ready.jsonl")}
	b.ReportAllocs()
	b.SetBytes(int64(len(r.Stdout)))
	for i := 0; i < b.N; i++ {
		if ClassifyCodex(r).Code != Ready {
			b.Fatal("not ready")
		}
	}
}

func BenchmarkClassifyOpenClaw(b *testing.B) {
	r := OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(b, "openclaw/ok.json")}
	b.ReportAllocs()
	b.SetBytes(int64(len(r.Stdout)))
	for i := 0; i < b.N; i++ {
		if ClassifyOpenClaw(r).Code != Ready {
			b.Fatal("not ready")
		}
	}
}

func BenchmarkClassifyUpfront(b *testing.B) {
	body := []byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
	h := http.Header{"X-Request-Id": {"req"}, "Www-Authenticate": {"Bearer"}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ClassifyUpfront(ProviderOpenAI, 401, h, body)
	}
}

func BenchmarkRetrySimulate(b *testing.B) {
	attempts := []Attempt{{Code: ModelProbeTimeout, Elapsed: 30e9}, {Code: Ready, Elapsed: 2e9}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		RetryPolicy{}.Simulate(attempts, func() float64 { return 0.5 })
	}
}
