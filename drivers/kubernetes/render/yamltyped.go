package render

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The typed writer. It writes a rendered object's apply body as YAML
// straight from the object's fields, as encoding/json would give them
// (the json tags' names and omitempty, resource.Quantity and
// intstr.IntOrString as they marshal, nil pointers, slices and maps as
// the nulls the apply body drops, the top-level status dropped), in
// go-yaml's key order, through the scalar styles of [yamlWriter]: no JSON
// text, reflection or tree in between (issue 29). It reads the five
// kinds [Render] returns and, of each type, the fields Render sets; a
// type's other fields must hold their zero value ([unread]), else the
// object goes through its JSON text as before: a field the writer does
// not know is never dropped. TestTypedReaderReadsRendered and its
// siblings compare its YAML with the JSON tree's and sigs.k8s.io/yaml's
// on rendered and drawn objects, TestTypedReaderFields sets every field
// of every type in turn.

// unread is the fields of a struct type that the typed writer does not
// read: each must be zero for it to read a value of the type.
type unread struct {
	typ    reflect.Type
	fields []int
	// spans are the bytes the unread fields take, each run of them in
	// the type's order one span (with the padding between them): where
	// they are all zero, so is every unread field, a zero value being all
	// zero bytes.
	spans []span
	// never: a field the reader does not read is one encoding/json
	// writes even when zero (no omitempty, not nullable): no value of the
	// type is read.
	never bool
}

// span is n bytes at offset off of a value.
type span struct{ off, n uintptr }

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
		if end := f.Offset + f.Type.Size(); len(u.spans) > 0 && i > 0 && u.fields[len(u.fields)-2] == i-1 {
			u.spans[len(u.spans)-1].n = end - u.spans[len(u.spans)-1].off
		} else {
			u.spans = append(u.spans, span{off: f.Offset, n: end - f.Offset})
		}
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

// zero reports whether every unread field of *p is zero: at once where
// their bytes are all zero (the rendered objects' case), else field by
// field, as reflection tells (a field may be zero without its bytes
// being: an empty string that points somewhere, padding).
func zero[T any](u *unread, p *T) bool {
	if u.never {
		return false
	}
	return u.zeroBytes(unsafe.Pointer(p)) || u.zeroFields(reflect.ValueOf(p).Elem())
}

// zeroBytes reports whether the unread fields' bytes of the value of
// u's type at p are all zero.
func (u *unread) zeroBytes(p unsafe.Pointer) bool {
	var or uint64
	for _, s := range u.spans {
		b := unsafe.Slice((*byte)(unsafe.Add(p, s.off)), s.n)
		for ; len(b) >= 8; b = b[8:] {
			or |= binary.LittleEndian.Uint64(b)
		}
		for _, c := range b {
			or |= uint64(c)
		}
	}
	return or == 0
}

// zeroFields reports whether every unread field of v is zero.
func (u *unread) zeroFields(v reflect.Value) bool {
	for _, i := range u.fields {
		if !v.Field(i).IsZero() {
			return false
		}
	}
	return true
}

// The fields the typed writer reads, by type.
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

// typedWriter writes one object. read turns false at the first field it
// does not read; the output is then dropped.
type typedWriter struct {
	yamlWriter
	read bool
	// scratch is room for a map's members, put in order before they are
	// written: a map of more has its own.
	scratch [16]member
}

// member is a member of a map of strings.
type member struct{ key, text string }

// appendTyped appends obj's YAML document to dst from its fields. read is
// false when obj is of a kind or holds a field the typed writer does not
// read, written when the writer does not cover one of its values (a
// scalar it leaves to appendSigsYAML); either way the output is
// incomplete. The writer lives in this call's frame: it allocates
// nothing but the growth of dst.
func appendTyped(dst []byte, obj Object) (out []byte, read, written bool) {
	r := typedWriter{yamlWriter: yamlWriter{out: dst, ok: true, depth: 1}, read: true}
	r.write(obj)
	if !r.read {
		return dst, false, false
	}
	if r.levels[0].n == 0 {
		r.raw("{}")
	}
	r.newline()
	return r.out, true, r.ok
}

// write writes obj's members.
func (r *typedWriter) write(obj Object) {
	switch o := obj.(type) {
	case *corev1.ServiceAccount:
		if o == nil || !r.check(zero(serviceAccountRest, o)) {
			return
		}
		r.str("apiVersion", o.APIVersion)
		r.boolean("automountServiceAccountToken", o.AutomountServiceAccountToken)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
	case *corev1.ConfigMap:
		if o == nil || !r.check(zero(configMapRest, o)) {
			return
		}
		r.str("apiVersion", o.APIVersion)
		r.strMap("data", o.Data)
		r.boolean("immutable", o.Immutable)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
	case *corev1.PersistentVolumeClaim:
		if o == nil || !r.check(zero(claimRest, o)) {
			return
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.claimSpec(&o.Spec)
	case *corev1.Service:
		if o == nil || !r.check(zero(serviceRest, o)) {
			return
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.serviceSpec(&o.Spec)
	case *appsv1.Deployment:
		if o == nil || !r.check(zero(deploymentRest, o)) {
			return
		}
		r.str("apiVersion", o.APIVersion)
		r.str("kind", o.Kind)
		r.meta(&o.TypeMeta, &o.ObjectMeta)
		r.deploymentSpec(&o.Spec)
	default:
		r.read = false
	}
}

// check notes whether the writer reads a value (its unread fields are
// zero) and reports whether it has read every one so far.
func (r *typedWriter) check(ok bool) bool {
	r.read = r.read && ok
	return r.read
}

// str writes an omitempty string.
func (r *typedWriter) str(key, s string) {
	if s != "" {
		r.text(key, s)
	}
}

// text writes a string that is written even when empty.
func (r *typedWriter) text(key, s string) {
	r.field(key)
	r.stringValue(s)
}

// boolean writes an omitempty *bool.
func (r *typedWriter) boolean(key string, b *bool) {
	if b != nil {
		r.field(key)
		r.boolValue(*b)
	}
}

// flag writes an omitempty bool.
func (r *typedWriter) flag(key string, b bool) {
	if b {
		r.field(key)
		r.boolValue(true)
	}
}

// number writes an integer that is written even when zero.
func (r *typedWriter) number(key string, x int64) {
	r.field(key)
	r.integer(x)
}

// count writes an omitempty integer.
func (r *typedWriter) count(key string, x int32) {
	if x != 0 {
		r.number(key, int64(x))
	}
}

func integerPtr[I int32 | int64](r *typedWriter, key string, x *I) {
	if x != nil {
		r.number(key, int64(*x))
	}
}

// strs writes an omitempty list of strings.
func strs[S ~string](r *typedWriter, key string, list []S) {
	if len(list) == 0 {
		return
	}
	r.field(key)
	r.beginSeq()
	for _, s := range list {
		r.item()
		r.stringValue(string(s))
	}
	r.end()
}

// strMap writes an omitempty map of strings.
func (r *typedWriter) strMap(key string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	members := r.scratch[:0]
	for k, v := range m {
		members = append(members, member{k, v})
	}
	r.writeMap(key, members)
}

// quantities writes an omitempty resource list: each quantity as the
// string it marshals to.
func (r *typedWriter) quantities(key string, m corev1.ResourceList) {
	if len(m) == 0 {
		return
	}
	members := r.scratch[:0]
	for k, q := range m {
		members = append(members, member{string(k), q.String()})
	}
	r.writeMap(key, members)
}

// writeMap writes the members of a map of strings in go-yaml's key
// order. Where a key holds a digit or a non-ASCII byte, go-yaml's key
// order compares runs of digits by their value and is not transitive
// over such keys, and where it is not, the order it ends in depends on
// the order it starts from, which must be the JSON text's, not the
// map's: the members are sorted by their keys' bytes first, then by
// [sortMembers]' algorithm (slices.SortFunc), whose steps the order it
// ends in depends on. Else the order is total and any sort ends in it:
// [sortKeys].
func (r *typedWriter) writeMap(key string, members []member) {
	if totalKeys(members) {
		sortKeys(members)
	} else {
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
		slices.SortFunc(members, func(a, b member) int { return yamlKeyCompare(a.key, b.key) })
	}
	r.field(key)
	r.beginMap()
	for _, m := range members {
		r.key(m.key)
		r.stringValue(m.text)
	}
	r.end()
}

// totalKeys reports whether no key of members holds a digit or a
// non-ASCII byte: go-yaml's key order over such keys is a total order,
// the bytes compared one by one, a letter after any other character.
func totalKeys(members []member) bool {
	for _, m := range members {
		k, i := m.key, 0
		for ; i+8 <= len(k); i += 8 {
			if digitsOrHigh(word(k, i)) {
				return false
			}
		}
		for ; i < len(k); i++ {
			if digitOrHigh[k[i]] {
				return false
			}
		}
	}
	return true
}

// digitOrHigh marks the bytes [totalKeys] looks for.
var digitOrHigh = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= '0' && c <= '9' || c >= utf8.RuneSelf
	}
	return t
}()

// sortKeys sorts members whose keys [totalKeys] holds total, by
// insertion (a label map has a handful) comparing keys by
// [yamlKeyLess].
func sortKeys(members []member) {
	for i := 1; i < len(members); i++ {
		m := members[i]
		j := i
		for ; j > 0 && yamlKeyLess(m.key, members[j-1].key); j-- {
			members[j] = members[j-1]
		}
		members[j] = m
	}
}

// intOrString writes an IntOrString, written even when zero.
func (r *typedWriter) intOrString(key string, v intstr.IntOrString) {
	switch v.Type {
	case intstr.Int:
		r.number(key, int64(v.IntVal))
	case intstr.String:
		r.text(key, v.StrVal)
	default:
		r.read = false // encoding/json refuses it
	}
}

// object writes key's mapping: body writes its members.
func (r *typedWriter) object(key string, body func()) {
	r.field(key)
	r.beginMap()
	body()
	r.end()
}

// list writes key's non-empty sequence of n mappings: item writes the
// members of the i-th.
func (r *typedWriter) list(key string, n int, item func(i int)) {
	if n == 0 {
		return
	}
	r.field(key)
	r.beginSeq()
	for i := 0; i < n && r.read; i++ {
		r.item()
		r.beginMap()
		item(i)
		r.end()
	}
	r.end()
}

// meta writes an object's metadata (written even when empty).
func (r *typedWriter) meta(tm *metav1.TypeMeta, m *metav1.ObjectMeta) {
	if tm != nil && !r.check(zero(typeMetaRest, tm)) || !r.check(zero(objectMetaRest, m)) {
		return
	}
	r.object("metadata", func() {
		r.strMap("annotations", m.Annotations)
		r.strMap("labels", m.Labels)
		r.str("name", m.Name)
		r.str("namespace", m.Namespace)
	})
}

func (r *typedWriter) claimSpec(s *corev1.PersistentVolumeClaimSpec) {
	if !r.check(zero(claimSpecRest, s) && zero(volumeResRest, &s.Resources)) {
		return
	}
	r.object("spec", func() {
		strs(r, "accessModes", s.AccessModes)
		r.object("resources", func() {
			r.quantities("limits", s.Resources.Limits)
			r.quantities("requests", s.Resources.Requests)
		})
		if s.StorageClassName != nil {
			r.text("storageClassName", *s.StorageClassName)
		}
	})
}

func (r *typedWriter) serviceSpec(s *corev1.ServiceSpec) {
	if !r.check(zero(serviceSpecRest, s)) {
		return
	}
	r.object("spec", func() {
		r.list("ports", len(s.Ports), func(i int) {
			p := &s.Ports[i]
			if !r.check(zero(servicePortRest, p)) {
				return
			}
			r.str("name", p.Name)
			r.number("port", int64(p.Port))
			r.str("protocol", string(p.Protocol))
			r.intOrString("targetPort", p.TargetPort)
		})
		r.strMap("selector", s.Selector)
		r.str("type", string(s.Type))
	})
}

func (r *typedWriter) deploymentSpec(s *appsv1.DeploymentSpec) {
	if !r.check(zero(deploymentSpecRest, s) && zero(strategyRest, &s.Strategy) && zero(templateRest, &s.Template)) {
		return
	}
	r.object("spec", func() {
		integerPtr(r, "replicas", s.Replicas)
		if sel := s.Selector; sel != nil && r.check(zero(selectorRest, sel)) {
			r.object("selector", func() { r.strMap("matchLabels", sel.MatchLabels) })
		}
		r.object("strategy", func() { r.str("type", string(s.Strategy.Type)) })
		r.object("template", func() {
			r.meta(nil, &s.Template.ObjectMeta)
			r.podSpec(&s.Template.Spec)
		})
	})
}

func (r *typedWriter) podSpec(s *corev1.PodSpec) {
	if !r.check(zero(podSpecRest, s)) {
		return
	}
	r.object("spec", func() {
		r.boolean("automountServiceAccountToken", s.AutomountServiceAccountToken)
		if s.Containers != nil && len(s.Containers) == 0 {
			// No omitempty: an empty list is written.
			r.field("containers")
			r.beginSeq()
			r.end()
		}
		r.list("containers", len(s.Containers), func(i int) { r.container(&s.Containers[i]) })
		r.boolean("enableServiceLinks", s.EnableServiceLinks)
		r.list("initContainers", len(s.InitContainers), func(i int) { r.container(&s.InitContainers[i]) })
		if s.RuntimeClassName != nil {
			r.text("runtimeClassName", *s.RuntimeClassName)
		}
		if sc := s.SecurityContext; sc != nil && r.check(zero(podSecurityRest, sc)) {
			r.object("securityContext", func() {
				integerPtr(r, "fsGroup", sc.FSGroup)
				integerPtr(r, "runAsGroup", sc.RunAsGroup)
				r.boolean("runAsNonRoot", sc.RunAsNonRoot)
				integerPtr(r, "runAsUser", sc.RunAsUser)
				if p := sc.SeccompProfile; p != nil && r.check(zero(seccompRest, p)) {
					r.object("seccompProfile", func() { r.text("type", string(p.Type)) })
				}
			})
		}
		r.str("serviceAccountName", s.ServiceAccountName)
		integerPtr(r, "terminationGracePeriodSeconds", s.TerminationGracePeriodSeconds)
		r.list("volumes", len(s.Volumes), func(i int) { r.volume(&s.Volumes[i]) })
	})
}

// container writes the members of a container.
func (r *typedWriter) container(c *corev1.Container) {
	if !r.check(zero(containerRest, c) && zero(resourcesRest, &c.Resources)) {
		return
	}
	strs(r, "args", c.Args)
	r.list("env", len(c.Env), func(i int) { r.envVar(&c.Env[i]) })
	r.str("image", c.Image)
	r.str("imagePullPolicy", string(c.ImagePullPolicy))
	r.text("name", c.Name)
	r.list("ports", len(c.Ports), func(i int) {
		p := &c.Ports[i]
		if !r.check(zero(containerPortRest, p)) {
			return
		}
		r.number("containerPort", int64(p.ContainerPort))
		r.str("name", p.Name)
		r.str("protocol", string(p.Protocol))
	})
	if c.ReadinessProbe != nil {
		r.probe("readinessProbe", c.ReadinessProbe)
	}
	r.object("resources", func() {
		r.quantities("limits", c.Resources.Limits)
		r.quantities("requests", c.Resources.Requests)
	})
	if sc := c.SecurityContext; sc != nil {
		r.security(sc)
	}
	r.list("volumeMounts", len(c.VolumeMounts), func(i int) {
		v := &c.VolumeMounts[i]
		if !r.check(zero(mountRest, v)) {
			return
		}
		r.text("mountPath", v.MountPath)
		r.text("name", v.Name)
		r.flag("readOnly", v.ReadOnly)
		r.str("subPath", v.SubPath)
	})
}

// envVar writes the members of an environment variable.
func (r *typedWriter) envVar(e *corev1.EnvVar) {
	if !r.check(zero(envVarRest, e)) {
		return
	}
	r.text("name", e.Name)
	r.str("value", e.Value)
	if src := e.ValueFrom; src != nil && r.check(zero(envSourceRest, src)) {
		r.object("valueFrom", func() {
			ref := src.SecretKeyRef
			if ref == nil || !r.check(zero(secretKeyRest, ref) && zero(localRefRest, &ref.LocalObjectReference)) {
				return
			}
			r.object("secretKeyRef", func() {
				r.text("key", ref.Key)
				r.str("name", ref.Name)
				r.boolean("optional", ref.Optional)
			})
		})
	}
}

// volume writes the members of a volume.
func (r *typedWriter) volume(v *corev1.Volume) {
	src := &v.VolumeSource
	if !r.check(zero(volumeRest, v) && zero(volumeSourceRest, src)) {
		return
	}
	if c := src.ConfigMap; c != nil && r.check(zero(configSourceRest, c) && zero(localRefRest, &c.LocalObjectReference)) {
		r.object("configMap", func() {
			integerPtr(r, "defaultMode", c.DefaultMode)
			r.items(c.Items)
			r.str("name", c.Name)
			r.boolean("optional", c.Optional)
		})
	}
	if e := src.EmptyDir; e != nil && r.check(zero(emptyDirRest, e)) {
		r.object("emptyDir", func() { r.str("medium", string(e.Medium)) })
	}
	r.text("name", v.Name)
	if c := src.PersistentVolumeClaim; c != nil && r.check(zero(claimSourceRest, c)) {
		r.object("persistentVolumeClaim", func() {
			r.text("claimName", c.ClaimName)
			r.flag("readOnly", c.ReadOnly)
		})
	}
	if s := src.Secret; s != nil && r.check(zero(secretSourceRest, s)) {
		r.object("secret", func() {
			integerPtr(r, "defaultMode", s.DefaultMode)
			r.items(s.Items)
			r.boolean("optional", s.Optional)
			r.str("secretName", s.SecretName)
		})
	}
}

// items writes a volume's omitempty key-to-path list.
func (r *typedWriter) items(items []corev1.KeyToPath) {
	r.list("items", len(items), func(i int) {
		it := &items[i]
		if !r.check(zero(keyToPathRest, it)) {
			return
		}
		r.text("key", it.Key)
		integerPtr(r, "mode", it.Mode)
		r.text("path", it.Path)
	})
}

func (r *typedWriter) probe(key string, p *corev1.Probe) {
	if !r.check(zero(probeRest, p) && zero(probeHandlerRest, &p.ProbeHandler)) {
		return
	}
	r.object(key, func() {
		r.count("failureThreshold", p.FailureThreshold)
		if h := p.HTTPGet; h != nil && r.check(zero(httpGetRest, h)) {
			r.object("httpGet", func() {
				r.str("host", h.Host)
				r.str("path", h.Path)
				r.intOrString("port", h.Port)
				r.str("scheme", string(h.Scheme))
			})
		}
		r.count("initialDelaySeconds", p.InitialDelaySeconds)
		r.count("periodSeconds", p.PeriodSeconds)
		r.count("successThreshold", p.SuccessThreshold)
		if s := p.TCPSocket; s != nil && r.check(zero(tcpSocketRest, s)) {
			r.object("tcpSocket", func() {
				r.str("host", s.Host)
				r.intOrString("port", s.Port)
			})
		}
		r.count("timeoutSeconds", p.TimeoutSeconds)
	})
}

func (r *typedWriter) security(sc *corev1.SecurityContext) {
	if !r.check(zero(securityRest, sc)) {
		return
	}
	r.object("securityContext", func() {
		r.boolean("allowPrivilegeEscalation", sc.AllowPrivilegeEscalation)
		if c := sc.Capabilities; c != nil && r.check(zero(capabilitiesRest, c)) {
			r.object("capabilities", func() {
				strs(r, "add", c.Add)
				strs(r, "drop", c.Drop)
			})
		}
		r.boolean("privileged", sc.Privileged)
		r.boolean("readOnlyRootFilesystem", sc.ReadOnlyRootFilesystem)
		integerPtr(r, "runAsGroup", sc.RunAsGroup)
		r.boolean("runAsNonRoot", sc.RunAsNonRoot)
		integerPtr(r, "runAsUser", sc.RunAsUser)
	})
}
