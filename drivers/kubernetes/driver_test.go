package kubernetes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

const canary = "sk-kubernetes-canary-7f3a9d"

func fakeDriver(t testing.TB, cs kubernetes.Interface, mod func(*Config)) *Driver {
	t.Helper()
	cfg := Config{Client: cs, Namespace: tenant, Sandbox: testSandbox(), PollInterval: 5 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func qualifying() occkit.SandboxFacts {
	return occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true}
}

// suiteOptions run the conformance suite with its credentials in the
// driver's default tenant namespace, where it reads Agents' Secrets.
var suiteOptions = drivertest.Options{CredentialNamespace: render.DefaultNamespace}

// DRV-1: the reference driver passes the conformance suite on the fake
// clientset, with and without a SandboxDriver.
func TestConformanceFake(t *testing.T) {
	t.Run("with sandbox", func(t *testing.T) {
		drivertest.RunWith(t, func() drivers.ComputeDriver {
			return fakeDriver(t, fake.NewClientset(), func(c *Config) {
				c.Namespace = drivers.Namespace{}
				c.Sandbox = &render.Sandbox{ID: drivertest.SandboxDriverID, Facts: qualifying()}
			})
		}, suiteOptions)
	})
	t.Run("without sandbox", func(t *testing.T) {
		drivertest.RunWith(t, func() drivers.ComputeDriver {
			return fakeDriver(t, fake.NewClientset(), func(c *Config) { c.Namespace = drivers.Namespace{}; c.Sandbox = nil })
		}, suiteOptions)
	})
}

// RES-11: dedicated OpenClaw is declared only with a qualifying sandbox.
func TestDeclaration(t *testing.T) {
	embedded := occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	codex := occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}
	native := occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}
	tests := []struct {
		name    string
		sandbox *render.Sandbox
		want    []occkit.Topology
	}{
		{"no sandbox", nil, []occkit.Topology{embedded, codex}},
		{"qualifying sandbox", &render.Sandbox{ID: "s", Facts: qualifying()}, []occkit.Topology{embedded, codex, native}},
		{"sandbox without provisioning", &render.Sandbox{ID: "s", Facts: occkit.SandboxFacts{Facets: occkit.AllFacets()}}, []occkit.Topology{embedded, codex}},
		{"sandbox missing a facet", &render.Sandbox{ID: "s", Facts: occkit.SandboxFacts{Facets: occkit.AllFacets()[:2], ProvisionHarness: true}}, []occkit.Topology{embedded, codex}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fakeDriver(t, fake.NewClientset(), func(c *Config) { c.Sandbox = tt.sandbox })
			decl := d.Declaration()
			if diff := cmp.Diff(tt.want, decl.Topologies); diff != "" {
				t.Errorf("topologies (-want +got):\n%s", diff)
			}
			if err := drivers.ValidateDeclaration(decl); err != nil {
				t.Error(err)
			}
			if decl.Name != occkit.ComputeKubernetes {
				t.Errorf("name %q", decl.Name)
			}
		})
	}
}

func TestNewRefusals(t *testing.T) {
	cs := fake.NewClientset()
	tests := []struct {
		name string
		cfg  Config
		want occkit.ErrorMatcher
	}{
		{"no client", Config{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: "kubernetes.client"}},
		{"bad namespace", Config{Client: cs, Namespace: drivers.Namespace{ID: "x", Name: "Not_A_Label"}}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: "kubernetes.namespace"}},
		{"sandbox without name", Config{Client: cs, Sandbox: &render.Sandbox{Facts: qualifying()}}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-2", Path: "kubernetes.sandbox.id"}},
		{"relative harness home", Config{Client: cs, Sandbox: &render.Sandbox{ID: "s", HarnessHome: "home"}}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-2", Path: "kubernetes.sandbox.harnessHome"}},
		{"bad storage", Config{Client: cs, Storage: render.Storage{Size: "big"}}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: "kubernetes.storage.size"}},
		{"long field manager", Config{Client: cs, FieldManager: strings.Repeat("m", 129)}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: "kubernetes.fieldManager"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if diff := cmp.Diff(tt.want, keyOf(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := NewForConfig(nil, Config{}); keyOf(err).Code != occkit.CodeInvalidRequest {
		t.Errorf("NewForConfig(nil) = %v", err)
	}
}

// dump marshals every object of the fake cluster except Secrets.
func dump(t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	ctx := context.Background()
	var parts []any
	lo := metav1.ListOptions{}
	add := func(v any, err error) {
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, v)
	}
	add(cs.AppsV1().Deployments("").List(ctx, lo))
	add(cs.CoreV1().ConfigMaps("").List(ctx, lo))
	add(cs.CoreV1().Services("").List(ctx, lo))
	add(cs.CoreV1().ServiceAccounts("").List(ctx, lo))
	add(cs.CoreV1().PersistentVolumeClaims("").List(ctx, lo))
	add(cs.CoreV1().Namespaces().List(ctx, lo))
	b, err := json.Marshal(parts)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// AUTH-2: the Secret's bytes never leave the Secret: every applied object
// only references it.
func TestPrepareNeverCopiesSecretValues(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			cs := fake.NewClientset(
				&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: render.CredentialSecretName(occkit.SourceRef{ID: "openai-key"}), Namespace: tenant.Name},
					Data: map[string][]byte{"value": []byte(canary)}},
			)
			d := fakeDriver(t, cs, nil)
			rev := admitOn(t, d, "main", c, 1)
			if err := d.Prepare(context.Background(), rev); err != nil {
				t.Fatal(err)
			}
			all := dump(t, cs)
			if strings.Contains(all, canary) {
				t.Fatal("a secret value was copied into an applied object")
			}
			if !strings.Contains(all, render.WorkloadName("main", occkit.ProcessGateway)) {
				t.Fatal("the dump holds no rendered object")
			}
			// AUTH-6: the dedicated gateway has no inference credential env.
			gw, err := cs.AppsV1().Deployments(tenant.Name).Get(context.Background(), render.WorkloadName("main", occkit.ProcessGateway), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			env := envMap(gw.Spec.Template.Spec.Containers[0])
			for _, v := range inferenceVars {
				if _, ok := env[v]; ok && c.mode == occkit.ModeDedicated {
					t.Errorf("dedicated gateway has %s", v)
				}
			}
		})
	}
}

// Prepare creates each per-Agent token Secret the render names (the
// gateway token; the app-server token for dedicated Codex) with a random
// token, and never rewrites one that exists.
func TestPrepareCreatesTokens(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			existing := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: render.GatewayTokenSecretName("main"), Namespace: tenant.Name},
				Data: map[string][]byte{render.GatewayTokenSecretKey: []byte(canary)}}
			cs := fake.NewClientset(existing)
			d := fakeDriver(t, cs, nil)
			if err := d.Prepare(context.Background(), admitOn(t, d, "main", c, 1)); err != nil {
				t.Fatal(err)
			}
			got, err := cs.CoreV1().Secrets(tenant.Name).Get(context.Background(), render.GatewayTokenSecretName("main"), metav1.GetOptions{})
			if err != nil || string(got.Data[render.GatewayTokenSecretKey]) != canary {
				t.Errorf("the existing gateway token was rewritten (%v)", err)
			}
			app, err := cs.CoreV1().Secrets(tenant.Name).Get(context.Background(), render.AppServerTokenSecretName("main"), metav1.GetOptions{})
			if c.harness != occkit.HarnessCodex {
				if err == nil {
					t.Error("an app-server token for a topology without an app-server")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tok := app.Data[render.AppServerTokenSecretKey]; len(tok) != 64 || app.Labels[render.LabelComponent] != string(occkit.ProcessHarness) {
				t.Errorf("app-server token Secret: %d bytes, labels %v", len(tok), app.Labels)
			}
		})
	}
}

func getDeployment(t *testing.T, cs kubernetes.Interface, c occkit.Process) *appsv1.Deployment {
	t.Helper()
	dep, err := cs.AppsV1().Deployments(tenant.Name).Get(context.Background(), render.WorkloadName("main", c), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dep
}

func configMapNames(t *testing.T, cs kubernetes.Interface) []string {
	t.Helper()
	l, err := cs.CoreV1().ConfigMaps(tenant.Name).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cm := range l.Items {
		out = append(out, cm.Name)
	}
	return out
}

// second returns c's Agent admitted again with a changed document.
func second(t *testing.T, d *Driver, c topologyCase) drivers.Revision {
	t.Helper()
	doc, err := occkit.MustParseDocument(c.doc).Set(occkit.NewPath("ui", "seamColor"), "#a1b2c3")
	if err != nil {
		t.Fatal(err)
	}
	return admitDoc(t, d, "main", c, doc, 2)
}

// ADM-6, DRV-5: embedded replacement updates the one Deployment in place
// (Recreate); Retire removes only its own revision; data stays.
func TestEmbeddedReplacementAndRetire(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	d := fakeDriver(t, cs, nil)
	rev1 := admitOn(t, d, "main", embeddedOpenClaw, 1)
	rev2 := second(t, d, embeddedOpenClaw)
	for _, rev := range []drivers.Revision{rev1, rev2} {
		if err := d.Prepare(ctx, rev); err != nil {
			t.Fatal(err)
		}
	}
	dep := getDeployment(t, cs, occkit.ProcessGateway)
	if dep.Labels[render.LabelRevision] != render.Hash(rev2.Digest()) || dep.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Fatalf("deployment runs %s with %s", dep.Labels[render.LabelRevision], dep.Spec.Strategy.Type)
	}
	if err := d.Retire(ctx, "main", rev1.Digest()); err != nil {
		t.Fatal(err)
	}
	getDeployment(t, cs, occkit.ProcessGateway) // still there: rev2 owns it
	if diff := cmp.Diff([]string{render.ConfigName("main", rev2.Digest(), occkit.ProcessGateway)}, configMapNames(t, cs)); diff != "" {
		t.Errorf("config maps after retiring rev1 (-want +got):\n%s", diff)
	}
	if err := d.Retire(ctx, "main", rev2.Digest()); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.AppsV1().Deployments(tenant.Name).Get(ctx, render.WorkloadName("main", occkit.ProcessGateway), metav1.GetOptions{}); !isNotFound(err) {
		t.Errorf("deployment after retiring rev2: %v", err)
	}
	if _, err := cs.CoreV1().PersistentVolumeClaims(tenant.Name).Get(ctx, render.DataName("main", occkit.ProcessGateway), metav1.GetOptions{}); err != nil {
		t.Errorf("durable data was deleted: %v", err)
	}
	if got := configMapNames(t, cs); len(got) != 0 {
		t.Errorf("config maps left: %v", got)
	}
}

// ADM-6: a dedicated replacement stops every earlier version first: no
// new workload is applied while a predecessor's pod still exists.
func TestDedicatedReplacementStopsPredecessorsFirst(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	// The fake ignores dryRun (it writes), so the dry-run pass is skipped
	// here; the real tier covers it.
	d := fakeDriver(t, cs, func(c *Config) { c.SkipDryRun = true })
	rev1 := admitOn(t, d, "main", dedicatedCodex, 1)
	rev2 := second(t, d, dedicatedCodex)
	if err := d.Prepare(ctx, rev1); err != nil {
		t.Fatal(err)
	}
	// A running pod of rev1 (the fake has no controllers).
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "old", Namespace: tenant.Name, Labels: map[string]string{
		render.LabelManagedBy: render.ManagedBy, render.LabelAgent: render.Hash("main"), render.LabelComponent: "harness", render.LabelRevision: render.Hash(rev1.Digest())}}}
	if _, err := cs.CoreV1().Pods(tenant.Name).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var podGone bool
	var early []string
	cs.PrependReactor("patch", "deployments", func(a k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		if !podGone {
			early = append(early, a.(k8stesting.PatchAction).GetName())
		}
		return false, nil, nil
	})
	// Each time Prepare lists the predecessor's pods, it says so; the pod
	// runs until the test deletes it.
	listed := make(chan struct{}, 100)
	cs.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		select {
		case listed <- struct{}{}:
		default:
		}
		return false, nil, nil
	})
	done := make(chan error, 1)
	go func() { done <- d.Prepare(ctx, rev2) }()
	// Two lists: after the first found the pod, Prepare waited and looked
	// again instead of going on.
	for range 2 {
		select {
		case <-listed:
		case err := <-done:
			t.Fatalf("Prepare returned while a predecessor pod runs: %v", err)
		case <-time.After(time.Minute): // a hang detector, not a bound
			t.Fatal("Prepare never listed the predecessor's pods")
		}
	}
	select {
	case err := <-done:
		t.Fatalf("Prepare returned while a predecessor pod runs: %v", err)
	default:
	}
	if _, err := cs.AppsV1().Deployments(tenant.Name).Get(ctx, render.WorkloadName("main", occkit.ProcessHarness), metav1.GetOptions{}); !isNotFound(err) {
		t.Errorf("the predecessor's Deployment was not deleted first: %v", err)
	}
	mu.Lock()
	podGone = true
	mu.Unlock()
	if err := cs.CoreV1().Pods(tenant.Name).Delete(ctx, "old", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(early) > 0 {
		t.Errorf("deployments applied for real before the predecessor stopped: %v", early)
	}
	for _, c := range []occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness} {
		if got := getDeployment(t, cs, c).Labels[render.LabelRevision]; got != render.Hash(rev2.Digest()) {
			t.Errorf("%s runs %s", c, got)
		}
	}
	if _, err := cs.CoreV1().PersistentVolumeClaims(tenant.Name).Get(ctx, render.DataName("main", occkit.ProcessHarness), metav1.GetOptions{}); err != nil {
		t.Errorf("harness data lost: %v", err)
	}
}

// A cancelled wait for predecessors returns the context's error.
func TestDedicatedReplacementHonoursContext(t *testing.T) {
	cs := fake.NewClientset()
	d := fakeDriver(t, cs, func(c *Config) { c.SkipDryRun = true })
	rev1 := admitOn(t, d, "main", dedicatedCodex, 1)
	rev2 := second(t, d, dedicatedCodex)
	if err := d.Prepare(context.Background(), rev1); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "old", Namespace: tenant.Name, Labels: map[string]string{
		render.LabelManagedBy: render.ManagedBy, render.LabelAgent: render.Hash("main"), render.LabelRevision: render.Hash(rev1.Digest())}}}
	if _, err := cs.CoreV1().Pods(tenant.Name).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The context ends while Prepare waits for the predecessor's pod: once
	// it has listed the pods.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		cancel()
		return false, nil, nil
	})
	if err := d.Prepare(ctx, rev2); !errors.Is(err, context.Canceled) {
		t.Fatalf("Prepare = %v, want the context's error", err)
	}
}

// DRV-5: a field another manager took over is a detected 409, never
// silently overwritten; Force takes it back.
func TestPrepareDetectsFieldManagerConflict(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	d := fakeDriver(t, cs, func(c *Config) { c.SkipDryRun = true })
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	dep := getDeployment(t, cs, occkit.ProcessGateway)
	dep.Spec.Template.Spec.Containers[0].Image = "example.invalid/other:1"
	if _, err := cs.AppsV1().Deployments(tenant.Name).Update(ctx, dep, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	err := d.Prepare(ctx, rev)
	if diff := cmp.Diff(occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: `objects["Deployment/` + dep.Name + `"]`}, keyOf(err)); diff != "" {
		t.Fatalf("conflict (-want +got):\n%s\n%v", diff, err)
	}
	if !strings.Contains(err.Error(), "image") {
		t.Errorf("the conflict does not name the field: %v", err)
	}
	forced := fakeDriver(t, cs, func(c *Config) { c.SkipDryRun = true; c.Force = true })
	if err := forced.Prepare(ctx, rev); err != nil {
		t.Fatalf("forced Prepare: %v", err)
	}
	if got := getDeployment(t, cs, occkit.ProcessGateway).Spec.Template.Spec.Containers[0].Image; got != render.DefaultOpenClawImage+":"+rev.HarnessIdentity().Version {
		t.Errorf("image after force %q", got)
	}
}

// ADM-6: activation refuses a superseded revision and retires the other
// revisions' leftovers once the new one is selected.
func TestActivate(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	d := fakeDriver(t, cs, nil)
	rev1 := admitOn(t, d, "main", dedicatedCodex, 1)
	rev2 := second(t, d, dedicatedCodex)
	if err := d.Activate(ctx, rev1); keyOf(err).Rule != "ADM-6" {
		t.Fatalf("Activate before Prepare = %v", err)
	}
	if err := d.Prepare(ctx, rev1); err != nil {
		t.Fatal(err)
	}
	if err := d.Activate(ctx, rev1); err != nil {
		t.Fatal(err)
	}
	if err := d.Prepare(ctx, rev2); err != nil {
		t.Fatal(err)
	}
	if err := d.Activate(ctx, rev1); keyOf(err).Code != occkit.CodeResourceConflict {
		t.Fatalf("Activate of a superseded revision = %v", err)
	}
	if err := d.Activate(ctx, rev2); err != nil {
		t.Fatal(err)
	}
	want := []string{render.ConfigName("main", rev2.Digest(), occkit.ProcessGateway), render.ConfigName("main", rev2.Digest(), occkit.ProcessHarness)}
	got := configMapNames(t, cs)
	if diff := cmp.Diff(want, got, cmpSorted); diff != "" {
		t.Errorf("config maps after activation (-want +got):\n%s", diff)
	}
}

var cmpSorted = cmp.Transformer("sorted", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// Readiness from Deployment status (the fake has no controllers, so the
// test writes status itself).
func TestDiagnoseAndStop(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	d := fakeDriver(t, cs, func(c *Config) {
		c.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	})
	rev := admitOn(t, d, "main", dedicatedCodex, 1)
	type check struct {
		Component, State, Code string
	}
	diagnose := func() []check {
		t.Helper()
		diag, err := d.Diagnose(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		if diag.RevisionDigest != rev.Digest() || !diag.ObservedAt.Equal(d.cfg.Now()) {
			t.Fatalf("diagnostics header %+v", diag)
		}
		var out []check
		for _, c := range diag.Checks {
			if c.Check != CheckAvailable {
				t.Fatalf("check %q", c.Check)
			}
			out = append(out, check{c.Component, string(c.State), c.Code})
		}
		return out
	}
	setStatus := func(c occkit.Process, st appsv1.DeploymentStatus) {
		t.Helper()
		dep := getDeployment(t, cs, c)
		dep.Status = st
		if _, err := cs.AppsV1().Deployments(tenant.Name).UpdateStatus(ctx, dep, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]check{{"gateway", "failed", CodeNotPrepared}, {"harness", "failed", CodeNotPrepared}}, diagnose()); diff != "" {
		t.Errorf("before Prepare (-want +got):\n%s", diff)
	}
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]check{{"gateway", "unknown", ""}, {"harness", "unknown", ""}}, diagnose()); diff != "" {
		t.Errorf("rolling out (-want +got):\n%s", diff)
	}
	setStatus(occkit.ProcessGateway, appsv1.DeploymentStatus{Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1, ReadyReplicas: 1})
	setStatus(occkit.ProcessHarness, appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{{
		Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded"}}})
	if diff := cmp.Diff([]check{{"gateway", "succeeded", ""}, {"harness", "failed", CodeProgressDeadline}}, diagnose()); diff != "" {
		t.Errorf("mixed (-want +got):\n%s", diff)
	}
	if ready, err := d.Ready(ctx, rev); err != nil || ready {
		t.Errorf("Ready = %v, %v", ready, err)
	}
	setStatus(occkit.ProcessHarness, appsv1.DeploymentStatus{Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1})
	if ready, err := d.Ready(ctx, rev); err != nil || !ready {
		t.Errorf("Ready = %v, %v", ready, err)
	}
	if err := drivers.Stop(ctx, d, rev); err != nil {
		t.Fatal(err)
	}
	for _, c := range []occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness} {
		if got := *getDeployment(t, cs, c).Spec.Replicas; got != 0 {
			t.Errorf("%s replicas after Stop: %d", c, got)
		}
	}
	if diff := cmp.Diff([]check{{"gateway", "failed", CodeStopped}, {"harness", "failed", CodeStopped}}, diagnose()); diff != "" {
		t.Errorf("stopped (-want +got):\n%s", diff)
	}
	// Preparing again restarts it.
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if got := *getDeployment(t, cs, occkit.ProcessGateway).Spec.Replicas; got != 1 {
		t.Errorf("replicas after restart %d", got)
	}
}

func TestEnsureNamespace(t *testing.T) {
	ctx := context.Background()
	terminating := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "going"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating}}
	cs := fake.NewClientset(terminating)
	d := fakeDriver(t, cs, nil)
	if err := d.EnsureNamespace(ctx, drivers.Namespace{ID: "going"}); keyOf(err).Code != occkit.CodeResourceConflict {
		t.Errorf("EnsureNamespace(terminating) = %v", err)
	}
	if err := d.EnsureNamespace(ctx, drivers.Namespace{ID: "Bad_Name"}); keyOf(err).Code != occkit.CodeInvalidRequest {
		t.Errorf("EnsureNamespace(bad name) = %v", err)
	}
	for i := 0; i < 2; i++ {
		if err := d.EnsureNamespace(ctx, drivers.Namespace{ID: "ns-1", Name: "tenant-1"}); err != nil {
			t.Fatal(err)
		}
	}
	ns, err := cs.CoreV1().Namespaces().Get(ctx, "tenant-1", metav1.GetOptions{})
	if err != nil || ns.Labels[LabelNamespaceID] != render.Hash("ns-1") {
		t.Fatalf("namespace %v, %v", ns, err)
	}
}

// The Tenant function places each Agent; its refusals surface unchanged.
func TestTenant(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	refusal := occkit.Conflict("DRV-5", occkit.NewPath("agent"), "no tenant")
	d := fakeDriver(t, cs, func(c *Config) {
		c.Tenant = func(agentID string) (drivers.Namespace, error) {
			switch agentID {
			case "main":
				return tenant, nil
			case "bad":
				return drivers.Namespace{ID: "UPPER"}, nil
			}
			return drivers.Namespace{}, refusal
		}
	})
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	getDeployment(t, cs, occkit.ProcessGateway)
	if err := d.Retire(ctx, "bad", rev.Digest()); keyOf(err).Path != "kubernetes.namespace" {
		t.Errorf("Retire with a bad tenant = %v", err)
	}
	if err := d.Retire(ctx, "other", rev.Digest()); !errors.Is(err, refusal) {
		t.Errorf("Retire with a refused tenant = %v", err)
	}
}

// API failures are structured and never quote the server's message.
func TestAPIErrors(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	cs.PrependReactor("patch", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("dial tcp: " + canary)
	})
	d := fakeDriver(t, cs, nil)
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	err := d.Prepare(ctx, rev)
	if keyOf(err).Code != occkit.CodeDependencyUnavailable || strings.Contains(err.Error(), canary) {
		t.Errorf("Prepare = %v", err)
	}
	// Nothing was written for real: the dry run failed first.
	if _, err := cs.AppsV1().Deployments(tenant.Name).Get(ctx, render.WorkloadName("main", occkit.ProcessGateway), metav1.GetOptions{}); !isNotFound(err) {
		t.Errorf("a Deployment was written: %v", err)
	}
}

func TestRefusesForeignRevisions(t *testing.T) {
	d := fakeDriver(t, fake.NewClientset(), func(c *Config) { c.Sandbox = nil })
	docker, err := drivertest.ForeignRevision(drivertest.RevisionOptions{AgentID: "main", Compute: occkit.ComputeDocker})
	if err != nil {
		t.Fatal(err)
	}
	native, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: "main", Compute: occkit.ComputeKubernetes,
		Topology: occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Prepare(context.Background(), docker); keyOf(err).Rule != "ADM-5" {
		t.Errorf("Prepare(docker revision) = %v", err)
	}
	if err := d.Prepare(context.Background(), native); keyOf(err) != (occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "RES-11", Path: "executionMode"}) {
		t.Errorf("Prepare(undeclared topology) = %v", keyOf(err))
	}
	if err := d.Prepare(context.Background(), nil); keyOf(err).Code != occkit.CodeInvalidRequest {
		t.Errorf("Prepare(nil) = %v", err)
	}
}
