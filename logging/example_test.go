package logging_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/logging"
)

// Admission parses the level, stamps the document, and the renderer guards
// it before use.
func ExampleStamp() {
	level, err := logging.ParseLevel([]byte(`"warn"`))
	if err != nil {
		panic(err)
	}
	doc := occkit.MustParseDocument(`{"logging":{"redactSensitive":"tools","file":"/tmp/x.log"},"feature":1}`)
	stamped, err := logging.Stamp(doc, level, occkit.OwnedByPlatform)
	if err != nil {
		panic(err)
	}
	fmt.Println(stamped)
	fmt.Println(logging.CheckStamp(stamped))
	// Output:
	// {"logging":{"file":"/tmp/x.log","level":"warn","consoleLevel":"warn","consoleStyle":"json"},"feature":1,"diagnostics":{"otel":{"logs":false}}}
	// warn <nil>
}

// A revision whose stamp was edited cannot be rendered.
func ExampleCheckStamp() {
	doc := occkit.MustParseDocument(`{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"pretty"},"diagnostics":{"otel":{"logs":false}}}`)
	_, err := logging.CheckStamp(doc)
	e := occkit.First(err)
	fmt.Println(e.HTTPStatus(), e.Code, e.Path, e.Rule)
	// Output:
	// 409 RESOURCE_CONFLICT logging.consoleStyle LOG-2
}

func ExampleRender() {
	r, err := logging.Render(occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelWarn)
	if err != nil {
		panic(err)
	}
	for _, e := range r.Env {
		fmt.Printf("%s=%s\n", e.Name, e.Value)
	}
	fmt.Println(r.Command, "stderr only:", r.StderrOnly)

	g, _ := logging.Render(occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessGateway, occkit.LevelWarn)
	fmt.Println(g.Env, "unset:", g.Unset, "reads its document:", g.ReadsDocument)
	// Output:
	// LOG_FORMAT=json
	// RUST_LOG=warn,codex_otel=off
	// [codex -c otel.exporter="none" -c otel.log_user_prompt=false app-server] stderr only: true
	// [] unset: [OPENCLAW_LOG_LEVEL] reads its document: true
}

func ExampleStartupPhase() {
	origin := time.UnixMilli(1_000)
	r, err := logging.StartupPhase(logging.StartupEvent{
		Container: occkit.ProcessHarness,
		Phase:     logging.PhaseModelProbe,
		Outcome:   logging.OutcomeFailed,
		Code:      "MODEL_PROBE_TIMEOUT",
		Origin:    origin,
		StartedAt: origin.Add(40 * time.Millisecond),
		Now:       origin.Add(1_540 * time.Millisecond),
	})
	if err != nil {
		panic(err)
	}
	// A wrapper writes the record to stderr; here through slog.
	r.Log(context.Background(), slog.New(logging.NewStartupHandler(os.Stdout)))
	// Output:
	// {"event":"runtime.startup_phase","container":"agent","phase":"model-probe","outcome":"failed","ms":1500,"sinceStartMs":1540,"code":"MODEL_PROBE_TIMEOUT"}
}

// Anything outside the allowlist is dropped before the wrapped handler sees
// it.
func ExampleFilter() {
	h := logging.Filter(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}), logging.FilterOptions{})
	l := slog.New(h)
	l.Info(logging.EventStartupPhase, "container", "gateway", "phase", "plugin-install", "model", "openai/gpt-5", "apiKey", "sk-live-1")
	l.Info("loaded /home/node/.codex/auth.json", logging.Work{ID: "w-7", Operation: "deploy", Attempt: 1}.Attrs()[0])
	// Output:
	// {"level":"INFO","msg":"runtime.startup_phase","container":"gateway","phase":"plugin-install"}
	// {"level":"INFO","msg":"withheld","work.id":"w-7"}
}

func ExampleCollectorMetadata() {
	md, err := logging.CollectorMetadata(logging.Identity{
		Harness: occkit.HarnessCodex, Container: occkit.ProcessHarness,
		Version: "0.158.0", Namespace: "ns_a", Agent: "agt_main", Revision: "rev_7",
	})
	if err != nil {
		panic(err)
	}
	for _, k := range logging.AllProtectedKeys() {
		fmt.Printf("%s=%s -> %s\n", k, md.Labels[string(k)], k.Attribute())
	}
	// Output:
	// occkit.io/service-name=codex-app-server -> service.name
	// occkit.io/version=0.158.0 -> service.version
	// occkit.io/container=harness -> container.name
	// occkit.io/namespace=ns_a -> occkit.namespace.id
	// occkit.io/agent=agt_main -> occkit.agent.id
	// occkit.io/revision=rev_7 -> occkit.agent.revision.id
}

func ExampleRuntimeLogs() {
	fmt.Println(logging.RuntimeLogs(occkit.OwnedByPlatform))
	fmt.Println(occkit.First(logging.RuntimeLogs(occkit.OwnedByDriver)).HTTPStatus())
	// Output:
	// <nil>
	// 501
}
