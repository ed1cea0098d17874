// Package kubernetes is occkit's reference Kubernetes ComputeDriver
// (DRV-5): a [Driver] that runs admitted revisions on a cluster with
// client-go (server-side apply, replacement, readiness and diagnostics).
// It is a nested module, so control planes that import only the policy
// packages never build Kubernetes code.
//
// The module has two packages:
//
//	github.com/occkit/occkit/drivers/kubernetes         Driver: apply, server-side apply, Diagnose (client-go)
//	github.com/occkit/occkit/drivers/kubernetes/render  Render, Objects, names and labels (k8s.io/api and apimachinery only)
//
// A program that only renders manifests (to print them, commit them or
// hand them to another deployer) imports package render and never
// builds client-go; the Driver renders through the same package, so what
// it applies is exactly what [render.Render] returns. Object layout,
// names, labels, credentials and logging are documented there.
//
// [New] takes a [Config] with an injected kubernetes.Interface (a real
// clientset or client-go's fake); [NewForConfig] builds the clientset from
// a *rest.Config. A [Driver] implements [drivers.ComputeDriver] and the
// optional [drivers.Activator], [drivers.Stopper], [drivers.Diagnoser] and
// [drivers.Preflighter]; it passes drivertest's conformance suite on the
// fake clientset and on a real kube-apiserver.
//
// # Topologies
//
// The declaration follows RES-11: embedded OpenClaw and dedicated Codex
// always; dedicated OpenClaw only when [Config.Sandbox] names a
// qualifying SandboxDriver (harness provisioning and the networking,
// filesystem and process facets, RES-13). A revision outside the
// declaration is 400 INVALID_REQUEST; one admitted for another Compute,
// or bound to another SandboxDriver, is 409 (ADM-5).
//
// Names and labels are those of package render ([render.WorkloadName],
// [render.LabelAgent], …); the per-Agent token Secrets (the gateway token,
// [render.GatewayTokenSecretName], and for dedicated Codex the app-server
// token, [render.AppServerTokenSecretName]; [render.Objects].Tokens) are
// the only objects the driver writes that Render does not return: Prepare
// creates each with a random token when it is missing and never rewrites
// it.
//
// # Apply and conflicts
//
// Every write is a server-side apply under the field manager [FieldManager]
// ("occkit"), with Force off: a field that another manager took over (a
// kubectl edit, an operator) is detected and returned as 409
// RESOURCE_CONFLICT naming the object and the field paths, never
// overwritten silently; [Config.Force] takes such fields back. Prepare
// first applies every object with dryRun=All, so an object the server
// refuses leaves nothing written. Re-applying a prepared revision changes
// nothing (same resourceVersion and generation); a data claim that exists
// is never re-applied. API failures are structured ([occkit.Error]) and
// never repeat the server's message, which can quote a value; once the
// caller's context is cancelled or past its deadline, a failing call
// returns the context's error as 503 DEPENDENCY_UNAVAILABLE
// (drivers.Settle), whatever the API answered.
//
// # Replacement
//
// Embedded replacement updates the Agent's one Deployment in place with
// the Recreate strategy: the old Pod stops before the new one starts, and
// there is no automatic rollback (ADM-6). A dedicated replacement stops
// every earlier version first: Prepare deletes the Agent's Deployments of
// other revisions and waits until their Pods are gone before applying
// the new ones. [Driver.Activate] checks that the Agent's workloads run the
// revision (409 when it is not prepared or a newer revision superseded
// it, so an older retry never overwrites the selected version) and then
// deletes the other revisions' ConfigMaps. [Driver.Stop] scales the
// revision's workloads to zero. [Driver.Retire] deletes what carries the
// revision's label, Deployments, Services, ServiceAccounts and ConfigMaps,
// and never the PersistentVolumeClaims; objects a later revision took over
// carry its label and stay.
//
// [Driver.Diagnose] (and [Driver.Ready]) read Deployment status: a check
// [CheckAvailable] per workload, succeeded when the controller observed the
// current spec and every replica is updated and available, failed with
// one of [AllDiagnosticCodes], unknown while rolling out.
//
// # Testing
//
// Two tiers. The unit tier renders each topology (through package render) against golden YAML
// under testdata/ (regenerate with `go test -update`), decodes it with the
// Kubernetes scheme in strict mode, and drives the driver on
// k8s.io/client-go/kubernetes/fake (server-side apply, field managers and
// conflicts; it ignores dryRun and does no validation). The real tier
// starts one etcd and kube-apiserver for the package (internal/kubetest;
// skipped when the binaries are not configured, unless
// OCCKIT_REQUIRE_INTEGRATION=1): dry run, full server-side validation,
// idempotent re-apply, field-manager conflicts, Retire, and the
// conformance suite. The server runs no controllers, so Deployments never
// become Available and deleted namespaces stay Terminating: readiness
// tests write the Deployment status subresource themselves.
//
// # Decisions where the specification is silent
//
//   - Every write is a server-side apply with Force off (see above); a
//     conflict is the caller's to resolve.
//   - The rendering decisions (ConfigMaps, Recreate, images, claim sizes)
//     are package render's; see its documentation.
package kubernetes
