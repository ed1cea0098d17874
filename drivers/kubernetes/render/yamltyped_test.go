package render

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// drawRendered renders a drawn revision (every topology, with and
// without plugins to install) with drawn options.
func drawRendered(t *rapid.T) Objects {
	topo := rapid.SampledFrom([]occkit.Topology{
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
	}).Draw(t, "topology")
	ns := rapid.SampledFrom([]string{"team-a", "occkit", "yes", "0x1"}).Draw(t, "namespace")
	o := drivertest.RevisionOptions{
		Compute: occkit.ComputeKubernetes, Topology: topo, Binding: binding(ns),
		AgentID:    rapid.StringMatching(`[A-Za-z0-9_.@-]{1,40}`).Draw(t, "agent"),
		Generation: rapid.Int64Range(1, 1<<40).Draw(t, "generation"),
		Level:      rapid.SampledFrom([]occkit.LogLevel{occkit.LevelInfo, occkit.LevelWarn, occkit.LevelDebug}).Draw(t, "level"),
	}
	if topo.Harness == occkit.HarnessOpenClaw && rapid.Bool().Draw(t, "slack") {
		// Slack is a plugin the release does not bundle: an init
		// container installs it.
		o.Configuration = occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5.4",` +
			`"models":{"openai/gpt-5.4":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}},` +
			`"channels":{"slack":{"enabled":true,"name":` + fmt.Sprintf("%q", rapid.SampledFrom([]string{"x", "yes", "a: b", "é"}).Draw(t, "channel")) + `}}}`)
	}
	rev, err := drivertest.NewRevision(o)
	if err != nil {
		t.Fatalf("admit: %v", err)
	}
	opts := Options{
		Namespace: drivers.Namespace{ID: ns},
		Storage: Storage{Size: rapid.SampledFrom([]string{"", "1Gi", "500M", "1.5Ti", "100m"}).Draw(t, "size"),
			ClassName: rapid.SampledFrom([]string{"", "fast", "true"}).Draw(t, "class")},
		Plugins: Plugins{Registry: rapid.SampledFrom([]string{"", "https://npm.example.com/"}).Draw(t, "registry")},
		Stopped: rapid.Bool().Draw(t, "stopped"),
	}
	if rapid.Bool().Draw(t, "digests") {
		opts.Images.Digests = map[string]string{}
		for _, ref := range []string{DefaultOpenClawImage + ":2026.9.6", DefaultCodexImage + ":" + drivertest.CodexVersion} {
			opts.Images.Digests[ref] = "sha256:" + strings.Repeat("ab", 32)
		}
	}
	if topo.Mode == occkit.ModeDedicated {
		opts.Sandbox = &Sandbox{ID: drivertest.SandboxDriverID,
			Facts:            occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true},
			RuntimeClassName: rapid.SampledFrom([]string{"", "gvisor"}).Draw(t, "runtimeClass"),
			HarnessHome:      rapid.SampledFrom([]string{"", "/sandbox/home"}).Draw(t, "home")}
	}
	objs, err := Render(rev, opts)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return objs
}

// binding is an api_key binding on a Secret of the tenant namespace ns.
func binding(ns string) occkit.Binding {
	return occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: ns, ID: "model-key"}}
}

// one is the Objects holding obj alone.
func one(obj Object) Objects {
	switch o := obj.(type) {
	case *corev1.ServiceAccount:
		return Objects{ServiceAccounts: []*corev1.ServiceAccount{o}}
	case *corev1.ConfigMap:
		return Objects{ConfigMaps: []*corev1.ConfigMap{o}}
	case *corev1.PersistentVolumeClaim:
		return Objects{PersistentVolumeClaims: []*corev1.PersistentVolumeClaim{o}}
	case *corev1.Service:
		return Objects{Services: []*corev1.Service{o}}
	case *appsv1.Deployment:
		return Objects{Deployments: []*appsv1.Deployment{o}}
	}
	panic(fmt.Sprintf("no kind for %T", obj))
}

// typedYAML is obj's YAML from the typed writer; read is false where it
// does not read obj, written where it does not cover a value.
func typedYAML(obj Object) (y []byte, read, written bool) {
	return appendTyped(nil, obj)
}

// jsonTreeYAML is obj's YAML from the tree read from its JSON text, the
// reader the typed one stands in for.
func jsonTreeYAML(obj Object) ([]byte, bool) {
	var tree yamlTree
	root, ok := tree.readObject(obj)
	if !ok {
		return nil, false
	}
	return appendYAML(nil, &tree, root)
}

// checkTyped checks obj's typed YAML against sigs.k8s.io/yaml's and the
// JSON tree's, and reports whether the typed writer read it.
func checkTyped(t fataler, obj Object) bool {
	t.Helper()
	got, read, written := typedYAML(obj)
	if !read {
		return false
	}
	if !written {
		// Text the writer does not cover (or that is not UTF-8, which
		// the JSON tree holds as U+FFFD): Objects.YAML leaves it to
		// JSONToYAML.
		return true
	}
	want, jsonWritten := jsonTreeYAML(obj)
	if !jsonWritten {
		t.Fatalf("%T: the writer covers the typed tree, not the JSON tree", obj)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Fatalf("%T: (-JSON tree +typed tree):\n%s", obj, d)
	}
	if !totalKeyOrder(reflect.ValueOf(obj)) {
		return true
	}
	if d := cmp.Diff(sigsYAML(t, one(obj)), string(got)); d != "" {
		t.Fatalf("%T: (-sigs.k8s.io/yaml +typed tree):\n%s", obj, d)
	}
	return true
}

// totalKeyOrder reports whether no map key in v holds a digit. go-yaml's
// key order compares runs of digits by value and is not transitive over
// such keys (["3~", "02001", "0occ"] make a cycle): sigs.k8s.io/yaml then
// writes them in an order that depends on Go's map iteration, which no
// oracle can repeat, while the package's writers start from the JSON
// text's order and are deterministic (the JSON tree stays their oracle).
func totalKeyOrder(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || totalKeyOrder(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !totalKeyOrder(v.Field(i)) {
				return false
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if !totalKeyOrder(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		for iter := v.MapRange(); iter.Next(); {
			if strings.IndexFunc(iter.Key().String(), unicode.IsDigit) >= 0 {
				return false
			}
		}
	}
	return true
}

// checkStream checks objs.YAML against sigs.k8s.io/yaml where it is
// deterministic ([totalKeyOrder]).
func checkStream(t fataler, objs Objects) {
	t.Helper()
	got, err := objs.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range objs.List() {
		if !simpleKeys(applyTree(t, obj)) {
			// JSONToYAML's parser cannot read this object's JSON: the
			// stream must read back as the objects' trees.
			checkReadsBack(t, objs)
			return
		}
	}
	for _, obj := range objs.List() {
		if !totalKeyOrder(reflect.ValueOf(obj)) {
			return
		}
	}
	if d := cmp.Diff(sigsYAML(t, objs), string(got)); d != "" {
		t.Fatalf("(-sigs.k8s.io/yaml +YAML):\n%s", d)
	}
}

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// TestTypedReaderReadsRendered: the typed writer reads every object of
// every drawn render (a field Render starts to set that the reader does
// not read fails here), and its YAML is byte for byte the JSON tree's and
// sigs.k8s.io/yaml's.
func TestTypedReaderReadsRendered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		for _, obj := range objs.List() {
			if !checkTyped(t, obj) {
				t.Fatalf("%T %s: not read by the typed writer", obj, obj.GetName())
			}
		}
		checkStream(t, objs)
	})
}

// scramble sets every string of v (fields, list elements, map keys and
// values) to drawn text, arbitrary bytes among it.
func scramble(t *rapid.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(anyText(t, "s"))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			scramble(t, v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[resource.Quantity]() {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				scramble(t, v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			scramble(t, v.Index(i))
		}
	case reflect.Map:
		if v.Len() == 0 || v.Type().Key().Kind() != reflect.String {
			return
		}
		m := reflect.MakeMap(v.Type())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(anyText(t, "k"))
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			scramble(t, e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	}
}

// TestTypedReaderScrambled: rendered objects with drawn text in every
// string Render sets (names, labels, annotations, environment, arguments,
// paths, the ConfigMap's document) are written by the typed writer as
// sigs.k8s.io/yaml and the JSON tree write them.
func TestTypedReaderScrambled(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := drawRendered(t)
		for _, obj := range objs.List() {
			scramble(t, reflect.ValueOf(obj))
			checkTyped(t, obj)
		}
		checkStream(t, objs)
	})
}

// TestTypedReaderDrawnObjects: so are the drawn objects of
// TestYAMLMatchesSigsYAML.
func TestTypedReaderDrawnObjects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		for _, obj := range drawObjects(t).List() {
			checkTyped(t, obj)
		}
	})
}

// setValues calls fn once for every field reachable from v (to a depth)
// set to a non-zero value in turn, v's other fields as they are: a nil
// pointer made to point at a zero value and then each field below it, an
// empty list given one element, a map one more member.
func setValues(v reflect.Value, depth int, fn func(path string), path string) {
	if depth == 0 || !v.CanSet() {
		return
	}
	old := reflect.New(v.Type()).Elem()
	old.Set(v)
	defer v.Set(old)
	set := func(x any) {
		v.Set(reflect.ValueOf(x).Convert(v.Type()))
		fn(path)
		v.Set(old)
	}
	switch v.Type() {
	case reflect.TypeFor[resource.Quantity]():
		set(resource.MustParse("250m"))
		return
	case reflect.TypeFor[intstr.IntOrString]():
		set(intstr.FromInt32(7))
		set(intstr.FromString("p"))
		return
	case reflect.TypeFor[metav1.Time]():
		set(metav1.Unix(1700000000, 0))
		return
	case reflect.TypeFor[metav1.MicroTime]():
		set(metav1.NewMicroTime(metav1.Unix(1700000000, 0).Time))
		return
	}
	switch v.Kind() {
	case reflect.String:
		set("x y")
	case reflect.Bool:
		set(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		set(int8(v.Int() + 3))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		set(uint8(v.Uint() + 3))
	case reflect.Float32, reflect.Float64:
		set(0.5)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
			fn(path)
		}
		setValues(v.Elem(), depth-1, fn, path)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				setValues(v.Field(i), depth-1, fn, path+"."+f.Name)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fn(path)
		}
		setValues(v.Index(0), depth-1, fn, path+"[0]")
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		m := reflect.MakeMap(v.Type())
		for iter := v.MapRange(); iter.Next(); {
			m.SetMapIndex(iter.Key(), iter.Value())
		}
		k := reflect.New(v.Type().Key()).Elem()
		k.SetString("added")
		m.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		v.Set(m)
		fn(path)
	}
}

// TestTypedReaderFields: every field of every type the typed writer
// reads, set in a rendered object in turn (to a depth of eleven below the
// object), is either written as sigs.k8s.io/yaml writes it or leaves the
// object to the JSON path: the reader never drops a field.
func TestTypedReaderFields(t *testing.T) {
	var all []Object
	for _, topo := range []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}, {Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}} {
		rev, err := drivertest.NewRevision(drivertest.RevisionOptions{Compute: occkit.ComputeKubernetes, Topology: topo, Binding: binding("team-a"), Configuration: occkit.MustParseDocument(
			`{"agents":{"defaults":{"model":"openai/gpt-5.4","models":{"openai/gpt-5.4":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}},"channels":{"slack":{"enabled":true}}}`)})
		if topo.Harness == occkit.HarnessCodex {
			rev, err = drivertest.NewRevision(drivertest.RevisionOptions{Compute: occkit.ComputeKubernetes, Topology: topo, Binding: binding("team-a")})
		}
		if err != nil {
			t.Fatal(err)
		}
		objs, err := Render(rev, benchOptions)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, objs.List()...)
	}
	read, refused := map[string]bool{}, map[string]bool{}
	for _, obj := range all {
		obj := obj.DeepCopyObject().(Object)
		setValues(reflect.ValueOf(obj).Elem(), 12, func(path string) {
			if checkTyped(t, obj) {
				read[path] = true
			} else {
				refused[path] = true
			}
		}, reflect.TypeOf(obj).Elem().Name())
	}
	if len(read) == 0 || len(refused) == 0 {
		t.Fatalf("%d fields read, %d refused", len(read), len(refused))
	}
	t.Logf("%d fields read, %d left to the JSON path", len(read), len(refused))
}

// TestUnreadFields: every field the reader leaves unread is one
// encoding/json omits when zero, so that a zero one is rightly absent.
func TestUnreadFields(t *testing.T) {
	if len(allUnread) < 30 {
		t.Fatalf("%d types", len(allUnread))
	}
	for _, u := range allUnread {
		if u.never {
			t.Errorf("%s: an unread field is written even when zero", u.typ)
		}
	}
}

// FuzzTypedYAML: a rendered Deployment and ConfigMap holding fuzzed text
// in a label, an annotation, an argument, an environment value and the
// document are written as sigs.k8s.io/yaml writes them.
func FuzzTypedYAML(f *testing.F) {
	for _, s := range []string{"", "yes", "null", "0x1", ": ", "#", " a", "\ta", "a\u2028b", "a\nb", "'", "\"", "1e3", "~", "- x", strings.Repeat("word ", 40)} {
		f.Add(s, s)
	}
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{Compute: occkit.ComputeKubernetes, Binding: binding("team-a")})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		objs, err := Render(rev, benchOptions)
		if err != nil {
			t.Fatal(err)
		}
		dep, cm := objs.Deployments[0], objs.ConfigMaps[0]
		dep.Labels[a] = b
		dep.Spec.Template.Annotations[b] = a
		c := &dep.Spec.Template.Spec.Containers[0]
		c.Args = append(c.Args, a, b)
		c.Env = append(c.Env, corev1.EnvVar{Name: b, Value: a})
		cm.Data = map[string]string{a: b}
		for _, obj := range objs.List() {
			checkTyped(t, obj)
		}
		checkStream(t, objs)
	})
}
