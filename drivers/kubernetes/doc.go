// Package kubernetes is occkit's reference Kubernetes ComputeDriver
// (DRV-5): it renders an admitted [admission.Revision] into Kubernetes
// objects ([Render]) and runs them on a cluster with client-go
// ([Driver]). It is a nested module, so control planes that import only
// the policy packages never build client-go.
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
// # Objects
//
// Every object lives in the Agent's tenant namespace ([Config.Tenant], or
// [Config.Namespace] for all Agents) and is named from the first 12 hex
// characters of the SHA-256 of an ID ([Hash]), which is always a valid
// DNS-1123 label and never reveals the ID:
//
//	occ-<agent>-gw                  gateway Deployment, ServiceAccount, Service
//	occ-<agent>-harness             dedicated Harness Deployment, ServiceAccount (and the Codex Service)
//	occ-<agent>-gw-data             gateway data PersistentVolumeClaim (durable)
//	occ-<agent>-harness-data        Harness data PersistentVolumeClaim (durable)
//	occ-<agent>-<revision>-gw       immutable ConfigMap: the gateway's openclaw.json
//	occ-<agent>-<revision>-harness  immutable ConfigMap: Codex config.toml or the node host's openclaw.json
//
// Embedded OpenClaw is one Deployment: the gateway and its built-in
// Harness in one container and process. A dedicated topology runs the
// gateway and the Harness as separate Deployments, separate Pods, each
// with its own ServiceAccount and data volume. The gateway has a Service;
// so has the Codex app-server (the gateway's codex plugin is pointed at
// it over WebSocket), while the native OpenClaw node host dials
// the gateway's Service and runs under the sandbox's RuntimeClass and
// harness home. Workloads are named per Agent, ConfigMaps per revision.
//
// Labels: [LabelManagedBy], [LabelAgent] and [LabelComponent] (the
// immutable selector) on everything; [LabelRevision] and the
// [AnnotationDigest] / [AnnotationGeneration] annotations on everything
// but durable data. Pods run as a non-root user with a read-only root
// filesystem, no privilege escalation, all capabilities dropped, the
// RuntimeDefault seccomp profile and no API token.
//
// # Credentials
//
// The driver maps the revision's render plan (admission.Revision.Plan,
// compile.BuildPlan) and holds no credential rule of its own: which process
// gets which variable, what its native document keeps and where Secrets
// may live are the plan's decisions (see package compile, "Render plan").
// Planned variables become references, never values: a Secret-backed
// credential or secretBinding is a secretKeyRef to [CredentialSecretName] /
// [CredentialSecretKey] in the tenant namespace (an OCC Secret's Kubernetes
// Secret, or a managed ServiceAccount's token Secret); the gateway token
// is a secretKeyRef to [GatewayTokenSecretName], which Prepare creates with
// a random token when missing; a credential_source placeholder is
// [PlaceholderValue] (the Sandbox egress proxy inserts the key, AUTH-3); a
// login mode is a literal. The plan is built with the tenant namespace, so
// a reference outside it is 409: a Pod reads Secrets of its own namespace
// only. The gateway's document carries gateway {mode: local, bind: lan,
// auth: {mode: token, token: ${OPENCLAW_GATEWAY_TOKEN}}}, and its readiness
// probe is GET /readyz.
//
// # Logging
//
// The driver renders platform-owned logging only (LOG-3 drivers are
// trusted custom drivers); the plan refuses a stamp that is not intact or
// whose level is not the admitted one (LOG-2, 409). OpenClaw processes
// read their planned native document, mounted read-only at [ConfigDir]
// (/etc/openclaw) with OPENCLAW_CONFIG_PATH pointing at it (LOG-4); the
// Codex app-server gets LOG_FORMAT and RUST_LOG and the otel overrides
// before app-server, and reads its planned config.toml at
// $CODEX_HOME/config.toml. Pods carry the protected Collector labels and
// annotations of logging.CollectorMetadata (LOG-6): service name, version,
// container, namespace, Agent and revision.
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
// never repeat the server's message, which can quote a value; a cancelled
// context is returned as the context's error.
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
// Two tiers. The unit tier renders each topology against golden YAML
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
//   - The admitted document goes into a ConfigMap, as LOG-4 mounts it; a
//     Configuration must keep credentials in secretBindings, not inline.
//   - Every workload is a Deployment with the Recreate strategy and a
//     ReadWriteOnce claim, dedicated ones too: one Pod per workload, the
//     old one always gone before the new one starts.
//   - The gateway's codex plugin is pointed at the app-server Service
//     (plugins.entries.codex.config.appServer.transport and .url): placement
//     is the Compute's, like worker placement in RES-13.
//   - Containers keep their image's entrypoint (which performs the login
//     CODEX_LOGIN_MODE names, by stdin for api_key); the driver sets their
//     arguments. Inherited variables logging removes are simply never set.
//   - The default images and the 10Gi claim size are defaults an
//     installation is expected to override ([Images], [Storage]).
package kubernetes
