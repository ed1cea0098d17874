package kubernetes

// The render as it was before issue 29's allocation work (main 2b1eac8),
// kept as the oracle of TestRenderMatchesOracle: every object Render
// returns, and every refusal, must stay what this code produced. Only
// identifiers are renamed (old...), exported ones qualified with render.

import (
	"crypto/sha256"
	"encoding/hex"
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
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/logging"
)

func oldRender(rev drivers.Revision, opts render.Options) (render.Objects, error) {
	if ar, ok := rev.(*admission.Revision); rev == nil || ok && ar == nil {
		return render.Objects{}, occkit.Invalid("DRV-5", occkit.Root(), "a revision is required")
	}
	planner, ok := rev.(compile.Planner)
	if !ok {
		return render.Objects{}, occkit.Invalid("DRV-5", occkit.Root(), "the revision cannot plan its render: pass an admitted revision")
	}
	if rev.Compute() != occkit.ComputeKubernetes {
		return render.Objects{}, occkit.Conflict("ADM-5", occkit.RevisionPath("compute"),
			"the revision was admitted for the %s Compute, not kubernetes; redeploy it on this Compute", rev.Compute())
	}
	if opts.Namespace.ID == "" && opts.Namespace.Name != "" {
		// The ID labels every object and names the Secrets' namespace
		// (AUTH-2, LOG-6): a name alone is half a namespace.
		return render.Objects{}, occkit.Invalid("DRV-5", occkit.RenderPath("namespace", "id"),
			"Options.Namespace names a namespace without its ID: set ID (Name defaults to it), or leave both empty for %s", render.DefaultNamespace)
	}
	opts = opts.WithDefaults()
	r := oldRenderer{rev: rev, opts: opts, ns: opts.Namespace.Name, agent: oldHash(rev.AgentID()), revision: oldHash(rev.Digest()),
		digest: rev.Digest(), generation: strconv.FormatInt(rev.Source().Generation, 10)}
	if err := r.check(); err != nil {
		return render.Objects{}, err
	}
	harnessHome, runtimeClass := render.DefaultHome, ""
	switch rev.Topology() {
	case occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}:
	case occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}:
		home, err := r.sandbox()
		if err != nil {
			return render.Objects{}, err
		}
		harnessHome = home
		runtimeClass = opts.Sandbox.RuntimeClassName
	default:
		return render.Objects{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"),
			"kubernetes does not run %s in %s execution mode", rev.Harness(), rev.Mode())
	}
	plan, err := planner.Plan(compile.PlanOptions{
		Bind:            compile.BindLAN,
		GatewayPort:     render.GatewayPort,
		GatewayHost:     r.serviceHost(occkit.ProcessGateway),
		AppServerHost:   r.serviceHost(occkit.ProcessHarness),
		AppServerPort:   render.AppServerPort,
		AppServerListen: "0.0.0.0",
		// The app-server listens on the pod network: it authenticates
		// its gateway with the Agent's app-server token.
		AppServerTokenFile: render.AppServerTokenFile,
		Namespace:          opts.Namespace.ID,
	})
	if err != nil {
		return render.Objects{}, err
	}
	n := len(plan.Processes)
	objs := render.Objects{Namespace: r.ns, Tokens: make([]render.Token, 1, 1+n)}
	objs.Tokens[0] = render.Token{Name: oldGatewayTokenSecretName(r.agent), Key: render.GatewayTokenSecretKey, Component: occkit.ProcessGateway}
	if n > 0 {
		// Every process has one of each (a Service only with a port).
		objs.ServiceAccounts = make([]*corev1.ServiceAccount, 0, n)
		objs.PersistentVolumeClaims = make([]*corev1.PersistentVolumeClaim, 0, n)
		objs.Deployments = make([]*appsv1.Deployment, 0, n)
	}
	for _, p := range plan.Processes {
		if err := oldCheckPlugins(p); err != nil {
			return render.Objects{}, err
		}
		w := oldWorkload{process: p, home: render.DefaultHome}
		if p.Role == occkit.ProcessHarness {
			w.home, w.runtimeClass = harnessHome, runtimeClass
		}
		for _, f := range p.Files {
			w.configMap = r.configMap(p.Role, f.Name, f.Data)
			objs.ConfigMaps = append(objs.ConfigMaps, w.configMap)
		}
		dep, err := r.deployment(w)
		if err != nil {
			return render.Objects{}, err
		}
		objs.ServiceAccounts = append(objs.ServiceAccounts, r.serviceAccount(p.Role))
		objs.PersistentVolumeClaims = append(objs.PersistentVolumeClaims, r.claim(p.Role))
		if p.Port != 0 {
			objs.Services = append(objs.Services, r.service(p.Role, oldPortName(p), int32(p.Port)))
		}
		if p.TokenFile != "" {
			objs.Tokens = append(objs.Tokens, render.Token{Name: oldAppServerTokenSecretName(r.agent), Key: render.AppServerTokenSecretKey, Component: p.Role})
		}
		objs.Deployments = append(objs.Deployments, dep)
	}
	return objs, nil
}

func (r *oldRenderer) sandbox() (string, error) {
	sb := r.opts.Sandbox
	if sb == nil || !drivers.QualifiedSandbox(&sb.Facts) {
		return "", occkit.Conflict("RES-13", occkit.AgentPath("executionMode"),
			"dedicated openclaw needs a qualifying SandboxDriver on this Compute; missing Driver: SandboxDriver")
	}
	if r.rev.SandboxDriverID() != sb.ID {
		return "", occkit.Conflict("ADM-5", occkit.RevisionPath("sandboxDriverId"),
			"the revision is not bound to this Compute's SandboxDriver; redeploy")
	}
	if sb.HarnessHome == "" {
		return render.DefaultHome, nil
	}
	at := oldSettingsPath.Key("sandbox").Key("harnessHome")
	if err := drivers.CheckHarnessHome(at, sb.HarnessHome); err != nil {
		return "", occkit.Conflict("DRV-2", at, "the sandbox harness home is not an absolute normalized path")
	}
	return sb.HarnessHome, nil
}

func oldImageTag(s string) bool {
	if s == "" || len(s) > 128 || s[0] == '.' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !((c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

var oldImageDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func (r *oldRenderer) image(p compile.ProcessPlan) (string, error) {
	repo, setting := r.opts.Images.OpenClaw, "openClaw"
	if p.Program == compile.ProgramCodex {
		repo, setting = r.opts.Images.Codex, "codex"
	}
	if strings.Contains(repo, "@") || strings.Contains(repo[strings.LastIndexByte(repo, '/')+1:], ":") {
		return "", occkit.Conflict("DRV-5", oldSettingsPath.Key("images").Key(setting),
			"the image repository must carry no tag or digest: the render pins it to the approved release")
	}
	if !oldImageTag(p.Version) || strings.EqualFold(p.Version, "latest") {
		return "", occkit.Conflict("ADM-3", occkit.InstallationPath("harnessVersions", string(p.Program)),
			"the revision's approved %s release is not a pinnable image tag; approve a release and redeploy", p.Program)
	}
	ref := repo + ":" + p.Version
	if d, ok := r.opts.Images.Digests[ref]; ok {
		if !oldImageDigest.MatchString(d) {
			return "", occkit.Conflict("DRV-5", oldSettingsPath.Key("images").Key("digests").Key(ref), "an image digest must be sha256:<64 hex>")
		}
		return repo + "@" + d, nil
	}
	return ref, nil
}

type oldRenderer struct {
	rev  drivers.Revision
	opts render.Options
	ns   string
	// agent and revision are the [oldHash]es of the Agent ID and the
	// revision digest, which label every object; digest and generation
	// annotate them.
	agent, revision    string
	digest, generation string
	// storage is the parsed render.Options.Storage.Size.
	storage resource.Quantity
}

var oldSettingsPath = occkit.RenderPath("kubernetes")

func (r *oldRenderer) check() error {
	if !oldDns1123Label(r.ns) {
		return occkit.Conflict("DRV-5", oldSettingsPath.Key("namespace"), "the tenant namespace name is not a DNS-1123 label")
	}
	if err := r.checkStorage(); err != nil {
		return err
	}
	if err := oldCheckRegistry(r.opts.Plugins.Registry); err != nil {
		return err
	}
	if r.rev.LoggingOwnership() != occkit.OwnedByPlatform {
		return occkit.Conflict("LOG-3", occkit.NewPath("logging"),
			"the kubernetes driver renders platform-owned logging only; redeploy the revision on this Compute")
	}
	return nil
}

func (r *oldRenderer) checkStorage() (err error) {
	r.storage, err = oldParseStorage(r.opts.Storage)
	return err
}

func oldParseStorage(s render.Storage) (resource.Quantity, error) {
	if s.Size == "" {
		s.Size = render.DefaultStorageSize
	}
	q, err := resource.ParseQuantity(s.Size)
	if err != nil || q.Sign() <= 0 {
		return resource.Quantity{}, occkit.Conflict("DRV-5", oldSettingsPath.Key("storage").Key("size"), "the storage size is not a positive Kubernetes quantity")
	}
	if s.ClassName != "" && len(validation.IsDNS1123Subdomain(s.ClassName)) > 0 {
		return resource.Quantity{}, occkit.Conflict("DRV-5", oldSettingsPath.Key("storage").Key("className"), "the storage class name is not a DNS-1123 subdomain")
	}
	return q, nil
}

func oldDns1123Label(s string) bool {
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

func oldCheckRegistry(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return occkit.Conflict("DRV-5", oldSettingsPath.Key("plugins").Key("registry"),
			"the plugin registry must be an absolute http(s) URL without credentials, query or fragment")
	}
	return nil
}

func (r *oldRenderer) labels(c occkit.Process, revision bool) map[string]string {
	return r.addLabels(make(map[string]string, 4), c, revision)
}

func (r *oldRenderer) addLabels(l map[string]string, c occkit.Process, revision bool) map[string]string {
	l[render.LabelManagedBy] = render.ManagedBy
	l[render.LabelAgent] = r.agent
	l[render.LabelComponent] = string(c)
	if revision {
		l[render.LabelRevision] = r.revision
	}
	return l
}

func (r *oldRenderer) annotations() map[string]string {
	return map[string]string{render.AnnotationDigest: r.digest, render.AnnotationGeneration: r.generation}
}

func (r *oldRenderer) meta(name string, c occkit.Process, revision bool) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: name, Namespace: r.ns, Labels: r.labels(c, revision)}
	if revision {
		m.Annotations = r.annotations()
	}
	return m
}

func (r *oldRenderer) serviceAccount(c occkit.Process) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{
		TypeMeta:                     metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta:                   r.meta(oldWorkloadName(r.agent, c), c, true),
		AutomountServiceAccountToken: ptr(false),
	}
}

func (r *oldRenderer) configMap(c occkit.Process, file string, data []byte) *corev1.ConfigMap {
	// An admitted revision's plan hands each render bytes of its own,
	// which nothing writes after: the ConfigMap takes them without a
	// second copy of the document (performance, issue 29).
	var text string
	if _, own := r.rev.(*admission.Revision); own {
		text = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		text = string(data)
	}
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: r.meta(oldConfigName(r.agent, r.revision, c), c, true),
		Immutable:  ptr(true),
		Data:       map[string]string{file: text},
	}
}

func (r *oldRenderer) claim(c occkit.Process) *corev1.PersistentVolumeClaim {
	pvc := &corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: r.meta(oldDataName(r.agent, c), c, false),
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: r.storage.DeepCopy()},
			},
		},
	}
	if r.opts.Storage.ClassName != "" {
		pvc.Spec.StorageClassName = ptr(r.opts.Storage.ClassName)
	}
	return pvc
}

func (r *oldRenderer) service(c occkit.Process, oldPortName string, port int32) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: r.meta(oldWorkloadName(r.agent, c), c, true),
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: r.selector(c),
			Ports: []corev1.ServicePort{{
				Name: oldPortName, Port: port, TargetPort: intstr.FromString(oldPortName), Protocol: corev1.ProtocolTCP,
			}},
		},
	}
}

func (r *oldRenderer) selector(c occkit.Process) map[string]string {
	return map[string]string{render.LabelAgent: r.agent, render.LabelComponent: string(c)}
}

func (r *oldRenderer) serviceHost(c occkit.Process) string {
	return oldWorkloadName(r.agent, c) + "." + r.ns + ".svc"
}

type oldWorkload struct {
	process      compile.ProcessPlan
	home         string
	configMap    *corev1.ConfigMap
	runtimeClass string
}

func oldPortName(p compile.ProcessPlan) string {
	if p.Program == compile.ProgramCodex {
		return "app-server"
	}
	return "gateway"
}

func (r *oldRenderer) envVar(e compile.Env) corev1.EnvVar {
	switch {
	case e.Placeholder:
		return corev1.EnvVar{Name: e.Name, Value: render.PlaceholderValue}
	case e.GatewayToken:
		return oldSecretEnv(e.Name, oldGatewayTokenSecretName(r.agent), render.GatewayTokenSecretKey)
	case e.AppServerToken:
		return oldSecretEnv(e.Name, oldAppServerTokenSecretName(r.agent), render.AppServerTokenSecretKey)
	case !e.Secret.IsZero():
		return oldSecretEnv(e.Name, oldCredentialSecretName(e.Secret), oldCredentialSecretKey(e.Secret))
	}
	return corev1.EnvVar{Name: e.Name, Value: e.Value}
}

func oldSecretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key, Optional: ptr(false),
	}}}
}

func (r *oldRenderer) deployment(w oldWorkload) (*appsv1.Deployment, error) {
	p := w.process
	image, err := r.image(p)
	if err != nil {
		return nil, err
	}
	meta, err := logging.CollectorMetadata(logging.Identity{
		Harness: r.rev.Harness(), Mode: r.rev.Mode(), Container: w.process.Role,
		Version: r.rev.HarnessIdentity().Version, Namespace: r.opts.Namespace.ID,
		Agent: r.rev.AgentID(), Revision: r.rev.Digest(),
	})
	if err != nil {
		return nil, err
	}
	// The Collector's labels and annotations (LOG-6) win over the
	// driver's, in maps made at their size.
	podLabels := r.addLabels(make(map[string]string, len(meta.Labels)+4), w.process.Role, true)
	for k, v := range meta.Labels {
		podLabels[k] = v
	}
	podAnnotations := make(map[string]string, len(meta.Annotations)+2)
	podAnnotations[render.AnnotationDigest], podAnnotations[render.AnnotationGeneration] = r.digest, r.generation
	for k, v := range meta.Annotations {
		podAnnotations[k] = v
	}
	// The lists are made at their final length: HOME, the state
	// directory's two variables, two per file, then the plan's; the data,
	// tmp, CODEX_HOME and token mounts and volumes besides the files'.
	env := make([]corev1.EnvVar, 1, 3+2*len(p.Files)+len(p.Env))
	env[0] = corev1.EnvVar{Name: "HOME", Value: w.home}
	mounts := make([]corev1.VolumeMount, 2, 4+len(p.Files))
	mounts[0] = corev1.VolumeMount{Name: "data", MountPath: w.home}
	mounts[1] = corev1.VolumeMount{Name: "tmp", MountPath: "/tmp"}
	volumes := make([]corev1.Volume, 2, 3+len(p.Files))
	volumes[0] = corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
		ClaimName: oldDataName(r.agent, w.process.Role)}}}
	volumes[1] = corev1.Volume{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
	set := map[string]bool{}
	switch p.StateEnv {
	case compile.EnvStateDir:
		// The configuration mount is read-only: OpenClaw (2026.9 and
		// later) then writes nothing beside it (no last-known-good
		// backup or recovery, no config repair), and keeps its state in
		// OPENCLAW_STATE_DIR on the data volume.
		env = append(env, corev1.EnvVar{Name: p.StateEnv, Value: w.home + "/" + render.StateDirName},
			corev1.EnvVar{Name: render.EnvConfigReadOnly, Value: "1"})
		set[p.StateEnv] = true
	case compile.EnvCodexHome:
		// CODEX_HOME is a directory of the data volume mounted in its
		// own right: the kubelet creates a subPath directory with the
		// volume root's mode, writable by the pod's fsGroup. Mounted
		// only as the parent of config.toml's subPath mount, it would be
		// created by the container runtime, root-owned, and Codex could
		// not open its state database there.
		mounts = append(mounts, corev1.VolumeMount{Name: "data", MountPath: w.home + "/" + render.CodexHomeDir, SubPath: render.CodexHomeDir})
	}
	for _, f := range p.Files {
		dir := render.ConfigDir
		if f.Role == compile.FileCodexConfig {
			dir = w.home + "/" + render.CodexHomeDir
		}
		if f.PathEnv != "" {
			env = append(env, corev1.EnvVar{Name: f.PathEnv, Value: dir + "/" + f.Name})
		}
		if f.DirEnv != "" && !set[f.DirEnv] {
			env = append(env, corev1.EnvVar{Name: f.DirEnv, Value: dir})
			set[f.DirEnv] = true
		}
		mount := corev1.VolumeMount{Name: "config", MountPath: dir, ReadOnly: true}
		if f.Role == compile.FileCodexConfig {
			// Only the file is read-only: CODEX_HOME (its state
			// database, sessions, login) stays writable.
			mount = corev1.VolumeMount{Name: "config", MountPath: dir + "/" + f.Name, SubPath: f.Name, ReadOnly: true}
		}
		mounts = append(mounts, mount)
		volumes = append(volumes, corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: w.configMap.Name},
			DefaultMode:          ptr(int32(0o444)),
		}}})
	}
	if p.TokenFile != "" {
		// The app-server's token, read-only, readable by the pod's
		// group (fsGroup) only.
		mounts = append(mounts, corev1.VolumeMount{Name: "token", MountPath: path.Dir(p.TokenFile), ReadOnly: true})
		volumes = append(volumes, corev1.Volume{Name: "token", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName:  oldAppServerTokenSecretName(r.agent),
			Items:       []corev1.KeyToPath{{Key: render.AppServerTokenSecretKey, Path: path.Base(p.TokenFile)}},
			DefaultMode: ptr(int32(0o440)),
		}}})
	}
	for _, e := range p.Env {
		env = append(env, r.envVar(e))
	}
	var probe *corev1.Probe
	switch {
	case p.Readiness.HTTPPath != "":
		probe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: p.Readiness.HTTPPath, Port: intstr.FromString(oldPortName(p))}}, PeriodSeconds: 5, FailureThreshold: 3}
	case p.Readiness.TCP:
		probe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{
			Port: intstr.FromString(oldPortName(p))}}, PeriodSeconds: 5, FailureThreshold: 3}
	}
	container := corev1.Container{
		Name:            string(w.process.Role),
		Image:           image,
		Args:            append(append(make([]string, 0, 1+len(p.Args)), string(p.Program)), p.Args...),
		Env:             env,
		VolumeMounts:    mounts,
		ReadinessProbe:  probe,
		ImagePullPolicy: corev1.PullIfNotPresent,
		SecurityContext: oldContainerSecurity(),
	}
	if p.Port != 0 {
		container.Ports = []corev1.ContainerPort{{Name: oldPortName(p), ContainerPort: int32(p.Port), Protocol: corev1.ProtocolTCP}}
	}
	replicas := int32(1)
	if r.opts.Stopped {
		replicas = 0
	}
	name := oldWorkloadName(r.agent, w.process.Role)
	grace := int64(render.DefaultTerminationGrace)
	if p.StopGrace > 0 {
		// The process's own stop policy (the gateway drains for up to
		// compile.GatewayStopGrace seconds): the kubelet must not kill
		// it sooner.
		grace = int64(p.StopGrace)
	}
	pod := corev1.PodSpec{
		ServiceAccountName:            name,
		TerminationGracePeriodSeconds: ptr(grace),
		AutomountServiceAccountToken:  ptr(false),
		EnableServiceLinks:            ptr(false),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr(true),
			RunAsUser:      ptr(int64(render.RunAsUser)),
			RunAsGroup:     ptr(int64(render.RunAsUser)),
			FSGroup:        ptr(int64(render.RunAsUser)),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		InitContainers: r.pluginInstalls(w, image),
		Containers:     []corev1.Container{container},
		Volumes:        volumes,
	}
	if w.runtimeClass != "" {
		pod.RuntimeClassName = ptr(w.runtimeClass)
	}
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: r.meta(name, w.process.Role, true),
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: r.selector(w.process.Role)},
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

func oldContainerSecurity() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		RunAsNonRoot:             ptr(true),
		Privileged:               ptr(false),
		AllowPrivilegeEscalation: ptr(false),
		ReadOnlyRootFilesystem:   ptr(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

func oldCheckPlugins(p compile.ProcessPlan) error {
	for _, pl := range p.Plugins {
		if pl.Spec() == "" {
			return occkit.Conflict("DRV-5", occkit.InstallationPath("harnessVersions", string(p.Program)),
				"the configuration needs the plugin %s (%s), which OpenClaw %s does not bundle and the npm registry publishes no version of that it accepts: approve another release",
				pl.ID, pl.Package, p.Version)
		}
	}
	return nil
}

func (r *oldRenderer) pluginInstalls(w oldWorkload, image string) []corev1.Container {
	p := w.process
	if len(p.Plugins) == 0 || p.Program != compile.ProgramOpenClaw {
		return nil
	}
	env := []corev1.EnvVar{
		{Name: "HOME", Value: w.home},
		{Name: compile.EnvStateDir, Value: w.home + "/" + render.StateDirName},
		{Name: compile.EnvConfigPath, Value: render.PluginInstallConfig},
	}
	if reg := r.opts.Plugins.Registry; reg != "" {
		env = append(env, corev1.EnvVar{Name: "npm_config_registry", Value: reg})
	}
	out := make([]corev1.Container, 0, len(p.Plugins))
	for i, pl := range p.Plugins {
		name := "plugin-" + pl.ID
		if !oldDns1123Label(name) {
			name = "plugin-" + strconv.Itoa(i)
		}
		out = append(out, corev1.Container{
			Name:  name,
			Image: image,
			Args:  []string{string(compile.ProgramOpenClaw), "plugins", "install", "--force", pl.Spec()},
			Env:   env,
			VolumeMounts: []corev1.VolumeMount{
				{Name: "data", MountPath: w.home},
				{Name: "tmp", MountPath: "/tmp"},
			},
			ImagePullPolicy: corev1.PullIfNotPresent,
			SecurityContext: oldContainerSecurity(),
		})
	}
	return out
}

func oldHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:render.HashLen/2])
}

func oldSuffix(p occkit.Process) string {
	if p == occkit.ProcessHarness {
		return "harness"
	}
	return "gw"
}

func oldWorkloadName(agent string, p occkit.Process) string {
	return "occ-" + agent + "-" + oldSuffix(p)
}

func oldDataName(agent string, p occkit.Process) string { return oldWorkloadName(agent, p) + "-data" }

func oldConfigName(agent, revision string, p occkit.Process) string {
	return "occ-" + agent + "-" + revision + "-" + oldSuffix(p)
}

func oldCredentialSecretName(ref occkit.SourceRef) string {
	if ref.Kind == occkit.SourceServiceAccount {
		return "occ-" + oldHash(ref.ID) + "-token"
	}
	return "occ-" + oldHash(ref.ID) + "-cred"
}

func oldCredentialSecretKey(ref occkit.SourceRef) string {
	if ref.Kind == occkit.SourceServiceAccount {
		return "token"
	}
	return "value"
}

func oldGatewayTokenSecretName(agent string) string { return "occ-" + agent + "-gw-token" }

func oldAppServerTokenSecretName(agent string) string { return "occ-" + agent + "-harness-token" }
