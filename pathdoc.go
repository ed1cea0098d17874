package occkit

import "fmt"

// Doc names the document a [Path] addresses. One deployment reads several:
// the author's Configuration, the Agent resource that names it, the
// options the operator installed and the options of a render, and a
// refusal about any of them names a setting by a dot path, so the path
// alone ("namespace", "model") cannot say which form holds the field.
// The set is closed: see [AllDocs]. The zero value is the Configuration,
// the document nearly every refusal is about.
type Doc uint8

// The closed set of documents.
const (
	// DocConfiguration is the native OpenClaw Configuration (agents,
	// models, channels, gateway, logging, …).
	DocConfiguration Doc = iota
	// DocAgent is the Agent being deployed: id, configurationId,
	// executionMode, harnessAuth, compute.
	DocAgent
	// DocInstallation is what the operator configures once for every
	// Agent: admission's options (harnessVersions), the Compute and
	// SandboxDriver declarations and configuration, the Credential
	// Gateway.
	DocInstallation
	// DocRender is what a caller passes to render or run an admitted
	// revision: render options (kubernetes.namespace, placement), the
	// arguments of a driver operation (namespace.id, revisionDigest,
	// lines), a process or container, a startup record's fields, and a
	// deployment request's own options (prepared).
	DocRender
	// DocRevision is a stored revision record (digest, generation,
	// projection, …), as ParseRevision reads it back.
	DocRevision
)

// AllDocs lists every [Doc] in a stable order.
func AllDocs() []Doc {
	return []Doc{DocConfiguration, DocAgent, DocInstallation, DocRender, DocRevision}
}

var docNames = [...]string{
	DocConfiguration: "configuration",
	DocAgent:         "agent",
	DocInstallation:  "installation",
	DocRender:        "render",
	DocRevision:      "revision",
}

// String is the document's name in an error's JSON form: "configuration",
// "agent", "installation", "render" or "revision".
func (d Doc) String() string {
	if int(d) < len(docNames) {
		return docNames[d]
	}
	return fmt.Sprintf("Doc(%d)", uint8(d))
}

// ParseDoc reads a name [Doc.String] writes.
func ParseDoc(s string) (Doc, error) {
	for i, n := range docNames {
		if n == s {
			return Doc(i), nil
		}
	}
	return 0, fmt.Errorf("occkit: unknown document %q", s)
}

// MarshalText writes [Doc.String]; a Doc outside [AllDocs] is an error.
func (d Doc) MarshalText() ([]byte, error) {
	if int(d) >= len(docNames) {
		return nil, fmt.Errorf("occkit: unknown document %d", uint8(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads [Doc.String].
func (d *Doc) UnmarshalText(b []byte) error {
	v, err := ParseDoc(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
