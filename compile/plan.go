package compile

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/envpolicy"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
	"github.com/occkit/occkit/logging"
)

// Program is the executable a planned process runs.
type Program string

// Programs.
const (
	ProgramOpenClaw Program = "openclaw"
	ProgramCodex    Program = "codex"
)

// FileRole names a file a process reads, independent of where a Compute
// puts it.
type FileRole string

// File roles.
const (
	// FileNativeDocument is the OpenClaw process's native document; the
	// Compute points [File.PathEnv] (OPENCLAW_CONFIG_PATH) at it.
	FileNativeDocument FileRole = "native-document"
	// FileCodexConfig is the Codex app-server's config.toml; the Compute
	// points [File.DirEnv] (CODEX_HOME) at the directory that holds it.
	FileCodexConfig FileRole = "codex-config"
)

// AllFileRoles lists every [FileRole].
func AllFileRoles() []FileRole { return []FileRole{FileNativeDocument, FileCodexConfig} }

// Env is one environment variable of a planned process. Exactly one of
// Value (a literal, never a credential), Secret (an OCC Secret or managed
// ServiceAccount token the Compute projects by reference), GatewayToken
// (the Agent's gateway auth token, which the Compute owns: Kubernetes a
// per-Agent Secret, SSH the per-Agent environment file; it has no
// namespace or ID of its own), AppServerToken (the Agent's Codex
// app-server token, which the Compute owns the same way) or Placeholder (a
// fixed stand-in the Sandbox egress proxy replaces, AUTH-3) applies.
//
// It is [occkit.EnvVar] (a model-auth variable of the projection plan)
// widened to every variable a process receives: logging settings,
// secretBindings and the gateway token as well.
type Env struct {
	Name           string
	Value          string
	Secret         occkit.SourceRef
	GatewayToken   bool
	AppServerToken bool
	Placeholder    bool
}

// File is a file a planned process reads, named by role.
type File struct {
	Role FileRole
	// Name is the file's base name ("openclaw.json", "config.toml").
	Name string
	// Data is the caller's own: no Document nor other plan shares it.
	Data []byte
	// PathEnv, when set, is the variable the Compute sets to the file's
	// path; DirEnv the variable it sets to the file's directory.
	PathEnv, DirEnv string
}

// Readiness is how a Compute tells a planned process is ready.
type Readiness struct {
	// HTTPPath is an HTTP GET path on [ProcessPlan.Port] that answers 200
	// when ready (the gateway's /readyz); empty when not HTTP.
	HTTPPath string
	// TCP: the process is ready once [ProcessPlan.Port] accepts connections.
	TCP bool
}

// ProcessPlan is one planned process of a revision: what a Compute starts.
// Its Role is the vocabulary's [occkit.Process] (only the role, hence the
// two names); an embedded topology has one process, of role
// [occkit.ProcessGateway], that is also the Harness (its Inference is set).
type ProcessPlan struct {
	Role    occkit.Process
	Program Program
	// Args follow the program name.
	Args []string
	// Env are the variables to set, in order; Unset those to remove.
	Env   []Env
	Unset []string
	Files []File
	// Port is where the process listens; 0 for none.
	Port      int
	Readiness Readiness
	// Inference: the process calls the model and is the only one that may
	// hold the inference credential.
	Inference bool
	// StdinLogin: the Harness logs in by reading its key on stdin.
	StdinLogin bool
	// EgressProxy: the Sandbox egress proxy inserts the key (AUTH-3).
	EgressProxy bool
	// HostCredentials: the host supplies the model credentials outside
	// version immutability (AUTH-5).
	HostCredentials bool
	// StderrOnly: collectors read stderr only; stdout is protocol.
	StderrOnly bool
	// Version is the approved release the process runs (ADM-3): the
	// OpenClaw release for [ProgramOpenClaw] (on a Codex revision, the
	// release the gateway document was validated against), the Codex CLI
	// version for [ProgramCodex]; "" when the revision froze none. A
	// Compute runs exactly this release (a Kubernetes image tag).
	Version string
	// StateEnv names the variable the Compute sets to a writable directory
	// of the process's own, apart from its read-only [File]s:
	// OPENCLAW_STATE_DIR for OpenClaw (without it OpenClaw writes media,
	// config backups and plugin install roots beside OPENCLAW_CONFIG_PATH),
	// CODEX_HOME for Codex (its state database, sessions and login; the
	// planned config.toml is the one read-only file in it).
	StateEnv string
	// StopGrace is how long, in seconds, the program's own stop policy may
	// take after SIGTERM before it exits ([GatewayStopGrace] for the
	// gateway); 0 when it has none. A Compute waits at least this long
	// before it kills the process.
	StopGrace int
	// Plugins are the plugins the process's document configures that its
	// release does not bundle ([RequiredPlugins]). OpenClaw installs them
	// from the npm registry at start (a fetch, about 75 s each without a
	// registry); it trusts a plugin only when it was installed from its
	// official npm package (a plugin loaded from plugins.load.paths is
	// refused its trusted APIs), so a Compute provides them as such an
	// install in the state directory before the process starts.
	Plugins []Plugin
	// TokenFile, when set, is the absolute path where the Compute must
	// put the Agent's app-server token (the bytes [Env].AppServerToken
	// names) before the process starts: the dedicated Codex app-server
	// reads it to authenticate WebSocket clients ([PlanOptions].AppServerTokenFile).
	TokenFile string
}

// Lookup returns the named variable of p.
func (p ProcessPlan) Lookup(name string) (Env, bool) {
	for _, e := range p.Env {
		if e.Name == name {
			return e, true
		}
	}
	return Env{}, false
}

// File returns p's file of the given role.
func (p ProcessPlan) File(r FileRole) (File, bool) {
	for _, f := range p.Files {
		if f.Role == r {
			return f, true
		}
	}
	return File{}, false
}

// Plan is every process one revision runs on one Compute.
type Plan struct {
	Harness   occkit.Harness
	Mode      occkit.Mode
	Processes []ProcessPlan
}

// Process returns the planned process of role r.
func (p Plan) Process(r occkit.Process) (ProcessPlan, bool) {
	for _, x := range p.Processes {
		if x.Role == r {
			return x, true
		}
	}
	return ProcessPlan{}, false
}

// PlanInput is an admitted revision as the render stage sees it, as plain
// values: package compile never imports admission
// (admission.Revision.Plan builds it).
type PlanInput struct {
	Document occkit.Document
	Harness  occkit.Harness
	Mode     occkit.Mode
	Compute  occkit.Compute
	Level    occkit.LogLevel
	// DriverLogging: the ComputeDriver owns native logging (LOG-3); the
	// logging stamp is not required.
	DriverLogging bool
	// Credentials is the harnessAuth projection plan (AUTH-2): the
	// variables of the Harness process (for embedded OpenClaw, the
	// combined process) and of a dedicated gateway.
	Credentials occkit.Projection
	// SecretBindings are the Configuration's secretBindings: variables
	// the gateway process, and no other, receives from an OCC Secret
	// (AUTH-6). Each must name a variable the gateway's document
	// references ([CheckSecretBindings]).
	SecretBindings []occkit.SecretBinding
	// Namespace is the Agent's tenant namespace, when admission knew it.
	Namespace string
	// HarnessVersion is the approved version of the decided Harness
	// (ADM-3); OpenClawRelease the OpenClaw release the document was
	// validated against (the gateway's release on a Codex revision): its
	// sensitive paths and environment policy apply ([SecretPolicyFor]).
	// Either may be "" when the revision froze none ("" is the pinned
	// release's policy).
	HarnessVersion  string
	OpenClawRelease string
	// Secrets is, optionally, Document's [ScanSecrets] under that
	// release's policy, which admission made: the plan reads it instead
	// of walking the document again. A scan of other bytes or under
	// another policy is ignored.
	Secrets *SecretScan
}

// PlanOptions are the Compute's placement facts. The zero value plans for
// one host on loopback with the default ports.
type PlanOptions struct {
	// Bind is gateway.bind: "loopback" or "lan". "" is "lan" on
	// Kubernetes (the Service reaches the pod) and "loopback" elsewhere.
	Bind string
	// GatewayPort is the gateway's port; 0 is [DefaultGatewayPort].
	GatewayPort int
	// GatewayHost is where a dedicated OpenClaw Harness reaches the
	// gateway; "" is 127.0.0.1. The node host dials it over plaintext
	// ws://: a host that is not loopback must be on a private network the
	// Compute controls (a Kubernetes Service in the tenant namespace), and
	// the plan then sets [EnvAllowPrivateWS] on the node host.
	GatewayHost string
	// AppServerHost and AppServerPort are where a dedicated Codex
	// gateway reaches its app-server; "" is 127.0.0.1, 0
	// [DefaultAppServerPort].
	AppServerHost string
	AppServerPort int
	// AppServerListen is the address the app-server listens on; "" is
	// 127.0.0.1 ("0.0.0.0" in a pod).
	AppServerListen string
	// AppServerTokenFile is the absolute path where the Compute gives the
	// app-server the Agent's app-server token. Codex refuses to listen
	// beyond loopback without WebSocket authentication, and the gateway's
	// codex plugin refuses a remote app-server URL without a token: when
	// AppServerListen is not loopback the plan requires it, runs the
	// app-server with capability-token authentication reading this file,
	// and gives the gateway the same token as [EnvAppServerToken].
	AppServerTokenFile string
	// Namespace is the tenant namespace the Compute runs the Agent in;
	// every projected Secret must live there (AUTH-2).
	Namespace string
}

// Defaults of [PlanOptions].
const (
	DefaultGatewayPort   = 18789
	DefaultAppServerPort = 4500
)

// Gateway bind modes the plan writes (gateway.bind).
const (
	BindLoopback = "loopback"
	BindLAN      = "lan"
)

// Variable names the plan sets.
const (
	// EnvGatewayToken feeds gateway.auth.token: the native document holds
	// only "${OPENCLAW_GATEWAY_TOKEN}", never the token.
	EnvGatewayToken = "OPENCLAW_GATEWAY_TOKEN"
	// EnvConfigPath points an OpenClaw process at its native document.
	EnvConfigPath = logging.EnvConfigPath
	// EnvCodexHome is the Codex app-server's home (its config.toml).
	EnvCodexHome = "CODEX_HOME"
	// EnvStateDir is an OpenClaw process's writable state directory.
	EnvStateDir = "OPENCLAW_STATE_DIR"
	// EnvAllowPrivateWS is OpenClaw's documented private-network setting
	// ("1"): it lets a client dial plaintext ws:// to a host name on a
	// trusted private network, which it otherwise refuses (SECURITY ERROR).
	EnvAllowPrivateWS = "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"
	// EnvAppServerToken feeds the codex plugin's appServer.authToken on a
	// dedicated Codex gateway whose app-server is not on loopback: the
	// native document holds only "${OPENCLAW_CODEX_APP_SERVER_TOKEN}".
	EnvAppServerToken = "OPENCLAW_CODEX_APP_SERVER_TOKEN"
)

// GatewayStopGrace is the OpenClaw gateway's own stop policy, in seconds:
// after SIGTERM it drains active work for up to 315 s, keeps a 10 s
// shutdown reserve and a 5 s supervisor exit margin (openclaw
// gateway-shutdown-budget.mjs, GATEWAY_SERVICE_STOP_TIMEOUT_MS, logged as
// "shutdown budget … policy=330000ms").
const GatewayStopGrace = 330

// ReadinessPath is the gateway's readiness endpoint (DRV-6).
const ReadinessPath = "/readyz"

// Native file names.
const (
	NativeDocumentName = "openclaw.json"
	CodexConfigName    = "config.toml"
)

// envName is an environment variable name the plan and the Codex config
// accept.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// validEnvName reports whether s matches [envName], matched by hand
// (every plan checks each variable it projects).
func validEnvName(s string) bool {
	if len(s) == 0 || len(s) > 128 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '_' {
			return false
		}
	}
	return true
}

// reservedEnv are variables a secretBinding may not set: the plan's own,
// the logging render's, and the process basics.
var reservedEnv = map[string]bool{
	"HOME": true, "PATH": true, "TMPDIR": true, "USER": true, "SHELL": true,
	"NODE_OPTIONS": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true,
	EnvCodexHome: true, logging.EnvLogFormat: true, logging.EnvRustLog: true,
}

// BuildPlan is the render stage (CMP-4, AUTH-2, AUTH-6, LOG-4): it plans
// every process of an admitted revision. See the package doc, "Render
// plan", for what each process receives and why. Refusals: a topology
// outside RES-11 or a malformed document is 400; a logging stamp that is
// not intact is 409 (LOG-2); a Secret outside the tenant namespace or an
// inference credential planned for a dedicated gateway is 409 (AUTH-2,
// AUTH-6); a secretBinding that would shadow a planned variable is 400.
func BuildPlan(in PlanInput, opts PlanOptions) (Plan, error) {
	return buildPlan(in, opts, false, nil)
}

// CheckPlan returns the refusal [BuildPlan] returns for in and opts, or
// nil, without rendering the plan: the gateway section is checked but not
// written, and no document is copied into a [File]. It is what admission
// runs to refuse what cannot render (a plan costs a copy or two of the
// document; the check, a lookup of the gateway section for the common
// topologies).
func CheckPlan(in PlanInput, opts PlanOptions) error {
	_, err := buildPlan(in, opts, true, nil)
	return err
}

// PreparedPlan is what [PreparePlan] read of one input to check its plan,
// kept to build that input's plans without reading its document again:
// the logging level stamped in it, its credential scan, the gateway's and
// the Harness's documents, the variables they reference and define, the
// plugins a Compute provides and the edits that trust them. It is never
// written after PreparePlan returns, so any number of goroutines may call
// [PreparedPlan.Plan]; each plan it builds is the caller's own.
type PreparedPlan struct {
	// in is the input, its Level the stamped level.
	in      PlanInput
	secrets SecretPolicy
	scan    *SecretScan
	// opts are the placement PreparePlan checked (with their defaults):
	// credentials and secretBindings passed under its tenant namespace.
	opts PlanOptions
	gw   *gatewayWork
	// hw is the dedicated Harness's work; nil for an embedded topology.
	hw *harnessWork
	// work holds gw, made with the PreparedPlan.
	work gatewayWork
}

// PreparePlan is [CheckPlan] that keeps what it read of in's document:
// the refusal CheckPlan returns, or the [PreparedPlan] whose
// [PreparedPlan.Plan] builds in's plans. Admission keeps one with each
// revision it admits, so a render plans without reading the document
// again.
func PreparePlan(in PlanInput, opts PlanOptions) (*PreparedPlan, error) {
	k := &PreparedPlan{}
	if _, err := buildPlan(in, opts, true, k); err != nil {
		return nil, err
	}
	return k, nil
}

// Plan is [BuildPlan] of the prepared input and opts, the same plan and
// the same refusal, from the work PreparePlan kept: what reads the
// placement (the gateway section, the Codex app-server, the environment
// and the credential checks under another tenant namespace) is done
// again, what reads only the document is not. The plan is the caller's
// own: writing it changes neither k nor the next plan.
func (k *PreparedPlan) Plan(opts PlanOptions) (Plan, error) {
	opts = opts.withDefaults(k.in.Compute)
	// The placement PreparePlan checked passes again: the check reads
	// every option but the tenant namespace (which a render names where
	// admission most often named none; the credential checks below read
	// it).
	placed := opts
	placed.Namespace = k.opts.Namespace
	if placed != k.opts {
		if err := opts.check(); err != nil {
			return Plan{}, err
		}
	}
	b := planner{in: k.in, opts: opts, secrets: k.secrets, scan: k.scan, kept: k}
	if !k.sameTenant(opts) {
		// The checks PreparePlan passed that read the tenant namespace,
		// in buildPlan's order (the document's own passed).
		if err := checkCredentials(k.in, opts); err != nil {
			return Plan{}, err
		}
		if err := b.checkBindings(k.gw); err != nil {
			return Plan{}, err
		}
	}
	return b.plan()
}

// sameTenant reports whether opts leave [checkCredentials] and
// [CheckSecretBindings] the answer they gave PreparePlan: opts conflict
// with no admitted namespace, and name the same tenant namespace.
func (k *PreparedPlan) sameTenant(opts PlanOptions) bool {
	conflict := k.in.Namespace != "" && opts.Namespace != "" && opts.Namespace != k.in.Namespace
	return !conflict && namespaceOf(k.in, opts) == namespaceOf(k.in, k.opts)
}

// buildPlan is BuildPlan; check makes it CheckPlan, and keep, when not
// nil, receives what it read of the document (PreparePlan).
func buildPlan(in PlanInput, opts PlanOptions, check bool, keep *PreparedPlan) (Plan, error) {
	if err := checkTopology(in.Harness, in.Mode); err != nil {
		return Plan{}, err
	}
	opts = opts.withDefaults(in.Compute)
	if err := opts.check(); err != nil {
		return Plan{}, err
	}
	if !in.DriverLogging {
		level, err := logging.CheckStamp(in.Document)
		if err != nil {
			return Plan{}, err
		}
		if in.Level != "" && level != in.Level {
			return Plan{}, occkit.Conflict("LOG-2", occkit.NewPath("logging", "level"),
				"the document's logging level is not the admitted level: the revision cannot be rendered; redeploy")
		}
		in.Level = level
	} else if in.Level == "" {
		in.Level = occkit.LevelInfo
	}
	sp := SecretPolicyFor(in.OpenClawRelease)
	scan := in.Secrets.scanOf(in.Document, sp)
	if err := scan.CheckLiterals(); err != nil {
		return Plan{}, err
	}
	if err := checkCredentials(in, opts); err != nil {
		return Plan{}, err
	}
	if keep != nil {
		keep.in, keep.secrets, keep.scan, keep.opts = in, sp, scan, opts
	}
	b := planner{in: in, opts: opts, check: check, secrets: sp, scan: scan, keep: keep}
	return b.plan()
}

func (o PlanOptions) withDefaults(c occkit.Compute) PlanOptions {
	if o.Bind == "" {
		o.Bind = BindLoopback
		if c == occkit.ComputeKubernetes || c == "" {
			o.Bind = BindLAN
		}
	}
	if o.GatewayPort == 0 {
		o.GatewayPort = DefaultGatewayPort
	}
	if o.GatewayHost == "" {
		o.GatewayHost = "127.0.0.1"
	}
	if o.AppServerHost == "" {
		o.AppServerHost = "127.0.0.1"
	}
	if o.AppServerPort == 0 {
		o.AppServerPort = DefaultAppServerPort
	}
	if o.AppServerListen == "" {
		o.AppServerListen = "127.0.0.1"
	}
	return o
}

// validHost reports whether s is a host name or address a placement may
// name: ^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$ or a bracketed IPv6 address
// ^\[[0-9a-fA-F:]+\]$, matched by hand (every plan checks three).
func validHost(s string) bool {
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		for i := 1; i < len(s)-1; i++ {
			if c := s[i]; !isHexDigit(c) && c != ':' {
				return false
			}
		}
		return true
	}
	if len(s) == 0 || len(s) > 253 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !hostBytes[s[i]] {
			return false
		}
	}
	return true
}

// hostBytes are the bytes of a host name after its first: letters,
// digits, '.' and '-' (a look-up a byte, where three ranges and two bytes
// are a branch each: every plan checks three hosts).
var hostBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlnum(byte(c)) || c == '.' || c == '-'
	}
	return t
}()

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (o PlanOptions) check() error {
	at := occkit.RenderPath("placement")
	var errs []error
	if o.Bind != BindLoopback && o.Bind != BindLAN {
		errs = append(errs, occkit.Conflict("CMP-4", at.Key("bind"), "the gateway bind must be loopback or lan"))
	}
	for _, p := range []struct {
		k string
		v int
	}{{"gatewayPort", o.GatewayPort}, {"appServerPort", o.AppServerPort}} {
		if p.v < 1 || p.v > 65535 {
			errs = append(errs, occkit.Conflict("CMP-4", at.Key(p.k), "%s must be 1-65535", p.k))
		}
	}
	for _, h := range []struct{ k, v string }{
		{"gatewayHost", o.GatewayHost}, {"appServerHost", o.AppServerHost}, {"appServerListen", o.AppServerListen},
	} {
		if !validHost(h.v) {
			errs = append(errs, occkit.Conflict("CMP-4", at.Key(h.k), "%s must be a host name or address", h.k))
		}
	}
	if f := o.AppServerTokenFile; f != "" && (!strings.HasPrefix(f, "/") || path.Clean(f) != f) {
		errs = append(errs, occkit.Conflict("CMP-4", at.Key("appServerTokenFile"), "appServerTokenFile must be an absolute normalized path"))
	}
	if len(errs) == 0 {
		// Join of no errors is nil, but sorts the empty list first.
		return nil
	}
	return occkit.Join(errs...)
}

// checkCredentials is the one place the credential references of a plan
// are checked (AUTH-2, AUTH-6): names, kinds, the tenant namespace, and
// that a dedicated gateway gets no inference credential.
func checkCredentials(in PlanInput, o PlanOptions) error {
	ns := o.Namespace
	if in.Namespace != "" {
		if ns != "" && ns != in.Namespace {
			return occkit.Conflict("AUTH-2", occkit.RenderPath("namespace"),
				"the revision was admitted for tenant namespace %s, not this Compute's %s; redeploy", in.Namespace, ns)
		}
		ns = in.Namespace
	}
	// check checks the variable at (a path made only for a refusal).
	check := func(e occkit.EnvVar, at func() occkit.Path) error {
		if !validEnvName(e.Name) {
			return occkit.Conflict("AUTH-2", at(), "the projection plan names an invalid environment variable")
		}
		if e.From.IsZero() {
			return nil
		}
		if e.Placeholder || e.Value != "" {
			return occkit.Conflict("AUTH-2", at(), "a projected variable is either a Secret reference, a placeholder or a literal")
		}
		// A projected credential is the harnessAuth source: refusals
		// point at the setting the author can change.
		return CheckSourceRef(e.From, ns, harnessSourcePath)
	}
	for i, e := range in.Credentials.Harness {
		if err := check(e, func() occkit.Path { return projectionHarnessPath.Index(i) }); err != nil {
			return err
		}
	}
	for i, e := range in.Credentials.Gateway {
		at := func() occkit.Path { return projectionGatewayPath.Index(i) }
		if in.Mode == occkit.ModeEmbedded {
			return occkit.Conflict("AUTH-2", at(), "an embedded topology has one process: the projection plan must not name a separate gateway")
		}
		if !e.From.IsZero() || e.Placeholder {
			return occkit.Conflict("AUTH-6", at(), "a dedicated gateway never receives the Harness inference credential")
		}
		if err := check(e, at); err != nil {
			return err
		}
	}
	return nil
}

var (
	harnessSourcePath     = occkit.AgentPath("harnessAuth", "source")
	projectionHarnessPath = occkit.RevisionPath("projection", "harness")
	projectionGatewayPath = occkit.RevisionPath("projection", "gateway")
)

// namespaceOf is the tenant namespace a plan's Secrets must live in: the
// revision's, else the Compute's ("" when neither is known).
func namespaceOf(in PlanInput, o PlanOptions) string {
	if in.Namespace != "" {
		return in.Namespace
	}
	return o.Namespace
}

// CheckSourceRef checks one projected reference: a known kind, an ID, and
// (when ns is known) the tenant namespace (AUTH-2: a pod reads Secrets of
// its own namespace only). Refusals name the accepted namespace.
func CheckSourceRef(r occkit.SourceRef, ns string, at occkit.Path) error {
	switch r.Kind {
	case occkit.SourceSecret, occkit.SourceServiceAccount:
	default:
		return occkit.Invalid("AUTH-4a", at.Key("kind"), "a credential source kind must be secret or service_account")
	}
	if strings.TrimSpace(r.ID) == "" || strings.TrimSpace(r.NamespaceID) == "" {
		return occkit.Invalid("AUTH-4a", at, "a credential source needs a namespaceId and an id")
	}
	if ns != "" && r.NamespaceID != ns {
		return occkit.Conflict("AUTH-2", at.Key("namespaceId"),
			"the credential must live in the Agent's tenant namespace %s", ns)
	}
	return nil
}

// CheckSecretBindings checks Configuration secretBindings (AUTH-6), the
// same on every Compute. Each binding names a valid variable once, and a
// name that is:
//
//   - not set by the render (its own variables, OPENCLAW_*, the logging
//     render's, a variable the Harness plan already projects);
//   - not one that makes the gateway, or a program it starts, load code
//     or change whom it trusts or talks through ([envpolicy.Policy.Refused]:
//     OpenClaw's own host and workspace environment policies and occkit's
//     families: LD_*, DYLD_*, NODE_*, PYTHON*, BASH_ENV, proxies, CA files,
//     …, compared without regard to case);
//   - on a dedicated topology, not a model inference credential of the
//     release ([envpolicy.Policy.Inference], from OpenClaw's provider
//     environment table);
//   - referenced by the gateway's document (referenced reports it: as
//     ${NAME}, the $NAME shorthand or an env SecretRef's id): the render
//     binds what the document asks for and nothing else.
//
// Each reads an OCC Secret in the tenant namespace ns (when known) and
// never the Harness credential's Secret on a dedicated topology.
// Refusals are 400 INVALID_REQUEST, rule AUTH-6, at secretBindings[i]
// (409 AUTH-2 for a Secret outside the namespace).
func CheckSecretBindings(bs []occkit.SecretBinding, mode occkit.Mode, cred occkit.Projection, ns string,
	pol *envpolicy.Policy, referenced func(name string) bool) error {
	if len(bs) == 0 {
		return nil
	}
	root := occkit.NewPath("secretBindings")
	seen := map[string]bool{}
	harness := map[occkit.SourceRef]bool{}
	planned := map[string]bool{}
	for _, e := range cred.Harness {
		if !e.From.IsZero() {
			harness[e.From] = true
		}
		if mode == occkit.ModeEmbedded {
			planned[e.Name] = true
		}
	}
	var errs []error
	for i, b := range bs {
		at := root.Index(i)
		name := b.Env
		refusal, refused := pol.Refused(name)
		switch {
		case !validEnvName(name):
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"), "a secretBinding env must be an environment variable name"))
			continue
		case seen[name]:
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"), "secretBindings name %s twice", name))
			continue
		case reservedEnv[name] || strings.HasPrefix(strings.ToUpper(name), "OPENCLAW_") || planned[name]:
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"),
				"%s is set by the render; a secretBinding may not set it", name))
			continue
		case refused && refusal.Ground == envpolicy.GroundCode:
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"),
				"%s can make the gateway or a program it starts load or run code (%s): a secretBinding may not set it", name, refusal.List))
			continue
		case refused:
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"),
				"%s changes whom the gateway trusts or talks through (%s): a secretBinding may not set it", name, refusal.List))
			continue
		case mode == occkit.ModeDedicated && pol.Inference(name):
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"),
				"a dedicated gateway never receives the model inference variable %s (OpenClaw %s provider credentials); bind channel and gateway feature credentials only", name, pol.Release()))
			continue
		case referenced != nil && !referenced(name):
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("env"),
				"the gateway's document does not reference %s: a secretBinding supplies a variable the document references as ${%s}, $%s or a SecretRef {source: \"env\", id: \"%s\"}", name, name, name, name))
			continue
		}
		seen[name] = true
		if b.Source.Kind != occkit.SourceSecret {
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("source").Key("kind"), "a secretBinding reads an OCC Secret (kind secret)"))
			continue
		}
		if err := CheckSourceRef(b.Source, ns, at.Key("source")); err != nil {
			errs = append(errs, err)
			continue
		}
		if harness[b.Source] && mode == occkit.ModeDedicated {
			errs = append(errs, occkit.Invalid("AUTH-6", at.Key("source"),
				"a secretBinding may not project the Harness inference credential into the gateway"))
		}
	}
	return occkit.Join(errs...)
}

// inferenceEnv are the model inference variables of the pinned release
// (AUTH-2, AUTH-6): OpenClaw's provider credential table
// ([envpolicy.Policy.InferenceNames]). The render strips them from a
// dedicated gateway's env.vars.
var inferenceEnv = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range envpolicy.Pinned().InferenceNames() {
		m[n] = true
	}
	return m
}()

// InferenceEnv lists the model inference variable names the plan never
// gives a dedicated gateway, sorted: those of the pinned OpenClaw
// release's provider credential table (package envpolicy, which also
// matches the numbered <BASE>_API_KEY_* rotation keys).
func InferenceEnv() []string { return envpolicy.Pinned().InferenceNames() }

// processBasics are variables every Compute gives every process: a
// reference to them needs no binding.
var processBasics = []string{"HOME", "PATH"}

// maxUnbound bounds the unbound variables one refusal lists.
const maxUnbound = 16

// checkBound refuses every variable doc references (refs) that process p
// does not receive (DOC-4: OpenClaw would run without the setting that
// uses it, a channel that never becomes ready or a provider without its
// key). A
// variable is bound when the plan sets it in p's environment (a
// secretBinding, the gateway token, the Harness plan, a logging setting,
// a file's path variable), when doc's env.vars defines it ([DefinedEnv]),
// when every Compute sets it ([processBasics]), or, for a process whose
// host supplies the model credentials (AUTH-5), when it is an inference
// variable. Refusals are 400 at the first reference of each variable,
// naming it and the variables p has (names only). defined is doc's
// [DefinedEnv].
func (b *planner) checkBound(doc occkit.Document, refs []envRef, defined []string, p ProcessPlan) error {
	if len(refs) == 0 {
		return nil
	}
	bound := map[string]bool{}
	for _, n := range processBasics {
		bound[n] = true
	}
	for _, e := range p.Env {
		bound[e.Name] = true
	}
	for _, f := range p.Files {
		for _, n := range []string{f.PathEnv, f.DirEnv} {
			if n != "" {
				bound[n] = true
			}
		}
	}
	for _, n := range defined {
		bound[n] = true
	}
	first := map[string]envRef{}
	var missing []string
	for _, r := range refs {
		if bound[r.name] || p.HostCredentials && b.secrets.Env.Inference(r.name) {
			continue
		}
		if _, ok := first[r.name]; !ok {
			first[r.name] = r
			missing = append(missing, r.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(bound))
	for n := range bound {
		names = append(names, n)
	}
	sort.Strings(names)
	have := strings.Join(names, ", ")
	var errs []error
	for i, n := range missing {
		if i == maxUnbound {
			errs = append(errs, occkit.Invalid("DOC-4", occkit.Root(),
				"%d more variables the document references are bound for the %s process by nothing", len(missing)-maxUnbound, p.Role))
			break
		}
		errs = append(errs, occkit.Invalid("DOC-4", first[n].path(doc),
			"${%s} is unset in the %s process: add a secretBinding %s or define it in env.vars; bound: %s",
			n, p.Role, n, have))
	}
	return occkit.Join(errs...)
}

// gatewayRefs are the variables the gateway's document references, but
// for those under gateway.auth, which the plan replaces with its own.
func (b *planner) gatewayRefs(doc occkit.Document) []envRef {
	refs := b.refs(doc)
	if len(refs) == 0 {
		return nil
	}
	auth := docjson.Get(doc, gatewayAuthPath)
	var out []envRef
	for _, r := range refs {
		switch {
		case r.off >= 0 && auth.Exists() && r.off >= auth.Index && r.off < auth.Index+len(auth.Raw):
		case r.off < 0 && hasPrefix(r.at, gatewayAuthPath):
		default:
			out = append(out, r)
		}
	}
	return out
}

// planner plans one input under one placement. Its methods take it by
// pointer (but enablePlugins, which tests call on a value): it holds the
// whole input and placement, which each call by value would copy.
type planner struct {
	in   PlanInput
	opts PlanOptions
	// check: decide every refusal, render nothing (CheckPlan).
	check bool
	// secrets is the release's credential policy, and scan the input
	// document's scan under it.
	secrets SecretPolicy
	scan    *SecretScan
	// keep, when set, receives the work that reads the document
	// (PreparePlan); kept, when set, holds it already (PreparedPlan.Plan):
	// the planner reads it and never writes it.
	keep, kept *PreparedPlan
}

// refs are the variables doc references ([documentRefs]): the input
// document's are scanned already.
func (b *planner) refs(doc occkit.Document) []envRef {
	return b.scan.scanOf(doc, b.secrets).refs
}

// file is a File holding doc, or one without data when b only checks.
func (b *planner) file(role FileRole, name string, doc occkit.Document) File {
	f := File{Role: role, Name: name, PathEnv: EnvConfigPath}
	if !b.check {
		f.Data = doc.Bytes()
	}
	return f
}

// ownedFile is file of a document whose bytes the plan made and nothing
// else holds (see [planner.applyOwned]): the File takes them without a
// copy. The caller drops doc at once, so the File's owner may write its
// Data without touching any Document anyone reads.
func (b *planner) ownedFile(role FileRole, name string, doc occkit.Document, owned bool) File {
	if !owned || b.check {
		return b.file(role, name, doc)
	}
	s := doc.String()
	return File{Role: role, Name: name, PathEnv: EnvConfigPath, Data: unsafe.Slice(unsafe.StringData(s), len(s))}
}

// plan is the plan of every process; none when b only checks (the
// refusals are decided all the same).
func (b *planner) plan() (Plan, error) {
	gw, err := b.gateway()
	if err != nil {
		return Plan{}, err
	}
	if b.in.Mode != occkit.ModeDedicated {
		if b.check {
			return Plan{}, nil
		}
		return Plan{Harness: b.in.Harness, Mode: b.in.Mode, Processes: gw}, nil
	}
	h, err := b.harness()
	if err != nil || b.check {
		return Plan{}, err
	}
	return Plan{Harness: b.in.Harness, Mode: b.in.Mode, Processes: []ProcessPlan{gw[0], h}}, nil
}

func (b *planner) logging(role occkit.Process) (logging.Rendered, error) {
	return logging.Render(b.in.Harness, b.in.Mode, role, b.in.Level)
}

// envOf is the logging render's variables as literals, with room for
// more.
func envOf(lr logging.Rendered, more int) []Env {
	out := make([]Env, 0, len(lr.Env)+more)
	for _, e := range lr.Env {
		out = append(out, Env{Name: e.Name, Value: e.Value})
	}
	return out
}

// appendProjected appends the projection plan's variables as process
// variables.
func appendProjected(out []Env, vs []occkit.EnvVar) []Env {
	for _, v := range vs {
		out = append(out, Env{Name: v.Name, Value: v.Value, Secret: v.From, Placeholder: v.Placeholder})
	}
	return out
}

// gatewayWork is the gateway's plan as far as it reads the document and
// not the placement: worked out once by a [PreparedPlan], read by each
// plan it builds.
type gatewayWork struct {
	// doc is the gateway's document before the gateway section
	// ([GatewayDocument]); refs the variables it references, but for
	// those under gateway.auth, and referenced their names; defined the
	// variables it defines ([DefinedEnv]), read only when it references
	// some (nil when refs is empty).
	doc occkit.Document
	// section: doc has a gateway section (an object), sectionValue.
	section      bool
	sectionValue gjson.Result
	refs         []envRef
	referenced   map[string]bool
	defined      []string
	// plugins are the plugins a Compute provides ([RequiredPlugins]) and
	// enable the edits that trust them ([planner.enablePlugins]), on an
	// OpenClaw revision; a Codex gateway's read the placed document.
	// sharedPlugins: plugins is the scan's ([SecretScan.requiredPlugins]),
	// which a plan copies.
	plugins       []Plugin
	sharedPlugins bool
	enable        []occkit.Edit
	// logging is the gateway's logging render, which reads the input and
	// not the placement, and loggingErr its refusal: [planner.gateway]
	// returns it where it rendered it, after the native document's.
	logging    logging.Rendered
	loggingErr error
}

// gatewayWork is the gateway's work: kept, or worked out (and kept when
// b keeps it). Its refusals come in BuildPlan's order, the
// secretBindings' (which read the tenant namespace) among them.
func (b *planner) gatewayWork() (*gatewayWork, error) {
	if b.kept != nil {
		return b.kept.gw, nil
	}
	doc, err := GatewayDocument(b.in.Document, b.in.Harness, b.in.Mode)
	if err != nil {
		return nil, err
	}
	// Kept, it is held in the PreparedPlan: no allocation of its own.
	var w *gatewayWork
	if b.keep != nil {
		w = &b.keep.work
	} else {
		w = new(gatewayWork)
	}
	w.doc, w.refs = doc, b.gatewayRefs(doc)
	if len(w.refs) > 0 {
		w.referenced = make(map[string]bool, len(w.refs))
		for _, r := range w.refs {
			w.referenced[r.name] = true
		}
	}
	if err := b.checkBindings(w); err != nil {
		return nil, err
	}
	section := b.scan.rootMember(doc, rootGateway)
	if section.Exists() && !section.IsObject() {
		return nil, occkit.Invalid("CMP-4", gatewayPath, "gateway must be an object")
	}
	w.section, w.sectionValue = section.Exists(), section
	if b.in.Harness != occkit.HarnessCodex {
		if doc.Equal(b.scan.doc) {
			// The gateway section is all the gateway's document adds to
			// the scanned one, and RequiredPlugins does not read it.
			w.plugins, w.sharedPlugins = b.scan.requiredPlugins(b.openClawRelease()), true
		} else {
			w.plugins = RequiredPlugins(doc, b.openClawRelease())
		}
		if w.enable, err = b.enablePlugins(doc, w.plugins, !b.check || b.keep != nil); err != nil {
			return nil, err
		}
	}
	if len(w.refs) > 0 {
		// The variables it defines are read only to bind what it
		// references ([planner.checkBound]).
		w.defined = DefinedEnv(doc, b.secrets)
	}
	w.logging, w.loggingErr = b.logging(occkit.ProcessGateway)
	if b.keep != nil {
		b.keep.gw = w
	}
	return w, nil
}

// checkBindings checks the secretBindings against the gateway's
// document ([CheckSecretBindings]).
func (b *planner) checkBindings(w *gatewayWork) error {
	return CheckSecretBindings(b.in.SecretBindings, b.in.Mode, b.in.Credentials, namespaceOf(b.in, b.opts),
		b.secrets.Env, func(n string) bool { return w.referenced[n] })
}

// gateway is the gateway's plan, the one process of a list made with its
// other lists ([gatewayLists]); none when b only checks.
func (b *planner) gateway() ([]ProcessPlan, error) {
	w, err := b.gatewayWork()
	if err != nil {
		return nil, err
	}
	doc, plugins := w.doc, w.plugins
	// sets are the gateway section's edits, enable the plugins' trust.
	sets, enable := b.gatewaySection(w.section), []occkit.Edit(nil)
	if b.in.Harness == occkit.HarnessCodex {
		// The gateway settings and the app-server's in one pass over the
		// document, then the plugins the result configures.
		server, err := b.appServer(doc)
		if err != nil {
			return nil, err
		}
		if doc, err = b.apply(doc, joinEdits(sets, server)); err != nil {
			return nil, err
		}
		plugins = RequiredPlugins(doc, b.openClawRelease())
		sets = nil
		if enable, err = b.enablePlugins(doc, plugins, !b.check); err != nil {
			return nil, err
		}
	} else if !b.check {
		// The gateway settings and the plugins' trust are written in
		// one pass over the document: none is inside another.
		enable = w.enable
		if b.kept != nil || w.sharedPlugins {
			plugins = slices.Clone(plugins)
		}
	}
	var native File
	if data, ok := b.withSection(doc, w.sectionValue, sets, enable); ok {
		native = File{Role: FileNativeDocument, Name: NativeDocumentName, PathEnv: EnvConfigPath, Data: data}
	} else {
		doc, owned, err := b.applyOwned(doc, joinEdits(sets, enable))
		if err != nil {
			return nil, err
		}
		native = b.ownedFile(FileNativeDocument, NativeDocumentName, doc, owned)
	}
	lr := w.logging
	if w.loggingErr != nil {
		return nil, w.loggingErr
	}
	if b.check && len(w.refs) == 0 {
		// What follows refuses only a variable the document references
		// that the process is not given (checkBound).
		return nil, nil
	}
	appServerAuth := b.appServerAuth()
	more := 1 + len(b.in.SecretBindings) + len(b.in.Credentials.Gateway)
	if appServerAuth {
		more++
	}
	if b.in.Mode == occkit.ModeEmbedded {
		more += len(b.in.Credentials.Harness)
	}
	env := envOf(lr, more)
	env = append(env, Env{Name: EnvGatewayToken, GatewayToken: true})
	if appServerAuth {
		env = append(env, Env{Name: EnvAppServerToken, AppServerToken: true})
	}
	for _, sb := range b.in.SecretBindings {
		env = append(env, Env{Name: sb.Env, Secret: sb.Source})
	}
	// The lists of a length fixed by the logging render, in one
	// allocation.
	lists := &gatewayLists{args: [4]string{"gateway", "run", "--port", portText(b.opts.GatewayPort)}, files: [1]File{native}}
	p := &lists.process[0]
	*p = ProcessPlan{
		Role: occkit.ProcessGateway, Program: ProgramOpenClaw,
		Args:      lists.args[:],
		Unset:     lists.unsetOf(lr.Unset),
		Files:     lists.files[:],
		Port:      b.opts.GatewayPort,
		Readiness: Readiness{HTTPPath: ReadinessPath},
		Version:   b.openClawRelease(), StateEnv: EnvStateDir, StopGrace: GatewayStopGrace, Plugins: plugins,
	}
	if b.in.Mode == occkit.ModeEmbedded {
		// AUTH-2: the combined gateway/Harness gets the Harness plan.
		p.Inference = true
		env = appendProjected(env, b.in.Credentials.Harness)
		p.HostCredentials = b.in.Credentials.HostManaged
	} else {
		env = appendProjected(env, b.in.Credentials.Gateway)
	}
	p.Env = env
	if err := b.checkBound(w.doc, w.refs, w.defined, *p); err != nil {
		return nil, err
	}
	return lists.process[:], nil
}

// gatewayLists are a gateway plan's Args, Files and (when the logging
// render removes one variable) Unset, and the list of the one process of
// an embedded plan (its Processes; a dedicated plan copies it into a list
// with the Harness's), made in one block: each is a list of its own (no
// two share an element), so writing one writes no other.
type gatewayLists struct {
	args    [4]string
	unset   [1]string
	files   [1]File
	process [1]ProcessPlan
}

// unsetOf is a copy of unset: nil when it is empty, as append makes it.
func (l *gatewayLists) unsetOf(unset []string) []string {
	if len(unset) != len(l.unset) {
		return append([]string(nil), unset...)
	}
	copy(l.unset[:], unset)
	return l.unset[:]
}

// defaultGatewayPortText is [DefaultGatewayPort] in decimal.
const defaultGatewayPortText = "18789"

// portText is port in decimal, [strconv.Itoa].
func portText(port int) string {
	if port == DefaultGatewayPort {
		return defaultGatewayPortText
	}
	return strconv.Itoa(port)
}

// harnessWork is the dedicated Harness's plan as far as it reads the
// document: the Codex config.toml, or the OpenClaw node host's document,
// the variables it references and those it defines (read only when it
// references some, as the gateway's).
type harnessWork struct {
	toml    []byte
	doc     occkit.Document
	refs    []envRef
	defined []string
}

// harnessWork is the dedicated Harness's work: kept, or worked out (and
// kept when b keeps it).
func (b *planner) harnessWork() (*harnessWork, error) {
	if b.kept != nil {
		return b.kept.hw, nil
	}
	w := &harnessWork{}
	if b.in.Harness == occkit.HarnessCodex {
		toml, err := RenderCodexConfig(b.in.Document, CodexOptions{})
		if err != nil {
			return nil, err
		}
		w.toml = toml
	} else {
		doc, err := HarnessDocument(b.in.Document, b.in.Harness, b.in.Mode)
		if err != nil {
			return nil, err
		}
		w.doc, w.refs = doc, b.refs(doc)
		if len(w.refs) > 0 {
			// As the gateway's: read only to bind what it references.
			w.defined = DefinedEnv(doc, b.secrets)
		}
	}
	if b.keep != nil {
		b.keep.hw = w
	}
	return w, nil
}

func (b *planner) harness() (ProcessPlan, error) {
	lr, err := b.logging(occkit.ProcessHarness)
	if err != nil {
		return ProcessPlan{}, err
	}
	w, err := b.harnessWork()
	if err != nil {
		return ProcessPlan{}, err
	}
	cred := b.in.Credentials
	p := ProcessPlan{
		Role: occkit.ProcessHarness, Inference: true,
		Unset:      append([]string(nil), lr.Unset...),
		StdinLogin: cred.StdinLogin, EgressProxy: cred.EgressProxy, HostCredentials: cred.HostManaged,
		StderrOnly: lr.StderrOnly,
	}
	env := envOf(lr, 2+len(cred.Harness))
	if b.in.Harness == occkit.HarnessCodex {
		p.Program, p.Version, p.StateEnv = ProgramCodex, b.in.HarnessVersion, EnvCodexHome
		p.Args = append(append(append([]string(nil), lr.Args...), "app-server", "--listen"),
			"ws://"+b.opts.AppServerListen+":"+strconv.Itoa(b.opts.AppServerPort))
		if b.appServerAuth() {
			// Codex refuses a listener beyond loopback without WebSocket
			// authentication; its gateway presents the same token
			// (appServer.authToken, EnvAppServerToken).
			if b.opts.AppServerTokenFile == "" {
				return ProcessPlan{}, occkit.Conflict("CMP-4", occkit.RenderPath("placement", "appServerTokenFile"),
					"an app-server listening beyond loopback needs a token file the Compute provides")
			}
			p.TokenFile = b.opts.AppServerTokenFile
			p.Args = append(p.Args, "--ws-auth", "capability-token", "--ws-token-file", p.TokenFile)
		}
		toml := w.toml
		if b.kept != nil {
			toml = slices.Clone(toml)
		}
		p.Files = []File{{Role: FileCodexConfig, Name: CodexConfigName, Data: toml, DirEnv: EnvCodexHome}}
		p.Port = b.opts.AppServerPort
		p.Readiness = Readiness{TCP: true}
		p.Env = appendProjected(env, cred.Harness)
		return p, nil
	}
	p.Program, p.Version, p.StateEnv = ProgramOpenClaw, b.openClawRelease(), EnvStateDir
	p.Args = []string{"node", "run", "--host", b.opts.GatewayHost, "--port", strconv.Itoa(b.opts.GatewayPort)}
	p.Files = []File{b.file(FileNativeDocument, NativeDocumentName, w.doc)}
	if !loopbackHost(b.opts.GatewayHost) {
		// The plan dials the gateway over plaintext ws:// (it renders
		// no TLS); a host that is not loopback is on the Compute's
		// private network (PlanOptions.GatewayHost), which OpenClaw
		// accepts only with its documented private-network setting.
		env = append(env, Env{Name: EnvAllowPrivateWS, Value: "1"})
	}
	// The node host authenticates to its own gateway with the gateway
	// token (OpenClaw reads OPENCLAW_GATEWAY_TOKEN); without it the
	// gateway refuses the node and it exits for a restart. The token is
	// the Agent's gateway credential, not an inference credential
	// (AUTH-6 is about the latter).
	env = append(env, Env{Name: EnvGatewayToken, GatewayToken: true})
	p.Env = appendProjected(env, cred.Harness)
	if err := b.checkBound(w.doc, w.refs, w.defined, p); err != nil {
		return ProcessPlan{}, err
	}
	return p, nil
}

// openClawRelease is the OpenClaw release the revision's OpenClaw
// processes run: the Harness version of an OpenClaw revision, else the
// release its document was validated against.
func (b *planner) openClawRelease() string {
	if b.in.Harness == occkit.HarnessOpenClaw && b.in.HarnessVersion != "" {
		return b.in.HarnessVersion
	}
	return b.in.OpenClawRelease
}

// loopbackHost reports whether h names this host: localhost, 127.0.0.0/8
// or ::1.
func loopbackHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "[::1]" || h == "::1"
}

var (
	gatewayPath            = occkit.NewPath("gateway")
	gatewayAuthPath        = gatewayPath.Key("auth")
	appServerPath          = occkit.NewPath("plugins", "entries", "codex", "config", "appServer")
	appServerURLPath       = appServerPath.Key("url")
	appServerTransportPath = appServerPath.Key("transport")
	appServerAuthPath      = appServerPath.Key("authToken")
)

// apply is doc with edits made (doc itself when there are none).
func (b *planner) apply(doc occkit.Document, edits []occkit.Edit) (occkit.Document, error) {
	if len(edits) == 0 {
		return doc, nil
	}
	return doc.Apply(edits...)
}

// applyOwned is apply, and reports whether the result's bytes are the
// plan's own: the edits changed doc, so Apply built new bytes (a
// Document's bytes are never written after construction; every edit
// that changes one builds new ones), which hold none of doc's.
func (b *planner) applyOwned(doc occkit.Document, edits []occkit.Edit) (occkit.Document, bool, error) {
	out, err := b.apply(doc, edits)
	if err != nil || len(edits) == 0 {
		return out, false, err
	}
	return out, !overlap(out.String(), doc.String()), nil
}

// withSection is the native document of an OpenClaw gateway whose
// edits are the gateway section's (sets) and, when doc has no plugins
// member, the trust of each plugin the Compute provides (enable): the
// bytes Apply writes of the edits sets then enable
// (TestGatewayDocumentIsSet holds them to occkit's Set), without what
// Apply does for edits in general (a tree of the edits, a check of each
// value, a walk of the root members), into a buffer Go does not zero
// first. Apply writes doc's root members as they are; a gateway section
// doc has keeps its members in place, with mode, bind and auth set where
// they are and added after the others when absent ([sectionHits]); a
// section or a plugins member doc lacks comes after the root's members,
// in the edits' order. The bytes are the plan's own, like
// [planner.applyOwned]'s. sec is doc's gateway member, not Exists when
// it has none. ok is false for any other edits, or when b only checks.
func (b *planner) withSection(doc occkit.Document, sec gjson.Result, sets, enable []occkit.Edit) (_ []byte, ok bool) {
	if b.check || b.in.Harness == occkit.HarnessCodex {
		return nil, false
	}
	src, set, section := doc.String(), 1, sec.Exists()
	if section {
		set = 3
	}
	if len(sets) != set || len(src) < 2 || src[0] != '{' || src[len(src)-1] != '}' {
		return nil, false
	}
	for _, e := range sets {
		if section && (e.Path.Len() != 2 || !e.Path.Parent().Equal(gatewayPath)) || !section && !e.Path.Equal(gatewayPath) {
			return nil, false
		}
	}
	const gatewayKey, pluginsKey, enabled = `"gateway":`, `"plugins":{"entries":{`, `":{"enabled":true}`
	n := len(src) + 1 + len(gatewayKey)
	for _, e := range sets {
		n += len(e.Raw) + 10 // ,"mode":
	}
	if len(enable) > 0 {
		if b.scan.rootMember(doc, rootPlugins).Exists() {
			return nil, false
		}
		n += 1 + len(pluginsKey) + 2
		for i, e := range enable {
			id, _, _ := e.Path.Elem(e.Path.Len() - 2)
			if e.Path.Len() != 4 || !e.Path.Parent().Parent().Equal(pluginEntriesPath) || string(e.Raw) != "true" || !plainPluginID(id) {
				return nil, false
			}
			for _, f := range enable[:i] {
				if f.Path.Equal(e.Path) {
					return nil, false
				}
			}
			n += 2 + len(id) + len(enabled)
		}
	}
	var hits [3]sectionHit
	if section {
		if !sec.IsObject() || !sectionHits(sec.Raw, sets, &hits) {
			return nil, false
		}
	}
	var out strings.Builder
	out.Grow(n)
	if section {
		out.WriteString(src[:sec.Index])
		writeSection(&out, sec.Raw, sets, &hits)
		out.WriteString(src[sec.Index+len(sec.Raw) : len(src)-1])
	} else {
		out.WriteString(src[:len(src)-1])
		if len(src) > 2 {
			out.WriteByte(',')
		}
		out.WriteString(gatewayKey)
		out.Write(sets[0].Raw)
	}
	if len(enable) > 0 {
		out.WriteByte(',')
		out.WriteString(pluginsKey)
		for i, e := range enable {
			if i > 0 {
				out.WriteByte(',')
			}
			id, _, _ := e.Path.Elem(e.Path.Len() - 2)
			out.WriteByte('"')
			out.WriteString(id)
			out.WriteString(enabled)
		}
		out.WriteString("}}")
	}
	out.WriteByte('}')
	s := out.String()
	return unsafe.Slice(unsafe.StringData(s), len(s)), true
}

// sectionHit is where the member an edit of the gateway section names
// is in the section: its key from start, its value from value to end;
// end is 0 when the section has no such member.
type sectionHit struct{ start, value, end int }

// sectionHits finds in the compact gateway section sec the member each
// edit of sets names (the section's own keys). ok is false when a key is
// escaped or named twice: Apply is then left to read it.
func sectionHits(sec string, sets []occkit.Edit, hits *[3]sectionHit) bool {
	if len(sets) != len(hits) {
		return false
	}
	ok := true
	end := jsonwalk.Members(sec, 0, func(key string, escaped bool, at int) int {
		if escaped {
			ok = false
			return -1
		}
		end := jsonwalk.Skip(sec, at)
		for i, e := range sets {
			if name, _, _ := e.Path.Elem(1); key[1:len(key)-1] == name {
				if hits[i].end != 0 || at < len(key)+1 || sec[at-1] != ':' {
					ok = false
					return -1
				}
				hits[i] = sectionHit{start: at - len(key) - 1, value: at, end: end}
			}
		}
		return end
	})
	return ok && end == len(sec)
}

// writeSection writes the gateway section sec with sets made as Apply
// makes them: '{', the runs of members no edit names and each named
// member (its key as written, the edit's value) in the section's order,
// one comma apart, then the absent members in the edits' order, '}'.
func writeSection(out *strings.Builder, sec string, sets []occkit.Edit, hits *[3]sectionHit) {
	out.WriteByte('{')
	first := true
	member := func(s ...string) {
		if !first {
			out.WriteByte(',')
		}
		first = false
		for _, s := range s {
			out.WriteString(s)
		}
	}
	// run writes the members of sec[from:to] that no edit names.
	run := func(from, to int) {
		if from < to && sec[from] == ',' {
			from++
		}
		if from < to && sec[to-1] == ',' {
			to--
		}
		if from < to {
			member(sec[from:to])
		}
	}
	at := 1
	for {
		next := -1
		for i, h := range hits {
			if h.end != 0 && h.start >= at && (next < 0 || h.start < hits[next].start) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		h := hits[next]
		run(at, h.start)
		member(sec[h.start:h.value])
		out.Write(sets[next].Raw)
		at = h.end
	}
	run(at, len(sec)-1)
	for i, h := range hits {
		if h.end == 0 {
			name, _, _ := sets[i].Path.Elem(1)
			member(`"`, name, `":`)
			out.Write(sets[i].Raw)
		}
	}
	out.WriteByte('}')
}

// plainPluginID reports whether id is written as an object key between
// quotes as it is, and read back as the same key: a-z, 0-9, '-', '_' and
// '.', not all digits, not starting with '-'.
func plainPluginID(id string) bool {
	digits := true
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z', c == '_', c == '.', c == '-' && i > 0:
			digits = false
		default:
			return false
		}
	}
	return id != "" && !digits
}

// overlap reports whether a and b share any byte of memory.
func overlap(a, b string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}

// gatewaySection is the edits that write the control plane's gateway
// settings: mode local, the Compute's bind, and token
// auth whose token is a variable reference fed from a Secret, never a
// literal. Any auth the author wrote is replaced: who may reach the
// gateway is the control plane's decision. A document without a gateway
// section (section false) gets it whole, in one edit that writes the
// bytes the three would. None when b only checks (setting three members
// of an object, or of a new one, to constants cannot fail;
// [planner.gatewayWork] refuses a gateway that is not an object). The
// edits are shared by every plan: the caller reads them and never
// writes them (their capacity is their length, so an append copies).
func (b *planner) gatewaySection(section bool) []occkit.Edit {
	if b.check {
		return nil
	}
	// PlanOptions.check admits no bind but these two.
	lan := b.opts.Bind != BindLoopback
	switch {
	case !section && lan:
		return gatewayLANSets[:1:1]
	case !section:
		return gatewayLoopbackSets[:1:1]
	case lan:
		return gatewayLANSets[1:4:4]
	}
	return gatewayLoopbackSets[1:4:4]
}

// joinEdits is the edits a then b, without a copy when either is empty
// (the edits of a plan are read, never written: see
// [planner.gatewaySection]).
func joinEdits(a, b []occkit.Edit) []occkit.Edit {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	return append(slices.Clip(a), b...)
}

// The gateway section's edits, the same for every plan: what
// [occkit.SetValue] makes of "local", each bind and the token auth
// object, and the section they write where there was none
// (TestGatewaySectionEdits holds them to it).
var (
	gatewayModeEdit     = occkit.Edit{Path: gatewayPath.Key("mode"), Raw: []byte(`"local"`)}
	gatewayLoopbackEdit = occkit.Edit{Path: gatewayPath.Key("bind"), Raw: []byte(`"` + BindLoopback + `"`)}
	gatewayLANEdit      = occkit.Edit{Path: gatewayPath.Key("bind"), Raw: []byte(`"` + BindLAN + `"`)}
	gatewayAuthEdit     = occkit.Edit{Path: gatewayAuthPath, Raw: []byte(gatewayAuth)}

	gatewayLoopbackSection = occkit.Edit{Path: gatewayPath, Raw: []byte(gatewaySectionFor(BindLoopback))}
	gatewayLANSection      = occkit.Edit{Path: gatewayPath, Raw: []byte(gatewaySectionFor(BindLAN))}

	// gatewayLANSets and gatewayLoopbackSets are each bind's whole
	// section, then its three members ([planner.gatewaySection]).
	gatewayLANSets      = [4]occkit.Edit{gatewayLANSection, gatewayModeEdit, gatewayLANEdit, gatewayAuthEdit}
	gatewayLoopbackSets = [4]occkit.Edit{gatewayLoopbackSection, gatewayModeEdit, gatewayLoopbackEdit, gatewayAuthEdit}
)

const gatewayAuth = `{"mode":"token","token":"${` + EnvGatewayToken + `}"}`

func gatewaySectionFor(bind string) string {
	return `{"mode":"local","bind":"` + bind + `","auth":` + gatewayAuth + `}`
}

// appServer is the edits that point the dedicated Codex gateway's codex
// plugin at its app-server over WebSocket (PRB-9); placement is the
// Compute's. An ancestor of the setting that is not an object is 400.
func (b *planner) appServer(doc occkit.Document) ([]occkit.Edit, error) {
	for p := appServerPath; !p.IsRoot(); p = p.Parent() {
		if v := docjson.Get(doc, p); v.Exists() && !v.IsObject() {
			return nil, occkit.Invalid("RES-7", p, "%s must be an object", p.String())
		}
	}
	url, err := occkit.SetValue(appServerURLPath, "ws://"+b.opts.AppServerHost+":"+strconv.Itoa(b.opts.AppServerPort))
	if err != nil {
		return nil, err
	}
	edits := []occkit.Edit{appServerTransportEdit, url}
	if b.appServerAuth() {
		// Who may drive the Harness is the control plane's decision,
		// like gateway.auth: an author's token is replaced by the
		// Compute's.
		edits = append(edits, appServerAuthEdit)
	}
	return edits, nil
}

// The app-server's constant edits: what occkit.SetValue makes of
// "websocket" and the token reference.
var (
	appServerTransportEdit = occkit.Edit{Path: appServerTransportPath, Raw: []byte(`"websocket"`)}
	appServerAuthEdit      = occkit.Edit{Path: appServerAuthPath, Raw: []byte(`"${` + EnvAppServerToken + `}"`)}
)

// enablePlugins is the edits that write plugins.entries.<id>.enabled:
// true for each plugin the Compute provides ([RequiredPlugins]) whose
// entry does not say enabled already, when write is set. OpenClaw loads
// an installed external plugin only with that explicit trust (without
// it: "channel is configured, but external plugin … is installed without
// explicit trust", and the channel never starts); its own installer
// writes it into the configuration, which on a Compute is the frozen,
// read-only document, so the plan writes it into the native document.
// An entry or ancestor that is not an object is 400.
func (b planner) enablePlugins(doc occkit.Document, plugins []Plugin, write bool) ([]occkit.Edit, error) {
	if len(plugins) == 0 {
		return nil, nil
	}
	// The entries' ancestors, the same for every plugin, read once (the
	// root's plugins member, the scan's when doc is the scanned document),
	// as docjson.Get reads them.
	section := b.scan.rootMember(doc, rootPlugins)
	entries := memberOf(section, entriesKey)
	var edits []occkit.Edit
	for i, p := range plugins {
		// The edit's path, and the entry's as its parent: one path made.
		enabled := occkit.NewPath(pluginsKey, entriesKey, p.ID, enabledKey)
		entry := enabled.Parent()
		v := memberOf(entries, p.ID)
		if v.Exists() && !v.IsObject() {
			return nil, occkit.Invalid("CMP-4", entry, "%s must be an object", entry.String())
		}
		if i == 0 {
			// The entry's ancestors, from the nearest.
			for j, a := range [2]gjson.Result{entries, section} {
				if a.Exists() && !a.IsObject() {
					at := [2]occkit.Path{pluginEntriesPath, pluginsPath}[j]
					return nil, occkit.Invalid("CMP-4", at, "%s must be an object", at.String())
				}
			}
		}
		if !write {
			continue
		}
		if e := v.Get(enabledKey); e.IsBool() && e.Bool() {
			continue
		}
		if edits == nil {
			edits = make([]occkit.Edit, 0, len(plugins)-i)
		}
		edits = append(edits, occkit.Edit{Path: enabled, Raw: rawTrue})
	}
	return edits, nil
}

// memberOf is what a document's path reads one key further than obj:
// obj's member key, or, of an array, the element a number names (gjson's
// path of the key), and nothing in a scalar.
func memberOf(obj gjson.Result, key string) gjson.Result {
	if !obj.IsObject() && !obj.IsArray() {
		return gjson.Result{}
	}
	return obj.Get(gjson.Escape(key))
}

// The keys of the paths [planner.enablePlugins] writes:
// plugins.entries.<id>.enabled.
const pluginsKey, entriesKey, enabledKey = "plugins", "entries", "enabled"

var pluginEntriesPath = occkit.NewPath(pluginsKey, entriesKey)

// rawTrue is the value of every edit [planner.enablePlugins] makes, shared:
// an edit's value is read, never written.
var rawTrue = []byte("true")

// appServerAuth reports whether the dedicated Codex app-server listens
// beyond loopback, so that it and its gateway share the Agent's
// app-server token.
func (b *planner) appServerAuth() bool {
	return b.in.Harness == occkit.HarnessCodex && b.in.Mode == occkit.ModeDedicated && !loopbackHost(b.opts.AppServerListen)
}
