package kubernetes

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// FieldManager is the server-side apply field manager of every write.
const FieldManager = "occkit"

// Config configures a [Driver]. Only Client is required; the zero value
// of every other field is the default.
type Config struct {
	// Client is the Kubernetes API client (a real clientset, or
	// k8s.io/client-go/kubernetes/fake in tests).
	Client kubernetes.Interface
	// Tenant maps an Agent to its tenant namespace. Nil: every Agent runs
	// in Namespace.
	Tenant func(agentID string) (drivers.Namespace, error)
	// Namespace is the tenant namespace when Tenant is nil; zero is
	// {ID: DefaultNamespace, Name: DefaultNamespace}.
	Namespace drivers.Namespace
	Images    render.Images
	Storage   render.Storage
	// Sandbox is the configured SandboxDriver; when it qualifies, the
	// driver declares dedicated OpenClaw (RES-11, RES-13).
	Sandbox *render.Sandbox
	// FieldManager names the driver's server-side apply writes; empty is
	// [FieldManager].
	FieldManager string
	// Force takes over fields another field manager owns. Off by default,
	// so such a conflict is detected and returned as 409 RESOURCE_CONFLICT.
	Force bool
	// SkipDryRun applies for real at once. By default Prepare first applies
	// every object with dryRun=All, so an object the server refuses leaves
	// nothing half-written.
	SkipDryRun bool
	// PollInterval is how often a replacement checks that earlier pods are
	// gone (ADM-6); zero is 250 ms.
	PollInterval time.Duration
	// Now is the clock of diagnostics; nil is time.Now.
	Now func() time.Time
}

// Driver is the reference Kubernetes [drivers.ComputeDriver] (DRV-5). It
// also implements [drivers.Activator], [drivers.Stopper],
// [drivers.Diagnoser] and [drivers.Preflighter]. A Driver is safe for
// concurrent use.
type Driver struct {
	cfg  Config
	decl drivers.Declaration
}

var (
	_ drivers.ComputeDriver = (*Driver)(nil)
	_ drivers.Activator     = (*Driver)(nil)
	_ drivers.Stopper       = (*Driver)(nil)
	_ drivers.Diagnoser     = (*Driver)(nil)
	_ drivers.Preflighter   = (*Driver)(nil)
)

var configPath = occkit.InstallationPath("kubernetes")

// New returns a driver for cfg. A missing client or an invalid setting
// is 400 INVALID_REQUEST naming the setting.
func New(cfg Config) (*Driver, error) {
	var errs []error
	if cfg.Client == nil {
		errs = append(errs, occkit.Invalid("DRV-5", configPath.Key("client"), "a Kubernetes client is required"))
	}
	if cfg.FieldManager == "" {
		cfg.FieldManager = FieldManager
	}
	if len(cfg.FieldManager) > 128 {
		errs = append(errs, occkit.Invalid("DRV-5", configPath.Key("fieldManager"), "the field manager name is longer than 128 characters"))
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 250 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Tenant == nil {
		ns := render.Options{Namespace: cfg.Namespace}.WithDefaults().Namespace
		if len(validation.IsDNS1123Label(ns.Name)) > 0 {
			errs = append(errs, occkit.Invalid("DRV-5", configPath.Key("namespace"), "the namespace name is not a DNS-1123 label"))
		}
		cfg.Namespace = ns
	}
	if sb := cfg.Sandbox; sb != nil {
		if sb.ID == "" {
			errs = append(errs, occkit.Invalid("DRV-2", configPath.Key("sandbox").Key("id"), "the SandboxDriver name is required"))
		}
		if sb.HarnessHome != "" {
			errs = append(errs, drivers.CheckHarnessHome(configPath.Key("sandbox").Key("harnessHome"), sb.HarnessHome))
		}
		if sb.RuntimeClassName != "" && len(validation.IsDNS1123Subdomain(sb.RuntimeClassName)) > 0 {
			errs = append(errs, occkit.Invalid("DRV-2", configPath.Key("sandbox").Key("runtimeClassName"), "the runtime class name is not a DNS-1123 subdomain"))
		}
	}
	if err := occkit.Join(errs...); err != nil {
		return nil, err
	}
	// Render checks the storage settings; check them once here too.
	if err := render.CheckStorage(cfg.Storage); err != nil {
		e := *occkit.First(err)
		e.Code = occkit.CodeInvalidRequest
		return nil, &e
	}
	tops := []occkit.Topology{
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
	}
	if cfg.Sandbox != nil && drivers.QualifiedSandbox(&cfg.Sandbox.Facts) {
		tops = append(tops, occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated})
	}
	return &Driver{cfg: cfg, decl: drivers.Declaration{
		Name:           occkit.ComputeKubernetes,
		RuntimeLogging: occkit.OwnedByPlatform,
		Activation:     drivers.ActivateAfterCommit,
		Topologies:     tops,
	}}, nil
}

// NewForConfig is [New] with a clientset built from rc; cfg.Client is
// replaced.
func NewForConfig(rc *rest.Config, cfg Config) (*Driver, error) {
	if rc == nil {
		return nil, occkit.Invalid("DRV-5", configPath.Key("client"), "a REST configuration is required")
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, occkit.Invalid("DRV-5", configPath.Key("client"), "the REST configuration cannot build a client")
	}
	cfg.Client = cs
	return New(cfg)
}

// Declaration declares the Kubernetes Compute (DRV-1, RES-11): embedded
// OpenClaw and dedicated Codex always, dedicated OpenClaw only with a
// qualifying SandboxDriver; platform-owned logging; activation after
// commit. Dedicated revisions always stop their predecessors (ADM-6).
func (d *Driver) Declaration() drivers.Declaration {
	decl := d.decl
	decl.Topologies = append([]occkit.Topology(nil), d.decl.Topologies...)
	return decl
}

// ValidateHarnessAuth applies the Kubernetes harnessAuth rules
// (AUTH-1..AUTH-6) and returns the credential projection plan that
// [Render] projects.
func (d *Driver) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (_ occkit.Projection, err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return occkit.Projection{}, err
	}
	f.Compute = occkit.ComputeKubernetes
	return admission.ValidateHarnessAuth(f)
}

// tenant is the Agent's tenant namespace.
func (d *Driver) tenant(agentID string) (drivers.Namespace, error) {
	if d.cfg.Tenant == nil {
		return d.cfg.Namespace, nil
	}
	ns, err := d.cfg.Tenant(agentID)
	if err != nil {
		return drivers.Namespace{}, err
	}
	if ns.Name == "" {
		ns.Name = ns.ID
	}
	if len(validation.IsDNS1123Label(ns.Name)) > 0 {
		return drivers.Namespace{}, occkit.Conflict("DRV-5", configPath.Key("namespace"), "the Agent's tenant namespace name is not a DNS-1123 label")
	}
	return ns, nil
}

// renderOptions are the render inputs for a namespace.
func (d *Driver) renderOptions(ns drivers.Namespace) render.Options {
	return render.Options{Namespace: ns, Images: d.cfg.Images, Storage: d.cfg.Storage, Sandbox: d.cfg.Sandbox}
}

// render checks that rev can run here and renders it.
func (d *Driver) render(rev drivers.Revision, stopped bool) (render.Objects, drivers.Namespace, error) {
	if rev == nil {
		return render.Objects{}, drivers.Namespace{}, occkit.Invalid("DRV-5", occkit.Root(), "a revision is required")
	}
	if err := occkit.CheckTopology(d.decl.Name, d.decl.Topologies, rev.Topology()); err != nil {
		return render.Objects{}, drivers.Namespace{}, err
	}
	if rev.Compute() != occkit.ComputeKubernetes {
		return render.Objects{}, drivers.Namespace{}, occkit.Conflict("ADM-5", occkit.RevisionPath("compute"),
			"the revision was admitted for another Compute; redeploy")
	}
	ns, err := d.tenant(rev.AgentID())
	if err != nil {
		return render.Objects{}, drivers.Namespace{}, err
	}
	opts := d.renderOptions(ns)
	opts.Stopped = stopped
	objs, err := render.Render(rev, opts)
	return objs, ns, err
}

// Prepare renders rev and applies its objects with server-side apply
// (DRV-5). A dedicated revision first stops every earlier version of the
// Agent and waits until its pods are gone (ADM-6); an embedded one
// replaces its Deployment in place with the Recreate strategy. Unless
// SkipDryRun is set, every object is applied with dryRun=All before any
// is written. A field owned by another field manager is 409
// RESOURCE_CONFLICT (unless Force is set). Preparing the same revision
// again changes nothing.
func (d *Driver) Prepare(ctx context.Context, rev drivers.Revision) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	objs, ns, err := d.render(rev, false)
	if err != nil {
		return err
	}
	if err := d.ensureNamespace(ctx, ns); err != nil {
		return err
	}
	for _, tok := range objs.Tokens {
		if err := d.ensureToken(ctx, ns.Name, rev.AgentID(), tok); err != nil {
			return err
		}
	}
	if !d.cfg.SkipDryRun {
		if err := d.applyAll(ctx, objs, true); err != nil {
			return err
		}
	}
	if rev.Mode() == occkit.ModeDedicated {
		if err := d.stopPredecessors(ctx, ns.Name, rev); err != nil {
			return err
		}
	}
	return d.applyAll(ctx, objs, false)
}

// Activate selects a prepared revision (ADM-6): its workloads must run
// it (409 when they are missing or a newer revision replaced them, so an
// older retry never overwrites the selected version); then the
// ConfigMaps of the Agent's other revisions, which nothing runs any more,
// are deleted.
func (d *Driver) Activate(ctx context.Context, rev drivers.Revision) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	objs, ns, err := d.render(rev, false)
	if err != nil {
		return err
	}
	for _, dep := range objs.Deployments {
		live, err := d.cfg.Client.AppsV1().Deployments(ns.Name).Get(ctx, dep.Name, getOptions)
		if err != nil {
			if isNotFound(err) {
				return occkit.Conflict("ADM-6", objectPath(dep), "the revision is not prepared; prepare it before activation")
			}
			return d.apiError(ctx, err, objectPath(dep))
		}
		if live.Labels[render.LabelRevision] != render.Hash(rev.Digest()) {
			return occkit.Conflict("ADM-6", objectPath(dep), "another revision of the Agent replaced this one; it is superseded")
		}
	}
	return d.deleteOthers(ctx, ns.Name, rev.AgentID(), rev.Digest())
}

// Stop scales rev's workloads to zero replicas, keeping them and their
// data for a later start. Workloads that another revision replaced, or
// that are gone, are left alone.
func (d *Driver) Stop(ctx context.Context, rev drivers.Revision) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	objs, ns, err := d.render(rev, true)
	if err != nil {
		return err
	}
	for _, dep := range objs.Deployments {
		live, err := d.cfg.Client.AppsV1().Deployments(ns.Name).Get(ctx, dep.Name, getOptions)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return d.apiError(ctx, err, objectPath(dep))
		}
		if live.Labels[render.LabelRevision] != render.Hash(rev.Digest()) {
			continue
		}
		if err := d.apply(ctx, dep, false); err != nil {
			return err
		}
	}
	return nil
}

// Retire deletes the workloads, Services, ServiceAccounts and ConfigMaps
// that carry the revision's label; PersistentVolumeClaims (the Agent's
// durable data) are never deleted. Objects that a later revision took over
// carry its label and are untouched. Retiring what is gone succeeds.
func (d *Driver) Retire(ctx context.Context, agentID, revisionDigest string) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	ns, err := d.tenant(agentID)
	if err != nil {
		return err
	}
	sel := render.LabelManagedBy + "=" + render.ManagedBy + "," + render.LabelAgent + "=" + render.Hash(agentID) + "," + render.LabelRevision + "=" + render.Hash(revisionDigest)
	return d.deleteSelected(ctx, ns.Name, sel, true)
}

// Preflight checks that the Kubernetes API answers the driver.
func (d *Driver) Preflight(ctx context.Context) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := d.cfg.Client.CoreV1().Namespaces().List(ctx, listOne); err != nil {
		return d.apiError(ctx, err, configPath)
	}
	return nil
}

// settle makes a call's error the context's once ctx is done (a 503 that
// errors.Is context.Canceled or context.DeadlineExceeded), whatever the
// API or the driver's own mapping said: a cancelled or timed-out request
// never reads as a conflict or a refusal.
func settle(ctx context.Context, err *error) { *err = drivers.Settle(ctx, "DRV-5", *err) }
