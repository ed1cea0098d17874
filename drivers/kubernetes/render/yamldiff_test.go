package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	goyaml "go.yaml.in/yaml/v2"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/occkit/occkit/internal/bench"
)

// sigsYAML is the stream of objs as sigs.k8s.io/yaml writes it, made
// here without the package's code: each object's JSON decoded, its status
// and null members removed, encoded again, the characters a YAML reader
// would not take as themselves written as JSON escapes (yamlSafeJSON),
// then JSONToYAML.
func sigsYAML(t interface{ Fatalf(string, ...any) }, objs Objects) string {
	var docs []string
	for _, obj := range objs.List() {
		body, err := json.Marshal(applyTree(t, obj))
		if err != nil {
			t.Fatalf("%v", err)
		}
		y, err := yaml.JSONToYAML(yamlSafeJSON(body))
		if err != nil {
			t.Fatalf("JSONToYAML: %v", err)
		}
		docs = append(docs, string(y))
	}
	return strings.Join(docs, "---\n")
}

// applyTree is obj's apply body as a JSON tree, made without the
// package's code: its JSON decoded, its status and null members removed.
func applyTree(t interface{ Fatalf(string, ...any) }, obj Object) any {
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v", err)
	}
	delete(v, "status")
	return withoutNulls(v)
}

// simpleKeys reports whether every key in the JSON tree v is short enough
// for go-yaml's parser to read it as a simple key (at most 1,024
// characters from its opening quote to the colon, escapes included; a
// key's JSON bytes bound its characters), which JSONToYAML needs to read
// v's JSON text at all.
func simpleKeys(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if q, _ := json.Marshal(k); len(q) > 1000 || !simpleKeys(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !simpleKeys(e) {
				return false
			}
		}
	}
	return true
}

// checkReadsBack checks that every document of objs reads back, with
// sigs.k8s.io/yaml's YAML reader, as the object's apply body.
func checkReadsBack(t fataler, objs Objects) {
	t.Helper()
	list := objs.List()
	i := 0
	err := objs.Each(func(name string, doc []byte) error {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		var got any
		if err := json.Unmarshal(j, &got); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if d := cmp.Diff(applyTree(t, list[i]), got); d != "" {
			return fmt.Errorf("%s: (-apply body +read back):\n%s", name, d)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != len(list) {
		t.Fatalf("%d documents for %d objects", i, len(list))
	}
}

// withoutNulls is v without the null members of its objects.
func withoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != nil {
				out[k] = withoutNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutNulls(e)
		}
		return out
	}
	return v
}

// anyText draws a string of the kinds rendered objects hold and of those
// the writer leaves to JSONToYAML, or arbitrary Unicode, invalid UTF-8
// included.
func anyText(t *rapid.T, label string) string {
	if rapid.IntRange(0, 9).Draw(t, label+"Arbitrary") == 0 {
		return string(rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, label+"Bytes"))
	}
	return scalarText(t, label)
}

func textMap(t *rapid.T, label string) map[string]string {
	if rapid.Bool().Draw(t, label+"Nil") {
		return nil
	}
	m := map[string]string{}
	for n := rapid.IntRange(0, 4).Draw(t, label+"N"); n > 0; n-- {
		m[anyText(t, label+"Key")] = anyText(t, label+"Value")
	}
	return m
}

func drawMeta(t *rapid.T) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: anyText(t, "name"), Namespace: anyText(t, "namespace"),
		Labels: textMap(t, "labels"), Annotations: textMap(t, "annotations")}
}

func drawPtr[T any](t *rapid.T, label string, g *rapid.Generator[T]) *T {
	if rapid.Bool().Draw(t, label+"Nil") {
		return nil
	}
	return ptr(g.Draw(t, label))
}

// drawObjects draws objects of every kind Render returns, their fields
// set from drawn text and numbers.
func drawObjects(t *rapid.T) Objects {
	var o Objects
	for n := rapid.IntRange(0, 2).Draw(t, "serviceAccounts"); n > 0; n-- {
		o.ServiceAccounts = append(o.ServiceAccounts, &corev1.ServiceAccount{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: drawMeta(t),
			AutomountServiceAccountToken: drawPtr(t, "automount", rapid.Bool())})
	}
	for n := rapid.IntRange(0, 2).Draw(t, "configMaps"); n > 0; n-- {
		cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: drawMeta(t),
			Immutable: drawPtr(t, "immutable", rapid.Bool()), Data: textMap(t, "data")}
		if rapid.Bool().Draw(t, "binary") {
			cm.BinaryData = map[string][]byte{anyText(t, "binaryKey"): []byte(anyText(t, "binaryValue"))}
		}
		o.ConfigMaps = append(o.ConfigMaps, cm)
	}
	for n := rapid.IntRange(0, 1).Draw(t, "claims"); n > 0; n-- {
		q := rapid.SampledFrom([]string{"10Gi", "1", "500M", "1.5Ti", "100m", "0"}).Draw(t, "size")
		o.PersistentVolumeClaims = append(o.PersistentVolumeClaims, &corev1.PersistentVolumeClaim{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, ObjectMeta: drawMeta(t),
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				StorageClassName: drawPtr(t, "class", rapid.Custom(func(t *rapid.T) string { return anyText(t, "c") })),
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceStorage: resource.MustParse(q)}},
			}})
	}
	for n := rapid.IntRange(0, 1).Draw(t, "services"); n > 0; n-- {
		port := intstr.FromInt32(rapid.Int32Range(0, 70000).Draw(t, "target"))
		if rapid.Bool().Draw(t, "namedTarget") {
			port = intstr.FromString(anyText(t, "targetName"))
		}
		o.Services = append(o.Services, &corev1.Service{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: drawMeta(t),
			Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Selector: textMap(t, "selector"),
				Ports: []corev1.ServicePort{{Name: anyText(t, "port"), Port: rapid.Int32().Draw(t, "portNumber"),
					TargetPort: port, Protocol: corev1.ProtocolTCP}}}})
	}
	for n := rapid.IntRange(0, 1).Draw(t, "deployments"); n > 0; n-- {
		var env []corev1.EnvVar
		for k := rapid.IntRange(0, 3).Draw(t, "env"); k > 0; k-- {
			e := corev1.EnvVar{Name: anyText(t, "envName"), Value: anyText(t, "envValue")}
			if rapid.Bool().Draw(t, "secret") {
				e = corev1.EnvVar{Name: e.Name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: anyText(t, "secretName")},
					Key:                  anyText(t, "secretKey"), Optional: drawPtr(t, "optional", rapid.Bool())}}}
			}
			env = append(env, e)
		}
		args := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return anyText(t, "arg") }), 0, 3).Draw(t, "args")
		o.Deployments = append(o.Deployments, &appsv1.Deployment{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: drawMeta(t),
			Spec: appsv1.DeploymentSpec{
				Replicas: drawPtr(t, "replicas", rapid.Int32()),
				Selector: &metav1.LabelSelector{MatchLabels: textMap(t, "matchLabels")},
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
				Template: corev1.PodTemplateSpec{ObjectMeta: drawMeta(t), Spec: corev1.PodSpec{
					TerminationGracePeriodSeconds: drawPtr(t, "grace", rapid.Int64()),
					Containers: []corev1.Container{{Name: anyText(t, "container"), Image: anyText(t, "image"),
						Args: args, Env: env, SecurityContext: containerSecurity()}},
				}},
			}})
	}
	return o
}

// TestYAMLMatchesSigsYAML: Objects.YAML writes arbitrary objects of the
// kinds Render returns, byte for byte, as sigs.k8s.io/yaml writes their
// apply bodies, whichever of the package's writers ran (where
// sigs.k8s.io/yaml is deterministic: [totalKeyOrder]).
func TestYAMLMatchesSigsYAML(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkStream(t, drawObjects(t)) })
}

// TestRenderedYAMLMatchesSigsYAML: the YAML of the benchmark documents'
// renders, of every size, is what sigs.k8s.io/yaml writes.
func TestRenderedYAMLMatchesSigsYAML(t *testing.T) {
	for _, d := range bench.Documents {
		for _, n := range []int{2, 40, 1000} {
			t.Run(fmt.Sprintf("%s/%d", d.Name, n), func(t *testing.T) {
				objs, err := Render(benchRevision(t, d, n), benchOptions)
				if err != nil {
					t.Fatal(err)
				}
				got, err := objs.YAML()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(sigsYAML(t, objs), string(got)); diff != "" {
					t.Fatalf("(-sigs.k8s.io/yaml +YAML):\n%s", diff)
				}
			})
		}
	}
}

// yamlSafeJSON escapes, in the JSON text j, every character that a YAML
// reader does not take as itself inside a double-quoted scalar.
// sigs.k8s.io/yaml.JSONToYAML reads its JSON input with a YAML parser,
// which folds a raw NEL (U+0085) into a space and refuses DEL, the other
// C1 controls and the non-characters U+FFFE and U+FFFF; encoding/json
// writes all of them raw. As \uXXXX escapes they read back as
// themselves, and the YAML emitter then writes each in a form that reads
// back unchanged (\N, \x85, …). JSON's structure is ASCII, so only
// string contents change; a text holding none of these is returned as it
// is.
func yamlSafeJSON(j []byte) []byte {
	var out []byte
	done := 0 // j[:done] is in out
	for i := 0; i < len(j); {
		if j[i] < utf8.RuneSelf && j[i] != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(j[i:])
		if yamlUnsafe(r) {
			if out == nil {
				out = make([]byte, 0, len(j)+32)
			}
			out = append(out, j[done:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			done = i + n
		}
		i += n
	}
	if out == nil {
		return j
	}
	return append(out, j[done:]...)
}

// yamlUnsafe reports whether a YAML reader changes or refuses r written
// raw inside a double-quoted scalar: DEL and the C1 controls (NEL among
// them, a YAML line break), the other YAML line breaks (U+2028, U+2029),
// the byte order mark, and the non-characters U+FFFE and U+FFFF (outside
// YAML's printable set).
func yamlUnsafe(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
}

// TestYAMLValueNumbers: a JSON number decoded by yamlValue is written as
// JSONToYAML writes it, go-yaml's own reading of the number: an int, a
// uint64 past int64, a float, or out of a float's range the text itself.
func TestYAMLValueNumbers(t *testing.T) {
	for _, n := range []string{"0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
		"1.5", "-0.0", "1e3", "1E+3", "1e-7", "2.5e20", "1e400", "-1e400", "1e-400", "0.1e1"} {
		doc := `{"n":` + n + `,"l":[` + n + `]}`
		want, err := yaml.JSONToYAML([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got, err := goyaml.Marshal(yamlValue(v))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: got %q, JSONToYAML wrote %q", n, got, want)
		}
	}
}
