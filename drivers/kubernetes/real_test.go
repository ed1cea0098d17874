package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/kubernetes/internal/kubetest"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/internal/tiers"
)

// The real tier runs against one etcd + kube-apiserver started for the
// whole package (kubetest). The server runs no controllers: Deployments
// never roll out, namespaces stay Terminating once deleted, and readiness
// tests write Deployment status themselves.
var (
	realServer  *kubetest.Server
	realSkipped error
)

func TestMain(m *testing.M) {
	if code, ok := gatewayJobs.Child(); ok {
		os.Exit(code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	s, err := kubetest.Start(ctx)
	cancel()
	switch {
	case errors.Is(err, kubetest.ErrUnavailable) && !kubetest.Required():
		realSkipped = err
	case err != nil:
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		os.Exit(1)
	default:
		realServer = s
	}
	code := m.Run()
	if realServer != nil {
		realServer.Stop()
	}
	os.Exit(code)
}

// needReal skips t without the real server (TestMain fails without it
// under kubetest.Required); a test that has it is one check of the tier,
// however many drivers it makes.
func needReal(t *testing.T) {
	t.Helper()
	if realServer == nil {
		tiers.KubeAPIServer.Skip(t, realSkipped.Error()+" (run .ci/setup)")
	}
	if _, counted := realTests.LoadOrStore(t, true); !counted {
		tiers.KubeAPIServer.Start(t).Done(1)
	}
}

// realTests are the tests needReal counted.
var realTests sync.Map

// realDriver returns a driver on the real server in namespace ns.
func realDriver(t *testing.T, ns drivers.Namespace, mod func(*Config)) (*Driver, kubernetes.Interface) {
	t.Helper()
	needReal(t)
	cfg := Config{Namespace: ns, Sandbox: testSandbox(), PollInterval: 10 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	d, err := NewForConfig(realServer.Config, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d, d.cfg.Client
}

// liveVersion is what an idempotent re-apply must leave unchanged.
type liveVersion struct {
	ResourceVersion string
	Generation      int64
}

func liveVersions(t *testing.T, cs kubernetes.Interface, objs render.Objects) map[string]liveVersion {
	t.Helper()
	ctx := context.Background()
	out := map[string]liveVersion{}
	for _, o := range objs.List() {
		var m metav1.Object
		var err error
		ns, name := o.GetNamespace(), o.GetName()
		switch o.(type) {
		case *appsv1.Deployment:
			m, err = cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		default:
			switch o.GetObjectKind().GroupVersionKind().Kind {
			case "ServiceAccount":
				m, err = cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
			case "ConfigMap":
				m, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			case "PersistentVolumeClaim":
				m, err = cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
			case "Service":
				m, err = cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
			}
		}
		key := objectPath(o).String()
		if err != nil {
			if isNotFound(err) {
				continue
			}
			t.Fatalf("get %s: %v", key, err)
		}
		out[key] = liveVersion{m.GetResourceVersion(), m.GetGeneration()}
	}
	return out
}

// DRV-5 on a real kube-apiserver, per topology: a dry run writes nothing,
// every object passes server-side validation, re-apply is a no-op, a
// second field manager's change is a detected 409, Force takes it back,
// and Retire removes the workloads but keeps the data.
func TestRealApply(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			ns := drivers.Namespace{ID: "team-a", Name: "real-" + c.name}
			d, cs := realDriver(t, ns, nil)
			rev := admitOn(t, d, "main", c, 1)
			objs, _, err := d.render(rev, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.EnsureNamespace(ctx, ns); err != nil {
				t.Fatal(err)
			}

			if err := d.applyAll(ctx, objs, true); err != nil {
				t.Fatalf("dry run: %v", err)
			}
			if got := liveVersions(t, cs, objs); len(got) != 0 {
				t.Fatalf("the dry run wrote %v", got)
			}

			if err := d.Prepare(ctx, rev); err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			first := liveVersions(t, cs, objs)
			if len(first) != len(objs.List()) {
				t.Fatalf("%d of %d objects exist", len(first), len(objs.List()))
			}
			if err := d.Prepare(ctx, rev); err != nil {
				t.Fatalf("second Prepare: %v", err)
			}
			if diff := cmp.Diff(first, liveVersions(t, cs, objs)); diff != "" {
				t.Errorf("re-apply changed objects (-first +second):\n%s", diff)
			}

			// Another manager takes over a field the driver owns.
			dep, err := cs.AppsV1().Deployments(ns.Name).Get(ctx, render.WorkloadName("main", occkit.ProcessGateway), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			dep.Spec.Template.Spec.Containers[0].Image = "example.invalid/other:1"
			if _, err := cs.AppsV1().Deployments(ns.Name).Update(ctx, dep, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
				t.Fatal(err)
			}
			err = d.Prepare(ctx, rev)
			if diff := cmp.Diff(occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: `objects["Deployment/` + dep.Name + `"]`}, keyOf(err)); diff != "" {
				t.Fatalf("conflict (-want +got):\n%s\n%v", diff, err)
			}
			if oe := occkit.First(err); oe.HTTPStatus() != 409 || !strings.Contains(oe.Detail, ".image") {
				t.Errorf("conflict %d %q", oe.HTTPStatus(), oe.Detail)
			}
			forced, _ := realDriver(t, ns, func(c *Config) { c.Force = true })
			if err := forced.Prepare(ctx, rev); err != nil {
				t.Fatalf("forced Prepare: %v", err)
			}

			if err := d.Retire(ctx, "main", rev.Digest()); err != nil {
				t.Fatal(err)
			}
			left := liveVersions(t, cs, objs)
			var kinds []string
			for k := range left {
				kinds = append(kinds, k[:strings.Index(k, "/")])
			}
			for _, k := range kinds {
				if k != `objects["PersistentVolumeClaim` {
					t.Errorf("Retire left %v", left)
					break
				}
			}
			if len(left) != len(objs.PersistentVolumeClaims) {
				t.Errorf("Retire kept %d objects, want the %d claims", len(left), len(objs.PersistentVolumeClaims))
			}
		})
	}
}

// The server validates what the fake does not; a refused object fails
// the dry run, so nothing is half-written: here the last object of the
// apply order is invalid.
func TestRealRefusalWritesNothing(t *testing.T) {
	ctx := context.Background()
	ns := drivers.Namespace{ID: "team-a", Name: "real-refusal"}
	d, cs := realDriver(t, ns, nil)
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	objs, _, err := d.render(rev, false)
	if err != nil {
		t.Fatal(err)
	}
	objs.Deployments[0].Spec.Replicas = ptr(int32(-1))
	if err := d.EnsureNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	err = d.applyAll(ctx, objs, true)
	if diff := cmp.Diff(occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: `objects["Deployment/` + render.WorkloadName("main", occkit.ProcessGateway) + `"]`}, keyOf(err)); diff != "" {
		t.Fatalf("refusal (-want +got):\n%s\n%v", diff, err)
	}
	if got := liveVersions(t, cs, objs); len(got) != 0 {
		t.Errorf("a refused dry run wrote %v", got)
	}
}

// Readiness on the real server: no controller runs, so the test writes
// the Deployment status subresource the controller would.
func TestRealReadiness(t *testing.T) {
	ctx := context.Background()
	ns := drivers.Namespace{ID: "team-a", Name: "real-readiness"}
	d, cs := realDriver(t, ns, nil)
	rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if ready, err := d.Ready(ctx, rev); err != nil || ready {
		t.Fatalf("Ready before rollout = %v, %v", ready, err)
	}
	dep, err := cs.AppsV1().Deployments(ns.Name).Get(ctx, render.WorkloadName("main", occkit.ProcessGateway), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dep.Status = appsv1.DeploymentStatus{ObservedGeneration: dep.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	if _, err := cs.AppsV1().Deployments(ns.Name).UpdateStatus(ctx, dep, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if ready, err := d.Ready(ctx, rev); err != nil || !ready {
		t.Fatalf("Ready after rollout = %v, %v", ready, err)
	}
	// A status write is not a spec conflict: re-apply still succeeds.
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
}

// DRV-1: the conformance suite against the real server.
func TestConformanceReal(t *testing.T) {
	needReal(t)
	drivertest.Run(t, func() drivers.ComputeDriver {
		d, _ := realDriver(t, drivers.Namespace{}, func(c *Config) {
			c.Sandbox = &render.Sandbox{ID: drivertest.SandboxDriverID, Facts: qualifying()}
		})
		return d
	})
}
