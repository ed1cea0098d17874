package memdriver

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
)

// DefaultName is the Compute kind of a Driver whose Options name none.
const DefaultName occkit.Compute = "memory"

// Options configure a Driver. The zero value declares every RES-11
// topology under [DefaultName], after-commit activation, and no models.
type Options struct {
	// Name is the Compute kind; zero means [DefaultName].
	Name occkit.Compute
	// Topologies are the supported (Harness, Mode) pairs; nil means the
	// three pairs of the RES-11 table.
	Topologies []occkit.Topology
	// Activation is the declared activation order.
	Activation drivers.ActivationOrder
	// StopPredecessors declares exclusive replacement.
	StopPredecessors bool
	// Models is what model discovery returns.
	Models []drivers.Model
	// Now is the clock for recorded events; nil means time.Now.
	Now func() time.Time
}

// Driver is the in-memory ComputeDriver. Create it with [New].
type Driver struct {
	decl   drivers.Declaration
	models []drivers.Model
	now    func() time.Time

	mu         sync.Mutex
	namespaces map[string]drivers.Namespace
	revisions  map[key]*record
	active     map[string]string
}

type key struct{ agent, digest string }

// record is what the driver keeps of one prepared revision.
type record struct {
	rev     drivers.Revision
	plan    compile.Plan
	stopped bool
	events  []drivers.LogLine
}

// New returns an empty Driver.
func New(opts Options) *Driver {
	decl := drivers.Declaration{
		Name:             opts.Name,
		Activation:       opts.Activation,
		StopPredecessors: opts.StopPredecessors,
		Topologies:       slices.Clone(opts.Topologies),
	}
	if decl.Name == "" {
		decl.Name = DefaultName
	}
	if decl.Topologies == nil {
		decl.Topologies = []occkit.Topology{
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
			{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
		}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Driver{
		decl: decl, models: slices.Clone(opts.Models), now: now,
		namespaces: map[string]drivers.Namespace{},
		revisions:  map[key]*record{},
		active:     map[string]string{},
	}
}

// Declaration returns the driver's declaration (a copy).
func (d *Driver) Declaration() drivers.Declaration {
	out := d.decl
	out.Topologies = slices.Clone(d.decl.Topologies)
	return out
}

// EnsureNamespace records ns.
func (d *Driver) EnsureNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ns.ID == "" {
		return occkit.Invalid("DRV-1", occkit.RenderPath("namespace", "id"), "a namespace needs an ID")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.namespaces[ns.ID] = ns
	return nil
}

// DeleteNamespace forgets ns.
func (d *Driver) DeleteNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.namespaces, ns.ID)
	return nil
}

// Prepare records rev and its render plan (compile.BuildPlan, through
// admission.Revision.Plan, on loopback with the default ports) after
// checking its topology (RES-11): a revision the render stage refuses is
// refused here too, with the plan's error. Preparing a recorded revision
// again keeps its record, and re-starts it when it was stopped.
func (d *Driver) Prepare(ctx context.Context, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rev == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision to prepare")
	}
	if err := occkit.CheckTopology(d.decl.Name, d.decl.Topologies, rev.Topology()); err != nil {
		return err
	}
	plan, err := drivers.Plan[compile.Plan](rev, compile.PlanOptions{Bind: compile.BindLoopback})
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	k := key{rev.AgentID(), rev.Digest()}
	r, ok := d.revisions[k]
	if !ok {
		r = &record{rev: rev, plan: plan}
		d.revisions[k] = r
	}
	r.stopped = false
	r.event(d.now(), "prepared")
	return nil
}

// Plan returns the render plan Prepare recorded for a revision: what a
// real Compute would run, for tests that inspect it.
func (d *Driver) Plan(agentID, digest string) (compile.Plan, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.revisions[key{agentID, digest}]
	if !ok {
		return compile.Plan{}, false
	}
	return r.plan, true
}

// Retire forgets the revision; retiring an unknown one succeeds.
func (d *Driver) Retire(ctx context.Context, agentID, revisionDigest string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.revisions, key{agentID, revisionDigest})
	if d.active[agentID] == revisionDigest {
		delete(d.active, agentID)
	}
	return nil
}

// ValidateHarnessAuth validates the binding with the bundled Kubernetes
// rules, after this driver's own topology check.
func (d *Driver) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := ctx.Err(); err != nil {
		return occkit.Projection{}, err
	}
	if err := occkit.CheckTopology(d.decl.Name, d.decl.Topologies, occkit.Topology{Harness: f.Harness, Mode: f.Mode}); err != nil {
		return occkit.Projection{}, err
	}
	f.Compute = occkit.ComputeKubernetes
	return admission.ValidateHarnessAuth(f)
}

// Activate selects a prepared revision as its Agent's active one.
// Activating an unprepared revision is 409 RESOURCE_CONFLICT.
func (d *Driver) Activate(ctx context.Context, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rev == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision to activate")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.revisions[key{rev.AgentID(), rev.Digest()}]
	if !ok {
		return occkit.Conflict("ADM-6", occkit.Root(), "the revision is not prepared")
	}
	d.active[rev.AgentID()] = rev.Digest()
	r.event(d.now(), "activated")
	return nil
}

// Stop marks a prepared revision stopped, keeping its record; stopping an
// unknown revision succeeds.
func (d *Driver) Stop(ctx context.Context, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rev == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision to stop")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if r, ok := d.revisions[key{rev.AgentID(), rev.Digest()}]; ok && !r.stopped {
		r.stopped = true
		r.event(d.now(), "stopped")
	}
	return nil
}

// Diagnose reports one check: whether the revision is prepared and
// running.
func (d *Driver) Diagnose(ctx context.Context, rev drivers.Revision) (drivers.Diagnostics, error) {
	if err := ctx.Err(); err != nil {
		return drivers.Diagnostics{}, err
	}
	if rev == nil {
		return drivers.Diagnostics{}, occkit.Invalid("DRV-1", occkit.Root(), "no revision to diagnose")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	check := drivers.DiagnosticCheck{Component: "workload", Check: "running", State: drivers.DiagnosticSucceeded}
	switch r, ok := d.revisions[key{rev.AgentID(), rev.Digest()}]; {
	case !ok:
		check.State, check.Code = drivers.DiagnosticFailed, "NOT_PREPARED"
	case r.stopped:
		check.State, check.Code = drivers.DiagnosticFailed, "STOPPED"
	}
	return drivers.Diagnostics{RevisionDigest: rev.Digest(), ObservedAt: d.now(), Checks: []drivers.DiagnosticCheck{check}}, nil
}

// ReadRuntimeLogs returns the revision's most recent recorded events,
// bounded by req.Lines (at most [drivers.MaxLogLines]).
func (d *Driver) ReadRuntimeLogs(ctx context.Context, rev drivers.Revision, req drivers.LogRequest) (drivers.LogChunk, error) {
	if err := ctx.Err(); err != nil {
		return drivers.LogChunk{}, err
	}
	if rev == nil {
		return drivers.LogChunk{}, occkit.Invalid("DRV-1", occkit.Root(), "no revision to read")
	}
	n := req.Lines
	if n <= 0 {
		n = drivers.DefaultLogLines
	}
	n = min(n, drivers.MaxLogLines)
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.revisions[key{rev.AgentID(), rev.Digest()}]
	if !ok {
		return drivers.LogChunk{Lines: []drivers.LogLine{}}, nil
	}
	var lines []drivers.LogLine
	for _, l := range r.events {
		if req.Since.IsZero() || !l.Time.Before(req.Since) {
			lines = append(lines, l)
		}
	}
	truncated := len(lines) > n
	if truncated {
		lines = lines[len(lines)-n:]
	}
	return drivers.LogChunk{Lines: slices.Clone(lines), Truncated: truncated}, nil
}

// DiscoverModels returns the configured models. A query without a
// credential is 400 INVALID_REQUEST; the credential is never kept.
func (d *Driver) DiscoverModels(ctx context.Context, q drivers.ModelQuery) ([]drivers.Model, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if q.Credential == "" {
		return nil, occkit.Invalid("DRV-1", occkit.RenderPath("credential"), "model discovery needs a credential")
	}
	return slices.Clone(d.models), nil
}

// Namespaces lists the recorded namespace IDs, sorted.
func (d *Driver) Namespaces() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.namespaces))
	for id := range d.namespaces {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Prepared lists the digests of agentID's prepared revisions, sorted.
func (d *Driver) Prepared(agentID string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for k := range d.revisions {
		if k.agent == agentID {
			out = append(out, k.digest)
		}
	}
	sort.Strings(out)
	return out
}

// Revision returns a prepared revision.
func (d *Driver) Revision(agentID, digest string) (drivers.Revision, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.revisions[key{agentID, digest}]
	if !ok {
		return nil, false
	}
	return r.rev, true
}

// Active returns the digest of agentID's active revision.
func (d *Driver) Active(agentID string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	digest, ok := d.active[agentID]
	return digest, ok
}

// Stopped reports whether a prepared revision is stopped.
func (d *Driver) Stopped(agentID, digest string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.revisions[key{agentID, digest}]
	return ok && r.stopped
}

func (r *record) event(at time.Time, what string) {
	r.events = append(r.events, drivers.LogLine{Time: at, Raw: `{"event":"` + what + `"}`})
	if len(r.events) > drivers.MaxLogLines {
		r.events = r.events[len(r.events)-drivers.MaxLogLines:]
	}
}

// Interface checks: the capabilities the Driver provides.
var (
	_ drivers.ComputeDriver    = (*Driver)(nil)
	_ drivers.Activator        = (*Driver)(nil)
	_ drivers.Stopper          = (*Driver)(nil)
	_ drivers.Diagnoser        = (*Driver)(nil)
	_ drivers.RuntimeLogReader = (*Driver)(nil)
	_ drivers.ModelDiscoverer  = (*Driver)(nil)
)
