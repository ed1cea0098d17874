// Package render renders an admitted [admission.Revision] into the
// Kubernetes objects of occkit's reference Kubernetes driver (DRV-5):
// [Render] returns [Objects] (ServiceAccounts, ConfigMaps,
// PersistentVolumeClaims, Services and Deployments in apply order), which
// print as one YAML stream ([Objects.YAML]), one document per object
// ([Objects.Each]) or one file per object ([Objects.WriteFiles]).
//
// The package imports only k8s.io/api, k8s.io/apimachinery and
// sigs.k8s.io/yaml, never client-go: a program that renders manifests
// builds in seconds and needs no Kubernetes client in its module. Applying
// the objects to a cluster (server-side apply, replacement, readiness,
// diagnostics) is the Driver of the parent package
// github.com/occkit/occkit/drivers/kubernetes, which renders through this
// package. Render is pure: the same revision and [Options] give the same
// objects, byte for byte, and a revision the Compute cannot run (another
// Compute, a topology outside RES-11, dedicated OpenClaw without a
// qualifying [Sandbox]) is refused with an [occkit.Error].
//
// # Objects
//
// Every object lives in the tenant namespace [Options.Namespace] (the
// driver picks it per Agent) and is named from the first 12 hex
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
// is a secretKeyRef to [GatewayTokenSecretName], which the driver's Prepare creates with
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
// # Files
//
// [Objects.WriteFiles] writes NN-kind-name.yaml per object ([FileName]),
// numbered in apply order so that `kubectl apply -f DIR` and a directory
// listing follow it. The files hold what [Objects.YAML] holds, split at
// the document separators; like it, they contain Secret references and
// never secret values.
//
// The YAML keeps meaning: every document reads back, with
// sigs.k8s.io/yaml as kubectl and the kube-apiserver read it, to exactly
// the object rendered, every string byte for byte. A raw NEL (U+0085) in
// JSON would be folded into a space by the YAML reader inside
// sigs.k8s.io/yaml's JSON-to-YAML step, and DEL, the other C1 controls
// and U+FFFE/U+FFFF refused, so those characters (with U+2028, U+2029
// and the byte order mark) reach it as JSON escapes and leave it as YAML
// escapes ("\N", "\x7F", …). A property test over arbitrary Unicode and
// the real kube-apiserver tier (server-side apply of the YAML) check it.
//
// The YAML is written straight from each object's apply body, byte for
// byte what sigs.k8s.io/yaml.JSONToYAML writes for it (go-yaml's key
// order, scalar styles and folding at column 80), without JSONToYAML's
// detour through a YAML parser and reflection; an object holding a value
// that writer does not cover (a line break, a control or astral
// character, a byte order mark, text that would need an escaped or folded
// double-quoted scalar) is written by JSONToYAML itself. A differential
// property test holds the two to the same bytes.
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
package render
