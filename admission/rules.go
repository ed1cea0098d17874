package admission

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// Rule is a policy of the caller's own ("no Codex in production
// namespaces"), run by [Admitter.Admit] over what admission decided (see
// the package doc, "Your own rules"). Like a database/sql driver it is
// small: a name and one check.
type Rule interface {
	// Name is the rule's namespaced name, "namespace/name" (see
	// [CheckRuleName]): the Rule of its refusals and of its line in
	// [Revision.Explain]. It must not change.
	Name() string
	// Check decides one deployment. nil admits it. A refusal is an
	// *occkit.Error (occkit.Invalid("", path, "message") is the usual
	// one; several may be joined with occkit.Join): admission sets its
	// Rule to Name, keeps its code (an empty one is 400), path and
	// message, and places it in the Configuration's source. Any other
	// error is a fault of the rule, 500 INTERNAL, whose text is never
	// shown. ctx carries the rule's deadline (Options.RuleTimeout); v is
	// read-only and shared by every rule of the admission.
	Check(ctx context.Context, v *View) error
}

// RuleFunc adapts a function to a [Rule] named name.
func RuleFunc(name string, check func(ctx context.Context, v *View) error) Rule {
	return funcRule{name: name, check: check}
}

type funcRule struct {
	name  string
	check func(context.Context, *View) error
}

func (r funcRule) Name() string { return r.name }

func (r funcRule) Check(ctx context.Context, v *View) error { return r.check(ctx, v) }

// DefaultRuleTimeout is each rule's budget when Options.RuleTimeout is
// zero: ample for an expression or a lookup in memory, short enough that
// a rule stuck on a dependency does not hold a deployment for long.
const DefaultRuleTimeout = time.Second

// MaxRuleNameBytes bounds a rule's name.
const MaxRuleNameBytes = 128

// reservedRuleNamespace is occkit's own: no caller's rule may speak for it.
const reservedRuleNamespace = "occkit"

// CheckRuleName refuses a rule name that is not "namespace/name": two
// parts of lower-case letters, digits, '.', '_' and '-', each starting and
// ending with a letter or digit, at most [MaxRuleNameBytes] bytes in all,
// and a namespace other than "occkit". So a caller's rule can never be
// taken for a SPEC rule ID ("RES-7") nor for another namespace's rule.
func CheckRuleName(name string) error {
	ns, rest, ok := strings.Cut(name, "/")
	if !ok || len(name) > MaxRuleNameBytes || !ruleNamePart(ns) || !ruleNamePart(rest) {
		return occkit.Invalid("ADM-1", occkit.NewPath("rules"),
			"a rule name is namespace/name: lower-case letters, digits, '.', '_' and '-', at most %d bytes (e.g. company/no-codex-in-prod)", MaxRuleNameBytes)
	}
	if ns == reservedRuleNamespace {
		return occkit.Invalid("ADM-1", occkit.NewPath("rules"), "the rule namespace occkit is reserved")
	}
	return nil
}

func ruleNamePart(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || i == len(s)-1 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// checkRules refuses what New must not accept: a nil rule, a bad or
// repeated name. Each refusal's path is the rule's index.
func checkRules(rules []Rule) error {
	seen := make(map[string]bool, len(rules))
	for i, r := range rules {
		at := occkit.InstallationPath("rules").Index(i)
		if r == nil {
			return occkit.Invalid("ADM-1", at, "a rule is nil")
		}
		name := r.Name()
		if err := CheckRuleName(name); err != nil {
			e := *occkit.First(err)
			e.Path = at
			return &e
		}
		if seen[name] {
			return occkit.Invalid("ADM-1", at, "the rule %s is registered twice", name)
		}
		seen[name] = true
	}
	return nil
}

// Tenant is the tenant an Agent belongs to, as the control plane knows it
// (its plan, region, ... as labels). Admission reads it only to show it to
// rules.
type Tenant struct {
	ID     string
	Labels map[string]string
}

// Model is one effective model of a deployment, as a rule sees it.
type Model struct {
	// Ref is the canonical ref, "provider/id[@profile]".
	Ref      string
	Provider string
	ID       string
	Profile  string
	// Runtime is the Harness that runs the model: every effective model
	// of an OCC deployment resolves to the one admitted Harness (RES-3,
	// RES-8).
	Runtime occkit.Harness
	// Path is where the ref is written in the document, or the root when
	// admission cannot tell.
	Path occkit.Path
}

// Channel is one messaging channel the Configuration configures
// (channels.<id>, not turned off with enabled: false).
type Channel struct {
	ID   string
	Path occkit.Path
}

// Release is the approved release a deployment runs (ADM-3).
type Release struct {
	Harness occkit.Harness
	// Version is the Harness version the installation approves
	// (Options.HarnessVersions).
	Version string
	// OpenClawSchema is the OpenClaw release whose configuration schema
	// the document was checked against, "" when that check is off.
	OpenClawSchema string
}

// View is what admission decided about one deployment, as a [Rule] sees
// it: read-only (every accessor returns a copy or an immutable value) and
// holding references only, never a Secret value. It is built once per
// admission and shared by every rule.
type View struct {
	agent     Agent
	tenant    Tenant
	principal string
	mode      occkit.Mode
	compute   ComputeIdentity
	models    []Model // the primary first, then the fallbacks; empty without a model
	channels  []Channel
	bindings  []occkit.SecretBinding
	release   Release
	doc       occkit.Document
	// channelsOnce guards channels, read when a rule first asks.
	channelsOnce sync.Once
	// memo is what rule implementations derived from the view (Memo).
	memoMu sync.Mutex
	memo   map[any]any
}

// index reads the document's channels, once. Top-level members are
// located by the Document's own index ([occkit.Document.Get]), which
// admission's checks of the same document share: no pass over a large
// document is the rules' alone.
func (v *View) index() {
	v.channelsOnce.Do(func() {
		channels := occkit.NewPath("channels")
		v.doc.Get(channels).ForEach(func(k, c occkit.Value) bool {
			id := k.String()
			if en := c.Key("enabled"); !notChannel(id) && c.IsObject() && !(en.IsBool() && !en.Bool()) {
				v.channels = append(v.channels, Channel{ID: id, Path: channels.Key(id)})
			}
			return true
		})
	})
}

// Agent is the Agent being deployed, with the labels the control plane
// supplied (a copy).
func (v *View) Agent() Agent {
	a := v.agent
	a.Labels = maps.Clone(a.Labels)
	return a
}

// Tenant is the Agent's tenant as the request named it (a copy).
func (v *View) Tenant() Tenant {
	t := v.tenant
	t.Labels = maps.Clone(t.Labels)
	return t
}

// Principal is the caller that asked for the deployment.
func (v *View) Principal() string { return v.principal }

// Harness is the admitted Harness.
func (v *View) Harness() occkit.Harness { return v.release.Harness }

// Mode is the admitted execution mode.
func (v *View) Mode() occkit.Mode { return v.mode }

// Compute is the Compute kind and driver ID that will run the revision.
func (v *View) Compute() ComputeIdentity { return v.compute }

// Primary is the effective primary model, the zero Model when the
// Configuration selects none (RES-4).
func (v *View) Primary() Model {
	if len(v.models) == 0 {
		return Model{}
	}
	return v.models[0]
}

// Fallbacks are the primary's fallbacks in the admitted order (ADM-4).
func (v *View) Fallbacks() []Model {
	if len(v.models) == 0 {
		return nil
	}
	return append([]Model(nil), v.models[1:]...)
}

// Models are the primary then its fallbacks (empty without a model).
func (v *View) Models() []Model { return append([]Model(nil), v.models...) }

// Channels are the channels the Configuration configures, in key order.
func (v *View) Channels() []Channel {
	v.index()
	return append([]Channel(nil), v.channels...)
}

// SecretBindings are the Configuration's secretBindings: variable names
// and Secret references, never values (AUTH-6).
func (v *View) SecretBindings() []occkit.SecretBinding {
	return append([]occkit.SecretBinding(nil), v.bindings...)
}

// Release is the approved release.
func (v *View) Release() Release { return v.release }

// Document is the admitted document (after the SandboxDriver's transform
// and the logging stamp), as it will be frozen. A Value is a read-only
// view of immutable bytes.
func (v *View) Document() occkit.Value { return v.doc.Root() }

// DocumentKey is the member key of the document's top-level object, as
// Document().Key(key) (missing when absent), from an index the view
// builds once: on a large document it costs a map lookup where Key scans
// every member before key.
func (v *View) DocumentKey(key string) occkit.Value {
	if key == "" {
		return v.doc.Root().Key(key)
	}
	return v.doc.Get(occkit.NewPath(key))
}

// Memo is the value build returns for key, build being called once per
// View (per admission): what a rule implementation derives from the view
// and shares between its rules, so that the second rule to need it does
// not derive it again (celrules converts each variable it reads once).
// key is compared with ==; give it an unexported type of your own, as a
// context key. The value must be safe to share between the rules, which
// may run in different goroutines. Memo is safe for concurrent use; two
// calls racing may both build, and both return the first value stored.
func (v *View) Memo(key any, build func() any) any {
	v.memoMu.Lock()
	m, ok := v.memo[key]
	v.memoMu.Unlock()
	if ok {
		return m
	}
	m = build()
	v.memoMu.Lock()
	defer v.memoMu.Unlock()
	if first, ok := v.memo[key]; ok {
		return first
	}
	if v.memo == nil {
		v.memo = map[any]any{}
	}
	v.memo[key] = m
	return m
}

// newView is the view of revision r (every field but the document set),
// about to freeze doc, for req.
func newView(r *Revision, doc occkit.Document, req Request) *View {
	v := &View{
		agent:     req.Agent,
		tenant:    req.Tenant,
		principal: req.Principal,
		mode:      r.mode,
		compute:   r.compute,
		bindings:  append([]occkit.SecretBinding(nil), r.secretBindings...),
		release:   Release{Harness: r.harness.ID, Version: r.harness.Version, OpenClawSchema: r.openclawSchema},
		doc:       doc,
	}
	v.agent.Labels = maps.Clone(v.agent.Labels)
	v.tenant.Labels = maps.Clone(v.tenant.Labels)
	if r.primary != "" {
		at := r.reasons.decidedPrimaryPath()
		v.models = append(v.models, viewModel(r.primary, r.harness.ID, at))
		var fb occkit.Path
		if n := at.Len(); n > 0 {
			if key, _, isIdx := at.Elem(n - 1); key == "primary" && !isIdx {
				fb = at.Parent().Key("fallbacks")
			}
		}
		for i, f := range r.fallbacks {
			p := occkit.Root()
			if !fb.IsRoot() && doc.Has(fb.Index(i)) {
				p = fb.Index(i)
			}
			v.models = append(v.models, viewModel(f, r.harness.ID, p))
		}
	}
	return v
}

// notChannel reports the members of channels that are settings, not
// channels.
func notChannel(id string) bool { return id == "defaults" || id == "modelByChannel" }

// decidedPrimaryPath is where the primary model is written: the first
// RES-3 reason of the decision names it.
func (l *reasonList) decidedPrimaryPath() occkit.Path {
	for i := range l.len() {
		if l.rule(i) == "RES-3" {
			var pb occkit.PathBuilder
			return l.reason(i, &pb).Path
		}
	}
	return occkit.Root()
}

func viewModel(ref string, h occkit.Harness, at occkit.Path) Model {
	m := Model{Ref: ref, Runtime: h, Path: at}
	if r, ok := resolver.ParseRef(ref); ok {
		m.Provider, m.ID, m.Profile = r.Provider, r.ID, r.Profile
	}
	return m
}

// SelfBoundedRule is a [Rule] that bounds its own work: its Check never
// blocks, does work bounded before it starts, and returns by its
// context's deadline (the CEL rules of
// github.com/occkit/occkit/admission/celrules: no I/O, a cost limit, the
// deadline checked in every comprehension). Admission runs one itself, in
// the goroutine that called Admit, with no hand-over to another (which
// costs a rule set that does little more CPU time than the rules); any
// other Rule runs in the rules' goroutine, which admission stops waiting
// for at the rule's deadline. A panic is contained either way, and a
// SelfBoundedRule that returns after its deadline is its 503 all the
// same, but admission cannot cut short one that blocks: say true only of
// a rule that cannot.
type SelfBoundedRule interface {
	Rule
	// SelfBounded reports whether Check bounds itself. It must not
	// change.
	SelfBounded() bool
}

// selfBounded reports whether r says it bounds itself.
func selfBounded(r Rule) bool {
	b, ok := r.(SelfBoundedRule)
	return ok && b.SelfBounded()
}

// runRules runs the caller's rules in order over the view of r and the
// document doc makes, made only when there are rules (ADM-1, after the
// harness-auth and gateway-settings checks, before the freeze). Every
// rule runs; their refusals come back together. The rules that held are
// added to r's reason chain.
//
// A SelfBoundedRule runs here, in admission's goroutine. Any other rule
// runs in a goroutine of its own, one for each run of such rules in a
// row, so that neither a panic nor a rule that ignores its context can
// take admission with it, and admission hands over to it once a run, not
// once a rule (see runInWorker). A rule that overruns its deadline ends
// the rules: admission reports it alone, and the rules after it do not
// run.
func (a *Admitter) runRules(ctx context.Context, r *Revision, doc func() occkit.Document, req Request) error {
	if len(a.rules) == 0 {
		return nil
	}
	v := newView(r, doc(), req)
	out := make([]error, len(a.rules))
	for i := 0; i < len(a.rules); {
		if err := alive(ctx); err != nil {
			return err
		}
		if !selfBounded(a.rules[i]) {
			j := i + 1
			for j < len(a.rules) && !selfBounded(a.rules[j]) {
				j++
			}
			if err := a.runInWorker(ctx, v, i, j, out); err != nil {
				return err
			}
			i = j
			continue
		}
		rctx := newRuleContext(ctx, a.ruleTimeout)
		out[i] = checkRule(rctx, a.rules[i], v)
		rctx.release()
		if rctx.overrun() {
			return a.ruleError(a.rules[i].Name(), context.DeadlineExceeded)
		}
		i++
	}
	if err := alive(ctx); err != nil {
		return err
	}
	var errs []error
	for i, err := range out {
		name := a.rules[i].Name()
		if err == nil {
			r.reasons.add(resolver.Reason{Rule: name, Path: occkit.Root(), Note: "held"})
			continue
		}
		errs = append(errs, a.ruleError(name, err))
	}
	return occkit.Join(errs...)
}

// runInWorker runs the rules [from, to) one after another in a goroutine
// of their own, writing each one's result to out. Admission learns which
// rule runs, and until when, from an atomic, and looks only when a
// deadline may have passed; at a rule's deadline it stops waiting (a
// rule that never returns keeps the goroutine, and nothing else), and
// the error is that rule's 503. A cancelled admission is 503 ADM-1.
func (a *Admitter) runInWorker(ctx context.Context, v *View, from, to int, out []error) error {
	var running atomic.Pointer[ruleRun]
	overran := -1 // the worker's; read after done
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := from; i < to; i++ {
			if ctx.Err() != nil {
				return
			}
			rctx := newRuleContext(ctx, a.ruleTimeout)
			running.Store(&ruleRun{index: i, deadline: rctx.deadline})
			err := checkRule(rctx, a.rules[i], v)
			rctx.release()
			if rctx.overrun() {
				overran = i
				return
			}
			out[i] = err
		}
	}()
	timer := time.NewTimer(a.ruleTimeout)
	defer timer.Stop()
	for {
		select {
		case <-done:
			if err := alive(ctx); err != nil {
				return err
			}
			if overran >= 0 {
				return a.ruleError(a.rules[overran].Name(), context.DeadlineExceeded)
			}
			return nil
		case <-ctx.Done():
			return alive(ctx)
		case <-timer.C:
			wait := a.ruleTimeout
			if run := running.Load(); run != nil {
				if wait = time.Until(run.deadline); wait <= 0 {
					return a.ruleError(a.rules[run.index].Name(), context.DeadlineExceeded)
				}
			}
			timer.Reset(wait)
		}
	}
}

// ruleRun is the rule the worker runs and its deadline.
type ruleRun struct {
	index    int
	deadline time.Time
}

// ruleContext is a rule's context: admission's, with the rule's deadline,
// done once the rule has returned. It arms a timer only when asked for
// Done (or for a Value, as a context derived from it is): a rule that
// reads only Err and Deadline, as a CEL expression without a
// comprehension does, costs no timer.
type ruleContext struct {
	parent   context.Context
	deadline time.Time

	mu       sync.Mutex
	timed    context.Context // armed by start
	cancel   context.CancelFunc
	returned bool
}

// newRuleContext is the context of a rule that starts now, with timeout.
func newRuleContext(parent context.Context, timeout time.Duration) *ruleContext {
	return &ruleContext{parent: parent, deadline: time.Now().Add(timeout)}
}

// start arms the timer, once.
func (c *ruleContext) start() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timed == nil {
		c.timed, c.cancel = context.WithDeadline(c.parent, c.deadline)
		if c.returned {
			c.cancel()
		}
	}
	return c.timed
}

func (c *ruleContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *ruleContext) Done() <-chan struct{} { return c.start().Done() }

func (c *ruleContext) Err() error {
	c.mu.Lock()
	timed, returned := c.timed, c.returned
	c.mu.Unlock()
	switch {
	case timed != nil:
		return timed.Err()
	case returned:
		return context.Canceled
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

func (c *ruleContext) Value(key any) any { return c.start().Value(key) }

// release ends the context once its rule has returned.
func (c *ruleContext) release() {
	c.mu.Lock()
	c.returned = true
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// overrun reports whether the rule, now returned, ran past its deadline:
// what it decided came too late.
func (c *ruleContext) overrun() bool { return !time.Now().Before(c.deadline) }

// checkRule runs one rule's check, a panic becoming its error.
func checkRule(ctx context.Context, rule Rule, v *View) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = rulePanic{value: p}
		}
	}()
	return rule.Check(ctx, v)
}

// rulePanic is a rule's panic, kept as the cause of its refusal.
type rulePanic struct{ value any }

func (p rulePanic) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// ruleError is the refusal for rule name's error: its own refusal with
// its name, or a fault (a panic, a plain error: 500; its deadline: 503)
// naming it.
func (a *Admitter) ruleError(name string, err error) error {
	var p rulePanic
	switch {
	case errors.As(err, &p):
		return occkit.Wrap(err, occkit.CodeInternal, name, occkit.Root(), "the rule %s panicked", name)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return occkit.Wrap(err, occkit.CodeDependencyUnavailable, name, occkit.Root(),
			"the rule %s did not decide within %s", name, a.ruleTimeout)
	}
	return ruleRefusal(name, err)
}

// ruleRefusal names rule in each structured error of err; a plain error
// is the rule's fault (500) and its text is not repeated.
func ruleRefusal(name string, err error) error {
	var oe *occkit.Error
	if !errors.As(err, &oe) {
		return occkit.Wrap(err, occkit.CodeInternal, name, occkit.Root(), "the rule %s failed", name)
	}
	list := occkit.Errors(err)
	out := make([]error, len(list))
	for i, e := range list {
		c := *e
		c.Rule = name
		if c.Code == "" {
			c.Code = occkit.CodeInvalidRequest
		}
		if c.Code == occkit.CodeInternal && c.Err != nil && c.Detail == "internal error" {
			c.Detail = fmt.Sprintf("the rule %s failed", name)
		}
		out[i] = &c
	}
	return occkit.Join(out...)
}
