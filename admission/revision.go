package admission

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/resolver"
)

// ComputeIdentity names the Compute that runs the revision: its kind (the
// bundled kinds or a custom driver's name) and the configured driver ID.
type ComputeIdentity struct {
	Kind occkit.Compute
	ID   string
}

// Account is a managed account binding (ADM-7): the exact credential
// reference and the verified Backend/workspace ownership. Reconciliation
// cannot substitute a newly issued credential: the reference is frozen.
type Account struct {
	BackendID   string
	DriverID    string
	WorkspaceID string
	Credential  occkit.SourceRef
}

// IsZero reports whether a is "no account binding".
func (a Account) IsZero() bool { return a == Account{} }

// Revision is a frozen AgentRevision (ADM-3): the admitted result of one
// deployment. It is deeply immutable: it has no exported fields, every
// accessor returns a copy, and the admitted document is held as canonical
// JSON bytes with their SHA-256 digest. A *Revision is safe to share
// between goroutines.
//
// A Revision is made only by [Admitter.Admit] or restored from its own
// record by [ParseRevision]; either way [Verify] re-checks it before any
// runtime effect (ADM-5).
type Revision struct {
	agentID         string
	source          drivers.SourceIdentity
	harness         drivers.HarnessIdentity
	mode            occkit.Mode
	compute         ComputeIdentity
	sandboxDriverID string
	account         Account
	auth            occkit.Binding
	projection      occkit.Projection
	primary         string
	fallbacks       []string
	level           occkit.LogLevel
	ownership       occkit.LogOwnership
	reasons         reasonList
	namespace       string
	secretBindings  []occkit.SecretBinding
	// warnings are what admission found admitted but not running as
	// written; advice of the admission, not part of the record.
	warnings []*occkit.Error
	// openclawSchema is the OpenClaw release whose configuration schema
	// the document was checked against, or "" when the check was off.
	openclawSchema string

	// doc is the admitted document in canonical form, and secrets its
	// credential scan (compile.ScanSecrets) when admission made one: the
	// render plan reads it instead of walking the document again.
	doc     occkit.Document
	secrets *compile.SecretScan
	digest  string
	// docDigest is the hex SHA-256 of doc, hashed on first use: the
	// record digest already covers every byte of doc, and most callers
	// (render, ssh.Render) never ask for this one, so admission does not
	// hash the document a second time up front. doc never changes, so
	// the value does not either.
	docDigest struct {
		once sync.Once
		hex  string
	}
	// plan is what admission's check of the render plan read of the
	// document (compile.PreparePlan), kept so that Plan does not read it
	// again; nil on a revision restored from its record.
	plan *compile.PreparedPlan
}

// AgentID is the Agent the revision deploys.
func (r *Revision) AgentID() string { return r.agentID }

// Source is the Configuration identity and generation admitted.
func (r *Revision) Source() drivers.SourceIdentity { return r.source }

// Harness is the approved Harness.
func (r *Revision) Harness() occkit.Harness { return r.harness.ID }

// HarnessIdentity is the approved Harness and its version.
func (r *Revision) HarnessIdentity() drivers.HarnessIdentity { return r.harness }

// Mode is the admitted execution mode.
func (r *Revision) Mode() occkit.Mode { return r.mode }

// Topology is the admitted (Harness, Mode) pair.
func (r *Revision) Topology() occkit.Topology {
	return occkit.Topology{Harness: r.harness.ID, Mode: r.mode}
}

// Compute is the Compute kind that runs the revision.
func (r *Revision) Compute() occkit.Compute { return r.compute.Kind }

// ComputeIdentity is the Compute kind and driver ID.
func (r *Revision) ComputeIdentity() ComputeIdentity { return r.compute }

// SandboxDriverID is the bound SandboxDriver, or "" when none.
func (r *Revision) SandboxDriverID() string { return r.sandboxDriverID }

// Account is the managed account binding, or the zero Account.
func (r *Revision) Account() Account { return r.account }

// HarnessAuth is the frozen harnessAuth snapshot: references only.
func (r *Revision) HarnessAuth() occkit.Binding { return r.auth }

// Projection is the credential projection plan (AUTH-2).
func (r *Revision) Projection() occkit.Projection { return r.projection.Clone() }

// Primary is the admitted primary model ref.
func (r *Revision) Primary() string { return r.primary }

// Fallbacks is the fallback order as admitted (ADM-4); a copy.
func (r *Revision) Fallbacks() []string { return append([]string(nil), r.fallbacks...) }

// Level is the admitted log level (LOG-1).
func (r *Revision) Level() occkit.LogLevel { return r.level }

// LoggingOwnership says who owns the native logging configuration.
func (r *Revision) LoggingOwnership() occkit.LogOwnership { return r.ownership }

// Warnings are what admission admitted but the revision will not run as
// written (see the package doc, "Warnings"), sorted by path: each an
// [*occkit.Error] of [occkit.SeverityWarning] with its rule, path and,
// for a typo, its Suggestion. They never block; they are advice of the
// admission that made r, not part of its record, so a revision read back
// with [ParseRevision] has none. The errors are copies.
func (r *Revision) Warnings() []*occkit.Error {
	out := make([]*occkit.Error, len(r.warnings))
	for i, w := range r.warnings {
		c := *w
		out[i] = &c
	}
	return out
}

// Reasons is the Harness decision's reason chain (SEL-9); a copy.
func (r *Revision) Reasons() []resolver.Reason { return r.reasons.all() }

// OpenClawSchemaVersion is the OpenClaw release whose configuration
// schema the admitted document was checked against (DOC-5), or "" when
// the Admitter's check was disabled. It is part of the digest.
func (r *Revision) OpenClawSchemaVersion() string { return r.openclawSchema }

// Document is the admitted document (after transform and stamp) in its
// canonical, key-sorted form. A Document is immutable, so sharing it is
// safe.
func (r *Revision) Document() occkit.Document { return r.doc }

// Canonical returns a copy of the admitted document's canonical JSON bytes.
func (r *Revision) Canonical() []byte { return r.doc.Bytes() }

// Digest identifies the revision: the hex SHA-256 of the canonical JSON
// ([occkit.Canonical]) of its persisted record ([Revision.MarshalJSON])
// without the "digest" member, so it covers
// every frozen field — the canonical document, the harnessAuth snapshot and
// its projection, the Harness, mode, Compute, sandbox and account bindings,
// fallbacks and logging. Two admissions that differ in anything a runtime
// would honour have different digests; a rebinding of the credential with an
// unchanged document is a new revision.
func (r *Revision) Digest() string { return r.digest }

// DocumentDigest is the hex SHA-256 of [Revision.Canonical]: what a driver
// compares with the admitted document it wrote to a host or a ConfigMap.
// It is "" only for a Revision that admission did not make.
func (r *Revision) DocumentDigest() string {
	if r.digest == "" {
		return ""
	}
	r.docDigest.once.Do(func() { r.docDigest.hex = r.doc.Digest() })
	return r.docDigest.hex
}

// revisionRecord is the persisted form of a Revision. Field order is fixed,
// so marshalling is deterministic.
type revisionRecord struct {
	Version   int              `json:"version"`
	AgentID   string           `json:"agentId"`
	Source    sourceRecord     `json:"source"`
	Harness   harnessRecord    `json:"harness"`
	Compute   computeRecord    `json:"compute"`
	Sandbox   string           `json:"sandboxDriverId,omitempty"`
	Account   *accountRecord   `json:"account,omitempty"`
	Auth      json.RawMessage  `json:"harnessAuth"`
	Env       projectionRecord `json:"projection"`
	Primary   string           `json:"primary"`
	Fallbacks []string         `json:"fallbacks"`
	Logging   loggingRecord    `json:"logging"`
	Namespace string           `json:"namespaceId,omitempty"`
	Bindings  []bindingRecord  `json:"secretBindings,omitempty"`
	Doc       json.RawMessage  `json:"configuration"`
	// OpenClaw is the OpenClaw schema version checked; omitted when none.
	OpenClaw string `json:"openclawSchema,omitempty"`
	Digest   string `json:"digest,omitempty"`
}

type sourceRecord struct {
	ID         string `json:"id"`
	Generation int64  `json:"generation"`
}

type harnessRecord struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Mode    string `json:"mode"`
}

type computeRecord struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

type refRecord struct {
	Kind        string `json:"kind"`
	NamespaceID string `json:"namespaceId"`
	ID          string `json:"id"`
}

type accountRecord struct {
	BackendID   string    `json:"backendId"`
	DriverID    string    `json:"driverId"`
	WorkspaceID string    `json:"workspaceId"`
	Credential  refRecord `json:"credential"`
}

type envRecord struct {
	Name        string     `json:"name"`
	Value       string     `json:"value,omitempty"`
	From        *refRecord `json:"from,omitempty"`
	Placeholder bool       `json:"placeholder,omitempty"`
}

type projectionRecord struct {
	Gateway     []envRecord `json:"gateway"`
	Harness     []envRecord `json:"harness"`
	StdinLogin  bool        `json:"stdinLogin,omitempty"`
	EgressProxy bool        `json:"egressProxy,omitempty"`
	HostManaged bool        `json:"hostManaged,omitempty"`
}

type bindingRecord struct {
	Env    string    `json:"env"`
	Source refRecord `json:"source"`
}

type loggingRecord struct {
	Level     string `json:"level"`
	Ownership string `json:"ownership"`
}

const recordVersion = 1

func envRecords(vs []occkit.EnvVar) []envRecord {
	out := make([]envRecord, 0, len(vs))
	for _, v := range vs {
		e := envRecord{Name: v.Name, Value: v.Value, Placeholder: v.Placeholder}
		if v.From != (occkit.SourceRef{}) {
			e.From = &refRecord{Kind: string(v.From.Kind), NamespaceID: v.From.NamespaceID, ID: v.From.ID}
		}
		out = append(out, e)
	}
	return out
}

func envVars(rs []envRecord) []occkit.EnvVar {
	out := make([]occkit.EnvVar, 0, len(rs))
	for _, e := range rs {
		v := occkit.EnvVar{Name: e.Name, Value: e.Value, Placeholder: e.Placeholder}
		if e.From != nil {
			v.From = occkit.SourceRef{Kind: occkit.SourceKind(e.From.Kind), NamespaceID: e.From.NamespaceID, ID: e.From.ID}
		}
		out = append(out, v)
	}
	return out
}

// MarshalJSON renders the revision's persisted record. The output is
// deterministic: the same revision always gives the same bytes. The record
// holds references only, never secret bytes.
func (r *Revision) MarshalJSON() ([]byte, error) {
	return json.Marshal(r.record(r.Canonical()))
}

// record is the persisted form, digest included, holding doc as the
// document.
func (r *Revision) record(doc json.RawMessage) revisionRecord {
	rec := revisionRecord{
		Version: recordVersion,
		AgentID: r.agentID,
		Source:  sourceRecord{ID: r.source.ID, Generation: r.source.Generation},
		Harness: harnessRecord{ID: string(r.harness.ID), Version: r.harness.Version, Mode: string(r.mode)},
		Compute: computeRecord{Kind: string(r.compute.Kind), ID: r.compute.ID},
		Sandbox: r.sandboxDriverID,
		Auth:    r.auth.JSON(),
		Env: projectionRecord{
			Gateway: envRecords(r.projection.Gateway), Harness: envRecords(r.projection.Harness),
			StdinLogin: r.projection.StdinLogin, EgressProxy: r.projection.EgressProxy,
			HostManaged: r.projection.HostManaged,
		},
		Primary:   r.primary,
		Fallbacks: r.Fallbacks(),
		Logging:   loggingRecord{Level: string(r.level), Ownership: string(r.ownership)},
		Namespace: r.namespace,
		Doc:       doc,
		OpenClaw:  r.openclawSchema,
		Digest:    r.digest,
	}
	if rec.Fallbacks == nil {
		rec.Fallbacks = []string{}
	}
	for _, b := range r.secretBindings {
		rec.Bindings = append(rec.Bindings, bindingRecord{Env: b.Env,
			Source: refRecord{Kind: string(b.Source.Kind), NamespaceID: b.Source.NamespaceID, ID: b.Source.ID}})
	}
	if !r.account.IsZero() {
		a := r.account
		rec.Account = &accountRecord{
			BackendID: a.BackendID, DriverID: a.DriverID, WorkspaceID: a.WorkspaceID,
			Credential: refRecord{Kind: string(a.Credential.Kind), NamespaceID: a.Credential.NamespaceID, ID: a.Credential.ID},
		}
	}
	return rec
}

// ParseRevision restores a revision from the record [Revision.MarshalJSON]
// wrote. It checks the record's shape, the harnessAuth snapshot (AUTH-4a)
// and that the digest matches the document; a restored revision must still
// pass [Verify] before any runtime effect. The reason chain is not
// persisted.
func ParseRevision(b []byte) (*Revision, error) {
	// encoding/json's validator first: gjson's recurses once per level and
	// a long run of '[' would exhaust the stack.
	if !json.Valid(b) || !gjson.ValidBytes(b) {
		return nil, occkit.Invalid("ADM-3", occkit.Root(), "revision record is not valid JSON")
	}
	var rec revisionRecord
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, occkit.Invalid("ADM-3", occkit.Root(), "revision record has an unexpected shape")
	}
	if rec.Version != recordVersion {
		return nil, occkit.Invalid("ADM-3", occkit.RevisionPath("version"), "unsupported revision record version")
	}
	auth, err := ParseBinding(rec.Auth, occkit.RevisionPath("harnessAuth"))
	if err != nil {
		return nil, err
	}
	doc, err := occkit.ParseDocument(rec.Doc)
	if err != nil {
		return nil, occkit.Invalid("ADM-3", occkit.RevisionPath("configuration"), "revision document is not valid JSON")
	}
	r := &Revision{
		agentID:         rec.AgentID,
		source:          drivers.SourceIdentity{ID: rec.Source.ID, Generation: rec.Source.Generation},
		harness:         drivers.HarnessIdentity{ID: occkit.Harness(rec.Harness.ID), Version: rec.Harness.Version},
		mode:            occkit.Mode(rec.Harness.Mode),
		compute:         ComputeIdentity{Kind: occkit.Compute(rec.Compute.Kind), ID: rec.Compute.ID},
		sandboxDriverID: rec.Sandbox,
		auth:            auth,
		projection: occkit.Projection{
			Gateway: envVars(rec.Env.Gateway), Harness: envVars(rec.Env.Harness),
			StdinLogin: rec.Env.StdinLogin, EgressProxy: rec.Env.EgressProxy, HostManaged: rec.Env.HostManaged,
		},
		primary:        rec.Primary,
		fallbacks:      append([]string(nil), rec.Fallbacks...),
		level:          occkit.LogLevel(rec.Logging.Level),
		ownership:      occkit.LogOwnership(rec.Logging.Ownership),
		namespace:      rec.Namespace,
		openclawSchema: rec.OpenClaw,
	}
	for _, b := range rec.Bindings {
		r.secretBindings = append(r.secretBindings, occkit.SecretBinding{Env: b.Env,
			Source: occkit.SourceRef{Kind: occkit.SourceKind(b.Source.Kind), NamespaceID: b.Source.NamespaceID, ID: b.Source.ID}})
	}
	if rec.Account != nil {
		a := rec.Account
		r.account = Account{
			BackendID: a.BackendID, DriverID: a.DriverID, WorkspaceID: a.WorkspaceID,
			Credential: occkit.SourceRef{Kind: occkit.SourceKind(a.Credential.Kind), NamespaceID: a.Credential.NamespaceID, ID: a.Credential.ID},
		}
	}
	if err := r.checkFields(); err != nil {
		return nil, err
	}
	r.freeze(doc)
	if r.digest != rec.Digest {
		return nil, occkit.Conflict("ADM-3", occkit.RevisionPath("digest"), "revision digest does not match its record")
	}
	return r, nil
}

// freeze sets the document (its canonical bytes and their digest) and then
// the revision digest over the whole record. Every other field must be set
// before.
func (r *Revision) freeze(doc occkit.Document) {
	r.freezeCanonical(occkit.CanonicalDocument(doc), nil)
}

// freezeCanonical is freeze of a document already in canonical form,
// with its credential scan when admission made one.
func (r *Revision) freezeCanonical(canonical occkit.Document, scan *compile.SecretScan) {
	r.doc = canonical
	r.secrets = scan
	r.digest = r.recordDigest()
}

// recordDigest is the SHA-256 of the canonical record without its digest.
// Anyone holding a record can recompute it the same way.
//
// The document is most of the record and is already canonical, so it is
// not marshalled, parsed and canonicalized again, and neither is the rest:
// [Revision.canonicalRecord] writes the canonical bytes around the
// document directly, and the hash runs over the bytes before it, the
// canonical document and the bytes after it. Canonicalization sorts
// members by key and rewrites each value in place, so that is byte for
// byte the canonical form of the whole record (TestRecordDigestSplice
// checks it against the plain computation).
func (r *Revision) recordDigest() string {
	var buf [2048]byte
	dst := buf[:0]
	if n := r.recordSizeHint(); n > len(buf) {
		dst = make([]byte, 0, n) // written once, not grown by doubling
	}
	before, after, ok := r.canonicalRecord(dst)
	if !ok {
		return ""
	}
	var sum [sha256.Size]byte
	if doc := r.doc.String(); len(before)+len(doc)+len(after) <= cap(before) {
		// A small document fits between the two in the buffer they were
		// written to (after moves up to make room), and the record is
		// hashed in one call, whose state stays on the stack.
		whole := before[:len(before)+len(doc)+len(after)]
		copy(whole[len(before)+len(doc):], after)
		copy(whole[len(before):], doc)
		sum = sha256.Sum256(whole)
	} else {
		h := sha256.New()
		h.Write(before)
		_, _ = r.doc.WriteTo(h) // hashes never fail, and the document is not copied
		h.Write(after)
		h.Sum(sum[:0])
	}
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// recordSizeHint is about the length of the canonical record without its
// document: its fixed part and what grows with the revision (a fallback
// list as long as the catalog's, the projection, the secret bindings).
func (r *Revision) recordSizeHint() int {
	n := 768 + len(r.agentID) + len(r.primary) + len(r.source.ID) + len(r.compute.ID) + 160*len(r.secretBindings)
	for _, f := range r.fallbacks {
		n += len(f) + 3
	}
	for _, envs := range [][]occkit.EnvVar{r.projection.Gateway, r.projection.Harness} {
		for _, v := range envs {
			n += len(v.Name) + len(v.Value) + 128
		}
	}
	return n
}

// checkFields refuses a restored record whose closed-set fields hold values
// admission never freezes.
func (r *Revision) checkFields() error {
	if r.harness.ID != occkit.HarnessOpenClaw && r.harness.ID != occkit.HarnessCodex {
		return occkit.Invalid("ADM-3", occkit.RevisionPath("harness", "id"), "revision Harness must be openclaw or codex")
	}
	if r.mode != occkit.ModeEmbedded && r.mode != occkit.ModeDedicated {
		return occkit.Invalid("ADM-3", occkit.RevisionPath("harness", "mode"), "revision mode must be embedded or dedicated")
	}
	if !r.level.Valid() {
		return occkit.Invalid("ADM-3", occkit.RevisionPath("logging", "level"), "revision level is not a log level")
	}
	if r.ownership != occkit.OwnedByPlatform && r.ownership != occkit.OwnedByDriver {
		return occkit.Invalid("ADM-3", occkit.RevisionPath("logging", "ownership"), "revision logging ownership must be platform or driver")
	}
	if r.auth.IsZero() {
		return occkit.Invalid("ADM-3", occkit.RevisionPath("harnessAuth"), "a revision always holds a harnessAuth snapshot")
	}
	return nil
}
