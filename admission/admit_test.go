package admission_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
)

// recorder logs the order in which admission calls its collaborators.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

type authz struct {
	rec  *recorder
	deny error
}

func (a authz) Authorize(_ context.Context, req admission.AuthorizeRequest) error {
	if a.rec != nil {
		a.rec.add("authorize")
	}
	return a.deny
}

type reader struct {
	rec *recorder
	admission.StaticConfiguration
}

func (r reader) ReadConfiguration(ctx context.Context, id string) (occkit.Document, int64, error) {
	r.rec.add("read")
	return r.StaticConfiguration.ReadConfiguration(ctx, id)
}

// sandboxDriver transforms the Configuration by adding a marker key.
type sandboxDriver struct {
	drivers.SandboxDriver // only the transform is exercised
	rec                   *recorder
	err                   error
}

func (s sandboxDriver) TransformConfiguration(_ context.Context, doc occkit.Document) (occkit.Document, error) {
	s.rec.add("transform")
	if s.err != nil {
		return occkit.Document{}, s.err
	}
	return doc.Set(occkit.NewPath("agents", "defaults", "params", "sandboxTransformed"), true)
}

// wrapped hides a driver behind a wrapper that forwards only the required
// methods; its optional gateway-settings check is found through Unwrap.
type wrapped struct{ drivers.ComputeDriver }

func (w wrapped) Unwrap() drivers.ComputeDriver { return w.ComputeDriver }

// computeDriver is a custom ComputeDriver with a harness-auth validator and
// a gateway-settings check.
type computeDriver struct {
	drivers.ComputeDriver // admission asks only for harness auth and gateway settings
	rec                   *recorder
	authErr               error
	gatewayErr            error
}

func (c *computeDriver) ValidateHarnessAuth(_ context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	c.rec.add("validateHarnessAuth")
	if c.authErr != nil {
		return occkit.Projection{}, c.authErr
	}
	return occkit.Projection{Gateway: []occkit.EnvVar{}, Harness: []occkit.EnvVar{{Name: "NOMAD_KEY", From: f.Binding.Source}}}, nil
}

func (c *computeDriver) ValidateGatewaySettings(_ context.Context, doc occkit.Document, _ occkit.Topology) error {
	c.rec.add("gatewaySettings")
	return c.gatewayErr
}

const embeddedConfig = `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"logging":{"level":"debug","redactSensitive":"off"},"channels":{"slack":{"enabled":true}}}`

const codexConfig = `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{}}},
 "plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"websocket"}}}}}}`

func allow() admission.Authorizer { return authz{} }

func newAdmitter(t testing.TB, az admission.Authorizer) *admission.Admitter {
	t.Helper()
	a, err := admission.New(admission.Options{Authorizer: az, HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func embeddedRequest(doc string) admission.Request {
	return admission.Request{
		Principal: "user_1",
		Agent: admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeEmbedded,
			HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 3, Document: occkit.MustParseDocument(doc)},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Level:         occkit.LevelWarn,
	}
}

func TestAdmitEmbedded(t *testing.T) {
	a := newAdmitter(t, allow())
	rev, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	d := rev.Document()
	for path, want := range map[string]string{
		"logging.level": `"warn"`, "logging.consoleLevel": `"warn"`, "logging.consoleStyle": `"json"`,
		"diagnostics.otel.logs": `false`, "channels.slack.enabled": `true`,
	} {
		p, _ := occkit.ParsePath(path)
		if got := d.Get(p).Raw(); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if d.Has(occkit.NewPath("logging", "redactSensitive")) {
		t.Error("logging.redactSensitive kept")
	}
	got := struct {
		Harness, Mode, Compute, Primary, Agent, Version string
		Source                                          drivers.SourceIdentity
		Level                                           occkit.LogLevel
		Owner                                           occkit.LogOwnership
		Env                                             []string
	}{
		string(rev.Harness()), string(rev.Mode()), string(rev.Compute()), rev.Primary(), rev.AgentID(), rev.HarnessIdentity().Version,
		rev.Source(), rev.Level(), rev.LoggingOwnership(), rev.Projection().Names(occkit.ProcessHarness),
	}
	want := got
	want.Harness, want.Mode, want.Compute, want.Primary, want.Agent, want.Version = "openclaw", "embedded", "kubernetes", "anthropic/claude-sonnet-4-6", "agt_1", "2026.9.6"
	want.Source = drivers.SourceIdentity{ID: "cfg_1", Generation: 3}
	want.Level, want.Owner, want.Env = occkit.LevelWarn, occkit.OwnedByPlatform, []string{"ANTHROPIC_API_KEY"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatal(diff)
	}
	if rev.SandboxDriverID() != "" {
		t.Fatal("embedded deployment bound a SandboxDriver")
	}
}

// TestAdmitOrder checks ADM-1's order and that a refusal stops the
// pipeline before any later collaborator is called.
func TestAdmitOrder(t *testing.T) {
	denied := errors.New("denied")
	tests := []struct {
		name      string
		edit      func(*admission.Request, *computeDriver, *sandboxDriver, *authz)
		wantCalls []string
		wantCode  occkit.Code
		wantRule  string
	}{
		{name: "full pipeline", edit: func(*admission.Request, *computeDriver, *sandboxDriver, *authz) {},
			wantCalls: []string{"authorize", "read", "transform", "validateHarnessAuth", "gatewaySettings"}},
		{name: "authorizer denial is 403 before the read", edit: func(_ *admission.Request, _ *computeDriver, _ *sandboxDriver, a *authz) { a.deny = denied },
			wantCalls: []string{"authorize"}, wantCode: occkit.CodeForbidden, wantRule: "ADM-2"},
		{name: "transform refusal", edit: func(_ *admission.Request, _ *computeDriver, s *sandboxDriver, _ *authz) { s.err = errors.New("no") },
			wantCalls: []string{"authorize", "read", "transform"}, wantCode: occkit.CodeResourceConflict},
		{name: "configuration refusal of the validator is 400", edit: func(_ *admission.Request, c *computeDriver, _ *sandboxDriver, _ *authz) {
			c.authErr = occkit.Invalid("X", occkit.NewPath("models"), "unsupported")
		}, wantCalls: []string{"authorize", "read", "transform", "validateHarnessAuth"}, wantCode: occkit.CodeInvalidRequest},
		{name: "other validator refusal is 409", edit: func(_ *admission.Request, c *computeDriver, _ *sandboxDriver, _ *authz) {
			c.authErr = errors.New("quota")
		},
			wantCalls: []string{"authorize", "read", "transform", "validateHarnessAuth"}, wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-7"},
		{name: "gateway settings refusal names the setting", edit: func(_ *admission.Request, c *computeDriver, _ *sandboxDriver, _ *authz) {
			c.gatewayErr = occkit.Invalid("", occkit.NewPath("gateway", "port"), "port 99999 is out of range")
		}, wantCalls: []string{"authorize", "read", "transform", "validateHarnessAuth", "gatewaySettings"}, wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-7"},
		{name: "resolution refusal stops before harness auth", edit: func(r *admission.Request, _ *computeDriver, _ *sandboxDriver, _ *authz) {
			r.Configuration = reader{rec: nil, StaticConfiguration: admission.StaticConfiguration{ID: "cfg_1", Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`)}}
		}, wantCalls: []string{"authorize", "read", "transform"}, wantCode: occkit.CodeInvalidRequest},
		{name: "missing binding", edit: func(r *admission.Request, _ *computeDriver, _ *sandboxDriver, _ *authz) {
			r.Agent.HarnessAuth = occkit.Binding{}
		},
			wantCalls: []string{"authorize", "read", "transform"}, wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			cd := &computeDriver{rec: rec}
			sd := &sandboxDriver{rec: rec}
			az := &authz{rec: rec}
			req := admission.Request{
				Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeDedicated,
					HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}},
				Configuration: reader{rec: rec, StaticConfiguration: admission.StaticConfiguration{ID: "cfg_1", Document: occkit.MustParseDocument(codexConfig)}},
				Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s", Driver: wrapped{ComputeDriver: cd},
					Topologies: nil},
				Sandbox: &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox, Driver: sd},
			}
			tt.edit(&req, cd, sd, az)
			if r, ok := req.Configuration.(reader); ok && r.rec == nil {
				r.rec = rec
				req.Configuration = r
			}
			a := newAdmitter(t, az)
			rev, err := a.Admit(context.Background(), req)
			if diff := cmp.Diff(tt.wantCalls, rec.got()); diff != "" {
				t.Errorf("calls: %s", diff)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !rev.Document().Has(occkit.NewPath("agents", "defaults", "params", "sandboxTransformed")) {
					t.Error("the SandboxDriver transform is not in the admitted document")
				}
				if rev.SandboxDriverID() != "openshell" || rev.Harness() != occkit.HarnessCodex {
					t.Errorf("sandbox %q harness %s", rev.SandboxDriverID(), rev.Harness())
				}
				if diff := cmp.Diff([]string{"NOMAD_KEY"}, rev.Projection().Names(occkit.ProcessHarness)); diff != "" {
					t.Error(diff)
				}
				return
			}
			if rev != nil {
				t.Fatal("a refusal returned a revision")
			}
			e := occkit.First(err)
			if e == nil || e.Code != tt.wantCode || (tt.wantRule != "" && e.Rule != tt.wantRule) {
				t.Fatalf("got %v, want %s [%s]", err, tt.wantCode, tt.wantRule)
			}
			if strings.Contains(err.Error(), "99999") {
				t.Fatalf("gateway setting value leaked: %v", err)
			}
		})
	}
}

func TestAdmitRefusals(t *testing.T) {
	tests := []struct {
		name     string
		az       admission.Authorizer
		edit     func(*admission.Request)
		wantCode occkit.Code
	}{
		{name: "no authorizer fails closed", az: nil, edit: func(*admission.Request) {}, wantCode: occkit.CodeDependencyUnavailable},
		{name: "invalid level", az: allow(), edit: func(r *admission.Request) { r.Level = "trace" }, wantCode: occkit.CodeInvalidRequest},
		{name: "unknown configuration", az: allow(), edit: func(r *admission.Request) { r.Agent.ConfigurationID = "cfg_2" }, wantCode: occkit.CodeResourceConflict},
		{name: "no configuration reader", az: allow(), edit: func(r *admission.Request) { r.Configuration = nil }, wantCode: occkit.CodeInvalidRequest},
		{name: "custom compute without a validator", az: allow(), edit: func(r *admission.Request) {
			r.Compute = admission.ComputeInfo{Kind: "nomad", Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}}
		}, wantCode: occkit.CodeDependencyUnavailable},
		{name: "docker refuses the binding", az: allow(), edit: func(r *admission.Request) { r.Compute.Kind = occkit.ComputeDocker }, wantCode: occkit.CodeResourceConflict},
		{name: "bad runtimeLogging", az: allow(), edit: func(r *admission.Request) { r.Compute.RuntimeLogging = "both" }, wantCode: occkit.CodeInvalidRequest},
		{name: "non-empty agents.list", az: allow(), edit: func(r *admission.Request) {
			r.Configuration = admission.StaticConfiguration{ID: "cfg_1", Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude"},"list":[{"id":"main"}]}}`)}
		}, wantCode: occkit.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := embeddedRequest(embeddedConfig)
			tt.edit(&req)
			rev, err := newAdmitter(t, tt.az).Admit(context.Background(), req)
			e := occkit.First(err)
			if rev != nil || e == nil || e.Code != tt.wantCode {
				t.Fatalf("got %v %v, want %s", rev, err, tt.wantCode)
			}
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newAdmitter(t, allow()).Admit(ctx, embeddedRequest(embeddedConfig))
		if !errors.Is(err, occkit.ErrDependencyUnavailable) {
			t.Fatal(err)
		}
	})
}

// TestAdmitDriverOwnedLogging: LOG-3 preserves the native configuration
// unchanged, logging.redactSensitive included: the logging rules decide
// that key, not OpenClaw's schema (see compile/openclawschema).
func TestAdmitDriverOwnedLogging(t *testing.T) {
	config := embeddedConfig
	if !strings.Contains(config, `"redactSensitive"`) {
		t.Fatal("the fixture should carry logging.redactSensitive")
	}
	req := embeddedRequest(config)
	req.Compute.RuntimeLogging = occkit.OwnedByDriver
	rev, err := newAdmitter(t, allow()).Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := occkit.Canonical(occkit.MustParseDocument(config))
	if diff := cmp.Diff(string(want), string(rev.Canonical())); diff != "" {
		t.Fatal(diff)
	}
	if rev.LoggingOwnership() != occkit.OwnedByDriver {
		t.Fatal(rev.LoggingOwnership())
	}
}

// TestAdmitSourceUnchanged: the transform works on a copy (ADM-1, CMP-2).
func TestAdmitSourceUnchanged(t *testing.T) {
	src := occkit.MustParseDocument(codexConfig)
	before := src.Bytes()
	rec := &recorder{}
	req := admission.Request{
		Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: occkit.ModeDedicated, HarnessAuth: apiKey},
		Configuration: admission.StaticConfiguration{ID: "c", Document: src},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		Sandbox:       &admission.SandboxInfo{ID: "s", Facts: *fullSandbox, Driver: sandboxDriver{rec: rec}},
	}
	if _, err := newAdmitter(t, allow()).Admit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if string(before) != string(src.Bytes()) {
		t.Fatal("the stored source changed")
	}
}

// TestRevisionImmutable: accessors return copies (ADM-3).
func TestRevisionImmutable(t *testing.T) {
	doc := `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/b","anthropic/c"]}}}}`
	rev, err := newAdmitter(t, allow()).Admit(context.Background(), embeddedRequest(doc))
	if err != nil {
		t.Fatal(err)
	}
	fb := rev.Fallbacks()
	if diff := cmp.Diff([]string{"anthropic/b", "anthropic/c"}, fb); diff != "" {
		t.Fatal(diff)
	}
	fb[0] = "x/y"
	c := rev.Canonical()
	c[0] = ' '
	p := rev.Projection()
	p.Harness[0].Name = "EVIL"
	rs := rev.Reasons()
	if len(rs) > 0 {
		rs[0].Rule = "X"
	}
	if rev.Fallbacks()[0] != "anthropic/b" || rev.Canonical()[0] != '{' ||
		rev.Projection().Harness[0].Name != "ANTHROPIC_API_KEY" || (len(rs) > 0 && rev.Reasons()[0].Rule == "X") {
		t.Fatal("a returned copy aliased the revision")
	}
}

// TestRevisionRecord: the persisted record round-trips and is tamper-evident.
func TestRevisionRecord(t *testing.T) {
	rev, err := newAdmitter(t, allow()).Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	b, err := rev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := admission.ParseRevision(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := back.MarshalJSON()
	if diff := cmp.Diff(string(b), string(b2)); diff != "" {
		t.Fatal(diff)
	}
	tampered := strings.Replace(string(b), `"slack":{"enabled":true}`, `"slack":{"enabled":false}`, 1)
	if tampered == string(b) {
		t.Fatal("the record does not hold the document")
	}
	if _, err := admission.ParseRevision([]byte(tampered)); !errors.Is(err, occkit.ErrResourceConflict) {
		t.Fatalf("tampered record: %v", err)
	}
	if _, err := admission.ParseRevision([]byte(`{"version":1,"extra":1}`)); !errors.Is(err, occkit.ErrInvalidRequest) {
		t.Fatalf("unknown field: %v", err)
	}
}

// TestAdmitConcurrent shares one Admitter between 8 goroutines × 500
// admissions (run under -race).
func TestAdmitConcurrent(t *testing.T) {
	a := newAdmitter(t, allow())
	want, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	n := 500
	if testing.Short() {
		n = 50
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				req := embeddedRequest(embeddedConfig)
				if i%2 == 1 {
					req = admission.Request{
						Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: occkit.ModeDedicated, HarnessAuth: apiKey},
						Configuration: admission.StaticConfiguration{ID: "c", Document: occkit.MustParseDocument(codexConfig)},
						Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
					}
				}
				rev, err := a.Admit(context.Background(), req)
				if err != nil {
					errs <- err
					return
				}
				if i%2 == 0 && rev.Digest() != want.Digest() {
					errs <- fmt.Errorf("goroutine %d: digest changed", g)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
