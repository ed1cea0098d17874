package logging

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"unsafe"

	"github.com/occkit/occkit"
)

// ProtectedKey is one Kubernetes label (and annotation) key that carries a
// Collector identity fact (LOG-6). Drivers write these on the Pod and its
// containers from identity facts the control plane owns; the Collector maps
// them to resource attributes ([ProtectedKey.Attribute]) and never takes
// identity from a log record's payload.
type ProtectedKey string

// The closed set of protected keys.
const (
	KeyServiceName ProtectedKey = "occkit.io/service-name"
	KeyVersion     ProtectedKey = "occkit.io/version"
	KeyContainer   ProtectedKey = "occkit.io/container"
	KeyNamespace   ProtectedKey = "occkit.io/namespace"
	KeyAgent       ProtectedKey = "occkit.io/agent"
	KeyRevision    ProtectedKey = "occkit.io/revision"
)

// AllProtectedKeys lists every [ProtectedKey].
func AllProtectedKeys() []ProtectedKey {
	return []ProtectedKey{KeyServiceName, KeyVersion, KeyContainer, KeyNamespace, KeyAgent, KeyRevision}
}

// Attribute is the OpenTelemetry resource attribute the Collector derives
// from k ("" for an unknown key).
func (k ProtectedKey) Attribute() string {
	switch k {
	case KeyServiceName:
		return "service.name"
	case KeyVersion:
		return "service.version"
	case KeyContainer:
		return "container.name"
	case KeyNamespace:
		return "occkit.namespace.id"
	case KeyAgent:
		return "occkit.agent.id"
	case KeyRevision:
		return "occkit.agent.revision.id"
	}
	return ""
}

// protectedAttributes are the attribute names a payload may never set; the
// [Filter] handler drops them whatever its allowlist says.
var protectedAttributes = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range AllProtectedKeys() {
		m[k.Attribute()] = true
	}
	return m
}()

// Service names a Collector reports for each kind of process.
const (
	ServiceGateway         = "openclaw-gateway"
	ServiceOpenClawHarness = "openclaw-harness"
	ServiceCodexAppServer  = "codex-app-server"
)

// Identity holds the facts a Collector identity is derived from. They come
// from the admitted revision and the Compute, never from a log payload.
type Identity struct {
	Harness   occkit.Harness
	Mode      occkit.Mode    // zero: the Harness's default mode, as in [Render]
	Container occkit.Process // the container's process role, as in [Render]
	Version   string         // the approved Harness version
	Namespace string         // the OCC Namespace ID
	Agent     string         // the Agent ID
	Revision  string         // the AgentRevision ID
}

// Metadata is the protected label and annotation set of one container.
// Labels hold Kubernetes-valid values (a fact that is not a valid label
// value is replaced by "sha256-" and the first 12 hex characters of its
// SHA-256, as DRV-5 names resources); Annotations hold every fact exactly.
// Both are keyed by [ProtectedKey].
type Metadata struct {
	Labels      map[string]string
	Annotations map[string]string
}

// isLabelValue reports whether v has Kubernetes' label value syntax: empty,
// or at most 63 of [-A-Za-z0-9_.] beginning and ending with [A-Za-z0-9].
// It is checked by hand, not by a regexp: the bounded repetition makes the
// regexp's program a few hundred instructions, run six times per render
// (TestIsLabelValue holds it to the regexp).
func isLabelValue(v string) bool {
	if len(v) == 0 {
		return true
	}
	if len(v) > 63 || !alnum(v[0]) || !alnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// CollectorMetadata returns the protected labels and annotations of the
// container described by id (LOG-6). Every fact is required: an empty one,
// or an unknown Harness, mode or container, is a 400 INVALID_REQUEST
// naming the fact. Both maps are new on every call and the caller's to
// keep or edit.
func CollectorMetadata(id Identity) (Metadata, error) {
	md := Metadata{Labels: make(map[string]string, ProtectedKeyCount), Annotations: make(map[string]string, ProtectedKeyCount)}
	if err := WriteCollectorMetadata(id, md.Labels, md.Annotations); err != nil {
		return Metadata{}, err
	}
	return md, nil
}

// ProtectedKeyCount is how many [ProtectedKey]s there are: the labels
// (and the annotations) [CollectorMetadata] returns.
const ProtectedKeyCount = 6

// WriteCollectorMetadata is [CollectorMetadata] into the caller's maps:
// it sets every protected label in labels and every protected annotation
// in annotations, over what they hold under those keys, and leaves their
// other keys alone (a driver's own labels made at room for these need no
// second map); a nil map is skipped. It refuses what CollectorMetadata
// refuses, and then writes nothing.
func WriteCollectorMetadata(id Identity, labels, annotations map[string]string) error {
	service, err := serviceName(id)
	if err != nil {
		return err
	}
	facts := [ProtectedKeyCount]struct {
		key   ProtectedKey
		name  string
		value string
	}{
		{KeyServiceName, "service.name", service},
		{KeyVersion, "version", id.Version},
		{KeyContainer, "container", string(id.Container)},
		{KeyNamespace, "namespace", id.Namespace},
		{KeyAgent, "agent", id.Agent},
		{KeyRevision, "revision", id.Revision},
	}
	var errs []error
	for _, f := range facts {
		if f.value == "" {
			errs = append(errs, occkit.Invalid("LOG-6", occkit.RenderPath(f.name), "the collector identity needs %s", f.name))
		}
	}
	if err := occkit.Join(errs...); err != nil {
		return err
	}
	for _, f := range facts {
		if annotations != nil {
			annotations[string(f.key)] = f.value
		}
		if labels != nil {
			labels[string(f.key)] = safeLabelValue(f.value)
		}
	}
	return nil
}

// safeLabelValue is v when it is a label value, else "sha256-" and the
// first 12 hex characters of its SHA-256, made in one string.
func safeLabelValue(v string) string {
	if isLabelValue(v) {
		return v
	}
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(v), len(v))) // read only
	const prefix = "sha256-"
	var buf [len(prefix) + 12]byte
	return string(hex.AppendEncode(append(buf[:0], prefix...), sum[:6]))
}

func serviceName(id Identity) (string, error) {
	// Render validates the topology and container the same way.
	if err := checkProcess(id.Harness, id.Mode, id.Container, occkit.LevelInfo); err != nil {
		return "", err
	}
	switch {
	case id.Container == occkit.ProcessGateway:
		return ServiceGateway, nil
	case id.Harness == occkit.HarnessCodex:
		return ServiceCodexAppServer, nil
	case id.Mode == occkit.ModeDedicated:
		return ServiceOpenClawHarness, nil
	}
	return ServiceGateway, nil // the combined embedded process
}

// WorkAttribute is an attribute key of worker (reconciliation) log records
// (LOG-6). These describe controller work, never runtime identity.
type WorkAttribute string

// The closed set of worker attribute keys.
const (
	WorkID        WorkAttribute = "work.id"
	WorkOperation WorkAttribute = "work.operation"
	WorkAttempt   WorkAttribute = "work.attempt"
	WorkOutcome   WorkAttribute = "work.outcome"
)

// AllWorkAttributes lists every [WorkAttribute].
func AllWorkAttributes() []WorkAttribute {
	return []WorkAttribute{WorkID, WorkOperation, WorkAttempt, WorkOutcome}
}

// Work describes one unit of controller work for a log record.
type Work struct {
	ID        string
	Operation string
	Attempt   int
	Outcome   string // empty while the work runs
}

// Attrs returns w as slog attributes under the [WorkAttribute] keys; an
// empty Outcome is left out.
func (w Work) Attrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String(string(WorkID), w.ID),
		slog.String(string(WorkOperation), w.Operation),
		slog.Int(string(WorkAttempt), w.Attempt),
	}
	if w.Outcome != "" {
		attrs = append(attrs, slog.String(string(WorkOutcome), w.Outcome))
	}
	return attrs
}
