package drivertest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// Violation is one broken contract.
type Violation struct {
	// Contract names the contract, e.g. "prepare-idempotent" (see
	// [ComputeContracts] and [SandboxContracts]).
	Contract string
	// Rule is the SPEC rule the contract comes from.
	Rule string
	// Explanation says what the driver did and what the contract requires.
	Explanation string
}

// String renders "contract [RULE]: explanation".
func (v Violation) String() string {
	return fmt.Sprintf("%s [%s]: %s", v.Contract, v.Rule, v.Explanation)
}

// Options tune the suite. The zero value is right for most drivers.
type Options struct {
	// Namespace is the tenant namespace the suite ensures and deletes;
	// zero means {ID: "drivertest", Name: "drivertest"}. Each contract
	// derives its own namespace from it.
	Namespace drivers.Namespace
	// Timeout bounds each driver call; zero means 10 s. A call that does not
	// return within Timeout plus a grace (Timeout again, at most a second)
	// is a violation.
	Timeout time.Duration
	// Canary is a secret-looking value the suite plants in revision
	// documents and transient credentials; no error or output may contain
	// it. Zero means a fixed canary.
	Canary string
	// CredentialNamespace is the namespace ID the driver under test reads
	// its Agents' Secrets from (their tenant namespace, AUTH-2): the
	// suite's revisions are admitted with an api_key binding whose Secret
	// lives there, so Prepare renders a real credential projection. Zero
	// means Namespace.ID.
	CredentialNamespace string
}

func (o Options) withDefaults() Options {
	if o.Namespace == (drivers.Namespace{}) {
		o.Namespace = drivers.Namespace{ID: "drivertest", Name: "drivertest"}
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Canary == "" {
		o.Canary = "sk-drivertest-canary-0b5f9c"
	}
	if o.CredentialNamespace == "" {
		o.CredentialNamespace = o.Namespace.ID
	}
	return o
}

// contract is one named check of the suite.
type contract struct {
	name string
	rule string
	run  func(s *suite)
}

// ComputeContracts lists the names of the ComputeDriver contracts, in the
// order [Check] runs them.
func ComputeContracts() []string { return names(computeContracts) }

// SandboxContracts lists the names of the SandboxDriver contracts, in the
// order [CheckSandbox] runs them.
func SandboxContracts() []string { return names(sandboxContracts) }

func names(cs []contract) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// Check runs every ComputeDriver contract against d and returns every
// violation, in contract order; none means d conforms. It is usable outside
// `go test` (for example at startup, against a staging driver). The
// contracts create and delete namespaces and revisions, so run it against
// a driver whose backend is disposable.
func Check(ctx context.Context, d drivers.ComputeDriver) []Violation {
	return CheckWith(ctx, d, Options{})
}

// CheckWith is [Check] with options.
func CheckWith(ctx context.Context, d drivers.ComputeDriver, opts Options) []Violation {
	var out []Violation
	for _, c := range computeContracts {
		out = append(out, runContract(ctx, c, opts, d, nil)...)
	}
	return out
}

// CheckSandbox runs every SandboxDriver contract against d and returns
// every violation, in contract order.
func CheckSandbox(ctx context.Context, d drivers.SandboxDriver) []Violation {
	return CheckSandboxWith(ctx, d, Options{})
}

// CheckSandboxWith is [CheckSandbox] with options.
func CheckSandboxWith(ctx context.Context, d drivers.SandboxDriver, opts Options) []Violation {
	var out []Violation
	for _, c := range sandboxContracts {
		out = append(out, runContract(ctx, c, opts, nil, d)...)
	}
	return out
}

// Run runs every ComputeDriver contract as a subtest of t, each against a
// fresh driver from newDriver, and reports each violation as a test error.
// Call it from the driver's own tests:
//
//	func TestConformance(t *testing.T) {
//		drivertest.Run(t, func() drivers.ComputeDriver { return mydriver.New(…) })
//	}
func Run(t *testing.T, newDriver func() drivers.ComputeDriver) {
	t.Helper()
	RunWith(t, newDriver, Options{})
}

// RunWith is [Run] with options, e.g. a longer per-call Timeout for a
// driver whose backend is a real remote host.
func RunWith(t *testing.T, newDriver func() drivers.ComputeDriver, opts Options) {
	t.Helper()
	for _, c := range computeContracts {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range runContract(context.Background(), c, opts, newDriver(), nil) {
				t.Error(v.String())
			}
		})
	}
}

// RunSandbox is [Run] for a SandboxDriver.
func RunSandbox(t *testing.T, newDriver func() drivers.SandboxDriver) {
	t.Helper()
	for _, c := range sandboxContracts {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range runContract(context.Background(), c, Options{}, nil, newDriver()) {
				t.Error(v.String())
			}
		})
	}
}

// suite is the state of one contract run.
type suite struct {
	ctx     context.Context
	opts    Options
	c       contract
	compute drivers.ComputeDriver
	sandbox drivers.SandboxDriver

	mu         sync.Mutex
	violations []Violation
}

func runContract(ctx context.Context, c contract, opts Options, cd drivers.ComputeDriver, sd drivers.SandboxDriver) []Violation {
	s := &suite{ctx: ctx, opts: opts.withDefaults(), c: c, compute: cd, sandbox: sd}
	if cd == nil && sd == nil || isNilDriver(cd, sd) {
		s.fail("the driver is nil")
		return s.violations
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				s.fail("the driver panicked: %v", r)
			}
		}()
		c.run(s)
	}()
	return s.violations
}

func isNilDriver(cd drivers.ComputeDriver, sd drivers.SandboxDriver) bool {
	isNil := func(v any) bool {
		if v == nil {
			return true
		}
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
			return rv.IsNil()
		}
		return false
	}
	if cd != nil {
		return isNil(cd)
	}
	return isNil(sd)
}

// fail records a violation of the running contract.
func (s *suite) fail(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.violations = append(s.violations, Violation{Contract: s.c.name, Rule: s.c.rule, Explanation: fmt.Sprintf(format, args...)})
}

var errHung = errors.New("drivertest: the call did not return")

// call runs fn under the suite's timeout, recovering a panic, and checks
// that its error (if any) does not carry the canary. It returns fn's
// error, or errHung when fn never returned.
func (s *suite) call(what string, fn func(ctx context.Context) error) error {
	return s.callCtx(s.ctx, what, fn)
}

// callCancelled runs fn with an already cancelled context.
func (s *suite) callCancelled(what string, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(s.ctx)
	cancel()
	return s.callCtx(ctx, what, fn)
}

func (s *suite) callCtx(parent context.Context, what string, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(parent, s.opts.Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("drivertest: panic: %v", r)
				s.fail("%s panicked: %v", what, r)
			}
		}()
		done <- fn(ctx)
	}()
	select {
	case err := <-done:
		if err != nil && strings.Contains(err.Error(), s.opts.Canary) {
			s.fail("%s returned an error that contains a secret value planted by the suite; errors must name settings, never values", what)
		}
		return err
	case <-time.After(s.opts.Timeout + min(time.Second, s.opts.Timeout)):
		s.fail("%s did not return within %s: driver calls must honour their context deadline", what, s.opts.Timeout)
		return errHung
	}
}

// namespace derives the contract's own namespace.
func (s *suite) namespace() drivers.Namespace {
	ns := s.opts.Namespace
	ns.ID += "-" + s.c.name
	ns.Name += "-" + s.c.name
	return ns
}

// revision builds the contract's fixture revision for topology t; i
// distinguishes several revisions of one contract.
func (s *suite) revision(t occkit.Topology, i int) drivers.Revision {
	compute := occkit.Compute("drivertest")
	if s.compute != nil {
		compute = s.compute.Declaration().Name
	}
	// An admitted Configuration: the canary where a plain string of the
	// document is (a driver may render it, never echo it), i in a setting
	// that changes the document and nothing a driver checks.
	doc := mustSet(DefaultConfiguration(t), canaryPath, s.opts.Canary)
	doc = mustSet(doc, occkit.NewPath("agents", "defaults", "maxConcurrent"), i+1)
	o := RevisionOptions{
		AgentID:       fmt.Sprintf("dt-%s-%d", s.c.name, i),
		Compute:       compute,
		Topology:      t,
		Configuration: doc,
		Generation:    int64(i + 1),
	}
	if compute != occkit.ComputeSSH { // SSH runs the host's own credentials (AUTH-5)
		o.Binding = occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: s.opts.CredentialNamespace, ID: "model-key"}}
	}
	// A topology the driver declares is admitted for it; one it does not
	// (the suite checks the refusal), or one admission refuses on its
	// Compute (Docker refuses every binding, AUTH-4), is a foreign
	// revision.
	rev, err := NewRevision(o)
	if err != nil || !s.declares(t) {
		rev, err = ForeignRevision(o)
	}
	if err != nil {
		// The fixture is the suite's own; failing here is a suite bug.
		panic(fmt.Sprintf("drivertest: fixture revision: %v", err))
	}
	return rev
}

// declares reports whether the driver under test declares t (always, for
// a suite without one).
func (s *suite) declares(t occkit.Topology) bool {
	if s.compute == nil {
		return true
	}
	for _, d := range s.compute.Declaration().Topologies {
		if d == t {
			return true
		}
	}
	return false
}

// canaryPath is where the suite plants its canary in revision documents.
var canaryPath = occkit.NewPath("messages", "responsePrefix")

// declaredTopologies returns the driver's topologies that are valid
// RES-11 pairs (an invalid declaration is the declaration contract's
// business).
func (s *suite) declaredTopologies() []occkit.Topology {
	var out []occkit.Topology
	for _, t := range s.compute.Declaration().Topologies {
		if validTopology(t) {
			out = append(out, t)
		}
	}
	return out
}

// allTopologies are the three pairs of the RES-11 table.
func allTopologies() []occkit.Topology {
	return []occkit.Topology{
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
	}
}

func validTopology(t occkit.Topology) bool {
	for _, a := range allTopologies() {
		if a == t {
			return true
		}
	}
	return false
}

// structured reports whether err is (or wraps) an *occkit.Error, and
// returns it.
func structured(err error) (*occkit.Error, bool) {
	var oe *occkit.Error
	if errors.As(err, &oe) {
		return oe, true
	}
	return nil, false
}

func describe(err error) string {
	if oe, ok := structured(err); ok {
		return fmt.Sprintf("%s (status %d, rule %q)", oe.Code, oe.HTTPStatus(), oe.Rule)
	}
	return fmt.Sprintf("a plain %T", err)
}
