package render

import (
	"maps"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
)

// Defaults of [Options].
const (
	// DefaultNamespace is the tenant namespace when none is given.
	DefaultNamespace = "occkit"
	// DefaultOpenClawImage is the image repository of the gateway and the
	// native OpenClaw Harness; the render pins it to the revision's
	// release ([Images]).
	DefaultOpenClawImage = "ghcr.io/openclaw/openclaw"
	// DefaultCodexImage is the image repository of the Codex app-server,
	// pinned to the revision's Codex version.
	DefaultCodexImage = "ghcr.io/openclaw/codex-app-server"
	// DefaultStorageSize is the size of each workload's data volume.
	DefaultStorageSize = "10Gi"
	// DefaultHome is the home directory (and data volume mount) of every
	// container: OpenClaw keeps its state under it.
	DefaultHome = "/home/node"
	// RunAsUser is the non-root user and group every container runs as.
	RunAsUser = 1000
	// StateDirName is an OpenClaw process's state directory under its home
	// (OPENCLAW_STATE_DIR, on the data volume): media, backups, plugin
	// install roots and its databases, never beside the read-only
	// configuration.
	StateDirName = ".openclaw"
	// EnvConfigReadOnly tells OpenClaw ("1") that its configuration is
	// immutable, as the read-only ConfigMap mount is (LOG-4).
	EnvConfigReadOnly = "OPENCLAW_CONFIG_READONLY"
	// DefaultTerminationGrace is the termination grace period of a process
	// without a stop policy of its own (Kubernetes' default).
	DefaultTerminationGrace = 30
)

// Ports and file names the rendered workloads use.
const (
	// GatewayPort is the OpenClaw gateway's WebSocket/HTTP port.
	GatewayPort = 18789
	// AppServerPort is the dedicated Codex app-server's WebSocket port.
	AppServerPort = 4500
	// ConfigDir is where an OpenClaw process's native document is
	// mounted read-only (LOG-4); OPENCLAW_CONFIG_PATH points at the file.
	ConfigDir = "/etc/openclaw"
	// ConfigFile is the native document's file name in its ConfigMap and
	// under [ConfigDir].
	ConfigFile = compile.NativeDocumentName
	// CodexConfigFile is the Codex app-server configuration's file name in
	// its ConfigMap and under CODEX_HOME.
	CodexConfigFile = compile.CodexConfigName
	// CodexHomeDir is CODEX_HOME relative to the Harness home.
	CodexHomeDir = ".codex"
	// AppServerTokenFile is where a dedicated Codex app-server reads the
	// Agent's app-server token ([AppServerTokenSecretName], mounted
	// read-only).
	AppServerTokenFile = "/var/run/secrets/occkit.io/app-server/" + AppServerTokenSecretKey
	// PlaceholderValue is what a credential_source placeholder variable
	// holds: the Sandbox egress proxy substitutes the real key (AUTH-3).
	PlaceholderValue = "opaque-occkit-credential-source"
)

// Images are the image repositories of the rendered workloads. A render
// pins each container to the approved release (ADM-3): the repository
// tagged with the process's release (compile.ProcessPlan.Version: the
// OpenClaw release, or the Codex CLI version), or the digest Digests maps
// that reference to. A repository carries no tag or digest of its own,
// and no render names `latest`.
type Images struct {
	// OpenClaw runs every OpenClaw process: the gateway and the native
	// Harness. Empty: [DefaultOpenClawImage].
	OpenClaw string
	// Codex runs the Codex app-server. Empty: [DefaultCodexImage].
	Codex string
	// Digests maps a tagged reference ("<repository>:<release>") to the
	// digest ("sha256:<64 hex>") the installation approved for it; a
	// mapped reference renders as <repository>@<digest>.
	Digests map[string]string
}

// Storage configures the per-workload data volumes.
type Storage struct {
	// Size is the requested size, a Kubernetes quantity. Empty:
	// [DefaultStorageSize].
	Size string
	// ClassName is the StorageClass; empty leaves the cluster default.
	ClassName string
}

// Plugins configures how a render provides the plugins a revision's
// documents configure that its release does not bundle
// (compile.ProcessPlan.Plugins): an init container per plugin, running the
// same pinned image, installs each at its pinned version into the
// process's state directory before the process starts (see the package
// doc, "Plugins").
type Plugins struct {
	// Registry is the npm registry the init containers install from
	// (npm_config_registry): the installation's registry mirror, an
	// absolute http(s) URL without credentials, query or fragment. Empty:
	// npm's default, the public registry.
	Registry string
}

// Sandbox is the SandboxDriver that contains a dedicated OpenClaw Harness
// on this Compute (RES-13, DRV-2).
type Sandbox struct {
	// ID is the SandboxDriver's name: the sandbox binding admission froze
	// into the revision. A revision bound to another driver is refused.
	ID string
	// Facts are what the driver declares; only a qualifying driver
	// ([drivers.QualifiedSandbox]) lets this Compute offer dedicated OpenClaw.
	Facts occkit.SandboxFacts
	// RuntimeClassName is the RuntimeClass the Harness pod runs under
	// (the sandbox's containment); empty sets none.
	RuntimeClassName string
	// HarnessHome is the Harness's home inside the sandbox; empty is
	// [DefaultHome].
	HarnessHome string
}

// Options are the installation facts [Render] needs besides the
// revision. The zero value renders into [DefaultNamespace] with the
// default images and storage.
type Options struct {
	// Namespace is the Agent's tenant namespace; the zero value is
	// {ID: DefaultNamespace, Name: DefaultNamespace}, an empty Name is ID.
	// A Name without an ID is refused (400 DRV-5 at namespace.id).
	Namespace drivers.Namespace
	Images    Images
	Storage   Storage
	Plugins   Plugins
	// Sandbox is the configured SandboxDriver, or nil: dedicated OpenClaw
	// needs one.
	Sandbox *Sandbox
	// Stopped renders every workload with zero replicas: stopped but
	// re-startable, its data intact.
	Stopped bool
}

// WithDefaults returns o with every zero setting replaced by its default.
func (o Options) WithDefaults() Options {
	if o.Namespace == (drivers.Namespace{}) {
		o.Namespace = drivers.Namespace{ID: DefaultNamespace, Name: DefaultNamespace}
	}
	if o.Namespace.Name == "" {
		o.Namespace.Name = o.Namespace.ID
	}
	if o.Images.OpenClaw == "" {
		o.Images.OpenClaw = DefaultOpenClawImage
	}
	if o.Images.Codex == "" {
		o.Images.Codex = DefaultCodexImage
	}
	if o.Storage.Size == "" {
		o.Storage.Size = DefaultStorageSize
	}
	return o
}

// Object is one rendered Kubernetes object.
type Object interface {
	metav1.Object
	runtime.Object
}

// Objects are the Kubernetes objects of one revision, by kind. Every
// object carries its apiVersion and kind, the namespace and the driver's
// labels. Every object owns its maps, slices and the values its pointers
// point at: a caller may edit one object without changing another (only
// immutable strings are shared).
type Objects struct {
	// Namespace is the tenant namespace the objects live in.
	Namespace              string
	ServiceAccounts        []*corev1.ServiceAccount
	ConfigMaps             []*corev1.ConfigMap
	PersistentVolumeClaims []*corev1.PersistentVolumeClaim
	Services               []*corev1.Service
	Deployments            []*appsv1.Deployment
	// Tokens are the per-Agent token Secrets the workloads reference and
	// Render cannot return (they hold random bytes): the driver creates
	// each one that is missing ([GatewayTokenSecretName],
	// [AppServerTokenSecretName]). They are not in [Objects.List].
	Tokens []Token
}

// Token is a per-Agent Secret holding a random token that the driver, not
// Render, creates: its name, data key and the workload it belongs to.
type Token struct {
	Name, Key string
	Component occkit.Process
}

// List returns every object in apply order: what a workload refers to
// comes before it.
func (o Objects) List() []Object {
	var out []Object
	for _, x := range o.ServiceAccounts {
		out = append(out, x)
	}
	for _, x := range o.ConfigMaps {
		out = append(out, x)
	}
	for _, x := range o.PersistentVolumeClaims {
		out = append(out, x)
	}
	for _, x := range o.Services {
		out = append(out, x)
	}
	for _, x := range o.Deployments {
		out = append(out, x)
	}
	return out
}

// Render renders the Kubernetes objects of rev (DRV-5). It is a pure
// function: it reads nothing but its arguments.
//
// It maps the revision's render plan (admission.Revision.Plan,
// compile.BuildPlan) onto Kubernetes objects and decides nothing about
// credentials itself:
//
//   - each planned process is a Deployment (strategy Recreate) with its
//     own ServiceAccount and data PersistentVolumeClaim; embedded OpenClaw
//     is one (gateway and built-in Harness in one container), dedicated
//     Codex and dedicated OpenClaw two; a process with a port gets a
//     Service;
//   - each planned file is a per-revision immutable ConfigMap: the native
//     document mounted read-only at [ConfigDir] with OPENCLAW_CONFIG_PATH
//     pointing at it (LOG-4), the Codex config.toml under CODEX_HOME;
//   - each planned variable is a literal, [PlaceholderValue] for a
//     placeholder, or a secretKeyRef to [CredentialSecretName] /
//     [GatewayTokenSecretName], never secret bytes;
//   - readiness is the planned check: the gateway's /readyz, the
//     app-server's TCP port; pod identity labels come from
//     logging.CollectorMetadata (LOG-6).
//
// Refusals: a nil revision or an undeclared topology is 400
// INVALID_REQUEST; whatever the plan refuses (a logging stamp that is not
// intact, LOG-2; a Secret outside the tenant namespace, AUTH-2; an
// inference credential planned for a dedicated gateway, AUTH-6) keeps its
// code; a revision whose logging the platform does not own, or a
// dedicated OpenClaw revision without the configured qualifying
// SandboxDriver (RES-13, ADM-5), is 409 RESOURCE_CONFLICT.
func Render(rev drivers.Revision, opts Options) (Objects, error) {
	if ar, ok := rev.(*admission.Revision); rev == nil || ok && ar == nil {
		return Objects{}, occkit.Invalid("DRV-5", occkit.Root(), "a revision is required")
	}
	planner, ok := rev.(compile.Planner)
	if !ok {
		return Objects{}, occkit.Invalid("DRV-5", occkit.Root(), "the revision cannot plan its render: pass an admitted revision")
	}
	if rev.Compute() != occkit.ComputeKubernetes {
		return Objects{}, occkit.Conflict("ADM-5", occkit.RevisionPath("compute"),
			"the revision was admitted for the %s Compute, not kubernetes; redeploy it on this Compute", rev.Compute())
	}
	if opts.Namespace.ID == "" && opts.Namespace.Name != "" {
		// The ID labels every object and names the Secrets' namespace
		// (AUTH-2, LOG-6): a name alone is half a namespace.
		return Objects{}, occkit.Invalid("DRV-5", occkit.RenderPath("namespace", "id"),
			"Options.Namespace names a namespace without its ID: set ID (Name defaults to it), or leave both empty for %s", DefaultNamespace)
	}
	opts = opts.WithDefaults()
	_, own := rev.(*admission.Revision)
	r := renderer{opts: opts, ns: opts.Namespace.Name, digest: rev.Digest(), ownPlan: own,
		generation: strconv.FormatInt(rev.Source().Generation, 10),
		id: logging.Identity{Harness: rev.Harness(), Mode: rev.Mode(), Version: rev.HarnessIdentity().Version,
			Namespace: opts.Namespace.ID, Agent: rev.AgentID(), Revision: rev.Digest()}}
	if err := r.check(rev); err != nil {
		return Objects{}, err
	}
	r.nameAll(rev.AgentID(), rev.Mode() == occkit.ModeDedicated)
	harnessHome, runtimeClass := DefaultHome, ""
	switch rev.Topology() {
	case occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}:
	case occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}:
		home, err := r.sandbox(rev)
		if err != nil {
			return Objects{}, err
		}
		harnessHome = home
		runtimeClass = opts.Sandbox.RuntimeClassName
	default:
		return Objects{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"),
			"kubernetes does not run %s in %s execution mode", rev.Harness(), rev.Mode())
	}
	plan, err := planner.Plan(compile.PlanOptions{
		Bind:            compile.BindLAN,
		GatewayPort:     GatewayPort,
		GatewayHost:     r.host(occkit.ProcessGateway),
		AppServerHost:   r.host(occkit.ProcessHarness),
		AppServerPort:   AppServerPort,
		AppServerListen: "0.0.0.0",
		// The app-server listens on the pod network: it authenticates
		// its gateway with the Agent's app-server token.
		AppServerTokenFile: AppServerTokenFile,
		Namespace:          opts.Namespace.ID,
	})
	if err != nil {
		return Objects{}, err
	}
	// Every list is made at its final length: every process has one
	// ServiceAccount, claim and Deployment, a ConfigMap per file, a
	// Service with a port and a token with a token file.
	n, files, services, tokens := len(plan.Processes), 0, 0, 1
	for _, p := range plan.Processes {
		files += len(p.Files)
		if p.Port != 0 {
			services++
		}
		if p.TokenFile != "" {
			tokens++
		}
	}
	objs := Objects{Namespace: r.ns}
	if n == 1 && files <= 1 && services <= 1 && tokens == 1 {
		// One process's lists, in one block.
		l := new(objectLists)
		objs.Tokens = l.tokens[:]
		objs.ServiceAccounts, objs.PersistentVolumeClaims, objs.Deployments = l.accounts[:0], l.claims[:0], l.deployments[:0]
		if files > 0 {
			objs.ConfigMaps = l.configMaps[:0]
		}
		if services > 0 {
			objs.Services = l.services[:0]
		}
	} else {
		objs.Tokens = make([]Token, 1, tokens)
		if n > 0 {
			objs.ServiceAccounts = make([]*corev1.ServiceAccount, 0, n)
			objs.PersistentVolumeClaims = make([]*corev1.PersistentVolumeClaim, 0, n)
			objs.Deployments = make([]*appsv1.Deployment, 0, n)
		}
		if files > 0 {
			objs.ConfigMaps = make([]*corev1.ConfigMap, 0, files)
		}
		if services > 0 {
			objs.Services = make([]*corev1.Service, 0, services)
		}
	}
	objs.Tokens[0] = Token{Name: r.gatewayToken(), Key: GatewayTokenSecretKey, Component: occkit.ProcessGateway}
	// The objects that read the plan (ConfigMaps, Deployments) are made
	// first; the others need only what rest keeps of each process, so
	// that the plan is garbage while they are made: the render's peak
	// heap holds the objects, not the plan beside them.
	var restBlock [2]restOfProcess
	rest := blockOr(restBlock[:], n)[:0]
	for _, p := range plan.Processes {
		if err := checkPlugins(p); err != nil {
			return Objects{}, err
		}
		w := workload{process: p, home: DefaultHome, names: r.names(p.Role)}
		if p.Role == occkit.ProcessHarness {
			w.home, w.runtimeClass = harnessHome, runtimeClass
		}
		for _, f := range p.Files {
			w.configMap = r.configMap(w.names, p.Role, f.Name, f.Data)
			objs.ConfigMaps = append(objs.ConfigMaps, w.configMap)
		}
		dep, err := r.deployment(w)
		if err != nil {
			return Objects{}, err
		}
		objs.Deployments = append(objs.Deployments, dep)
		rest = append(rest, restOfProcess{names: w.names, role: p.Role, port: int32(p.Port), portName: portName(p), token: p.TokenFile != ""})
	}
	for _, p := range rest {
		objs.ServiceAccounts = append(objs.ServiceAccounts, r.serviceAccount(p.names, p.role))
		objs.PersistentVolumeClaims = append(objs.PersistentVolumeClaims, r.claim(p.names, p.role))
		if p.port != 0 {
			objs.Services = append(objs.Services, r.service(p.names, p.role, p.portName, p.port))
		}
		if p.token {
			objs.Tokens = append(objs.Tokens, Token{Name: r.appServerToken(), Key: AppServerTokenSecretKey, Component: p.role})
		}
	}
	return objs, nil
}

// restOfProcess is what [Render] keeps of a planned process for the
// objects it makes after the plan: its names, role, Service port and
// whether it reads the app-server token.
type restOfProcess struct {
	names    workloadNames
	role     occkit.Process
	port     int32
	portName string
	token    bool
}

// objectLists are the lists of the [Objects] of a revision of one
// process (embedded), made in one block: a ServiceAccount, a claim, a
// Deployment, a Service, a ConfigMap and a token. Each list is its own:
// no two share an element.
type objectLists struct {
	tokens      [1]Token
	accounts    [1]*corev1.ServiceAccount
	claims      [1]*corev1.PersistentVolumeClaim
	deployments [1]*appsv1.Deployment
	configMaps  [1]*corev1.ConfigMap
	services    [1]*corev1.Service
}

// sandbox checks the configured SandboxDriver a dedicated OpenClaw
// revision needs (RES-13, ADM-5) and returns the Harness home.
func (r *renderer) sandbox(rev drivers.Revision) (string, error) {
	sb := r.opts.Sandbox
	if sb == nil || !drivers.QualifiedSandbox(&sb.Facts) {
		return "", occkit.Conflict("RES-13", occkit.AgentPath("executionMode"),
			"dedicated openclaw needs a qualifying SandboxDriver on this Compute; missing Driver: SandboxDriver")
	}
	if rev.SandboxDriverID() != sb.ID {
		return "", occkit.Conflict("ADM-5", occkit.RevisionPath("sandboxDriverId"),
			"the revision is not bound to this Compute's SandboxDriver; redeploy")
	}
	if sb.HarnessHome == "" {
		return DefaultHome, nil
	}
	at := settingsPath.Key("sandbox").Key("harnessHome")
	if err := drivers.CheckHarnessHome(at, sb.HarnessHome); err != nil {
		return "", occkit.Conflict("DRV-2", at, "the sandbox harness home is not an absolute normalized path")
	}
	return sb.HarnessHome, nil
}

// imageTag reports whether s is a valid image tag: a letter, digit or
// underscore, then up to 127 of those, dots and dashes.
func imageTag(s string) bool {
	if s == "" || len(s) > 128 || s[0] == '.' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(asciiLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// imageDigest matches a sha256 image digest.
var imageDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// image is the pinned image of planned process p: its repository tagged
// with p's approved release, or the digest [Images].Digests maps that
// reference to (ADM-3). A revision without a release, a release that is
// no valid tag (or is `latest`), a repository that carries its own tag or
// digest, or a malformed digest is 409: the installation cannot run the
// revision as approved.
func (r *renderer) image(p compile.ProcessPlan) (string, error) {
	repo, setting := r.opts.Images.OpenClaw, "openClaw"
	if p.Program == compile.ProgramCodex {
		repo, setting = r.opts.Images.Codex, "codex"
	}
	if strings.Contains(repo, "@") || strings.Contains(repo[strings.LastIndexByte(repo, '/')+1:], ":") {
		return "", occkit.Conflict("DRV-5", settingsPath.Key("images").Key(setting),
			"the image repository must carry no tag or digest: the render pins it to the approved release")
	}
	if !imageTag(p.Version) || strings.EqualFold(p.Version, "latest") {
		return "", occkit.Conflict("ADM-3", occkit.InstallationPath("harnessVersions", string(p.Program)),
			"the revision's approved %s release is not a pinnable image tag; approve a release and redeploy", p.Program)
	}
	ref := repo + ":" + p.Version
	if d, ok := r.opts.Images.Digests[ref]; ok {
		if !imageDigest.MatchString(d) {
			return "", occkit.Conflict("DRV-5", settingsPath.Key("images").Key("digests").Key(ref), "an image digest must be sha256:<64 hex>")
		}
		return repo + "@" + d, nil
	}
	return ref, nil
}

// renderer holds one Render call's inputs and the strings it makes once
// for every object.
type renderer struct {
	// id is the Collector's identity of the revision's workloads, less
	// the container (LOG-6); ownPlan: the revision is an admitted one,
	// whose plan hands each render bytes of its own. The renderer keeps
	// these, not the revision, so that a revision its caller no longer
	// holds is released while its objects are made.
	id      logging.Identity
	ownPlan bool
	opts    Options
	ns      string
	// agent and revision are the [Hash]es of the Agent ID and the
	// revision digest, which label every object; digest and generation
	// annotate them.
	agent, revision    string
	digest, generation string
	// storage is the parsed Options.Storage.Size.
	storage resource.Quantity
	// roles are the names of the gateway's and the Harness's workloads
	// ([renderer.nameAll]); gatewayTokenName and appServerTokenName those
	// of the token Secrets (the latter made on first use).
	roles                                [2]workloadNames
	gatewayTokenName, appServerTokenName string
	// maps are the gateway's and the Harness's first label and selector
	// maps, annotationMap the first annotation map.
	maps          [2]componentMaps
	annotationMap map[string]string
}

var settingsPath = occkit.RenderPath("kubernetes")

func (r *renderer) check(rev drivers.Revision) error {
	if !dns1123Label(r.ns) {
		return occkit.Conflict("DRV-5", settingsPath.Key("namespace"), "the tenant namespace name is not a DNS-1123 label")
	}
	if err := r.checkStorage(); err != nil {
		return err
	}
	if err := checkRegistry(r.opts.Plugins.Registry); err != nil {
		return err
	}
	if rev.LoggingOwnership() != occkit.OwnedByPlatform {
		return occkit.Conflict("LOG-3", occkit.NewPath("logging"),
			"the kubernetes driver renders platform-owned logging only; redeploy the revision on this Compute")
	}
	return nil
}

// checkStorage checks the installation's storage settings (409: the
// installation cannot run the revision).
func (r *renderer) checkStorage() (err error) {
	r.storage, err = parseStorage(r.opts.Storage)
	return err
}

// CheckStorage checks storage settings as [Render] does: a size that is not
// a positive Kubernetes quantity or a class name that is not a DNS-1123
// subdomain is 409 RESOURCE_CONFLICT (DRV-5). An empty size is the
// default.
func CheckStorage(s Storage) error {
	_, err := parseStorage(s)
	return err
}

// parseStorage is [CheckStorage], returning the parsed size.
func parseStorage(s Storage) (resource.Quantity, error) {
	if s.Size == "" {
		s.Size = DefaultStorageSize
	}
	q, err := resource.ParseQuantity(s.Size)
	if err != nil || q.Sign() <= 0 {
		return resource.Quantity{}, occkit.Conflict("DRV-5", settingsPath.Key("storage").Key("size"), "the storage size is not a positive Kubernetes quantity")
	}
	if s.ClassName != "" && len(validation.IsDNS1123Subdomain(s.ClassName)) > 0 {
		return resource.Quantity{}, occkit.Conflict("DRV-5", settingsPath.Key("storage").Key("className"), "the storage class name is not a DNS-1123 subdomain")
	}
	return q, nil
}

// dns1123Label reports whether s is a DNS-1123 label
// (validation.IsDNS1123Label): 1 to 63 lower-case letters, digits and
// dashes, a letter or digit at each end.
func dns1123Label(s string) bool {
	if s == "" || len(s) > validation.DNS1123LabelMaxLength || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkRegistry checks [Plugins].Registry: empty, or an absolute http(s)
// URL with a host and without credentials, query or fragment (409: the
// installation cannot run the revision).
func checkRegistry(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return occkit.Conflict("DRV-5", settingsPath.Key("plugins").Key("registry"),
			"the plugin registry must be an absolute http(s) URL without credentials, query or fragment")
	}
	return nil
}

// workloadNames are the names of one process's objects, made once per
// render: host is its Service's in-cluster DNS name, and the workload
// name (the Deployment's, ServiceAccount's and Service's) its first label.
type workloadNames struct {
	host, workload, data, config string
}

// role returns where component c's names are kept.
func (r *renderer) role(c occkit.Process) *workloadNames {
	if c == occkit.ProcessHarness {
		return &r.roles[1]
	}
	return &r.roles[0]
}

// nameAll makes the [Hash]es of the Agent ID and the revision digest,
// the gateway's names, the Harness's host (which every plan is given)
// and, when dedicated, its other names, and the gateway token Secret's
// name, all in the bytes of one string: every object is named from them.
// The namespace is checked (a DNS-1123 label), so they fit in nameBytes.
func (r *renderer) nameAll(agentID string, dedicated bool) {
	var buf [nameBytes]byte
	b := appendHash(appendHash(buf[:0], agentID), r.digest)
	agent, revision := b[:HashLen:HashLen], b[HashLen:2*HashLen:2*HashLen]
	type span struct{ lo, hi int }
	var host, workload, data, config [2]span
	mark := func(sp *span, lo int) { *sp = span{lo, len(b)} }
	at := len(b)
	b = append(append(append(b, "occ-"...), agent...), "-gw-token"...)
	token := span{at, len(b)}
	for i, c := range [2]occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness} {
		at = len(b)
		b = append(append(append(append(b, "occ-"...), agent...), '-'), suffix(c)...)
		mark(&workload[i], at)
		b = append(append(append(b, '.'), r.ns...), ".svc"...)
		mark(&host[i], at)
		if c == occkit.ProcessHarness && !dedicated {
			break
		}
		at = len(b)
		b = append(append(append(append(append(b, "occ-"...), agent...), '-'), suffix(c)...), "-data"...)
		mark(&data[i], at)
		at = len(b)
		b = append(append(append(append(append(append(b, "occ-"...), agent...), '-'), revision...), '-'), suffix(c)...)
		mark(&config[i], at)
	}
	s := string(b)
	r.agent, r.revision, r.gatewayTokenName = s[:HashLen], s[HashLen:2*HashLen], s[token.lo:token.hi]
	for i := range r.roles {
		r.roles[i] = workloadNames{host: s[host[i].lo:host[i].hi], workload: s[workload[i].lo:workload[i].hi],
			data: s[data[i].lo:data[i].hi], config: s[config[i].lo:config[i].hi]}
	}
}

// nameBytes bounds what [renderer.nameAll] makes: two hashes, the token
// name, and per component a host in a namespace of at most 63 bytes, a
// data and a config name.
const (
	nameBytes = 2*HashLen + len("occ-") + HashLen + len("-gw-token") + 2*(hostBytes+dataBytes+configBytes)
	// hostBytes bounds occ-<agent>-<suffix>.<namespace>.svc, dataBytes
	// occ-<agent>-<suffix>-data, configBytes occ-<agent>-<revision>-<suffix>.
	hostBytes   = len("occ-") + HashLen + len("-harness") + len(".") + validation.DNS1123LabelMaxLength + len(".svc")
	dataBytes   = len("occ-") + HashLen + len("-harness") + len("-data")
	configBytes = len("occ-") + HashLen + len("-") + HashLen + len("-harness")
)

// host returns the in-cluster DNS name of component c's Service.
func (r *renderer) host(c occkit.Process) string { return r.role(c).host }

// names returns the names of component c's objects.
func (r *renderer) names(c occkit.Process) workloadNames { return *r.role(c) }

// gatewayToken is [GatewayTokenSecretName] of the revision's Agent.
func (r *renderer) gatewayToken() string { return r.gatewayTokenName }

// appServerToken is [AppServerTokenSecretName] of the revision's Agent.
func (r *renderer) appServerToken() string {
	if r.appServerTokenName == "" {
		r.appServerTokenName = appServerTokenSecretName(r.agent)
	}
	return r.appServerTokenName
}

// Every object's labels and annotations are maps of its own (a caller
// editing one object's edits no other's). The first map of each kind a
// render needs is made by a literal; every later one of that kind is a
// clone of it (maps.Clone copies a small map's slots without hashing a
// key again), made before Render returns, while nothing writes the first.

// componentMaps are the first label and selector maps a render made for
// one component, which its later objects' maps are cloned from.
type componentMaps struct {
	labels, dataLabels, selector map[string]string
}

// componentMaps returns where component c's first maps are kept.
func (r *renderer) componentMaps(c occkit.Process) *componentMaps {
	if c == occkit.ProcessHarness {
		return &r.maps[1]
	}
	return &r.maps[0]
}

// labels are the driver's labels of an object of component c; revision
// adds the revision label (everything but durable data).
func (r *renderer) labels(c occkit.Process, revision bool) map[string]string {
	m := r.componentMaps(c)
	switch {
	case revision && m.labels != nil:
		return maps.Clone(m.labels)
	case revision:
		m.labels = map[string]string{LabelManagedBy: ManagedBy, LabelAgent: r.agent, LabelComponent: string(c), LabelRevision: r.revision}
		return m.labels
	case m.dataLabels != nil:
		return maps.Clone(m.dataLabels)
	}
	m.dataLabels = map[string]string{LabelManagedBy: ManagedBy, LabelAgent: r.agent, LabelComponent: string(c)}
	return m.dataLabels
}

func (r *renderer) annotations() map[string]string {
	if r.annotationMap != nil {
		return maps.Clone(r.annotationMap)
	}
	r.annotationMap = map[string]string{AnnotationDigest: r.digest, AnnotationGeneration: r.generation}
	return r.annotationMap
}

// setMeta sets the name, namespace, labels and (revision) annotations of
// the zero metadata of a new object m.
func (r *renderer) setMeta(m *metav1.ObjectMeta, name string, c occkit.Process, revision bool) {
	m.Name, m.Namespace, m.Labels = name, r.ns, r.labels(c, revision)
	if revision {
		m.Annotations = r.annotations()
	}
}

// Each object is allocated with the values its pointer fields point at,
// in one block: the object owns them all (no two fields, and no two
// objects, point at the same value), and its pointer is the block's.
// Fields are set in the new (zero) block one by one: a struct literal
// stored into the heap is built on the stack and copied, each pointer in
// it behind a write barrier while the collector marks.

type serviceAccountBlock struct {
	obj       corev1.ServiceAccount
	automount bool
}

func (r *renderer) serviceAccount(n workloadNames, c occkit.Process) *corev1.ServiceAccount {
	b := &serviceAccountBlock{}
	b.obj.APIVersion, b.obj.Kind = "v1", "ServiceAccount"
	r.setMeta(&b.obj.ObjectMeta, n.workload, c, true)
	b.obj.AutomountServiceAccountToken = &b.automount
	return &b.obj
}

type configMapBlock struct {
	obj       corev1.ConfigMap
	immutable bool
}

func (r *renderer) configMap(n workloadNames, c occkit.Process, file string, data []byte) *corev1.ConfigMap {
	// An admitted revision's plan hands each render bytes of its own,
	// which nothing writes after: the ConfigMap takes them without a
	// second copy of the document (performance, issue 29).
	var text string
	if r.ownPlan {
		text = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		text = string(data)
	}
	b := &configMapBlock{}
	b.obj.APIVersion, b.obj.Kind = "v1", "ConfigMap"
	r.setMeta(&b.obj.ObjectMeta, n.config, c, true)
	b.immutable = true
	b.obj.Immutable = &b.immutable
	b.obj.Data = map[string]string{file: text}
	return &b.obj
}

type claimBlock struct {
	obj         corev1.PersistentVolumeClaim
	accessModes [1]corev1.PersistentVolumeAccessMode
	className   string
}

func (r *renderer) claim(n workloadNames, c occkit.Process) *corev1.PersistentVolumeClaim {
	b := &claimBlock{}
	b.obj.APIVersion, b.obj.Kind = "v1", "PersistentVolumeClaim"
	r.setMeta(&b.obj.ObjectMeta, n.data, c, false)
	b.accessModes[0] = corev1.ReadWriteOnce
	b.obj.Spec.AccessModes = b.accessModes[:]
	b.obj.Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: r.storage.DeepCopy()}
	if b.className = r.opts.Storage.ClassName; b.className != "" {
		b.obj.Spec.StorageClassName = &b.className
	}
	return &b.obj
}

type serviceBlock struct {
	obj   corev1.Service
	ports [1]corev1.ServicePort
}

func (r *renderer) service(n workloadNames, c occkit.Process, portName string, port int32) *corev1.Service {
	b := &serviceBlock{}
	sp := &b.ports[0]
	sp.Name, sp.Port, sp.Protocol = portName, port, corev1.ProtocolTCP
	sp.TargetPort = intstr.FromString(portName)
	b.obj.APIVersion, b.obj.Kind = "v1", "Service"
	r.setMeta(&b.obj.ObjectMeta, n.workload, c, true)
	b.obj.Spec.Type, b.obj.Spec.Selector, b.obj.Spec.Ports = corev1.ServiceTypeClusterIP, r.selector(c), b.ports[:]
	return &b.obj
}

// selector is a workload's immutable selector: Agent and component, never
// the revision, so a replacement updates the same Deployment.
func (r *renderer) selector(c occkit.Process) map[string]string {
	m := r.componentMaps(c)
	if m.selector != nil {
		return maps.Clone(m.selector)
	}
	m.selector = map[string]string{LabelAgent: r.agent, LabelComponent: string(c)}
	return m.selector
}

// workload is one planned process on its way to a Deployment.
type workload struct {
	process      compile.ProcessPlan
	names        workloadNames
	home         string
	configMap    *corev1.ConfigMap
	runtimeClass string
}

// portName is the container port name of a planned process.
func portName(p compile.ProcessPlan) string {
	if p.Program == compile.ProgramCodex {
		return "app-server"
	}
	return "gateway"
}

// secretRef is what a variable read from a Secret points at.
type secretRef struct {
	source   corev1.EnvVarSource
	selector corev1.SecretKeySelector
	optional bool
}

// envVar maps one planned variable: a literal, the placeholder, or a
// reference to the Secret holding the bytes, which refs holds.
func (r *renderer) envVar(e *compile.Env, refs *[]secretRef) corev1.EnvVar {
	switch {
	case e.Placeholder:
		return corev1.EnvVar{Name: e.Name, Value: PlaceholderValue}
	case e.GatewayToken:
		return secretEnv(refs, e.Name, r.gatewayToken(), GatewayTokenSecretKey)
	case e.AppServerToken:
		return secretEnv(refs, e.Name, r.appServerToken(), AppServerTokenSecretKey)
	case !e.Secret.IsZero():
		return secretEnv(refs, e.Name, CredentialSecretName(e.Secret), CredentialSecretKey(e.Secret))
	}
	return corev1.EnvVar{Name: e.Name, Value: e.Value}
}

// readsSecret reports whether [renderer.envVar] maps e to a Secret
// reference.
func readsSecret(e *compile.Env) bool {
	return !e.Placeholder && (e.GatewayToken || e.AppServerToken || !e.Secret.IsZero())
}

// secretEnv is variable name read from key of Secret secret, its
// reference the next of refs (made at the count of such variables).
func secretEnv(refs *[]secretRef, name, secret, key string) corev1.EnvVar {
	*refs = append(*refs, secretRef{selector: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}})
	ref := &(*refs)[len(*refs)-1]
	ref.selector.Optional = &ref.optional
	ref.source.SecretKeyRef = &ref.selector
	return corev1.EnvVar{Name: name, ValueFrom: &ref.source}
}

// securityBlock is a container's security context ([containerSecurity])
// with what it points at.
type securityBlock struct {
	context                                 corev1.SecurityContext
	nonRoot, privileged, escalation, rootRO bool
	capabilities                            corev1.Capabilities
	drop                                    [1]corev1.Capability
}

// containerSecurity is every container's security context: non-root, no
// privilege, a read-only root filesystem, no capability.
func containerSecurity() *corev1.SecurityContext { return new(securityBlock).restricted() }

// restricted sets the zero block b to [containerSecurity]'s context and
// returns it.
func (b *securityBlock) restricted() *corev1.SecurityContext {
	b.nonRoot, b.privileged, b.escalation, b.rootRO = true, false, false, true
	b.drop[0] = "ALL"
	b.capabilities.Drop = b.drop[:]
	c := &b.context
	c.RunAsNonRoot, c.Privileged, c.AllowPrivilegeEscalation, c.ReadOnlyRootFilesystem = &b.nonRoot, &b.privileged, &b.escalation, &b.rootRO
	c.Capabilities = &b.capabilities
	return c
}

// deploymentBlock is a Deployment with what its pod points at and, where
// they fit, its container's lists ([blockOr]); the other lists whose
// length the plan decides are made apart. Its small fields sit together,
// where padding after each would cost a word.
type deploymentBlock struct {
	obj                                 appsv1.Deployment
	replicas                            int32
	automount, serviceLinks, podNonRoot bool
	selector                            metav1.LabelSelector
	grace                               int64
	pod                                 corev1.PodSecurityContext
	runAsUser, runAsGroup, fsGroup      int64
	seccomp                             corev1.SeccompProfile
	runtimeClass                        string
	containers                          [1]corev1.Container
	security                            securityBlock
	probe                               corev1.Probe
	httpGet                             corev1.HTTPGetAction
	ports                               [1]corev1.ContainerPort
	claim                               corev1.PersistentVolumeClaimVolumeSource
	emptyDir                            corev1.EmptyDirVolumeSource
	config                              [1]configVolume
	// The container's lists where they fit, as an embedded gateway's
	// do (six variables, two read from Secrets, three mounts and five
	// arguments): each is cut at its length, a list of its own.
	env    [6]corev1.EnvVar
	refs   [2]secretRef
	mounts [3]corev1.VolumeMount
	args   [5]string
}

// A Deployment is allocated in one of two blocks, each filling the size
// class it falls in (4,096 and 3,456 bytes with the allocator's header):
// where the pod's volumes fit (data, tmp and one file's, every process
// but the Codex app-server), the block holds them; else it holds what
// only a process reading the app-server token points at, and the
// volumes are made apart. With both in one block it would take the next
// class, 4,864 bytes; the volumes apart from a block with room for
// neither took 3,456 bytes and 896 (issue 29).

// deploymentVolumes is a [deploymentBlock] with room for its volumes.
type deploymentVolumes struct {
	deploymentBlock
	volumes [3]corev1.Volume
}

// deploymentAppServer is a [deploymentBlock] with the Codex app-server's
// parts.
type deploymentAppServer struct {
	deploymentBlock
	appServer appServerParts
}

// appServerParts are what the Codex app-server's pod points at and no
// other's: its TCP readiness check and its token volume's source.
type appServerParts struct {
	tcpSocket  corev1.TCPSocketAction
	token      corev1.SecretVolumeSource
	tokenItems [1]corev1.KeyToPath
	tokenMode  int32
}

// newDeploymentBlock returns a new block for a Deployment of volumeN
// volumes, its volume list (of length two, capacity volumeN) and, when
// the block holds them, its app-server parts (else nil: [orNew]).
func newDeploymentBlock(volumeN int) (*deploymentBlock, []corev1.Volume, *appServerParts) {
	if volumeN <= len(deploymentVolumes{}.volumes) {
		b := new(deploymentVolumes)
		return &b.deploymentBlock, b.volumes[:2:volumeN], nil
	}
	b := new(deploymentAppServer)
	return &b.deploymentBlock, make([]corev1.Volume, 2, volumeN), &b.appServer
}

// orNew is *parts, made on first use where the block has none.
func orNew(parts **appServerParts) *appServerParts {
	if *parts == nil {
		*parts = new(appServerParts)
	}
	return *parts
}

// blockOr is the first n elements of block, where they fit, else a new
// list of n: the zero list either way, each element the caller's to set.
func blockOr[T any](block []T, n int) []T {
	if n <= len(block) {
		return block[:n:n]
	}
	return make([]T, n)
}

// configVolume is a file's ConfigMap volume source with its mode.
type configVolume struct {
	source corev1.ConfigMapVolumeSource
	mode   int32
}

func (r *renderer) deployment(w workload) (*appsv1.Deployment, error) {
	p := w.process
	image, err := r.image(p)
	if err != nil {
		return nil, err
	}
	// The Collector's labels and annotations (LOG-6) win over the
	// driver's: they are written last, into the maps the driver's are
	// in, made at their size.
	podLabels := make(map[string]string, 4+logging.ProtectedKeyCount)
	podLabels[LabelManagedBy], podLabels[LabelAgent], podLabels[LabelComponent], podLabels[LabelRevision] =
		ManagedBy, r.agent, string(w.process.Role), r.revision
	podAnnotations := make(map[string]string, 2+logging.ProtectedKeyCount)
	podAnnotations[AnnotationDigest], podAnnotations[AnnotationGeneration] = r.digest, r.generation
	id := r.id
	id.Container = w.process.Role
	if err := logging.WriteCollectorMetadata(id, podLabels, podAnnotations); err != nil {
		return nil, err
	}
	// The lists are made at their final length: HOME, the state
	// directory's two variables, a path and a directory per file (a
	// directory once), then the plan's; the data, tmp, CODEX_HOME, file
	// and token mounts; the data, tmp, file and token volumes.
	envs, mountN, volumeN, secrets := 1+len(p.Env), 2+len(p.Files), 2+len(p.Files), 0
	switch p.StateEnv {
	case compile.EnvStateDir:
		envs += 2
	case compile.EnvCodexHome:
		mountN++
	}
	for i, f := range p.Files {
		if f.PathEnv != "" {
			envs++
		}
		if f.DirEnv != "" && !dirSet(p, i, f.DirEnv) {
			envs++
		}
	}
	if p.TokenFile != "" {
		mountN++
		volumeN++
	}
	for i := range p.Env {
		if readsSecret(&p.Env[i]) {
			secrets++
		}
	}
	b, volumes, appServer := newDeploymentBlock(volumeN)
	env := blockOr(b.env[:], envs)[:1]
	env[0] = corev1.EnvVar{Name: "HOME", Value: w.home}
	mounts := blockOr(b.mounts[:], mountN)[:2]
	mounts[0] = corev1.VolumeMount{Name: "data", MountPath: w.home}
	mounts[1] = corev1.VolumeMount{Name: "tmp", MountPath: "/tmp"}
	b.claim.ClaimName = w.names.data
	volumes[0].Name, volumes[0].PersistentVolumeClaim = "data", &b.claim
	volumes[1].Name, volumes[1].EmptyDir = "tmp", &b.emptyDir
	var stateDir, codexHome string
	switch p.StateEnv {
	case compile.EnvStateDir:
		// The configuration mount is read-only: OpenClaw (2026.9 and
		// later) then writes nothing beside it (no last-known-good
		// backup or recovery, no config repair), and keeps its state in
		// OPENCLAW_STATE_DIR on the data volume.
		stateDir = joinPath(w.home, StateDirName)
		env = append(env, corev1.EnvVar{Name: p.StateEnv, Value: stateDir},
			corev1.EnvVar{Name: EnvConfigReadOnly, Value: "1"})
	case compile.EnvCodexHome:
		// CODEX_HOME is a directory of the data volume mounted in its
		// own right: the kubelet creates a subPath directory with the
		// volume root's mode, writable by the pod's fsGroup. Mounted
		// only as the parent of config.toml's subPath mount, it would be
		// created by the container runtime, root-owned, and Codex could
		// not open its state database there.
		codexHome = joinPath(w.home, CodexHomeDir)
		mounts = append(mounts, corev1.VolumeMount{Name: "data", MountPath: codexHome, SubPath: CodexHomeDir})
	}
	config := b.config[:0:1]
	if len(p.Files) > 1 {
		config = make([]configVolume, 0, len(p.Files))
	}
	for i, f := range p.Files {
		dir := ConfigDir
		if f.Role == compile.FileCodexConfig {
			if codexHome == "" {
				codexHome = joinPath(w.home, CodexHomeDir)
			}
			dir = codexHome
		}
		var file string
		if f.PathEnv != "" || f.Role == compile.FileCodexConfig {
			file = joinPath(dir, f.Name)
		}
		if f.PathEnv != "" {
			env = append(env, corev1.EnvVar{Name: f.PathEnv, Value: file})
		}
		if f.DirEnv != "" && !dirSet(p, i, f.DirEnv) {
			env = append(env, corev1.EnvVar{Name: f.DirEnv, Value: dir})
		}
		mount := corev1.VolumeMount{Name: "config", MountPath: dir, ReadOnly: true}
		if f.Role == compile.FileCodexConfig {
			// Only the file is read-only: CODEX_HOME (its state
			// database, sessions, login) stays writable.
			mount = corev1.VolumeMount{Name: "config", MountPath: file, SubPath: f.Name, ReadOnly: true}
		}
		mounts = append(mounts, mount)
		config = append(config, configVolume{mode: 0o444, source: corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: w.configMap.Name}}})
		c := &config[len(config)-1]
		c.source.DefaultMode = &c.mode
		v := nextVolume(&volumes)
		v.Name, v.ConfigMap = "config", &c.source
	}
	if p.TokenFile != "" {
		// The app-server's token, read-only, readable by the pod's
		// group (fsGroup) only.
		mounts = append(mounts, corev1.VolumeMount{Name: "token", MountPath: path.Dir(p.TokenFile), ReadOnly: true})
		t := orNew(&appServer)
		t.tokenItems[0] = corev1.KeyToPath{Key: AppServerTokenSecretKey, Path: path.Base(p.TokenFile)}
		t.tokenMode = 0o440
		t.token = corev1.SecretVolumeSource{SecretName: r.appServerToken(), Items: t.tokenItems[:], DefaultMode: &t.tokenMode}
		v := nextVolume(&volumes)
		v.Name, v.Secret = "token", &t.token
	}
	var refs []secretRef
	if secrets > 0 {
		refs = blockOr(b.refs[:], secrets)[:0]
	}
	for i := range p.Env {
		env = append(env, r.envVar(&p.Env[i], &refs))
	}
	var probe *corev1.Probe
	switch {
	case p.Readiness.HTTPPath != "":
		b.httpGet = corev1.HTTPGetAction{Path: p.Readiness.HTTPPath, Port: intstr.FromString(portName(p))}
		b.probe = corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &b.httpGet}, PeriodSeconds: 5, FailureThreshold: 3}
		probe = &b.probe
	case p.Readiness.TCP:
		t := orNew(&appServer)
		t.tcpSocket = corev1.TCPSocketAction{Port: intstr.FromString(portName(p))}
		b.probe = corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &t.tcpSocket}, PeriodSeconds: 5, FailureThreshold: 3}
		probe = &b.probe
	}
	args := blockOr(b.args[:], 1+len(p.Args))
	args[0] = string(p.Program)
	copy(args[1:], p.Args)
	c := &b.containers[0]
	c.Name, c.Image, c.Args, c.Env, c.VolumeMounts = string(w.process.Role), image, args, env, mounts
	c.ReadinessProbe, c.ImagePullPolicy, c.SecurityContext = probe, corev1.PullIfNotPresent, b.security.restricted()
	if p.Port != 0 {
		b.ports[0] = corev1.ContainerPort{Name: portName(p), ContainerPort: int32(p.Port), Protocol: corev1.ProtocolTCP}
		c.Ports = b.ports[:]
	}
	b.replicas = 1
	if r.opts.Stopped {
		b.replicas = 0
	}
	b.grace = DefaultTerminationGrace
	if p.StopGrace > 0 {
		// The process's own stop policy (the gateway drains for up to
		// compile.GatewayStopGrace seconds): the kubelet must not kill
		// it sooner.
		b.grace = int64(p.StopGrace)
	}
	b.podNonRoot, b.runAsUser, b.runAsGroup, b.fsGroup = true, RunAsUser, RunAsUser, RunAsUser
	b.seccomp.Type = corev1.SeccompProfileTypeRuntimeDefault
	b.pod.RunAsNonRoot, b.pod.RunAsUser, b.pod.RunAsGroup, b.pod.FSGroup = &b.podNonRoot, &b.runAsUser, &b.runAsGroup, &b.fsGroup
	b.pod.SeccompProfile = &b.seccomp
	d := &b.obj
	d.APIVersion, d.Kind = "apps/v1", "Deployment"
	r.setMeta(&d.ObjectMeta, w.names.workload, w.process.Role, true)
	d.Spec.Replicas = &b.replicas
	b.selector.MatchLabels = r.selector(w.process.Role)
	d.Spec.Selector = &b.selector
	// ADM-6: a replacement stops the running version before the new one
	// starts; there is no automatic rollback.
	d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	d.Spec.Template.Labels, d.Spec.Template.Annotations = podLabels, podAnnotations
	pod := &d.Spec.Template.Spec
	pod.ServiceAccountName = w.names.workload
	pod.TerminationGracePeriodSeconds = &b.grace
	pod.AutomountServiceAccountToken = &b.automount
	pod.EnableServiceLinks = &b.serviceLinks
	pod.SecurityContext = &b.pod
	pod.InitContainers = r.pluginInstalls(w, image, stateDir)
	pod.Containers = b.containers[:]
	pod.Volumes = volumes
	if b.runtimeClass = w.runtimeClass; b.runtimeClass != "" {
		pod.RuntimeClassName = &b.runtimeClass
	}
	return &b.obj, nil
}

// nextVolume extends *vs, made at its final capacity, by its next (zero)
// volume, which the caller sets in place.
func nextVolume(vs *[]corev1.Volume) *corev1.Volume {
	*vs = (*vs)[:len(*vs)+1]
	return &(*vs)[len(*vs)-1]
}

// joinPath is dir + "/" + name: for the home, state, CODEX_HOME and
// configuration paths of the default home and [ConfigDir], a constant
// instead of a new string.
func joinPath(dir, name string) string {
	switch {
	case dir == DefaultHome && name == StateDirName:
		return DefaultHome + "/" + StateDirName
	case dir == DefaultHome && name == CodexHomeDir:
		return DefaultHome + "/" + CodexHomeDir
	case dir == ConfigDir && name == ConfigFile:
		return ConfigDir + "/" + ConfigFile
	case dir == DefaultHome+"/"+CodexHomeDir && name == CodexConfigFile:
		return DefaultHome + "/" + CodexHomeDir + "/" + CodexConfigFile
	}
	return dir + "/" + name
}

// dirSet reports whether the variable dirEnv is set before p's file i
// sets it: as the state directory's variable or by an earlier file.
func dirSet(p compile.ProcessPlan, i int, dirEnv string) bool {
	if p.StateEnv == compile.EnvStateDir && dirEnv == p.StateEnv {
		return true
	}
	for _, f := range p.Files[:i] {
		if f.DirEnv == dirEnv {
			return true
		}
	}
	return false
}

// PluginInstallConfig is the scratch configuration file of a plugin
// install init container, on the pod's /tmp: OpenClaw's install records
// the plugin as enabled in its configuration file, which must not be the
// frozen, read-only one (OpenClaw refuses the install under
// OPENCLAW_CONFIG_READONLY); the native document the plan renders
// enables each provided plugin itself.
const PluginInstallConfig = "/tmp/occkit-plugin-install/openclaw.json"

// checkPlugins refuses (409) a process that needs a plugin the npm
// registry publishes no version of that its release accepts
// (compile.Plugin.Version ""): no registry mirror can serve it, and
// started without it OpenClaw would fetch it elsewhere at start.
func checkPlugins(p compile.ProcessPlan) error {
	for _, pl := range p.Plugins {
		// Spec is "" exactly when Version is: "" is no version.
		if pl.Version == "" {
			return occkit.Conflict("DRV-5", occkit.InstallationPath("harnessVersions", string(p.Program)),
				"the configuration needs the plugin %s (%s), which OpenClaw %s does not bundle and the npm registry publishes no version of that it accepts: approve another release",
				pl.ID, pl.Package, p.Version)
		}
	}
	return nil
}

// pluginInstall is one plugin install init container's lists and
// security context.
type pluginInstall struct {
	args     [5]string
	mounts   [2]corev1.VolumeMount
	security securityBlock
}

// pluginInstalls are the init containers that install a process's
// unbundled plugins (compile.ProcessPlan.Plugins) into its state
// directory, one per plugin, in the plan's order, with the process's own
// pinned image: `openclaw plugins install --force <package>@<version>`,
// the version the release installs (compile.Plugin.Spec). --force makes a
// restart reinstall over the data volume's copy instead of failing on it
// ("plugin already exists"); npm's cache under the home on the data
// volume keeps that cheap. OpenClaw records each as installed from its
// official npm package, the only install it trusts, so the process finds
// them at start and fetches nothing. stateDir is the process's state
// directory when the render made it already.
func (r *renderer) pluginInstalls(w workload, image, stateDir string) []corev1.Container {
	p := w.process
	if len(p.Plugins) == 0 || p.Program != compile.ProgramOpenClaw {
		return nil
	}
	if stateDir == "" {
		stateDir = joinPath(w.home, StateDirName)
	}
	reg := r.opts.Plugins.Registry
	env := make([]corev1.EnvVar, 3, 4)
	env[0] = corev1.EnvVar{Name: "HOME", Value: w.home}
	env[1] = corev1.EnvVar{Name: compile.EnvStateDir, Value: stateDir}
	env[2] = corev1.EnvVar{Name: compile.EnvConfigPath, Value: PluginInstallConfig}
	if reg != "" {
		env = append(env, corev1.EnvVar{Name: "npm_config_registry", Value: reg})
	}
	out := make([]corev1.Container, len(p.Plugins))
	blocks := make([]pluginInstall, len(p.Plugins))
	for i, pl := range p.Plugins {
		name := "plugin-" + pl.ID
		if !dns1123Label(name) {
			name = "plugin-" + strconv.Itoa(i)
		}
		b := &blocks[i]
		b.args[0], b.args[1], b.args[2], b.args[3], b.args[4] = string(compile.ProgramOpenClaw), "plugins", "install", "--force", pl.Spec()
		b.mounts[0].Name, b.mounts[0].MountPath = "data", w.home
		b.mounts[1].Name, b.mounts[1].MountPath = "tmp", "/tmp"
		c := &out[i]
		c.Name, c.Image, c.Args, c.Env, c.VolumeMounts = name, image, b.args[:], env, b.mounts[:]
		c.ImagePullPolicy, c.SecurityContext = corev1.PullIfNotPresent, b.security.restricted()
	}
	return out
}

func ptr[T any](v T) *T { return &v }
