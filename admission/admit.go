package admission

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/probe"
	"github.com/occkit/occkit/resolver"
)

// Options configure an [Admitter]. The zero value is valid and fails
// closed: without an [Authorizer] every admission is refused with 503
// DEPENDENCY_UNAVAILABLE.
type Options struct {
	// Authorizer authorizes each deployment (ADM-2). Required for any
	// admission to succeed.
	Authorizer Authorizer
	// HarnessVersions is the approved version of each Harness the
	// installation runs (ADM-3), frozen into every revision. Only
	// versions the library knows are approved ([New] refuses others with
	// a 400 listing them):
	//   - openclaw: a release whose configuration contract the library
	//     carries ([openclawschema.Releases]), or the release of the
	//     caller's own OpenClawSchema. Every topology runs the OpenClaw
	//     gateway with the admitted document, so this is the release the
	//     document is checked against and the release that runs; without
	//     an openclaw entry every Admit is refused (409 ADM-3).
	//   - codex: a Codex CLI version whose probe contract the runners are
	//     tested against ([probe.CodexVersions]); needed only by
	//     revisions whose Harness is codex (409 ADM-3 otherwise).
	HarnessVersions map[occkit.Harness]string
	// OpenClawSchema is the check of an OpenClaw release the library does
	// not carry ([openclawschema.Compile]): its Version must be the
	// approved openclaw version. nil checks the approved release's
	// carried contract ([openclawschema.ForRelease]); see also
	// DisableOpenClawSchema.
	OpenClawSchema *openclawschema.Validator
	// DisableOpenClawSchema turns the OpenClaw check off: revisions then
	// freeze no checked release ([Revision.OpenClawSchemaVersion] is "").
	// The approved versions are still checked.
	DisableOpenClawSchema bool
	// Rules are the caller's own policies, run in this order by every
	// admission after the harness-auth and gateway-settings checks
	// (package doc, "Your own rules"). New refuses a nil rule and a bad
	// or repeated name.
	Rules []Rule
	// RuleTimeout is each rule's budget; zero is [DefaultRuleTimeout].
	RuleTimeout time.Duration
}

// Admitter admits deployments. Make one with [New] and share it: it is
// immutable and safe for concurrent use.
type Admitter struct {
	authz    Authorizer
	versions map[occkit.Harness]string
	schema   *compile.Validator
	openclaw *openclawschema.Validator // nil: disabled, or no release approved
	// secrets is the credential policy of the approved OpenClaw release
	// (ADM-7, AUTH-6): its sensitive paths and environment names.
	secrets compile.SecretPolicy
	rules   []Rule
	// ruleTimeout is each rule's budget.
	ruleTimeout time.Duration
}

// configurationSchema is occkit's Configuration schema (DOC-5), compiled
// once per process, on the first New, and shared by every Admitter: a
// compile.Validator is immutable.
var configurationSchema = sync.OnceValues(compile.NewValidator)

// New prepares an Admitter from opts: it checks the approved versions
// (ADM-3), takes the Configuration schema (DOC-5, compiled once per
// process) and the approved OpenClaw release's contract (compiled once per
// process and release), and copies what it keeps, so later changes to
// opts do not affect it. A HarnessVersions key other than openclaw or
// codex, a version the library does not know, or an OpenClawSchema for
// another release than the approved one is a 400.
func New(opts Options) (*Admitter, error) {
	for h := range opts.HarnessVersions {
		if h != occkit.HarnessOpenClaw && h != occkit.HarnessCodex {
			return nil, occkit.Invalid("RES-1", occkit.InstallationPath("harnessVersions").Key(string(h)),
				"harness versions name openclaw or codex only")
		}
	}
	if v := opts.HarnessVersions[occkit.HarnessCodex]; v != "" && !slices.Contains(probe.CodexVersions(), v) {
		return nil, occkit.Invalid("ADM-3", occkit.InstallationPath("harnessVersions", string(occkit.HarnessCodex)),
			"Codex %q is not a version whose probe contract the runners are tested against; supported: %s",
			v, strings.Join(probe.CodexVersions(), ", "))
	}
	schema, err := configurationSchema()
	if err != nil {
		return nil, occkit.New(occkit.CodeDependencyUnavailable, "DOC-5", occkit.Root(), "the embedded schema does not compile")
	}
	openclaw, contract, err := openclawCheck(opts)
	if err != nil {
		return nil, err
	}
	if err := checkRules(opts.Rules); err != nil {
		return nil, err
	}
	timeout := opts.RuleTimeout
	if timeout <= 0 {
		timeout = DefaultRuleTimeout
	}
	a := &Admitter{authz: opts.Authorizer, versions: maps.Clone(opts.HarnessVersions), schema: schema, openclaw: openclaw,
		rules: slices.Clone(opts.Rules), ruleTimeout: timeout}
	// The approved release's credential policy; for a release the library
	// does not carry (the caller's own check), the newest carried
	// release's, the closest it knows.
	// Without an approved release Admit refuses every deployment (ADM-3),
	// and there are no sensitive paths to speak of.
	if contract != nil || opts.HarnessVersions[occkit.HarnessOpenClaw] != "" {
		release := openclawschema.Release()
		if contract != nil {
			release = contract.Version()
		}
		a.secrets = compile.SecretPolicyFor(release)
	}
	return a, nil
}

// openclawCheck selects the check of the approved OpenClaw release (ADM-3,
// DOC-5): the caller's own validator for that release, or the library's
// contract of it. It returns the release's carried contract, if any; a
// nil check when the check is disabled or no release is approved.
func openclawCheck(opts Options) (*openclawschema.Validator, *openclawschema.Contract, error) {
	at := occkit.InstallationPath("harnessVersions", string(occkit.HarnessOpenClaw))
	approved := opts.HarnessVersions[occkit.HarnessOpenClaw]
	if custom := opts.OpenClawSchema; custom != nil && !opts.DisableOpenClawSchema {
		if approved != custom.Version() {
			return nil, nil, occkit.Invalid("ADM-3", at,
				"Options.OpenClawSchema checks OpenClaw %q, but the approved OpenClaw version is %q: they must be the same release", custom.Version(), approved)
		}
		return custom, custom.Contract(), nil
	}
	if approved == "" {
		return nil, nil, nil
	}
	contract, err := openclawschema.ContractFor(approved)
	if err != nil {
		return nil, nil, occkit.Invalid("ADM-3", at,
			"OpenClaw %q is not a release whose configuration contract the library carries; supported: %s (or pass Options.OpenClawSchema for another release)",
			approved, strings.Join(openclawschema.Releases(), ", "))
	}
	if opts.DisableOpenClawSchema {
		return nil, contract, nil
	}
	check, err := contract.Validator()
	if err != nil {
		return nil, nil, occkit.New(occkit.CodeDependencyUnavailable, "DOC-5", occkit.Root(), "the embedded OpenClaw %s schema does not compile", approved)
	}
	return check, contract, nil
}

// SensitivePatterns are the configuration paths the approved OpenClaw
// release marks sensitive ([openclawschema.Contract.Sensitive]; the newest
// carried release's for a release the library does not carry): where a
// credential of the admitted document can be, for that release.
func (a *Admitter) SensitivePatterns() []sensitive.Pattern {
	return slices.Clone(a.secrets.Sensitive)
}

// Agent is the resource being deployed, as stored.
type Agent struct {
	ID string
	// ConfigurationID names the stored Configuration.
	ConfigurationID string
	// ExecutionMode is the stored mode; "" is embedded (RES-11).
	ExecutionMode occkit.Mode
	// HarnessAuth is the stored binding (see [CreateHarnessAuth] and
	// [UpdateHarnessAuth]); the zero Binding cannot deploy (AUTH-1).
	HarnessAuth occkit.Binding
	// NamespaceID is the Agent's tenant namespace, when the control plane
	// knows it at admission: every projected Secret (the harnessAuth
	// source, secretBindings) must live there (AUTH-2), and the revision
	// freezes it so a Compute that runs the Agent elsewhere refuses to
	// render it. "" leaves the check to the render, against the
	// Compute's namespace.
	NamespaceID string
	// Labels are the Agent's labels as the control plane stores them.
	// Admission only shows them to the caller's rules ([View.Agent]).
	Labels map[string]string
}

// Request is one deployment. Compute.Kind "" is Kubernetes.
type Request struct {
	// Principal is the caller, passed to the Authorizer.
	Principal string
	Agent     Agent
	// Tenant is the Agent's tenant, when the control plane knows it.
	// Admission only shows it to the caller's rules ([View.Tenant]).
	Tenant Tenant
	// Configuration reads the stored Configuration after authorization.
	Configuration ConfigurationReader
	Compute       ComputeInfo
	// Sandbox is the configured SandboxDriver, or nil. It is bound to (and
	// transforms the Configuration of) dedicated deployments on Kubernetes
	// only (DRV-2).
	Sandbox *SandboxInfo
	// CredentialGateway reports whether a Credential Gateway is selected.
	CredentialGateway   bool
	NativeWorkerSupport occkit.NativeWorkerSupport
	// Level is the admitted log level; "" is info (LOG-1). Parse a JSON
	// value with [logging.ParseLevel] (which refuses JSON null).
	Level occkit.LogLevel
	// Account is a managed account binding to freeze, or the zero Account.
	Account Account
	// SecretBindings are the Configuration's secretBindings: channel and
	// gateway feature credentials projected into the gateway only (AUTH-6).
	SecretBindings []occkit.SecretBinding
	// Prepared is the caller's own analysis of the Configuration for
	// Harness resolution ([Prepare]), or nil. Admit then resolves with it
	// instead of analysing the document a second time. It is checked, not
	// trusted: one prepared from any document other than the one the
	// ConfigurationReader returns is refused (409 RESOURCE_CONFLICT,
	// ADM-1), and when a SandboxDriver transforms the document Admit
	// analyses the transformed one itself.
	Prepared *Prepared
}

// Prepared is a Configuration analysed once for Harness resolution
// ([resolver.Prepare]) together with the document it was made from: the
// caller resolves with it ([Prepared.Resolve]) and hands it to
// [Admitter.Admit] in [Request.Prepared], so one deployment analyses its
// document once. A Prepared is immutable and safe for concurrent use.
type Prepared struct {
	doc occkit.Document
	res *resolver.Prepared
}

// Prepare analyses doc for Harness resolution.
func Prepare(doc occkit.Document) *Prepared {
	return &Prepared{doc: doc, res: resolver.Prepare(doc)}
}

// Resolve is [resolver.Resolve] of the prepared document.
func (p *Prepared) Resolve(req resolver.Request) (resolver.Decision, error) {
	return p.res.Resolve(req)
}

// Document is the document p was prepared from.
func (p *Prepared) Document() occkit.Document { return p.doc }

// Admit runs one admission in the order of ADM-1: authorize → read the
// Configuration → SandboxDriver transform (on a copy) → logging stamp
// (LOG-1, unless the ComputeDriver owns logging) → schema validation
// (DOC-5: occkit's schema, then the OpenClaw release's, so a revision
// admits only what that OpenClaw starts with) → Harness resolution (RES) → roster (RES-10, deploy stage) →
// harness-auth validation (AUTH) → gateway-settings check → the caller's
// rules (Options.Rules) → freeze.
//
// Harness resolution and the roster are computed before the logging stamp
// (they read nothing it edits) and their refusal is held until its turn
// in that order: the analysis is then let go before the schema walk.
//
// The first refusal ends admission and nothing is left behind: Admit has no
// side effects of its own and returns no revision. A cancelled ctx is 503
// DEPENDENCY_UNAVAILABLE.
func (a *Admitter) Admit(ctx context.Context, req Request) (_ *Revision, err error) {
	// A refusal about the Configuration is placed in the text it was
	// loaded from (file:line:col), when it carries a source map; only
	// refusals pay for it.
	var read occkit.Document
	defer func() {
		if err != nil {
			err = withoutSecretExcerpts(read.Place(err))
		}
	}()
	mode := req.Agent.ExecutionMode
	if mode == "" {
		mode = occkit.ModeEmbedded
	}
	if req.Compute.Kind == "" {
		req.Compute.Kind = occkit.ComputeKubernetes
	}
	if err := checkAgentID(req.Agent.ID); err != nil {
		return nil, err
	}
	if err := a.authorize(ctx, req.Principal, req.Agent); err != nil {
		return nil, err
	}

	if err := alive(ctx); err != nil {
		return nil, err
	}
	if req.Configuration == nil {
		return nil, occkit.Invalid("ADM-1", occkit.AgentPath("configurationId"), "the deployment names no Configuration")
	}
	doc, gen, err := req.Configuration.ReadConfiguration(ctx, req.Agent.ConfigurationID)
	if err != nil {
		return nil, mapDependency("ADM-1", "the Configuration could not be read", drivers.Settle(ctx, "ADM-1", err))
	}
	read = doc
	source := drivers.SourceIdentity{ID: req.Agent.ConfigurationID, Generation: gen}
	// The caller's analysis serves only the document it was made from (the
	// same bytes compare in constant time, others in one memcmp).
	// Once resolution has used it, nothing holds the analysis (its index
	// is as large as the catalog), so the rest of admission does not keep
	// it alive.
	prepared := req.Prepared
	req.Prepared = nil
	if prepared != nil && !prepared.doc.Equal(doc) {
		return nil, occkit.Conflict("ADM-1", occkit.RenderPath("prepared"),
			"the prepared resolution was made from another document than Configuration %s generation %d", source.ID, gen)
	}

	sandbox := boundSandbox(req, mode)
	if sandbox != nil {
		if t, ok := drivers.AsSandbox[drivers.ConfigurationTransformer](sandbox.Driver); ok {
			if err := alive(ctx); err != nil {
				return nil, err
			}
			out, err := t.TransformConfiguration(ctx, doc)
			if err != nil {
				if c := alive(ctx); c != nil {
					return nil, c
				}
				return nil, mapRefusal("ADM-1", occkit.Root(), "the SandboxDriver refused the Configuration", err)
			}
			if !out.Equal(doc) {
				prepared = nil
			}
			doc = out
		}
	}

	owner, err := logging.ParseOwnership(string(req.Compute.RuntimeLogging))
	if err != nil {
		return nil, err
	}
	level := req.Level
	if level == "" {
		level = occkit.LevelInfo
	}
	if _, err := logging.ParseLevelString(string(level)); err != nil {
		return nil, err
	}
	// Resolution's refusals come after the schema's (ADM-1), but it runs
	// here, before the canonical form is made: what it decides is copied
	// out (detach) and its analysis, as large as the catalog, is let go
	// before the schema walk, the deepest point of admission's heap
	// (performance, issue 29). A refusal waits its turn in resErr.
	inst := occkit.Installation{NativeWorkerSupport: req.NativeWorkerSupport}
	if req.Sandbox != nil {
		facts := req.Sandbox.Facts
		facts.Facets = append([]occkit.Facet(nil), facts.Facets...)
		inst.Sandbox = &facts
	}
	var res *resolver.Prepared
	if prepared != nil {
		res = prepared.res
	}
	dec, resErr := a.resolve(res, doc, mode, inst, req.Compute)
	// The document the runtime gets is the stamped one (LOG-1), and the
	// revision freezes its canonical form. That form is written in one
	// pass with the stamp's edits made on the way (logging.StampCanonical);
	// the stamped document in its source order is made only for what
	// reads it: a refusal to explain, a driver's or a rule's look.
	unstamped := doc
	var canonical occkit.Document
	if owner == occkit.OwnedByPlatform {
		canonical, err = logging.StampCanonical(doc, level, owner)
	} else {
		canonical = occkit.CanonicalDocument(doc)
	}
	if err != nil {
		return nil, err
	}
	var made *occkit.Document
	stamped := func() occkit.Document {
		if made == nil {
			s := unstamped
			if owner == occkit.OwnedByPlatform {
				// StampCanonical took these edits, so Stamp does too.
				if out, err := logging.Stamp(unstamped, level, owner); err == nil {
					s = out
				}
			}
			made = &s
		}
		return *made
	}

	// Every topology runs the OpenClaw gateway with this document: without
	// an approved release there is nothing to check it against and no
	// release to run (ADM-3).
	if err := a.checkVersion(occkit.HarnessOpenClaw); err != nil {
		return nil, err
	}
	// ADM-7: no credential bytes are validated further, frozen or
	// digested; refused before anything else reads the document. Nothing
	// below edits the document, so its canonical form (what the revision
	// freezes; the same members and values) is scanned once, here, and
	// the scan serves the render plan's checks too.
	scan := compile.ScanSecrets(canonical, a.secrets)
	if err := scan.CheckLiterals(); err != nil {
		return nil, err
	}
	// The schemas are checked on the canonical form: the same value as
	// the stamped document, whose members only stand in another order,
	// which no schema rule reads (TestValidityIgnoresMemberOrder). A
	// refusal is the stamped document's own, as the runtime would see it
	// (its first issues in document order, where there are many).
	// A document both accept, most, is read once for the two; else each
	// check, alone, gives its verdict and refusal.
	if a.openclaw == nil || !a.schema.ValidBeside(canonical, a.openclaw) {
		if err := validate(a.schema.Validate, canonical, stamped); err != nil {
			return nil, err
		}
		if a.openclaw != nil {
			if err := validate(a.openclaw.Validate, canonical, stamped); err != nil {
				return nil, err
			}
		}
	}
	if resErr != nil {
		return nil, resErr
	}

	if err := alive(ctx); err != nil {
		return nil, err
	}
	facts := drivers.AuthFacts{
		Compute: req.Compute.Kind, Topologies: req.Compute.Topologies,
		Harness: dec.harness, Mode: dec.mode, Binding: req.Agent.HarnessAuth,
		CredentialGateway: req.CredentialGateway, Sandbox: inst.Sandbox,
		NativeWorkerSupport: req.NativeWorkerSupport, Model: dec.primary, AgentID: req.Agent.ID,
		Namespace: req.Agent.NamespaceID, ModelPath: dec.primaryAt,
	}
	proj, err := validateAuth(ctx, req.Compute, facts)
	if err != nil {
		return nil, err
	}

	if req.Compute.Driver != nil {
		if err := drivers.CheckGatewaySettings(ctx, req.Compute.Driver, stamped(), occkit.Topology{Harness: dec.harness, Mode: dec.mode}); err != nil {
			return nil, err
		}
	}

	if err := a.checkVersion(dec.harness); err != nil {
		return nil, err
	}

	r := &Revision{
		agentID:        req.Agent.ID,
		source:         source,
		harness:        drivers.HarnessIdentity{ID: dec.harness, Version: a.versions[dec.harness]},
		mode:           dec.mode,
		compute:        ComputeIdentity{Kind: req.Compute.Kind, ID: req.Compute.ID},
		account:        req.Account,
		auth:           req.Agent.HarnessAuth,
		projection:     ownProjection(proj),
		primary:        dec.primary,
		fallbacks:      dec.fallbacks,
		level:          level,
		ownership:      owner,
		reasons:        dec.reasons,
		namespace:      req.Agent.NamespaceID,
		secretBindings: append([]occkit.SecretBinding(nil), req.SecretBindings...),
	}
	if a.openclaw != nil {
		r.openclawSchema = a.openclaw.Version()
	}
	if sandbox != nil {
		r.sandboxDriverID = sandbox.ID
	}
	// The caller's own rules (Options.Rules): after every check of
	// occkit's, before the freeze, over what admission decided.
	if err := a.runRules(ctx, r, stamped, req); err != nil {
		return nil, err
	}
	r.freezeCanonical(canonical, scan)
	r.warnings = placedWarnings(read, append(dec.warnings, renderOverrides(unstamped, req.Compute.Kind, owner, level)...))
	// The render stage, with the Compute-independent defaults: whatever
	// it refuses, admission refuses, so an admitted revision renders
	// unless the Compute's own facts (namespace, placement) differ.
	plan, err := compile.PreparePlan(r.planInput(), compile.PlanOptions{})
	if err != nil {
		return nil, err
	}
	r.plan = plan
	return r, nil
}

// resolved is what admission keeps of Harness resolution: the decision
// detached from the analysis that made it, the warnings of the model
// check and where the primary model is written.
type resolved struct {
	harness occkit.Harness
	mode    occkit.Mode
	detached
	warnings  []*occkit.Error
	primaryAt occkit.Path
}

// resolve is Harness resolution (RES), the model check and the roster
// (RES-10, deploy stage) of doc, with res its analysis, or nil to make
// one.
func (a *Admitter) resolve(res *resolver.Prepared, doc occkit.Document, mode occkit.Mode, inst occkit.Installation, compute ComputeInfo) (resolved, error) {
	// The stamp edits only logging and diagnostics, which resolution and
	// the roster rules never read, so an analysis of the document as read
	// (or as transformed) holds for the stamped one
	// (TestStampKeepsResolution checks it).
	if res == nil {
		res = resolver.Prepare(doc)
	}
	dec, err := res.Resolve(resolver.Request{
		Mode: mode, Compute: compute.Kind, Installation: inst,
		Topologies: append([]occkit.Topology(nil), compute.Topologies...),
	})
	if err != nil {
		return resolved{}, err
	}
	// The selected models against the approved release's catalog: a
	// provider typo is refused here, before any Compute rule; the rest
	// are warnings.
	warnings, primaryAt, err := checkModelsAt(res, a.catalogRelease(), dec.Primary)
	if err != nil {
		return resolved{}, err
	}
	if err := res.CheckRoster(resolver.RosterRequest{
		Stage: resolver.StageDeploy, Compute: compute.Kind, Harness: dec.Harness, Mode: dec.Mode,
	}); err != nil {
		return resolved{}, err
	}
	return resolved{harness: dec.Harness, mode: dec.Mode, detached: detach(dec), warnings: warnings, primaryAt: primaryAt}, nil
}

// validate is check of the canonical form, and when that refuses, check's
// refusal of the stamped document (see Admit).
func validate(check func(occkit.Document) error, canonical occkit.Document, stamped func() occkit.Document) error {
	if check(canonical) == nil {
		return nil
	}
	return check(stamped())
}

// catalogRelease is the OpenClaw release whose built-in model catalog the
// selected models are held against: the approved one (without one, Admit
// refuses before it asks, ADM-3).
func (a *Admitter) catalogRelease() string {
	return a.versions[occkit.HarnessOpenClaw]
}

// placedWarnings orders warnings as [occkit.Errors] orders refusals (by
// path, then rule), without duplicates, each placed in the text the
// document was loaded from when it carries a source map.
func placedWarnings(read occkit.Document, ws []*occkit.Error) []*occkit.Error {
	if len(ws) == 0 {
		return nil
	}
	errs := make([]error, len(ws))
	for i, w := range ws {
		errs[i] = read.Place(w)
	}
	return occkit.Errors(errs...)
}

// boundSandbox is the SandboxDriver a deployment uses: DRV-2 binds one to
// dedicated execution on the bundled Kubernetes Compute only.
func boundSandbox(req Request, mode occkit.Mode) *SandboxInfo {
	if req.Sandbox == nil || mode != occkit.ModeDedicated || req.Compute.Kind != occkit.ComputeKubernetes {
		return nil
	}
	return req.Sandbox
}

// ownProjection is the revision's projection p, which validateAuth made
// for this admission (ValidateHarnessAuth builds its lists; validateWith
// returns a clone of the driver's), so it is not copied a second time: it
// is kept as [occkit.Projection.Clone] keeps it, an empty list nil.
func ownProjection(p occkit.Projection) occkit.Projection {
	if len(p.Gateway) == 0 {
		p.Gateway = nil
	}
	if len(p.Harness) == 0 {
		p.Harness = nil
	}
	return p
}

// validateAuth runs the Compute's harness-auth validation: the driver's
// validator when it has one, the built-in rules for a bundled kind
// without a driver, else 503 (AUTH-7).
func validateAuth(ctx context.Context, c ComputeInfo, f drivers.AuthFacts) (occkit.Projection, error) {
	if c.Driver != nil {
		return validateWith(ctx, c.Driver, f)
	}
	if c.Kind.Bundled() {
		return ValidateHarnessAuth(f)
	}
	return validateWith(ctx, nil, f)
}

func (a *Admitter) authorize(ctx context.Context, principal string, ag Agent) error {
	if err := alive(ctx); err != nil {
		return err
	}
	if a.authz == nil {
		return occkit.New(occkit.CodeDependencyUnavailable, "ADM-2", occkit.Root(), "no Authorizer is configured")
	}
	err := a.authz.Authorize(ctx, AuthorizeRequest{
		Principal: principal, AgentID: ag.ID,
		Configuration: drivers.SourceIdentity{ID: ag.ConfigurationID},
		HarnessAuth:   ag.HarnessAuth,
	})
	if err == nil {
		return nil
	}
	// A timeout is no denial: once ctx is done, whatever the Authorizer
	// said (ctx.Err() itself, a wrapped one, a refusal) is the context's.
	if c := drivers.Cancellation(ctx, "ADM-2"); c != nil {
		return c
	}
	var oe *occkit.Error
	if errors.As(err, &oe) && oe.Code == occkit.CodeDependencyUnavailable {
		return oe
	}
	return occkit.Wrap(err, occkit.CodeForbidden, "ADM-2", occkit.Root(), "the deployment is not authorized")
}

// mapDependency keeps a structured refusal and reports any other failure
// as 503 without repeating its text.
func mapDependency(rule, what string, err error) error {
	var oe *occkit.Error
	if errors.As(err, &oe) {
		return oe
	}
	return occkit.Wrap(err, occkit.CodeDependencyUnavailable, rule, occkit.Root(), "%s", what)
}

// withoutSecretExcerpts drops the source line from the position of every
// refusal of a literal credential (ADM-7): the line holds the credential,
// and no view of a refusal, %+v and Snippet included, may show it
// whatever masking a position applies. File, line and column stay.
func withoutSecretExcerpts(err error) error {
	list := occkit.Errors(err)
	changed := false
	for i, e := range list {
		if e.Rule == compile.RuleSecretBytes && e.Position.Text != "" {
			c := *e
			c.Position.Text, c.Position.TextColumn = "", 0
			list[i], changed = &c, true
		}
	}
	if !changed {
		return err
	}
	errs := make([]error, len(list))
	for i, e := range list {
		errs[i] = e
	}
	return occkit.Join(errs...)
}

// alive refuses once ctx is done: 503 with the context's error as cause.
func alive(ctx context.Context) error { return drivers.Cancellation(ctx, "ADM-1") }

// maxAgentIDLen bounds the Agent ID a revision freezes.
const maxAgentIDLen = 256

// checkAgentID refuses an Agent ID that could not be shown or matched
// safely once frozen (ADM-3): empty, untrimmed, longer than
// maxAgentIDLen bytes, invalid UTF-8, or holding control or format (bidi)
// characters. The request is malformed, so this comes before any work.
func checkAgentID(id string) error {
	if id == "" || strings.TrimSpace(id) != id || len(id) > maxAgentIDLen || !utf8.ValidString(id) {
		return occkit.Invalid("ADM-3", occkit.AgentPath("id"), "the Agent ID must be a non-empty, trimmed UTF-8 string of at most %d bytes", maxAgentIDLen)
	}
	for _, r := range id {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return occkit.Invalid("ADM-3", occkit.AgentPath("id"), "the Agent ID must not contain control or formatting characters")
		}
	}
	return nil
}
