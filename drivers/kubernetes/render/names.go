package render

import (
	"crypto/sha256"
	"encoding/hex"
	"unsafe"

	"github.com/occkit/occkit"
)

// HashLen is how many hex characters of a SHA-256 name an object (DRV-5).
const HashLen = 12

// Hash returns the first [HashLen] hex characters of the SHA-256 of id.
// Every object name and selection label derives from it, so a name is
// always a valid DNS-1123 label, whatever characters the ID holds, and
// never reveals the ID itself.
func Hash(id string) string {
	var buf [HashLen]byte
	return string(appendHash(buf[:0], id))
}

// appendHash appends [Hash] of id to dst.
func appendHash(dst []byte, id string) []byte {
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(id), len(id))) // read only
	return hex.AppendEncode(dst, sum[:HashLen/2])
}

// Every process of a rendered revision is one workload, named by its
// process role ([occkit.Process]): [occkit.ProcessGateway] is the OpenClaw
// gateway (for embedded OpenClaw, the combined gateway and built-in
// Harness, the only workload of an embedded revision) and
// [occkit.ProcessHarness] a dedicated Harness, the Codex app-server or the
// native OpenClaw node host.

// suffix is the short name suffix of p's workload.
func suffix(p occkit.Process) string {
	if p == occkit.ProcessHarness {
		return "harness"
	}
	return "gw"
}

// WorkloadName is the name of an Agent's workload for process p, e.g.
// occ-<12hex of agentID>-gw: the Deployment, its ServiceAccount and its
// Service share it. Workloads are named per Agent, not per revision, so a
// replacement updates them in place (Recreate, ADM-6).
func WorkloadName(agentID string, p occkit.Process) string {
	return workloadName(Hash(agentID), p)
}

// workloadName is [WorkloadName] from the [Hash] of the Agent ID: a render
// hashes the ID once for every name.
func workloadName(agent string, p occkit.Process) string {
	return "occ-" + agent + "-" + suffix(p)
}

// DataName is the name of the PersistentVolumeClaim that holds p's durable
// data. It outlives every revision: Retire never deletes it.
func DataName(agentID string, p occkit.Process) string {
	return dataName(Hash(agentID), p)
}

func dataName(agent string, p occkit.Process) string { return workloadName(agent, p) + "-data" }

// ConfigName is the name of a revision's ConfigMap holding the native
// document of p (the admitted OpenClaw document, or the dedicated
// Harness's own), e.g. occ-<agent>-<revision>-gw. ConfigMaps are per
// revision and immutable.
func ConfigName(agentID, digest string, p occkit.Process) string {
	return configName(Hash(agentID), Hash(digest), p)
}

// configName is [ConfigName] from the [Hash]es of the Agent ID and the
// digest.
func configName(agent, revision string, p occkit.Process) string {
	return "occ-" + agent + "-" + revision + "-" + suffix(p)
}

// CredentialSecretName is the Kubernetes Secret that holds the bytes of an
// OCC credential reference, in the tenant namespace: occ-<12hex of ID>-cred
// for an OCC Secret, occ-<12hex of ID>-token for a managed ServiceAccount's
// token Secret. The driver only ever references it (AUTH-2).
func CredentialSecretName(ref occkit.SourceRef) string {
	if ref.Kind == occkit.SourceServiceAccount {
		return "occ-" + Hash(ref.ID) + "-token"
	}
	return "occ-" + Hash(ref.ID) + "-cred"
}

// CredentialSecretKey is the key of [CredentialSecretName]'s data that a
// credential variable reads: "token" for a ServiceAccount token Secret
// (the key Kubernetes fills), "value" for an OCC Secret.
func CredentialSecretKey(ref occkit.SourceRef) string {
	if ref.Kind == occkit.SourceServiceAccount {
		return "token"
	}
	return "value"
}

// Labels the driver writes on every object it renders, besides the
// protected Collector labels of package logging on pods (LOG-6).
const (
	LabelManagedBy = "app.kubernetes.io/managed-by"
	// ManagedBy is the value of [LabelManagedBy].
	ManagedBy = "occkit"
	// LabelAgent holds [Hash] of the Agent ID; with LabelComponent it is a
	// workload's (immutable) selector.
	LabelAgent = "kubernetes.occkit.io/agent"
	// LabelComponent holds the workload's process role ([occkit.Process]).
	LabelComponent = "kubernetes.occkit.io/component"
	// LabelRevision holds [Hash] of the revision digest.
	LabelRevision = "kubernetes.occkit.io/revision"
	// AnnotationDigest holds the full revision digest.
	AnnotationDigest = "kubernetes.occkit.io/digest"
	// AnnotationGeneration holds the admitted Configuration generation.
	AnnotationGeneration = "kubernetes.occkit.io/generation"
)

// GatewayTokenSecretName is the per-Agent Secret holding the gateway's
// auth token (occ-<12hex of agentID>-gw-token). The native document holds
// only ${OPENCLAW_GATEWAY_TOKEN}; the variable reads this Secret's
// [GatewayTokenSecretKey]. The Kubernetes driver's Prepare creates it with a random
// token when it is missing and never rewrites it.
func GatewayTokenSecretName(agentID string) string {
	return gatewayTokenSecretName(Hash(agentID))
}

func gatewayTokenSecretName(agent string) string { return "occ-" + agent + "-gw-token" }

// GatewayTokenSecretKey is the data key of [GatewayTokenSecretName].
const GatewayTokenSecretKey = "token"

// AppServerTokenSecretName is the per-Agent Secret holding the token a
// dedicated Codex app-server and its gateway share
// (occ-<12hex of agentID>-harness-token): the app-server reads it from a
// read-only Secret volume at [AppServerTokenFile] (Codex's capability-token
// WebSocket authentication), the gateway's codex plugin from
// OPENCLAW_CODEX_APP_SERVER_TOKEN (appServer.authToken holds only the
// reference). The Kubernetes driver's Prepare creates it with a random
// token when it is missing and never rewrites it, like the gateway token.
func AppServerTokenSecretName(agentID string) string {
	return appServerTokenSecretName(Hash(agentID))
}

func appServerTokenSecretName(agent string) string { return "occ-" + agent + "-harness-token" }

// AppServerTokenSecretKey is the data key of [AppServerTokenSecretName].
const AppServerTokenSecretKey = "token"
