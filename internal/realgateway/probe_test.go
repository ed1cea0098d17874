package realgateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/occkit/occkit/internal/tiers"
	"github.com/occkit/occkit/probe"
	"github.com/occkit/occkit/probe/runner"
)

func TestMain(m *testing.M) {
	if code, ok := (Jobs{"start": Start, "probe": probeJob}).Child(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// pool runs at most three isolated probe runs of this package at once:
// a transient behaviour spends most of its time in OpenClaw's retry
// backoff, not on the CPU.
var pool = NewPool(3)

// probeArg is one scripted run of the real OpenClaw model probe.
type probeArg struct {
	Install   string
	Behaviour string
	// Provider is "openai" (Responses API) or "anthropic" (Messages API).
	Provider string
}

// probeResult is what the probe and the fake provider saw.
type probeResult struct {
	Outcome   probe.Outcome
	ElapsedMs int64
	CapMs     int64
	Requests  []request
}

// request is one request the fake provider received.
type request struct {
	Path string
	// Model is the body's model; MaxTokens its output budget
	// (max_output_tokens or max_tokens); Tools its tool count.
	Model      string
	MaxTokens  int
	Tools      int
	Stream     bool
	Credential bool
	// AtMs is when it arrived, in ms after the provider started.
	AtMs int64
}

// probeCap bounds one probe run far beyond OpenClaw's own retry window.
const probeCap = 4 * time.Minute

// probeCredential is the fake provider credential the probe runs with.
const probeCredential = "sk-occkit-probe-0123456789abcdef"

var probeModels = map[string]string{"openai": "openai/gpt-4.1", "anthropic": "anthropic/claude-sonnet-4-5"}

// probeJob runs in the isolated child: a fake provider on loopback, then
// one real probe through [runner.OpenClaw], as a startup probe runs
// it (PRB-2), under [probeCap].
func probeJob(ctx context.Context, raw json.RawMessage) (any, error) {
	var a probeArg
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	model, ok := probeModels[a.Provider]
	if !ok {
		return nil, fmt.Errorf("no provider %q", a.Provider)
	}
	fp := &fakeProvider{behaviour: a.Behaviour, credential: probeCredential, hung: make(chan struct{}), start: time.Now()}
	srv := httptest.NewServer(fp)
	defer srv.Close()
	defer close(fp.hung)

	dir, err := os.MkdirTemp("", "occkit-probe-tier-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// A cgroup of one full CPU, idle: no run is CPU-starved.
	cg := filepath.Join(dir, "cgroup")
	if err := os.Mkdir(cg, 0o755); err != nil {
		return nil, err
	}
	for name, body := range map[string]string{
		"cpu.max":      "100000 100000\n",
		"cpu.pressure": "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	} {
		if err := os.WriteFile(filepath.Join(cg, name), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	api, credEnv, base := "openai-responses", "OPENAI_API_KEY", srv.URL+"/v1"
	if a.Provider == "anthropic" {
		api, credEnv, base = "anthropic-messages", "ANTHROPIC_API_KEY", srv.URL
	}
	config, err := json.Marshal(map[string]any{
		"agents": map[string]any{"defaults": map[string]any{"model": model}},
		"models": map[string]any{"providers": map[string]any{
			a.Provider: map[string]any{"api": api, "baseUrl": base, "models": []any{}},
		}},
	})
	if err != nil {
		return nil, err
	}
	in := Install{Dir: a.Install}
	args := append([]string{in.Entry()}, runner.OpenClawArgs(a.Provider)[1:]...)
	var rec probe.Record
	r := runner.OpenClaw{
		Model: model, CredentialEnv: credEnv, ProbeConfig: config,
		Binary: in.Node(), Args: args,
		Environ: []string{"PATH=" + in.Path(), credEnv + "=" + probeCredential},
		TempDir: dir, CPU: runner.CPUAccounting{Dir: cg}, Cap: probeCap,
		OnRecord: func(r probe.Record) { rec = r },
	}
	o, err := r.Run(ctx)
	if err != nil {
		return nil, err
	}
	return probeResult{Outcome: o, ElapsedMs: rec.ElapsedMs, CapMs: rec.CapMs, Requests: fp.seen()}, nil
}

// fakeProvider is an OpenAI Responses and Anthropic Messages endpoint with
// one scripted behaviour.
type fakeProvider struct {
	behaviour, credential string
	// hung is closed when the job ends, releasing a hanging answer.
	hung     chan struct{}
	start    time.Time
	mu       sync.Mutex
	requests []request
}

func (f *fakeProvider) seen() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.requests...)
}

func (f *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var b struct {
		Model           string `json:"model"`
		MaxOutputTokens int    `json:"max_output_tokens"`
		MaxTokens       int    `json:"max_tokens"`
		Tools           []any  `json:"tools"`
		Stream          bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &b)
	cred := r.Header.Get("Authorization") == "Bearer "+f.credential || r.Header.Get("X-Api-Key") == f.credential
	f.mu.Lock()
	f.requests = append(f.requests, request{Path: r.URL.Path, Model: b.Model, MaxTokens: max(b.MaxOutputTokens, b.MaxTokens),
		Tools: len(b.Tools), Stream: b.Stream, Credential: cred, AtMs: time.Since(f.start).Milliseconds()})
	f.mu.Unlock()
	jsonError := func(status int, body string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_fake")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
	switch f.behaviour {
	case "unauthorized":
		jsonError(http.StatusUnauthorized, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`)
	case "forbidden":
		jsonError(http.StatusForbidden, `{"error":{"message":"Project does not have access to model.","type":"permission_error","code":"permission_error"}}`)
	case "invalid-key":
		jsonError(http.StatusUnauthorized, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	case "server-error":
		jsonError(http.StatusInternalServerError, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","code":null}}`)
	case "overloaded":
		jsonError(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	case "hang":
		select {
		case <-r.Context().Done():
		case <-f.hung:
		}
	case "ok", "dropped":
		f.stream(w, r.URL.Path, f.behaviour == "dropped")
	default:
		jsonError(http.StatusNotFound, `{"error":{"message":"no such behaviour"}}`)
	}
}

// stream answers "OK" as an OpenAI Responses event stream; dropped ends
// the connection after the first text delta.
func (f *fakeProvider) stream(w http.ResponseWriter, path string, dropped bool) {
	if path != "/v1/responses" {
		http.Error(w, "only the Responses API streams here", http.StatusNotFound)
		return
	}
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(name, data string) {
		_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if fl != nil {
			fl.Flush()
		}
	}
	msg := `{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"OK","annotations":[]}]}`
	event("response.created", `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1,"status":"in_progress","model":"gpt-4.1","output":[]}}`)
	event("response.output_item.added", `{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}}`)
	event("response.content_part.added", `{"type":"response.content_part.added","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`)
	event("response.output_text.delta", `{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"OK"}`)
	if dropped {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				_ = c.Close()
			}
		}
		return
	}
	event("response.output_text.done", `{"type":"response.output_text.done","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"text":"OK"}`)
	event("response.content_part.done", `{"type":"response.content_part.done","sequence_number":5,"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"OK","annotations":[]}}`)
	event("response.output_item.done", `{"type":"response.output_item.done","sequence_number":6,"output_index":0,"item":`+msg+`}`)
	event("response.completed", `{"type":"response.completed","sequence_number":7,"response":{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4.1","output":[`+msg+`],"usage":{"input_tokens":12,"output_tokens":1,"total_tokens":13}}}`)
}

// PRB-1..4 on the real CLI: OpenClaw's own model probe (`openclaw models
// status --json --probe` for the primary model's provider, one probe, 256
// output tokens) against a loopback provider with scripted behaviours,
// run by runner.OpenClaw and classified by probe.ClassifyOpenClaw.
//
// The runs get a cap far beyond OpenClaw's own bounds, so each verdict
// comes from what the CLI printed, never from how loaded this machine is
// (reaching the cap is covered by the probe package's own tests). The
// real CLI retries a 5xx, an overload and a dropped stream on the same
// model with backoff (1, 2, 4, 8, 16, 30 s, jittered) inside a fixed 90 s
// window (its embedded runner's constant; neither --probe-timeout nor any
// configuration key shortens it) before it prints their status, so those
// runs take node's startup plus about 80 s; the requests' arrival times
// are logged. A provider idle timeout (models.providers.<id>.timeoutSeconds)
// does not shorten the hang either: it turns the hang into a retried
// transient failure (measured: 6 requests, longer), while without it
// --probe-timeout ends the hang after one request.
func TestOpenClawProbe_RealCLI_PRB(t *testing.T) {
	in, run := Open(t, tiers.ModelProbe)
	status := func(s string) probe.Outcome {
		c, ok := probe.NewCause(probe.CauseProbeStatus, s)
		if !ok {
			t.Fatalf("cause %s", s)
		}
		return probe.Outcome{Code: probe.ModelProbeFailed, Cause: c}
	}
	tests := []struct {
		behaviour, provider string
		want                probe.Outcome
		// mayRetry: OpenClaw may call the (same) model again.
		mayRetry bool
	}{
		// Longest first (OpenClaw's 90 s transient retry window), so the
		// short ones fill the pool's slots behind them.
		{"server-error", "openai", status("unknown"), true},
		{"overloaded", "anthropic", status("rate_limit"), true},
		{"dropped", "openai", probe.Outcome{Code: probe.ModelProbeTimeout}, true},
		{"hang", "openai", probe.Outcome{Code: probe.ModelProbeTimeout}, true},
		{"ok", "openai", probe.Outcome{Code: probe.Ready}, false},
		{"unauthorized", "openai", probe.Outcome{Code: probe.AuthenticationFailed}, false},
		{"forbidden", "openai", probe.Outcome{Code: probe.AuthenticationFailed}, false},
		{"invalid-key", "anthropic", probe.Outcome{Code: probe.AuthenticationFailed}, false},
	}
	// The runs go through the pool in the table's order (longest first),
	// from goroutines of this test rather than parallel subtests, whose
	// start order and count (-test.parallel) Go does not promise.
	type done struct {
		got probeResult
		err error
	}
	results := make([]done, len(tests))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i, tt := range tests {
		started := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].err = pool.RunThen(ctx, "probe", probeArg{Install: in.Dir, Behaviour: tt.behaviour, Provider: tt.provider},
				&results[i].got, func() { close(started) })
		}()
		<-started
	}
	wg.Wait()
	for i, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			got, err := results[i].got, results[i].err
			if err != nil {
				t.Fatal(err)
			}
			run.Done(1)
			at := make([]int64, len(got.Requests))
			for i, r := range got.Requests {
				at[i] = r.AtMs
			}
			t.Logf("%s/%s: %+v in %d ms (cap %d ms), %d provider requests at %v ms", tt.provider, tt.behaviour,
				got.Outcome, got.ElapsedMs, got.CapMs, len(got.Requests), at)
			if got.Outcome != tt.want {
				t.Errorf("verdict %+v, want %+v", got.Outcome, tt.want)
			}
			if len(got.Requests) == 0 {
				t.Fatal("the probe never called the provider")
			}
			if !tt.mayRetry && len(got.Requests) != 1 {
				t.Errorf("%d model calls, want one probe", len(got.Requests))
			}
			// PRB-2: the primary model only (no fallback), no tools, the
			// 256-token budget, the credential it was given.
			_, wantModel, _ := strings.Cut(probeModels[tt.provider], "/")
			for i, r := range got.Requests {
				if r.Model != wantModel || r.Tools != 0 || r.MaxTokens != 256 || !r.Credential {
					t.Errorf("request %d: %+v, want model %s, no tools, 256 tokens, the credential", i, r, wantModel)
				}
			}
		})
	}
}
