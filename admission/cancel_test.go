package admission_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// endable is a context the test ends by hand, with the error it chooses
// (context.Canceled or context.DeadlineExceeded), so that it ends exactly
// inside the call-out under test and never earlier.
type endable struct {
	context.Context
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func newEndable() *endable {
	return &endable{Context: context.Background(), done: make(chan struct{})}
}

func (c *endable) Done() <-chan struct{} { return c.done }

func (c *endable) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *endable) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

// ending makes one call-out end the context and then return what ret
// makes of it; every other call-out answers normally.
type ending struct {
	stage string
	ctx   *endable
	why   error
	ret   func(ctx context.Context) error
}

func (e *ending) at(stage string) error {
	if stage != e.stage {
		return nil
	}
	e.ctx.end(e.why)
	return e.ret(e.ctx)
}

type endingSandbox struct {
	drivers.SandboxDriver
	e *ending
}

func (s endingSandbox) TransformConfiguration(_ context.Context, doc occkit.Document) (occkit.Document, error) {
	if err := s.e.at("transform"); err != nil {
		return occkit.Document{}, err
	}
	return doc, nil
}

type endingCompute struct {
	drivers.ComputeDriver
	e *ending
}

func (c endingCompute) ValidateHarnessAuth(_ context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := c.e.at("validateHarnessAuth"); err != nil {
		return occkit.Projection{}, err
	}
	return occkit.Projection{Harness: []occkit.EnvVar{{Name: "NOMAD_KEY", From: f.Binding.Source}}}, nil
}

func (c endingCompute) ValidateGatewaySettings(context.Context, occkit.Document, occkit.Topology) error {
	return c.e.at("gatewaySettings")
}

type endingReader struct {
	admission.StaticConfiguration
	e *ending
}

func (r endingReader) ReadConfiguration(ctx context.Context, id string) (occkit.Document, int64, error) {
	if err := r.e.at("read"); err != nil {
		return occkit.Document{}, 0, err
	}
	return r.StaticConfiguration.ReadConfiguration(ctx, id)
}

// returns are what a call-out may answer once its context has ended:
// the context's error, wrapped or not, or anything else a collaborator
// says (a denial, a refusal, a conflict, its own 503).
var returns = map[string]func(ctx context.Context) error{
	"ctx.Err()":         func(ctx context.Context) error { return ctx.Err() },
	"a wrapped ctx.Err": func(ctx context.Context) error { return fmt.Errorf("policy engine: %w", ctx.Err()) },
	"a plain error":     func(context.Context) error { return errors.New("denied") },
	"a 400 refusal":     func(context.Context) error { return occkit.Invalid("X-1", occkit.NewPath("models"), "unsupported") },
	"a 409 refusal":     func(context.Context) error { return occkit.Conflict("X-1", occkit.Root(), "busy") },
	"a 403 refusal":     func(context.Context) error { return occkit.New(occkit.CodeForbidden, "X-1", occkit.Root(), "no") },
	"its own 503": func(context.Context) error {
		return occkit.New(occkit.CodeDependencyUnavailable, "X-1", occkit.Root(), "down")
	},
}

// checkEnded: the refusal is the context's error, 503, and nothing else.
func checkEnded(t *testing.T, err, why error) {
	t.Helper()
	if err := drivertest.CheckEnded(err, why); err != nil {
		t.Error(err)
	}
}

// TestContextEndsInACallOut: ADM-1, ADM-2, AUTH-7 — when the request is
// cancelled or its deadline passes during any call-out of admission
// (Authorizer, Configuration reader, SandboxDriver transform, harness-auth
// validator, gateway-settings check), Admit reports the context's error
// as 503 whatever the call-out returned: a timeout never reads as a
// denial or a refusal (issue 31).
func TestContextEndsInACallOut(t *testing.T) {
	for _, stage := range []string{"authorize", "read", "transform", "validateHarnessAuth", "gatewaySettings"} {
		for _, why := range []error{context.Canceled, context.DeadlineExceeded} {
			for name, ret := range returns {
				t.Run(fmt.Sprintf("%s/%v/%s", stage, why, name), func(t *testing.T) {
					e := &ending{stage: stage, ctx: newEndable(), why: why, ret: ret}
					req := admission.Request{
						Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeDedicated,
							HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}},
						Configuration: endingReader{admission.StaticConfiguration{ID: "cfg_1", Document: occkit.MustParseDocument(codexConfig)}, e},
						Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s", Driver: wrapped{ComputeDriver: endingCompute{e: e}}},
						Sandbox:       &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox, Driver: endingSandbox{e: e}},
					}
					a := newAdmitter(t, admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return e.at("authorize") }))
					rev, err := a.Admit(e.ctx, req)
					if e.ctx.Err() == nil {
						t.Fatalf("the pipeline never reached %s", stage)
					}
					if rev != nil {
						t.Fatalf("admitted after the context ended in a failing %s", stage)
					}
					checkEnded(t, err, why)
				})
			}
		}
	}
}

// TestContextEndsInVerify: ADM-5 — Verify's call-outs (the Authorizer,
// the harness-auth validator) report the context's error the same way.
func TestContextEndsInVerify(t *testing.T) {
	a := newAdmitter(t, allow())
	rev, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"authorize", "validateHarnessAuth"} {
		for name, ret := range returns {
			t.Run(stage+"/"+name, func(t *testing.T) {
				e := &ending{stage: stage, ctx: newEndable(), why: context.DeadlineExceeded, ret: ret}
				facts := admission.VerifyFacts{
					AgentID: rev.AgentID(), Principal: "user_1",
					Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return e.at("authorize") }),
					Compute:    admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s", RuntimeLogging: "platform"},
				}
				if stage == "validateHarnessAuth" {
					facts.Compute.Driver = endingCompute{e: e}
				}
				err := admission.Verify(e.ctx, rev, facts)
				if e.ctx.Err() == nil {
					t.Skipf("Verify did not reach %s: %v", stage, err)
				}
				checkEnded(t, err, context.DeadlineExceeded)
			})
		}
	}
}
