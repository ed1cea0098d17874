package render

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The typed reader. It reads a rendered object's apply body into a
// [yamlTree] straight from the object's fields, as encoding/json would
// write them (the json tags' names and omitempty, resource.Quantity and
// intstr.IntOrString as they marshal, nil pointers, slices and maps as
// the nulls the apply body drops, the top-level status dropped), without
// the JSON text and its reflection in between (issue 29). It reads the
// five kinds [Render] returns and, of each type, the fields Render sets;
// a type's other fields must hold their zero value ([unread]), else the
// object goes through its JSON as before: a field the reader does not
// know is never dropped. TestTypedReaderMatchesJSON compares both trees'
// YAML on rendered and drawn objects, TestTypedReaderFields sets every
// field of every type in turn.

// unread is the fields of a struct type that the typed reader does not
// read: each must be zero for it to read a value of the type.
type unread struct {
	typ    reflect.Type
	fields []int
	// never: a field the reader does not read is one encoding/json
	// writes even when zero (no omitempty, not nullable): no value of the
	// type is read.
	never bool
}

// unreadFields are the fields of T that are not named in read. It panics
// when read names a field T does not have: the reader is then out of date
// with the Kubernetes API types.
func unreadFields[T any](read ...string) *unread {
	ty := reflect.TypeFor[T]()
	u := &unread{typ: ty}
	allUnread = append(allUnread, u)
	for _, name := range read {
		if _, ok := ty.FieldByName(name); !ok {
			panic("render: " + ty.String() + " has no field " + name)
		}
	}
	for i := 0; i < ty.NumField(); i++ {
		f := ty.Field(i)
		if contains(read, f.Name) {
			continue
		}
		u.fields = append(u.fields, i)
		_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		opts = "," + opts + ","
		omitted := strings.Contains(opts, ",omitzero,") || f.Type.Kind() != reflect.Struct && strings.Contains(opts, ",omitempty,")
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			omitted = true // a zero value is null, which the apply body drops
		}
		if !omitted && f.IsExported() && f.Tag.Get("json") != "-" {
			u.never = true
		}
	}
	return u
}

// allUnread are the unread fields of every type the reader reads.
var allUnread []*unread

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// zero reports whether every unread field of *p is zero.
func zero[T any](u *unread, p *T) bool {
	if u.never {
		return false
	}
	v := reflect.ValueOf(p).Elem()
	for _, i := range u.fields {
		if !v.Field(i).IsZero() {
			return false
		}
	}
	return true
}

// The fields the typed reader reads, by type.
var (
	typeMetaRest       = unreadFields[metav1.TypeMeta]("APIVersion", "Kind")
	objectMetaRest     = unreadFields[metav1.ObjectMeta]("Name", "Namespace", "Labels", "Annotations")
	serviceAccountRest = unreadFields[corev1.ServiceAccount]("TypeMeta", "ObjectMeta", "AutomountServiceAccountToken")
	configMapRest      = unreadFields[corev1.ConfigMap]("TypeMeta", "ObjectMeta", "Immutable", "Data")
	claimRest          = unreadFields[corev1.PersistentVolumeClaim]("TypeMeta", "ObjectMeta", "Spec", "Status")
	claimSpecRest      = unreadFields[corev1.PersistentVolumeClaimSpec]("AccessModes", "Resources", "StorageClassName")
	volumeResRest      = unreadFields[corev1.VolumeResourceRequirements]("Limits", "Requests")
	serviceRest        = unreadFields[corev1.Service]("TypeMeta", "ObjectMeta", "Spec", "Status")
	serviceSpecRest    = unreadFields[corev1.ServiceSpec]("Ports", "Selector", "Type")
	servicePortRest    = unreadFields[corev1.ServicePort]("Name", "Port", "Protocol", "TargetPort")
	deploymentRest     = unreadFields[appsv1.Deployment]("TypeMeta", "ObjectMeta", "Spec", "Status")
	deploymentSpecRest = unreadFields[appsv1.DeploymentSpec]("Replicas", "Selector", "Strategy", "Template")
	selectorRest       = unreadFields[metav1.LabelSelector]("MatchLabels")
	strategyRest       = unreadFields[appsv1.DeploymentStrategy]("Type")
	templateRest       = unreadFields[corev1.PodTemplateSpec]("ObjectMeta", "Spec")
	podSpecRest        = unreadFields[corev1.PodSpec]("AutomountServiceAccountToken", "Containers", "EnableServiceLinks",
		"InitContainers", "RuntimeClassName", "SecurityContext", "ServiceAccountName", "TerminationGracePeriodSeconds", "Volumes")
	podSecurityRest = unreadFields[corev1.PodSecurityContext]("FSGroup", "RunAsGroup", "RunAsNonRoot", "RunAsUser", "SeccompProfile")
	seccompRest     = unreadFields[corev1.SeccompProfile]("Type")
	containerRest   = unreadFields[corev1.Container]("Args", "Env", "Image", "ImagePullPolicy", "Name", "Ports",
		"ReadinessProbe", "Resources", "SecurityContext", "VolumeMounts")
	resourcesRest     = unreadFields[corev1.ResourceRequirements]("Limits", "Requests")
	envVarRest        = unreadFields[corev1.EnvVar]("Name", "Value", "ValueFrom")
	envSourceRest     = unreadFields[corev1.EnvVarSource]("SecretKeyRef")
	secretKeyRest     = unreadFields[corev1.SecretKeySelector]("LocalObjectReference", "Key", "Optional")
	localRefRest      = unreadFields[corev1.LocalObjectReference]("Name")
	mountRest         = unreadFields[corev1.VolumeMount]("MountPath", "Name", "ReadOnly", "SubPath")
	volumeRest        = unreadFields[corev1.Volume]("Name", "VolumeSource")
	volumeSourceRest  = unreadFields[corev1.VolumeSource]("ConfigMap", "EmptyDir", "PersistentVolumeClaim", "Secret")
	claimSourceRest   = unreadFields[corev1.PersistentVolumeClaimVolumeSource]("ClaimName", "ReadOnly")
	emptyDirRest      = unreadFields[corev1.EmptyDirVolumeSource]("Medium")
	configSourceRest  = unreadFields[corev1.ConfigMapVolumeSource]("LocalObjectReference", "DefaultMode", "Items", "Optional")
	secretSourceRest  = unreadFields[corev1.SecretVolumeSource]("DefaultMode", "Items", "Optional", "SecretName")
	keyToPathRest     = unreadFields[corev1.KeyToPath]("Key", "Mode", "Path")
	probeRest         = unreadFields[corev1.Probe]("ProbeHandler", "FailureThreshold", "InitialDelaySeconds", "PeriodSeconds", "SuccessThreshold", "TimeoutSeconds")
	probeHandlerRest  = unreadFields[corev1.ProbeHandler]("HTTPGet", "TCPSocket")
	httpGetRest       = unreadFields[corev1.HTTPGetAction]("Host", "Path", "Port", "Scheme")
	tcpSocketRest     = unreadFields[corev1.TCPSocketAction]("Host", "Port")
	containerPortRest = unreadFields[corev1.ContainerPort]("ContainerPort", "Name", "Protocol")
	securityRest      = unreadFields[corev1.SecurityContext]("AllowPrivilegeEscalation", "Capabilities", "Privileged",
		"ReadOnlyRootFilesystem", "RunAsGroup", "RunAsNonRoot", "RunAsUser")
	capabilitiesRest = unreadFields[corev1.Capabilities]("Add", "Drop")
)

// typedReader reads one object into its tree. A mapping's or a
// sequence's members gather on tree.open from a mark and move to
// tree.nodes when it closes, as [yamlTree.container] does; ok turns false
// at the first value the reader does not read.
type typedReader struct {
	t  *yamlTree
	ok bool
}

// readTyped reads obj's apply body into t from its fields; ok is false
// when obj is of a kind or holds a field the reader does not read.
func (t *yamlTree) readTyped(obj Object) (yamlNode, bool) {
	r := typedReader{t: t, ok: true}
	if t.nodes == nil {
		t.nodes, t.open = make([]yamlNode, 0, 192), make([]yamlNode, 0, 48)
	}
	switch o := obj.(type) {
	case *corev1.ServiceAccount:
		if o == nil || !zero(serviceAccountRest, o) {
			return yamlNode{}, false
		}
		r.str("apiVersion", o.APIVersion)
		r.boolean("automountServiceAccountToken", o.AutomountServiceAccountToken)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
	case *corev1.ConfigMap:
		if o == nil || !zero(configMapRest, o) {
			return yamlNode{}, false
		}
		r.str("apiVersion", o.APIVersion)
		r.strMap("data", o.Data)
		r.boolean("immutable", o.Immutable)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
	case *corev1.PersistentVolumeClaim:
		if o == nil || !zero(claimRest, o) {
			return yamlNode{}, false
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.claimSpec(&o.Spec)
	case *corev1.Service:
		if o == nil || !zero(serviceRest, o) {
			return yamlNode{}, false
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.serviceSpec(&o.Spec)
	case *appsv1.Deployment:
		if o == nil || !zero(deploymentRest, o) {
			return yamlNode{}, false
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.deploymentSpec(&o.Spec)
	default:
		return yamlNode{}, false
	}
	if !r.ok {
		return yamlNode{}, false
	}
	return r.close(0, nodeObject)
}

// close moves the members gathered since mark into a container of the
// given kind, a mapping's in go-yaml's key order; ok is false when a
// mapping holds a key twice.
func (r *typedReader) close(mark int, kind byte) (yamlNode, bool) {
	t := r.t
	first := len(t.nodes)
	t.nodes = append(t.nodes, t.open[mark:]...)
	t.open = t.open[:mark]
	n := len(t.nodes) - first
	if kind == nodeObject && !sortMembers(t.nodes[first:]) {
		return yamlNode{}, false
	}
	return yamlNode{kind: kind, first: int32(first), n: int32(n)}, true
}

// end closes the container begun at mark as the member key.
func (r *typedReader) end(key string, mark int, kind byte) {
	v, ok := r.close(mark, kind)
	r.ok = r.ok && ok
	v.key = key
	r.t.open = append(r.t.open, v)
}

func (r *typedReader) mark() int { return len(r.t.open) }

func (r *typedReader) check(ok bool) bool {
	r.ok = r.ok && ok
	return r.ok
}

// str reads an omitempty string.
func (r *typedReader) str(key, s string) {
	if s != "" {
		r.t.open = append(r.t.open, yamlNode{kind: nodeString, key: key, text: s})
	}
}

// text reads a string that is written even when empty.
func (r *typedReader) text(key, s string) {
	r.t.open = append(r.t.open, yamlNode{kind: nodeString, key: key, text: s})
}

// boolean reads an omitempty *bool.
func (r *typedReader) boolean(key string, b *bool) {
	switch {
	case b == nil:
	case *b:
		r.t.open = append(r.t.open, yamlNode{kind: nodeTrue, key: key})
	default:
		r.t.open = append(r.t.open, yamlNode{kind: nodeFalse, key: key})
	}
}

func (r *typedReader) flag(key string, b bool) {
	if b {
		r.t.open = append(r.t.open, yamlNode{kind: nodeTrue, key: key})
	}
}

// integer reads an integer that is written even when zero.
func (r *typedReader) integer(key string, x int64) {
	r.t.open = append(r.t.open, intNode(key, x))
}

// count reads an omitempty integer.
func (r *typedReader) count(key string, x int32) {
	if x != 0 {
		r.integer(key, int64(x))
	}
}

func integerPtr[I int32 | int64](r *typedReader, key string, x *I) {
	if x != nil {
		r.integer(key, int64(*x))
	}
}

// strs reads an omitempty list of strings.
func strs[S ~string](r *typedReader, key string, list []S) {
	if len(list) == 0 {
		return
	}
	mark := r.mark()
	for _, s := range list {
		r.text("", string(s))
	}
	r.end(key, mark, nodeArray)
}

// strMap reads an omitempty map of strings.
func (r *typedReader) strMap(key string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	mark := r.mark()
	for k, v := range m {
		r.text(k, v)
	}
	r.mapOrder(mark)
	r.end(key, mark, nodeObject)
}

// mapOrder puts the members of a map read since mark in the order
// encoding/json writes them, by their keys' bytes, when a key holds a
// digit or a non-ASCII byte. go-yaml's key order compares runs of digits
// by their value and is not transitive over such keys: where it is not,
// the order it ends in depends on the order it starts from, which must
// be the JSON text's, not the map's.
func (r *typedReader) mapOrder(mark int) {
	members := r.t.open[mark:]
	for _, m := range members {
		if strings.IndexFunc(m.key, func(c rune) bool { return c >= '0' && c <= '9' || c >= utf8.RuneSelf }) >= 0 {
			slices.SortFunc(members, func(a, b yamlNode) int { return strings.Compare(a.key, b.key) })
			return
		}
	}
}

// quantities reads an omitempty resource list: each quantity as the
// string it marshals to.
func (r *typedReader) quantities(key string, m corev1.ResourceList) {
	if len(m) == 0 {
		return
	}
	mark := r.mark()
	for k, q := range m {
		r.text(string(k), q.String()) // what it marshals to
	}
	r.mapOrder(mark)
	r.end(key, mark, nodeObject)
}

// intOrString reads an IntOrString, written even when zero.
func (r *typedReader) intOrString(key string, v intstr.IntOrString) {
	switch v.Type {
	case intstr.Int:
		r.integer(key, int64(v.IntVal))
	case intstr.String:
		r.text(key, v.StrVal)
	default:
		r.ok = false // encoding/json refuses it
	}
}

// meta reads an object's metadata (written even when empty).
func (r *typedReader) meta(tm *metav1.TypeMeta, m *metav1.ObjectMeta) {
	if tm != nil && !r.check(zero(typeMetaRest, tm)) || !r.check(zero(objectMetaRest, m)) {
		return
	}
	mark := r.mark()
	r.strMap("annotations", m.Annotations)
	r.strMap("labels", m.Labels)
	r.str("name", m.Name)
	r.str("namespace", m.Namespace)
	r.end("metadata", mark, nodeObject)
}

func (r *typedReader) claimSpec(s *corev1.PersistentVolumeClaimSpec) {
	if !r.check(zero(claimSpecRest, s) && zero(volumeResRest, &s.Resources)) {
		return
	}
	mark := r.mark()
	strs(r, "accessModes", s.AccessModes)
	res := r.mark()
	r.quantities("limits", s.Resources.Limits)
	r.quantities("requests", s.Resources.Requests)
	r.end("resources", res, nodeObject)
	if s.StorageClassName != nil {
		r.text("storageClassName", *s.StorageClassName)
	}
	r.end("spec", mark, nodeObject)
}

func (r *typedReader) serviceSpec(s *corev1.ServiceSpec) {
	if !r.check(zero(serviceSpecRest, s)) {
		return
	}
	mark := r.mark()
	if len(s.Ports) > 0 {
		ports := r.mark()
		for i := range s.Ports {
			p := &s.Ports[i]
			if !r.check(zero(servicePortRest, p)) {
				return
			}
			m := r.mark()
			r.str("name", p.Name)
			r.integer("port", int64(p.Port))
			r.str("protocol", string(p.Protocol))
			r.intOrString("targetPort", p.TargetPort)
			r.end("", m, nodeObject)
		}
		r.end("ports", ports, nodeArray)
	}
	r.strMap("selector", s.Selector)
	r.str("type", string(s.Type))
	r.end("spec", mark, nodeObject)
}

func (r *typedReader) deploymentSpec(s *appsv1.DeploymentSpec) {
	if !r.check(zero(deploymentSpecRest, s) && zero(strategyRest, &s.Strategy) && zero(templateRest, &s.Template)) {
		return
	}
	mark := r.mark()
	integerPtr(r, "replicas", s.Replicas)
	if sel := s.Selector; sel != nil {
		if !r.check(zero(selectorRest, sel)) {
			return
		}
		m := r.mark()
		r.strMap("matchLabels", sel.MatchLabels)
		r.end("selector", m, nodeObject)
	}
	m := r.mark()
	r.str("type", string(s.Strategy.Type))
	r.end("strategy", m, nodeObject)
	m = r.mark()
	r.meta(nil, &s.Template.ObjectMeta)
	r.podSpec(&s.Template.Spec)
	r.end("template", m, nodeObject)
	r.end("spec", mark, nodeObject)
}

func (r *typedReader) podSpec(s *corev1.PodSpec) {
	if !r.check(zero(podSpecRest, s)) {
		return
	}
	mark := r.mark()
	r.boolean("automountServiceAccountToken", s.AutomountServiceAccountToken)
	if s.Containers != nil { // no omitempty: an empty list is written
		r.containers("containers", s.Containers)
	}
	r.boolean("enableServiceLinks", s.EnableServiceLinks)
	if len(s.InitContainers) > 0 {
		r.containers("initContainers", s.InitContainers)
	}
	if s.RuntimeClassName != nil {
		r.text("runtimeClassName", *s.RuntimeClassName)
	}
	if sc := s.SecurityContext; sc != nil {
		if !r.check(zero(podSecurityRest, sc)) {
			return
		}
		m := r.mark()
		integerPtr(r, "fsGroup", sc.FSGroup)
		integerPtr(r, "runAsGroup", sc.RunAsGroup)
		r.boolean("runAsNonRoot", sc.RunAsNonRoot)
		integerPtr(r, "runAsUser", sc.RunAsUser)
		if p := sc.SeccompProfile; p != nil {
			if !r.check(zero(seccompRest, p)) {
				return
			}
			sm := r.mark()
			r.text("type", string(p.Type))
			r.end("seccompProfile", sm, nodeObject)
		}
		r.end("securityContext", m, nodeObject)
	}
	r.str("serviceAccountName", s.ServiceAccountName)
	integerPtr(r, "terminationGracePeriodSeconds", s.TerminationGracePeriodSeconds)
	if len(s.Volumes) > 0 {
		m := r.mark()
		for i := range s.Volumes {
			r.volume(&s.Volumes[i])
		}
		r.end("volumes", m, nodeArray)
	}
	r.end("spec", mark, nodeObject)
}

func (r *typedReader) containers(key string, list []corev1.Container) {
	mark := r.mark()
	for i := range list {
		r.container(&list[i])
	}
	r.end(key, mark, nodeArray)
}

func (r *typedReader) container(c *corev1.Container) {
	if !r.check(zero(containerRest, c) && zero(resourcesRest, &c.Resources)) {
		return
	}
	mark := r.mark()
	strs(r, "args", c.Args)
	if len(c.Env) > 0 {
		m := r.mark()
		for i := range c.Env {
			r.envVar(&c.Env[i])
		}
		r.end("env", m, nodeArray)
	}
	r.str("image", c.Image)
	r.str("imagePullPolicy", string(c.ImagePullPolicy))
	r.text("name", c.Name)
	if len(c.Ports) > 0 {
		m := r.mark()
		for i := range c.Ports {
			p := &c.Ports[i]
			if !r.check(zero(containerPortRest, p)) {
				return
			}
			pm := r.mark()
			r.integer("containerPort", int64(p.ContainerPort))
			r.str("name", p.Name)
			r.str("protocol", string(p.Protocol))
			r.end("", pm, nodeObject)
		}
		r.end("ports", m, nodeArray)
	}
	if c.ReadinessProbe != nil {
		r.probe("readinessProbe", c.ReadinessProbe)
	}
	m := r.mark()
	r.quantities("limits", c.Resources.Limits)
	r.quantities("requests", c.Resources.Requests)
	r.end("resources", m, nodeObject)
	if sc := c.SecurityContext; sc != nil {
		r.security(sc)
	}
	if len(c.VolumeMounts) > 0 {
		m := r.mark()
		for i := range c.VolumeMounts {
			v := &c.VolumeMounts[i]
			if !r.check(zero(mountRest, v)) {
				return
			}
			vm := r.mark()
			r.text("mountPath", v.MountPath)
			r.text("name", v.Name)
			r.flag("readOnly", v.ReadOnly)
			r.str("subPath", v.SubPath)
			r.end("", vm, nodeObject)
		}
		r.end("volumeMounts", m, nodeArray)
	}
	r.end("", mark, nodeObject)
}

func (r *typedReader) envVar(e *corev1.EnvVar) {
	if !r.check(zero(envVarRest, e)) {
		return
	}
	mark := r.mark()
	r.text("name", e.Name)
	r.str("value", e.Value)
	if src := e.ValueFrom; src != nil {
		if !r.check(zero(envSourceRest, src)) {
			return
		}
		m := r.mark()
		if ref := src.SecretKeyRef; ref != nil {
			if !r.check(zero(secretKeyRest, ref) && zero(localRefRest, &ref.LocalObjectReference)) {
				return
			}
			km := r.mark()
			r.text("key", ref.Key)
			r.str("name", ref.Name)
			r.boolean("optional", ref.Optional)
			r.end("secretKeyRef", km, nodeObject)
		}
		r.end("valueFrom", m, nodeObject)
	}
	r.end("", mark, nodeObject)
}

func (r *typedReader) volume(v *corev1.Volume) {
	src := &v.VolumeSource
	if !r.check(zero(volumeRest, v) && zero(volumeSourceRest, src)) {
		return
	}
	mark := r.mark()
	if c := src.ConfigMap; c != nil {
		if !r.check(zero(configSourceRest, c) && zero(localRefRest, &c.LocalObjectReference)) {
			return
		}
		m := r.mark()
		integerPtr(r, "defaultMode", c.DefaultMode)
		r.items(c.Items)
		r.str("name", c.Name)
		r.boolean("optional", c.Optional)
		r.end("configMap", m, nodeObject)
	}
	if e := src.EmptyDir; e != nil {
		if !r.check(zero(emptyDirRest, e)) {
			return
		}
		m := r.mark()
		r.str("medium", string(e.Medium))
		r.end("emptyDir", m, nodeObject)
	}
	r.text("name", v.Name)
	if c := src.PersistentVolumeClaim; c != nil {
		if !r.check(zero(claimSourceRest, c)) {
			return
		}
		m := r.mark()
		r.text("claimName", c.ClaimName)
		r.flag("readOnly", c.ReadOnly)
		r.end("persistentVolumeClaim", m, nodeObject)
	}
	if s := src.Secret; s != nil {
		if !r.check(zero(secretSourceRest, s)) {
			return
		}
		m := r.mark()
		integerPtr(r, "defaultMode", s.DefaultMode)
		r.items(s.Items)
		r.boolean("optional", s.Optional)
		r.str("secretName", s.SecretName)
		r.end("secret", m, nodeObject)
	}
	r.end("", mark, nodeObject)
}

// items reads a volume's omitempty key-to-path list.
func (r *typedReader) items(items []corev1.KeyToPath) {
	if len(items) == 0 {
		return
	}
	mark := r.mark()
	for i := range items {
		it := &items[i]
		if !r.check(zero(keyToPathRest, it)) {
			return
		}
		m := r.mark()
		r.text("key", it.Key)
		integerPtr(r, "mode", it.Mode)
		r.text("path", it.Path)
		r.end("", m, nodeObject)
	}
	r.end("items", mark, nodeArray)
}

func (r *typedReader) probe(key string, p *corev1.Probe) {
	if !r.check(zero(probeRest, p) && zero(probeHandlerRest, &p.ProbeHandler)) {
		return
	}
	mark := r.mark()
	r.count("failureThreshold", p.FailureThreshold)
	if h := p.HTTPGet; h != nil {
		if !r.check(zero(httpGetRest, h)) {
			return
		}
		m := r.mark()
		r.str("host", h.Host)
		r.str("path", h.Path)
		r.intOrString("port", h.Port)
		r.str("scheme", string(h.Scheme))
		r.end("httpGet", m, nodeObject)
	}
	r.count("initialDelaySeconds", p.InitialDelaySeconds)
	r.count("periodSeconds", p.PeriodSeconds)
	r.count("successThreshold", p.SuccessThreshold)
	if s := p.TCPSocket; s != nil {
		if !r.check(zero(tcpSocketRest, s)) {
			return
		}
		m := r.mark()
		r.str("host", s.Host)
		r.intOrString("port", s.Port)
		r.end("tcpSocket", m, nodeObject)
	}
	r.count("timeoutSeconds", p.TimeoutSeconds)
	r.end(key, mark, nodeObject)
}

func (r *typedReader) security(sc *corev1.SecurityContext) {
	if !r.check(zero(securityRest, sc)) {
		return
	}
	mark := r.mark()
	r.boolean("allowPrivilegeEscalation", sc.AllowPrivilegeEscalation)
	if c := sc.Capabilities; c != nil {
		if !r.check(zero(capabilitiesRest, c)) {
			return
		}
		m := r.mark()
		strs(r, "add", c.Add)
		strs(r, "drop", c.Drop)
		r.end("capabilities", m, nodeObject)
	}
	r.boolean("privileged", sc.Privileged)
	r.boolean("readOnlyRootFilesystem", sc.ReadOnlyRootFilesystem)
	integerPtr(r, "runAsGroup", sc.RunAsGroup)
	r.boolean("runAsNonRoot", sc.RunAsNonRoot)
	integerPtr(r, "runAsUser", sc.RunAsUser)
	r.end("securityContext", mark, nodeObject)
}
