package kubernetes

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/logging"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func testDriver(t testing.TB) *Driver {
	t.Helper()
	d, err := New(Config{Client: fake.NewClientset(), Namespace: tenant, Sandbox: testSandbox(), SkipDryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func renderCase(t testing.TB, c topologyCase) (drivers.Revision, render.Objects) {
	t.Helper()
	d := testDriver(t)
	rev := admitOn(t, d, "main", c, 3)
	objs, err := render.Render(rev, render.Options{Namespace: tenant, Sandbox: testSandbox()})
	if err != nil {
		t.Fatalf("Render(%s): %v", c.name, err)
	}
	return rev, objs
}

// strictDecode decodes a multi-document YAML stream with the Kubernetes
// scheme in strict mode: unknown or duplicate fields are errors.
func strictDecode(t fataler, stream []byte) []runtime.Object {
	t.Helper()
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	var out []runtime.Object
	for i, doc := range bytes.Split(stream, []byte("\n---\n")) {
		obj, _, err := s.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("document %d does not decode strictly: %v", i, err)
		}
		out = append(out, obj)
	}
	return out
}

// DRV-5: golden YAML per topology; regenerate with -update.
func TestRenderGolden(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			_, objs := renderCase(t, c)
			got, err := objs.YAML()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", c.name+".yaml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs from the golden file (-want +got):\n%s", path, diff)
			}
			decoded := strictDecode(t, got)
			if len(decoded) != len(objs.List()) {
				t.Errorf("decoded %d objects, rendered %d", len(decoded), len(objs.List()))
			}
		})
	}
}

// DRV-5: embedded is one Deployment with Recreate; dedicated is two
// workloads each with its own ServiceAccount and PVC.
func TestRenderShape(t *testing.T) {
	type shape struct {
		Kinds       map[string]int
		Containers  map[string][]string
		Accounts    map[string]string
		Claims      map[string]string
		Strategies  []appsv1.DeploymentStrategyType
		ConfigFiles map[string][]string
	}
	tests := []struct {
		c    topologyCase
		want shape
	}{
		{embeddedOpenClaw, shape{
			Kinds:       map[string]int{"ServiceAccount": 1, "ConfigMap": 1, "PersistentVolumeClaim": 1, "Service": 1, "Deployment": 1},
			Containers:  map[string][]string{"gateway": {"gateway"}},
			Accounts:    map[string]string{"gateway": render.WorkloadName("main", occkit.ProcessGateway)},
			Claims:      map[string]string{"gateway": render.DataName("main", occkit.ProcessGateway)},
			Strategies:  []appsv1.DeploymentStrategyType{appsv1.RecreateDeploymentStrategyType},
			ConfigFiles: map[string][]string{"gateway": {render.ConfigFile}},
		}},
		{dedicatedCodex, shape{
			Kinds:      map[string]int{"ServiceAccount": 2, "ConfigMap": 2, "PersistentVolumeClaim": 2, "Service": 2, "Deployment": 2},
			Containers: map[string][]string{"gateway": {"gateway"}, "harness": {"harness"}},
			Accounts: map[string]string{"gateway": render.WorkloadName("main", occkit.ProcessGateway),
				"harness": render.WorkloadName("main", occkit.ProcessHarness)},
			Claims:      map[string]string{"gateway": render.DataName("main", occkit.ProcessGateway), "harness": render.DataName("main", occkit.ProcessHarness)},
			Strategies:  []appsv1.DeploymentStrategyType{appsv1.RecreateDeploymentStrategyType, appsv1.RecreateDeploymentStrategyType},
			ConfigFiles: map[string][]string{"gateway": {render.ConfigFile}, "harness": {render.CodexConfigFile}},
		}},
		{dedicatedOpenClaw, shape{
			Kinds:      map[string]int{"ServiceAccount": 2, "ConfigMap": 2, "PersistentVolumeClaim": 2, "Service": 1, "Deployment": 2},
			Containers: map[string][]string{"gateway": {"gateway"}, "harness": {"harness"}},
			Accounts: map[string]string{"gateway": render.WorkloadName("main", occkit.ProcessGateway),
				"harness": render.WorkloadName("main", occkit.ProcessHarness)},
			Claims:      map[string]string{"gateway": render.DataName("main", occkit.ProcessGateway), "harness": render.DataName("main", occkit.ProcessHarness)},
			Strategies:  []appsv1.DeploymentStrategyType{appsv1.RecreateDeploymentStrategyType, appsv1.RecreateDeploymentStrategyType},
			ConfigFiles: map[string][]string{"gateway": {render.ConfigFile}, "harness": {render.ConfigFile}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.c.name, func(t *testing.T) {
			_, objs := renderCase(t, tt.c)
			got := shape{Kinds: map[string]int{}, Containers: map[string][]string{}, Accounts: map[string]string{},
				Claims: map[string]string{}, ConfigFiles: map[string][]string{}}
			for _, o := range objs.List() {
				got.Kinds[o.GetObjectKind().GroupVersionKind().Kind]++
			}
			for _, dep := range objs.Deployments {
				c := dep.Labels[render.LabelComponent]
				for _, ctr := range dep.Spec.Template.Spec.Containers {
					got.Containers[c] = append(got.Containers[c], ctr.Name)
				}
				got.Accounts[c] = dep.Spec.Template.Spec.ServiceAccountName
				for _, v := range dep.Spec.Template.Spec.Volumes {
					if v.PersistentVolumeClaim != nil {
						got.Claims[c] = v.PersistentVolumeClaim.ClaimName
					}
				}
				got.Strategies = append(got.Strategies, dep.Spec.Strategy.Type)
			}
			for _, cm := range objs.ConfigMaps {
				for k := range cm.Data {
					got.ConfigFiles[cm.Labels[render.LabelComponent]] = append(got.ConfigFiles[cm.Labels[render.LabelComponent]], k)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
		})
	}
}

// DRV-5: every name is a DNS-1123 label derived from 12 hex characters of
// SHA-256, every object is in the tenant namespace and carries the
// revision (except durable data).
func TestRenderNamesAndLabels(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			rev, objs := renderCase(t, c)
			prefix := "occ-" + render.Hash("main") + "-"
			for _, o := range objs.List() {
				if errs := validation.IsDNS1123Label(o.GetName()); len(errs) > 0 {
					t.Errorf("%s is not a DNS-1123 label: %v", o.GetName(), errs)
				}
				if !strings.HasPrefix(o.GetName(), prefix) {
					t.Errorf("%s does not start with %s", o.GetName(), prefix)
				}
				if o.GetNamespace() != tenant.Name {
					t.Errorf("%s is in namespace %q", o.GetName(), o.GetNamespace())
				}
				_, durable := o.(*corev1.PersistentVolumeClaim)
				if got := o.GetLabels()[render.LabelRevision]; durable != (got == "") {
					t.Errorf("%s revision label %q (durable %v)", o.GetName(), got, durable)
				}
				if !durable && o.GetAnnotations()[render.AnnotationDigest] != rev.Digest() {
					t.Errorf("%s digest annotation %q", o.GetName(), o.GetAnnotations()[render.AnnotationDigest])
				}
			}
		})
	}
}

// LOG-6: pods carry the protected Collector labels from identity facts.
func TestRenderCollectorLabels(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			rev, objs := renderCase(t, c)
			for _, dep := range objs.Deployments {
				ctr := dep.Spec.Template.Spec.Containers[0]
				want, err := logging.CollectorMetadata(logging.Identity{
					Harness: rev.Harness(), Mode: rev.Mode(), Container: occkit.Process(ctr.Name),
					Version: rev.HarnessIdentity().Version, Namespace: tenant.ID, Agent: "main", Revision: rev.Digest(),
				})
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range logging.AllProtectedKeys() {
					if got := dep.Spec.Template.Labels[string(k)]; got != want.Labels[string(k)] || got == "" {
						t.Errorf("%s label %s = %q, want %q", dep.Name, k, got, want.Labels[string(k)])
					}
					if got := dep.Spec.Template.Annotations[string(k)]; got != want.Annotations[string(k)] {
						t.Errorf("%s annotation %s = %q, want %q", dep.Name, k, got, want.Annotations[string(k)])
					}
				}
			}
		})
	}
}

// envMap is a container's env by name.
func envMap(ctr corev1.Container) map[string]corev1.EnvVar {
	m := map[string]corev1.EnvVar{}
	for _, e := range ctr.Env {
		m[e.Name] = e
	}
	return m
}

var inferenceVars = []string{admission.EnvOpenAIAPIKey, admission.EnvAnthropicAPIKey, admission.EnvCodexAccessToken}

// AUTH-2, AUTH-6: credentials are Secret references, only in the Harness
// process; a dedicated gateway has none.
func TestRenderCredentials(t *testing.T) {
	type proj struct {
		Name, Secret, Key, Value string
	}
	secretRef := func(name string, ref occkit.SourceRef) proj {
		return proj{Name: name, Secret: render.CredentialSecretName(ref), Key: render.CredentialSecretKey(ref)}
	}
	key := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "openai-key"}
	sa := occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "team-a", ID: "codex-bot"}
	tests := []struct {
		name string
		c    topologyCase
		want map[string][]proj
	}{
		{"embedded api_key", embeddedOpenClaw, map[string][]proj{"gateway": {secretRef("OPENAI_API_KEY", key)}}},
		{"embedded api_key anthropic", topologyCase{name: "embedded-anthropic", mode: occkit.ModeEmbedded, harness: occkit.HarnessOpenClaw,
			auth: embeddedOpenClaw.auth, doc: `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`},
			map[string][]proj{"gateway": {secretRef("ANTHROPIC_API_KEY", key)}}},
		{"dedicated codex api_key", dedicatedCodex, map[string][]proj{"gateway": nil,
			"harness": {secretRef("OPENAI_API_KEY", key), {Name: "CODEX_LOGIN_MODE", Value: "api_key"}}}},
		{"dedicated codex codex_pat service account", topologyCase{name: "codex-pat", mode: occkit.ModeDedicated, harness: occkit.HarnessCodex,
			auth: `{"method":"codex_pat","source":{"kind":"service_account","namespaceId":"team-a","id":"codex-bot"}}`, doc: dedicatedCodex.doc},
			map[string][]proj{"gateway": nil, "harness": {secretRef("CODEX_ACCESS_TOKEN", sa), {Name: "CODEX_LOGIN_MODE", Value: "codex_pat"}}}},
		{"dedicated openclaw api_key", dedicatedOpenClaw, map[string][]proj{"gateway": nil, "harness": {secretRef("OPENAI_API_KEY", key)}}},
	}
	credNames := map[string]bool{"OPENAI_API_KEY": true, "ANTHROPIC_API_KEY": true, "CODEX_ACCESS_TOKEN": true, "CODEX_LOGIN_MODE": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, objs := renderCase(t, tt.c)
			got := map[string][]proj{}
			for _, dep := range objs.Deployments {
				c := dep.Labels[render.LabelComponent]
				got[c] = nil
				for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
					if !credNames[e.Name] {
						continue
					}
					p := proj{Name: e.Name, Value: e.Value}
					if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
						p.Secret, p.Key = e.ValueFrom.SecretKeyRef.Name, e.ValueFrom.SecretKeyRef.Key
					}
					got[c] = append(got[c], p)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("credential env (-want +got):\n%s", diff)
			}
			// AUTH-6 also in the gateway's document.
			for _, cm := range objs.ConfigMaps {
				if cm.Labels[render.LabelComponent] != string(occkit.ProcessGateway) || tt.c.mode != occkit.ModeDedicated {
					continue
				}
				for _, v := range inferenceVars {
					if strings.Contains(cm.Data[render.ConfigFile], v) {
						t.Errorf("dedicated gateway document names %s", v)
					}
				}
			}
		})
	}
}

// LOG-4: the document is mounted read-only at /etc/openclaw with
// OPENCLAW_CONFIG_PATH; Codex gets the JSON logging env and its TOML.
func TestRenderLogging(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			rev, objs := renderCase(t, c)
			for _, dep := range objs.Deployments {
				ctr := dep.Spec.Template.Spec.Containers[0]
				lr, err := logging.Render(rev.Harness(), rev.Mode(), occkit.Process(ctr.Name), rev.Level())
				if err != nil {
					t.Fatal(err)
				}
				env := envMap(ctr)
				for _, e := range lr.Env {
					if env[e.Name].Value != e.Value {
						t.Errorf("%s: %s = %q, want %q", dep.Name, e.Name, env[e.Name].Value, e.Value)
					}
				}
				for _, u := range lr.Unset {
					if _, ok := env[u]; ok {
						t.Errorf("%s sets %s, which logging removes", dep.Name, u)
					}
				}
				if lr.ReadsDocument {
					found := false
					for _, m := range ctr.VolumeMounts {
						if m.MountPath == render.ConfigDir {
							found = m.ReadOnly
						}
					}
					if !found {
						t.Errorf("%s: the document is not mounted read-only at %s", dep.Name, render.ConfigDir)
					}
					if got := env[logging.EnvConfigPath].Value; got != render.ConfigDir+"/"+render.ConfigFile {
						t.Errorf("%s: OPENCLAW_CONFIG_PATH = %q", dep.Name, got)
					}
				}
				if lr.Command != nil && !cmp.Equal(ctr.Args[:len(lr.Command)], lr.Command) {
					t.Errorf("%s: args %q do not start with %q", dep.Name, ctr.Args, lr.Command)
				}
			}
		})
	}
}

// Pods run non-root, read-only, without privilege escalation.
func TestRenderSecurityContext(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			_, objs := renderCase(t, c)
			for _, dep := range objs.Deployments {
				pod := dep.Spec.Template.Spec
				if pod.SecurityContext == nil || !*pod.SecurityContext.RunAsNonRoot || *pod.SecurityContext.RunAsUser == 0 {
					t.Errorf("%s pod may run as root", dep.Name)
				}
				if *pod.AutomountServiceAccountToken {
					t.Errorf("%s mounts an API token", dep.Name)
				}
				for _, ctr := range pod.Containers {
					sc := ctr.SecurityContext
					if sc == nil || *sc.AllowPrivilegeEscalation || !*sc.ReadOnlyRootFilesystem || *sc.Privileged ||
						!cmp.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
						t.Errorf("%s/%s security context %+v", dep.Name, ctr.Name, sc)
					}
				}
			}
		})
	}
}

// RES-13: the dedicated OpenClaw Harness runs under the sandbox runtime.
func TestRenderSandbox(t *testing.T) {
	_, objs := renderCase(t, dedicatedOpenClaw)
	for _, dep := range objs.Deployments {
		rc := dep.Spec.Template.Spec.RuntimeClassName
		if dep.Labels[render.LabelComponent] == string(occkit.ProcessHarness) {
			if rc == nil || *rc != "gvisor" {
				t.Errorf("harness runtime class %v", rc)
			}
			if got := envMap(dep.Spec.Template.Spec.Containers[0])["HOME"].Value; got != "/sandbox/home" {
				t.Errorf("harness home %q", got)
			}
		} else if rc != nil {
			t.Errorf("gateway runs under runtime class %q", *rc)
		}
	}
}

func TestRenderStopped(t *testing.T) {
	d := testDriver(t)
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	objs, err := render.Render(rev, render.Options{Namespace: tenant, Stopped: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := *objs.Deployments[0].Spec.Replicas; got != 0 {
		t.Errorf("stopped replicas %d", got)
	}
}

func TestRenderRefusals(t *testing.T) {
	d := testDriver(t)
	embedded := admitOn(t, d, "main", embeddedOpenClaw, 1)
	dedicatedOC := admitOn(t, d, "main", dedicatedOpenClaw, 1)
	codex := admitOn(t, d, "main", dedicatedCodex, 1)
	unstamped := record(t, embedded, withDocument(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`)))
	otherLevel := record(t, embedded, func(m map[string]any) { m["logging"] = map[string]any{"level": "debug", "ownership": "platform"} })
	driverOwned := record(t, embedded, func(m map[string]any) { m["logging"] = map[string]any{"level": "warn", "ownership": "driver"} })
	gatewayCred := record(t, codex, func(m map[string]any) {
		m["projection"] = map[string]any{"gateway": []any{map[string]any{"name": "OPENAI_API_KEY",
			"from": map[string]any{"kind": "secret", "namespaceId": "team-a", "id": "openai-key"}}}, "harness": []any{}}
	})
	otherNS := render.Options{Namespace: drivers.Namespace{ID: "team-b"}, Sandbox: testSandbox()}
	tests := []struct {
		name string
		rev  drivers.Revision
		opts render.Options
		want occkit.ErrorMatcher
	}{
		{"nil revision", nil, render.Options{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: ""}},
		{"stamp not intact", unstamped, render.Options{Namespace: tenant}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "LOG-2", Path: "diagnostics.otel.logs"}},
		{"level differs from admitted", otherLevel, render.Options{Namespace: tenant}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "LOG-2", Path: "logging.level"}},
		{"driver-owned logging", driverOwned, render.Options{Namespace: tenant}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "LOG-3", Path: "logging"}},
		{"gateway credential", gatewayCred, render.Options{Namespace: tenant}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "AUTH-6", Path: "projection.gateway[0]"}},
		{"credential in another namespace", embedded, otherNS, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "AUTH-2", Path: "harnessAuth.source.namespaceId"}},
		{"dedicated openclaw without sandbox", dedicatedOC, render.Options{Namespace: tenant}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "RES-13", Path: "executionMode"}},
		{"dedicated openclaw other sandbox", dedicatedOC, render.Options{Namespace: tenant, Sandbox: &render.Sandbox{ID: "other", Facts: testSandbox().Facts}},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "ADM-5", Path: "sandboxDriverId"}},
		{"bad namespace", embedded, render.Options{Namespace: drivers.Namespace{ID: "team-a", Name: "Team_A"}}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: "kubernetes.namespace"}},
		{"bad storage size", embedded, render.Options{Namespace: tenant, Storage: render.Storage{Size: "lots"}}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: "kubernetes.storage.size"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := render.Render(tt.rev, tt.opts)
			if diff := cmp.Diff(tt.want, keyOf(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
}

func TestRenderDeterministic(t *testing.T) {
	for _, c := range allTopologyCases {
		_, a := renderCase(t, c)
		_, b := renderCase(t, c)
		ya, _ := a.YAML()
		yb, _ := b.YAML()
		if !bytes.Equal(ya, yb) {
			t.Errorf("%s: two renders differ", c.name)
		}
	}
}

// Objects.Each and Objects.WriteFiles: one file per object in apply
// order, each a strict single-object document, together the YAML stream.
func TestRenderFiles(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			_, objs := renderCase(t, c)
			dir := filepath.Join(t.TempDir(), "manifests")
			if err := objs.WriteFiles(dir); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			list := objs.List()
			if len(entries) != len(list) {
				t.Fatalf("wrote %d files for %d objects", len(entries), len(list))
			}
			var joined []string
			for i, e := range entries { // ReadDir sorts by name: apply order
				obj := list[i]
				if want := render.FileName(i, obj); e.Name() != want {
					t.Errorf("file %d is %s, want %s", i, e.Name(), want)
				}
				doc, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				decoded := strictDecode(t, doc)
				if len(decoded) != 1 {
					t.Fatalf("%s holds %d objects", e.Name(), len(decoded))
				}
				got := decoded[0].(interface{ GetName() string })
				if got.GetName() != obj.GetName() ||
					decoded[0].GetObjectKind().GroupVersionKind() != obj.GetObjectKind().GroupVersionKind() {
					t.Errorf("%s decodes to %v %s, want %v %s", e.Name(), decoded[0].GetObjectKind().GroupVersionKind(),
						got.GetName(), obj.GetObjectKind().GroupVersionKind(), obj.GetName())
				}
				joined = append(joined, string(doc))
			}
			stream, err := objs.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(stream), strings.Join(joined, "---\n")); diff != "" {
				t.Errorf("the files joined differ from YAML() (-YAML +files):\n%s", diff)
			}
			// Writing again replaces the files with the same content.
			if err := objs.WriteFiles(dir); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadDir(dir); len(again) != len(list) {
				t.Errorf("a second write left %d files, want %d", len(again), len(list))
			}
		})
	}
	_, objs := renderCase(t, embeddedOpenClaw)
	stop := errors.New("stop")
	calls := 0
	if err := objs.Each(func(string, []byte) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Each returned %v after %d calls, want fn's error after 1", err, calls)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := objs.WriteFiles(file); err == nil {
		t.Error("WriteFiles into a path that is a file succeeded")
	}
	for _, o := range objs.List() {
		if strings.ContainsAny(render.FileName(0, o), `/\`) {
			t.Errorf("file name %q has a path separator", render.FileName(0, o))
		}
	}
}
