package kubernetes

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/deploy"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
)

// Defaults of [RenderOptions].
const (
	// DefaultNamespace is the tenant namespace when none is given.
	DefaultNamespace = "occkit"
	// DefaultOpenClawImage runs the gateway and the native OpenClaw Harness.
	DefaultOpenClawImage = "ghcr.io/openclaw/openclaw:latest"
	// DefaultCodexImage runs the Codex app-server.
	DefaultCodexImage = "ghcr.io/openclaw/codex-app-server:latest"
	// DefaultStorageSize is the size of each workload's data volume.
	DefaultStorageSize = "10Gi"
	// DefaultHome is the home directory (and data volume mount) of every
	// container: OpenClaw keeps its state under it.
	DefaultHome = "/home/node"
	// RunAsUser is the non-root user and group every container runs as.
	RunAsUser = 1000
)

// Ports and file names the rendered workloads use.
const (
	// GatewayPort is the OpenClaw gateway's WebSocket/HTTP port.
	GatewayPort = 18789
	// AppServerPort is the dedicated Codex app-server's WebSocket port.
	AppServerPort = 4500
	// ConfigFile is the admitted document's file name in its ConfigMap and
	// under [logging.ConfigDir].
	ConfigFile = "openclaw.json"
	// CodexConfigFile is the Codex app-server configuration's file name in
	// its ConfigMap and under CODEX_HOME.
	CodexConfigFile = "config.toml"
	// CodexHomeDir is CODEX_HOME relative to the Harness home.
	CodexHomeDir = ".codex"
	// PlaceholderValue is what a credential_source placeholder variable
	// holds: the Sandbox egress proxy substitutes the real key (AUTH-3).
	PlaceholderValue = "opaque-occkit-credential-source"
)

// Images are the container images of the rendered workloads.
type Images struct {
	// OpenClaw runs every OpenClaw process: the gateway and the native
	// Harness. Empty: [DefaultOpenClawImage].
	OpenClaw string
	// Codex runs the Codex app-server. Empty: [DefaultCodexImage].
	Codex string
}

// Storage configures the per-workload data volumes.
type Storage struct {
	// Size is the requested size, a Kubernetes quantity. Empty:
	// [DefaultStorageSize].
	Size string
	// ClassName is the StorageClass; empty leaves the cluster default.
	ClassName string
}

// Sandbox is the SandboxDriver that contains a dedicated OpenClaw Harness
// on this Compute (RES-13, DRV-2).
type Sandbox struct {
	// ID is the SandboxDriver's name: the sandbox binding admission froze
	// into the revision. A revision bound to another driver is refused.
	ID string
	// Facts are what the driver declares; only a qualifying driver
	// ([drivers.QualifiedSandbox]) lets this Compute offer dedicated OpenClaw.
	Facts deploy.SandboxFacts
	// RuntimeClassName is the RuntimeClass the Harness pod runs under
	// (the sandbox's containment); empty sets none.
	RuntimeClassName string
	// HarnessHome is the Harness's home inside the sandbox; empty is
	// [DefaultHome].
	HarnessHome string
}

// RenderOptions are the installation facts [Render] needs besides the
// revision. The zero value renders into [DefaultNamespace] with the
// default images and storage.
type RenderOptions struct {
	// Namespace is the Agent's tenant namespace; the zero value is
	// {ID: DefaultNamespace, Name: DefaultNamespace}, an empty Name is ID.
	Namespace drivers.Namespace
	Images    Images
	Storage   Storage
	// Sandbox is the configured SandboxDriver, or nil: dedicated OpenClaw
	// needs one.
	Sandbox *Sandbox
	// Stopped renders every workload with zero replicas: stopped but
	// re-startable, its data intact.
	Stopped bool
}

func (o RenderOptions) withDefaults() RenderOptions {
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
// labels.
type Objects struct {
	// Namespace is the tenant namespace the objects live in.
	Namespace              string
	ServiceAccounts        []*corev1.ServiceAccount
	ConfigMaps             []*corev1.ConfigMap
	PersistentVolumeClaims []*corev1.PersistentVolumeClaim
	Services               []*corev1.Service
	Deployments            []*appsv1.Deployment
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
//   - Embedded OpenClaw is one Deployment (gateway and built-in Harness in
//     one container) with strategy Recreate.
//   - Dedicated Codex and dedicated OpenClaw are two Deployments, the
//     gateway and the Harness, each with its own ServiceAccount and data
//     PersistentVolumeClaim, plus the Services the gateway (and the Codex
//     app-server) are reached through.
//
// Each OpenClaw process reads its native document (compile.RenderGateway,
// compile.RenderHarness) from a per-revision immutable ConfigMap mounted
// read-only at [logging.ConfigDir], found through OPENCLAW_CONFIG_PATH
// (LOG-4); the Codex app-server reads compile.RenderCodexConfig's TOML
// from its own ConfigMap. Logging environment and arguments come from
// logging.Render, credentials from the revision's projection plan as
// Secret references only (AUTH-2, AUTH-6), pod identity labels from
// logging.CollectorMetadata (LOG-6).
//
// Refusals: a nil revision or an undeclared topology is 400
// INVALID_REQUEST; a revision whose logging stamp is not intact (LOG-2),
// whose logging the platform does not own, whose credential lives in
// another namespace, that plans an inference credential for a dedicated
// gateway (AUTH-6), or a dedicated OpenClaw revision without the
// configured qualifying SandboxDriver (RES-13, ADM-5) is 409
// RESOURCE_CONFLICT.
func Render(rev drivers.Revision, opts RenderOptions) (Objects, error) {
	if rev == nil {
		return Objects{}, occkit.Invalid("DRV-5", occkit.Root(), "a revision is required")
	}
	opts = opts.withDefaults()
	r := renderer{rev: rev, opts: opts, ns: opts.Namespace.Name}
	if err := r.check(); err != nil {
		return Objects{}, err
	}
	switch rev.Topology() {
	case deploy.Topology{Harness: deploy.HarnessOpenClaw, Mode: deploy.ModeEmbedded}:
		return r.embedded()
	case deploy.Topology{Harness: deploy.HarnessCodex, Mode: deploy.ModeDedicated}:
		return r.dedicatedCodex()
	case deploy.Topology{Harness: deploy.HarnessOpenClaw, Mode: deploy.ModeDedicated}:
		return r.dedicatedOpenClaw()
	}
	return Objects{}, occkit.Invalid("RES-11", occkit.NewPath("executionMode"),
		"kubernetes does not run %s in %s execution mode", rev.Harness(), rev.Mode())
}

// renderer holds one Render call's inputs.
type renderer struct {
	rev   drivers.Revision
	opts  RenderOptions
	ns    string
	level deploy.LogLevel
}

var settingsPath = occkit.NewPath("kubernetes")

func (r *renderer) check() error {
	if errs := validation.IsDNS1123Label(r.ns); len(errs) > 0 {
		return occkit.Conflict("DRV-5", settingsPath.Key("namespace"), "the tenant namespace name is not a DNS-1123 label")
	}
	if err := r.checkStorage(); err != nil {
		return err
	}
	if r.rev.LoggingOwnership() != deploy.OwnedByPlatform {
		return occkit.Conflict("LOG-3", occkit.NewPath("logging"),
			"the kubernetes driver renders platform-owned logging only; redeploy the revision on this Compute")
	}
	level, err := logging.Guard(r.rev.Document())
	if err != nil {
		return err
	}
	if level != r.rev.Level() {
		return occkit.Conflict("LOG-2", occkit.NewPath("logging", "level"),
			"the document's logging level is not the admitted level: the revision cannot be rendered; redeploy")
	}
	r.level = level
	return nil
}

// checkStorage checks the installation's storage settings (409: the
// installation cannot run the revision).
func (r *renderer) checkStorage() error {
	if q, err := resource.ParseQuantity(r.opts.Storage.Size); err != nil || q.Sign() <= 0 {
		return occkit.Conflict("DRV-5", settingsPath.Key("storage").Key("size"), "the storage size is not a positive Kubernetes quantity")
	}
	if r.opts.Storage.ClassName != "" && len(validation.IsDNS1123Subdomain(r.opts.Storage.ClassName)) > 0 {
		return occkit.Conflict("DRV-5", settingsPath.Key("storage").Key("className"), "the storage class name is not a DNS-1123 subdomain")
	}
	return nil
}

// labels are the driver's labels of an object of component c; revision
// adds the revision label (everything but durable data).
func (r *renderer) labels(c Component, revision bool) map[string]string {
	l := map[string]string{
		LabelManagedBy: ManagedBy,
		LabelAgent:     Hash(r.rev.AgentID()),
		LabelComponent: string(c),
	}
	if revision {
		l[LabelRevision] = Hash(r.rev.Digest())
	}
	return l
}

func (r *renderer) annotations() map[string]string {
	return map[string]string{
		AnnotationDigest:     r.rev.Digest(),
		AnnotationGeneration: strconv.FormatInt(r.rev.Source().Generation, 10),
	}
}

func (r *renderer) meta(name string, c Component, revision bool) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: name, Namespace: r.ns, Labels: r.labels(c, revision)}
	if revision {
		m.Annotations = r.annotations()
	}
	return m
}

func (r *renderer) serviceAccount(c Component) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{
		TypeMeta:                     metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta:                   r.meta(WorkloadName(r.rev.AgentID(), c), c, true),
		AutomountServiceAccountToken: ptr(false),
	}
}

func (r *renderer) configMap(c Component, file string, data []byte) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: r.meta(ConfigName(r.rev.AgentID(), r.rev.Digest(), c), c, true),
		Immutable:  ptr(true),
		Data:       map[string]string{file: string(data)},
	}
}

func (r *renderer) claim(c Component) *corev1.PersistentVolumeClaim {
	pvc := &corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: r.meta(DataName(r.rev.AgentID(), c), c, false),
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(r.opts.Storage.Size)},
			},
		},
	}
	if r.opts.Storage.ClassName != "" {
		pvc.Spec.StorageClassName = ptr(r.opts.Storage.ClassName)
	}
	return pvc
}

func (r *renderer) service(c Component, portName string, port int32) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: r.meta(WorkloadName(r.rev.AgentID(), c), c, true),
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: r.selector(c),
			Ports: []corev1.ServicePort{{
				Name: portName, Port: port, TargetPort: intstr.FromString(portName), Protocol: corev1.ProtocolTCP,
			}},
		},
	}
}

// selector is a workload's immutable selector: Agent and component, never
// the revision, so a replacement updates the same Deployment.
func (r *renderer) selector(c Component) map[string]string {
	return map[string]string{LabelAgent: Hash(r.rev.AgentID()), LabelComponent: string(c)}
}

// serviceHost is the in-cluster DNS name of component c's Service.
func (r *renderer) serviceHost(c Component) string {
	return WorkloadName(r.rev.AgentID(), c) + "." + r.ns + ".svc"
}

// workload describes one Deployment before it is built.
type workload struct {
	component Component
	container logging.Container
	image     string
	args      []string
	env       []corev1.EnvVar
	home      string
	// configMap is the OpenClaw document ConfigMap mounted at ConfigDir,
	// or "" when the process reads none.
	configMap string
	// codexConfigMap is the Codex TOML ConfigMap mounted at CODEX_HOME.
	codexConfigMap string
	portName       string
	port           int32
	probe          *corev1.Probe
	runtimeClass   string
}

// loggingEnv renders the logging launch of one container (LOG-4).
func (r *renderer) loggingEnv(c logging.Container) (logging.Rendered, []corev1.EnvVar, error) {
	lr, err := logging.Render(r.rev.Harness(), r.rev.Mode(), c, r.level)
	if err != nil {
		return logging.Rendered{}, nil, err
	}
	env := make([]corev1.EnvVar, 0, len(lr.Env))
	for _, e := range lr.Env {
		env = append(env, corev1.EnvVar{Name: e.Name, Value: e.Value})
	}
	return lr, env, nil
}

// credentialEnv projects one process's variables of the projection plan
// (AUTH-2): a credential as a secretKeyRef to the Secret of its reference
// (never its bytes), a placeholder as [PlaceholderValue], a non-secret
// setting as its literal value. A reference outside the tenant namespace
// cannot be projected (a Pod reads Secrets of its own namespace only).
func (r *renderer) credentialEnv(vars []deploy.EnvVar, gateway bool) ([]corev1.EnvVar, error) {
	out := make([]corev1.EnvVar, 0, len(vars))
	for _, v := range vars {
		if errs := validation.IsEnvVarName(v.Name); len(errs) > 0 {
			return nil, occkit.Conflict("AUTH-2", occkit.NewPath("projection"), "the projection plan names an invalid environment variable")
		}
		switch {
		case gateway && (v.From != (deploy.SourceRef{}) || v.Placeholder):
			return nil, occkit.Conflict("AUTH-6", occkit.NewPath("projection", "gateway"),
				"a dedicated gateway never receives the Harness inference credential")
		case v.Placeholder:
			out = append(out, corev1.EnvVar{Name: v.Name, Value: PlaceholderValue})
		case v.From != (deploy.SourceRef{}):
			if v.From.NamespaceID != r.opts.Namespace.ID {
				return nil, occkit.Conflict("AUTH-2", occkit.NewPath("harnessAuth", "source", "namespaceId"),
					"the credential reference belongs to another namespace than the Agent's tenant namespace")
			}
			out = append(out, corev1.EnvVar{Name: v.Name, ValueFrom: &corev1.EnvVarSource{
				SecretKeyRef: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: CredentialSecretName(v.From)},
					Key:                  CredentialSecretKey(v.From),
					Optional:             ptr(false),
				},
			}})
		default:
			out = append(out, corev1.EnvVar{Name: v.Name, Value: v.Value})
		}
	}
	return out, nil
}

func (r *renderer) deployment(w workload) (*appsv1.Deployment, error) {
	meta, err := logging.CollectorMetadata(logging.Identity{
		Harness: r.rev.Harness(), Mode: r.rev.Mode(), Container: w.container,
		Version: r.rev.HarnessIdentity().Version, Namespace: r.opts.Namespace.ID,
		Agent: r.rev.AgentID(), Revision: r.rev.Digest(),
	})
	if err != nil {
		return nil, err
	}
	podLabels := r.labels(w.component, true)
	for k, v := range meta.Labels {
		podLabels[k] = v
	}
	podAnnotations := r.annotations()
	for k, v := range meta.Annotations {
		podAnnotations[k] = v
	}
	env := append([]corev1.EnvVar{{Name: "HOME", Value: w.home}}, w.env...)
	mounts := []corev1.VolumeMount{
		{Name: "data", MountPath: w.home},
		{Name: "tmp", MountPath: "/tmp"},
	}
	volumes := []corev1.Volume{
		{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
			ClaimName: DataName(r.rev.AgentID(), w.component)}}},
		{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	}
	if w.configMap != "" {
		mounts = append(mounts, corev1.VolumeMount{Name: "config", MountPath: logging.ConfigDir, ReadOnly: true})
		volumes = append(volumes, corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: w.configMap},
			DefaultMode:          ptr(int32(0o444)),
		}}})
	}
	if w.codexConfigMap != "" {
		mounts = append(mounts, corev1.VolumeMount{Name: "codex-config", ReadOnly: true,
			MountPath: w.home + "/" + CodexHomeDir + "/" + CodexConfigFile, SubPath: CodexConfigFile})
		volumes = append(volumes, corev1.Volume{Name: "codex-config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: w.codexConfigMap},
			DefaultMode:          ptr(int32(0o444)),
		}}})
	}
	container := corev1.Container{
		Name:            string(w.container),
		Image:           w.image,
		Args:            w.args,
		Env:             env,
		VolumeMounts:    mounts,
		ReadinessProbe:  w.probe,
		ImagePullPolicy: corev1.PullIfNotPresent,
		SecurityContext: &corev1.SecurityContext{
			RunAsNonRoot:             ptr(true),
			Privileged:               ptr(false),
			AllowPrivilegeEscalation: ptr(false),
			ReadOnlyRootFilesystem:   ptr(true),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		},
	}
	if w.portName != "" {
		container.Ports = []corev1.ContainerPort{{Name: w.portName, ContainerPort: w.port, Protocol: corev1.ProtocolTCP}}
	}
	replicas := int32(1)
	if r.opts.Stopped {
		replicas = 0
	}
	name := WorkloadName(r.rev.AgentID(), w.component)
	pod := corev1.PodSpec{
		ServiceAccountName:           name,
		AutomountServiceAccountToken: ptr(false),
		EnableServiceLinks:           ptr(false),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr(true),
			RunAsUser:      ptr(int64(RunAsUser)),
			RunAsGroup:     ptr(int64(RunAsUser)),
			FSGroup:        ptr(int64(RunAsUser)),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []corev1.Container{container},
		Volumes:    volumes,
	}
	if w.runtimeClass != "" {
		pod.RuntimeClassName = ptr(w.runtimeClass)
	}
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: r.meta(name, w.component, true),
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: r.selector(w.component)},
			// ADM-6: a replacement stops the running version before the
			// new one starts; there is no automatic rollback.
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: podLabels, Annotations: podAnnotations},
				Spec:       pod,
			},
		},
	}, nil
}

func gatewayProbe() *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:     corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/readyz", Port: intstr.FromString("gateway")}},
		PeriodSeconds:    5,
		FailureThreshold: 3,
	}
}

// gatewayArgs are the gateway's arguments: it listens on the pod network
// for its Service (the image's entrypoint runs them).
func gatewayArgs() []string {
	return []string{"openclaw", "gateway", "--port", strconv.Itoa(GatewayPort), "--bind", "lan"}
}

func docBytes(d occkit.Document) []byte { return d.Bytes() }

func (r *renderer) embedded() (Objects, error) {
	rev := r.rev
	doc, err := compile.RenderGateway(rev.Document(), rev.Harness(), rev.Mode())
	if err != nil {
		return Objects{}, err
	}
	_, env, err := r.loggingEnv(logging.ContainerGateway)
	if err != nil {
		return Objects{}, err
	}
	// AUTH-2: the combined gateway/Harness process gets the Harness plan.
	cred, err := r.credentialEnv(rev.Projection().Harness, false)
	if err != nil {
		return Objects{}, err
	}
	if len(rev.Projection().Gateway) > 0 {
		return Objects{}, occkit.Conflict("AUTH-2", occkit.NewPath("projection", "gateway"),
			"an embedded topology has one process: the projection plan must not name a separate gateway")
	}
	cm := r.configMap(ComponentGateway, ConfigFile, docBytes(doc))
	dep, err := r.deployment(workload{
		component: ComponentGateway, container: logging.ContainerGateway, image: r.opts.Images.OpenClaw,
		args: gatewayArgs(), env: append(env, cred...), home: DefaultHome, configMap: cm.Name,
		portName: "gateway", port: GatewayPort, probe: gatewayProbe(),
	})
	if err != nil {
		return Objects{}, err
	}
	return Objects{
		Namespace:              r.ns,
		ServiceAccounts:        []*corev1.ServiceAccount{r.serviceAccount(ComponentGateway)},
		ConfigMaps:             []*corev1.ConfigMap{cm},
		PersistentVolumeClaims: []*corev1.PersistentVolumeClaim{r.claim(ComponentGateway)},
		Services:               []*corev1.Service{r.service(ComponentGateway, "gateway", GatewayPort)},
		Deployments:            []*appsv1.Deployment{dep},
	}, nil
}

// dedicatedGateway renders the gateway of a dedicated topology from its
// native document: no Harness inference credential (AUTH-6).
func (r *renderer) dedicatedGateway(doc occkit.Document) (*corev1.ConfigMap, *appsv1.Deployment, error) {
	_, env, err := r.loggingEnv(logging.ContainerGateway)
	if err != nil {
		return nil, nil, err
	}
	cred, err := r.credentialEnv(r.rev.Projection().Gateway, true)
	if err != nil {
		return nil, nil, err
	}
	cm := r.configMap(ComponentGateway, ConfigFile, docBytes(doc))
	dep, err := r.deployment(workload{
		component: ComponentGateway, container: logging.ContainerGateway, image: r.opts.Images.OpenClaw,
		args: gatewayArgs(), env: append(env, cred...), home: DefaultHome, configMap: cm.Name,
		portName: "gateway", port: GatewayPort, probe: gatewayProbe(),
	})
	return cm, dep, err
}

// appServerURLPath and appServerTransportPath are where the gateway's codex
// plugin finds its dedicated app-server.
var (
	appServerPath          = occkit.NewPath("plugins", "entries", "codex", "config", "appServer")
	appServerURLPath       = appServerPath.Key("url")
	appServerTransportPath = appServerPath.Key("transport")
)

func (r *renderer) dedicatedCodex() (Objects, error) {
	rev := r.rev
	gwDoc, err := compile.RenderGateway(rev.Document(), rev.Harness(), rev.Mode())
	if err != nil {
		return Objects{}, err
	}
	// Placement is the Compute's: the gateway reaches the app-server
	// through the Harness Service over WebSocket (PRB-9).
	if v := gwDoc.Get(appServerPath); v.Exists() && !v.IsObject() {
		return Objects{}, occkit.Invalid("RES-7", appServerPath, "%s must be an object", appServerPath.String())
	}
	url := fmt.Sprintf("ws://%s:%d", r.serviceHost(ComponentHarness), AppServerPort)
	if gwDoc, err = gwDoc.Set(appServerTransportPath, "websocket"); err != nil {
		return Objects{}, err
	}
	if gwDoc, err = gwDoc.Set(appServerURLPath, url); err != nil {
		return Objects{}, err
	}
	gwCM, gwDep, err := r.dedicatedGateway(gwDoc)
	if err != nil {
		return Objects{}, err
	}
	toml, err := compile.RenderCodexConfig(rev.Document(), compile.CodexOptions{})
	if err != nil {
		return Objects{}, err
	}
	lr, env, err := r.loggingEnv(logging.ContainerHarness)
	if err != nil {
		return Objects{}, err
	}
	cred, err := r.credentialEnv(rev.Projection().Harness, false)
	if err != nil {
		return Objects{}, err
	}
	env = append(env, corev1.EnvVar{Name: "CODEX_HOME", Value: DefaultHome + "/" + CodexHomeDir})
	env = append(env, cred...)
	args := append(append([]string(nil), lr.Command...), "--listen", fmt.Sprintf("ws://0.0.0.0:%d", AppServerPort))
	hCM := r.configMap(ComponentHarness, CodexConfigFile, toml)
	w := workload{
		component: ComponentHarness, container: logging.ContainerHarness, image: r.opts.Images.Codex,
		args: args, env: env, home: DefaultHome, codexConfigMap: hCM.Name,
		portName: "app-server", port: AppServerPort,
		probe: &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("app-server")}},
			PeriodSeconds: 5, FailureThreshold: 3,
		},
	}
	if lr.ConfigPath != "" {
		w.configMap = gwCM.Name
	}
	hDep, err := r.deployment(w)
	if err != nil {
		return Objects{}, err
	}
	return Objects{
		Namespace:              r.ns,
		ServiceAccounts:        []*corev1.ServiceAccount{r.serviceAccount(ComponentGateway), r.serviceAccount(ComponentHarness)},
		ConfigMaps:             []*corev1.ConfigMap{gwCM, hCM},
		PersistentVolumeClaims: []*corev1.PersistentVolumeClaim{r.claim(ComponentGateway), r.claim(ComponentHarness)},
		Services: []*corev1.Service{
			r.service(ComponentGateway, "gateway", GatewayPort),
			r.service(ComponentHarness, "app-server", AppServerPort),
		},
		Deployments: []*appsv1.Deployment{gwDep, hDep},
	}, nil
}

func (r *renderer) dedicatedOpenClaw() (Objects, error) {
	rev := r.rev
	sb := r.opts.Sandbox
	mode := occkit.NewPath("executionMode")
	if sb == nil || !drivers.QualifiedSandbox(&sb.Facts) {
		return Objects{}, occkit.Conflict("RES-13", mode,
			"dedicated openclaw needs a qualifying SandboxDriver on this Compute; missing Driver: SandboxDriver")
	}
	if rev.SandboxDriverID() != sb.ID {
		return Objects{}, occkit.Conflict("ADM-5", occkit.NewPath("sandboxDriverId"),
			"the revision is not bound to this Compute's SandboxDriver; redeploy")
	}
	home := DefaultHome
	if sb.HarnessHome != "" {
		if err := drivers.CheckHarnessHome(settingsPath.Key("sandbox").Key("harnessHome"), sb.HarnessHome); err != nil {
			return Objects{}, occkit.Conflict("DRV-2", settingsPath.Key("sandbox").Key("harnessHome"), "the sandbox harness home is not an absolute normalized path")
		}
		home = sb.HarnessHome
	}
	gwDoc, err := compile.RenderGateway(rev.Document(), rev.Harness(), rev.Mode())
	if err != nil {
		return Objects{}, err
	}
	gwCM, gwDep, err := r.dedicatedGateway(gwDoc)
	if err != nil {
		return Objects{}, err
	}
	hDoc, err := compile.RenderHarness(rev.Document(), rev.Harness(), rev.Mode())
	if err != nil {
		return Objects{}, err
	}
	_, env, err := r.loggingEnv(logging.ContainerHarness)
	if err != nil {
		return Objects{}, err
	}
	cred, err := r.credentialEnv(rev.Projection().Harness, false)
	if err != nil {
		return Objects{}, err
	}
	hCM := r.configMap(ComponentHarness, ConfigFile, docBytes(hDoc))
	// The native node host dials the gateway through its Service.
	hDep, err := r.deployment(workload{
		component: ComponentHarness, container: logging.ContainerHarness, image: r.opts.Images.OpenClaw,
		args: []string{"openclaw", "node", "run", "--host", r.serviceHost(ComponentGateway), "--port", strconv.Itoa(GatewayPort)},
		env:  append(env, cred...), home: home, configMap: hCM.Name, runtimeClass: sb.RuntimeClassName,
	})
	if err != nil {
		return Objects{}, err
	}
	return Objects{
		Namespace:              r.ns,
		ServiceAccounts:        []*corev1.ServiceAccount{r.serviceAccount(ComponentGateway), r.serviceAccount(ComponentHarness)},
		ConfigMaps:             []*corev1.ConfigMap{gwCM, hCM},
		PersistentVolumeClaims: []*corev1.PersistentVolumeClaim{r.claim(ComponentGateway), r.claim(ComponentHarness)},
		Services:               []*corev1.Service{r.service(ComponentGateway, "gateway", GatewayPort)},
		Deployments:            []*appsv1.Deployment{gwDep, hDep},
	}, nil
}

func ptr[T any](v T) *T { return &v }
