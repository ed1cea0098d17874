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
// objects, byte for byte, and a revision the Compute cannot run (admitted
// for another Compute: 409 ADM-5; a topology outside RES-11; dedicated
// OpenClaw without a qualifying [Sandbox]; a release that cannot be
// pinned: 409 ADM-3) is refused with an [occkit.Error].
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
// # What runs, and the machine it needs
//
// Every container runs the approved release (ADM-3): its image is the
// [Images] repository tagged with the planned process's release
// (compile.ProcessPlan.Version: the OpenClaw release, also for the
// gateway of a Codex revision, or the Codex CLI version), or the digest
// [Images].Digests maps that reference to. `latest` appears in no render;
// a repository that carries a tag of its own is refused.
//
// Each process gets a writable place apart from its frozen configuration:
// OpenClaw processes OPENCLAW_STATE_DIR = <home>/[StateDirName] on the
// data volume (media, config backups, plugin install roots, databases) and
// OPENCLAW_CONFIG_READONLY=1, so OpenClaw writes nothing beside the
// read-only ConfigMap mount; the Codex app-server CODEX_HOME =
// <home>/.codex, a subPath of the data volume mounted in its own right
// (the kubelet creates it with the volume root's mode, writable by the
// fsGroup), with only config.toml read-only inside it. A subPath file
// mount whose directory is no mount of its own would make the container
// runtime create that directory root-owned: Codex 0.171 then exits with
// "failed to open state DB … (code: 14)".
//
// The gateway's terminationGracePeriodSeconds is
// compile.GatewayStopGrace (330 s), OpenClaw's own stop policy (a 315 s
// drain, a 10 s reserve and a 5 s exit margin); other containers keep
// Kubernetes' 30 s.
//
// A dedicated Codex app-server listens on the pod network
// (ws://0.0.0.0:4500), which Codex refuses without WebSocket
// authentication ("refusing to start non-loopback websocket listener …
// without auth"), and the gateway's codex plugin refuses a remote
// app-server URL without a token. They share the Agent's app-server token
// ([AppServerTokenSecretName], created by the driver like the gateway
// token): the app-server runs with `--ws-auth capability-token
// --ws-token-file` [AppServerTokenFile], a read-only Secret volume
// readable by the pod's group only; the gateway gets
// OPENCLAW_CODEX_APP_SERVER_TOKEN from the same Secret, and its document
// holds only plugins.entries.codex.config.appServer.authToken:
// "${OPENCLAW_CODEX_APP_SERVER_TOKEN}" (an author's token is replaced,
// like gateway.auth). [Objects].Tokens names the token Secrets a render
// references.
//
// Codex 0.171 logs at start, at ERROR level, that bubblewrap is not on
// PATH and that it uses its bundled copy. The render leaves the sandbox
// as the gateway's codex plugin requests it per turn (over WebSocket its
// default is danger-full-access, the pod being the containment) and sets
// no sandbox_mode: widening Codex's default sandbox to silence a notice
// would outlive a plugin that asks for workspace-write. An installation
// whose Codex image puts bubblewrap on PATH has no such line; inside a
// pod with all capabilities dropped and the RuntimeDefault seccomp
// profile, bubblewrap's user namespaces may be refused anyway, which is
// why the pod, not bubblewrap, is the app-server's containment.
//
// The dedicated node host dials the gateway's Service
// (occ-<agent>-gw.<namespace>.svc) over plaintext ws:// with
// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1, OpenClaw's documented setting for
// trusted private networks; without it OpenClaw refuses the host name
// ("SECURITY ERROR: Cannot connect to … over plaintext ws://"). Reason:
// the connection never leaves the Agent's tenant namespace (pod to
// ClusterIP Service), and the node host still authenticates with the
// gateway token; TLS would need a per-Agent certificate and its rotation
// (gateway.tls), which this driver does not manage. An installation that
// wants the pod network encrypted adds it below the pods (a mesh or
// CNI encryption).
//
// # Plugins
//
// Plugins a process's document configures that its release does not
// bundle (compile.ProcessPlan.Plugins: Discord, Slack and the Codex plugin
// in 2026.9.6) are installed by the render, before the process starts,
// never fetched by it: without them on disk OpenClaw installs them itself
// at start (`npm view` and an install from the public registry, about
// 75 s each where the registry is unreachable, printed as a 14-line boxed
// "Doctor warnings" note outside its JSON logger, then a gateway without
// its channel). Each becomes an init container of the process's pod, in
// the plan's order, named plugin-<id>: the process's own pinned image
// runs `openclaw plugins install --force <package>@<version>` with the
// process's HOME and OPENCLAW_STATE_DIR on its data volume, so the
// install lands in the state directory's plugin install root.
//
// Why this mechanism: OpenClaw 2026.9 grants its trusted plugin APIs only
// to a plugin installed from its official npm package through its own
// installer (the install record says source npm, no local path or
// archive); a plugin loaded from plugins.load.paths, a linked path or an
// archive is refused ("… is only available for trusted plugins …
// origin "config""), and OpenClaw's npm runs ignore an inherited npm
// cache setting. So the install must be OpenClaw's own, from an npm
// registry: [Options].Plugins.Registry names the installation's registry
// mirror (npm_config_registry; an in-cluster mirror such as Verdaccio,
// Nexus or Artifactory, the usual arrangement for clusters without
// egress), and npm's default, the public registry, when empty. The
// version is pinned to what the release installs, from the release data
// the library carries (compile.RequiredPlugins, the list the SSH driver
// installs too): the one the release's catalog pins for a third-party
// plugin, else the release itself, or the newest published version of the
// package that accepts the release when npm skipped it
// (@openclaw/codex@2026.9.5 for 2026.9.6, @openclaw/discord@2026.7.35 for
// 2026.8.x). A plugin npm publishes no version of for the release (Codex
// before 2026.9.4) is refused at render (409 DRV-5); a version the
// registry lacks fails the init container (E404), never a silent drift.
//
// --force makes a restart reinstall over the copy on the data volume
// (without it OpenClaw refuses: "plugin already exists"); npm's cache,
// under the home on the same volume, keeps that cheap. The init container
// gets no credential and a scratch configuration file on the pod's /tmp
// ([PluginInstallConfig]): OpenClaw refuses installs under
// OPENCLAW_CONFIG_READONLY and would otherwise record the plugin as
// enabled in the frozen, read-only document; the plan enables each
// provided plugin in the native document instead
// (plugins.entries.<id>.enabled: true), without which OpenClaw leaves an
// installed external plugin unloaded ("installed without explicit
// trust"). Its console is the installer's progress text, not
// the process's JSON records.
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
// detour through a YAML parser and reflection. It writes go-yaml's
// double-quoted scalars, escapes and folding included, so a document
// holding an emoji (an identity's, a reaction's) or a control character
// stays on it; an object holding a value it does not cover ('\n',
// U+2028 or U+2029 in a string, a line break in a key, a leading byte
// order mark, a key of more than 128 bytes) is written by go-yaml's
// encoder from the values go-yaml's decoder makes of its JSON, which is
// JSONToYAML without its first step, a YAML parser that refuses a key of
// more than 1,024 characters. The writer
// works straight from the typed object's fields where it reads every
// field the object sets (the fields Render sets: a field it does not
// read must be zero, else the object goes the next way), else from the
// object's encoding/json text read into one flat array of nodes, never
// decoded into maps; a ConfigMap's document is taken as it is (issue
// 29). Differential property tests hold the writer to JSONToYAML's bytes,
// on drawn JSON values and on drawn objects of every rendered kind, and
// the typed writer to the JSON text's tree, on drawn renders, on renders
// with drawn text in every string and with every field set in turn.
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
//   - Plugins a release does not bundle are installed by init containers
//     from the installation's npm registry mirror ([Plugins]), at pinned
//     versions, into the data volume's state directory: not baked into
//     the image (the pinned image stays the upstream release) and not
//     left to the gateway (which would fetch them at every start).
//   - The dedicated Codex app-server and its gateway authenticate with a
//     per-Agent token the driver owns ([AppServerTokenSecretName]), not
//     with the gateway token: each credential opens one door.
//   - The default image repositories and the 10Gi claim size are defaults
//     an installation is expected to override ([Images], [Storage]); the
//     tag is always the approved release.
package render
