package resolver

import (
	"fmt"
	"io"
	"strings"

	"github.com/occkit/occkit"
)

// Request holds what OCC Harness resolution needs besides the
// Configuration: the Agent's execution mode, the Compute it deploys to and
// the installation's facts. The zero Request is an embedded deployment on
// Kubernetes with no native-worker support and no SandboxDriver.
type Request struct {
	// Mode is the Agent's execution mode; "" means [occkit.ModeEmbedded] (RES-11:
	// creation defaults to embedded).
	Mode occkit.Mode
	// Compute is where the Agent deploys; "" means [occkit.ComputeKubernetes].
	Compute occkit.Compute
	// Installation holds native-worker support and the SandboxDriver
	// (RES-13).
	Installation occkit.Installation
	// Topologies are the (Harness, Mode) pairs a custom Compute supports
	// (RES-11). It is ignored for the bundled Computes (Kubernetes, SSH,
	// Docker), whose sets are fixed; a custom Compute with no Topologies
	// supports nothing.
	Topologies []occkit.Topology
}

// Decision is the outcome of OCC Harness resolution: the Harness, the
// execution mode, the primary model with its fallbacks in author order, and
// the ordered chain of reasons that led there (SEL-9).
type Decision struct {
	Harness occkit.Harness
	Mode    occkit.Mode
	// Primary is the primary model ref in canonical form
	// ("provider/id[@profile]"), or "" when the Configuration selects no
	// model (RES-4).
	Primary string
	// Fallbacks are the primary's fallbacks in canonical form, in the
	// author's order (ADM-4). Never nil.
	Fallbacks []string
	// Reasons explain the decision, in the order the rules applied.
	Reasons []Reason
}

// Explain writes a human-readable account of d: one summary line, then one
// line per reason ("RULE path = value: note").
func (d Decision) Explain(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "harness %s, mode %s", d.Harness, d.Mode)
	if d.Primary != "" {
		fmt.Fprintf(&b, ", primary %s", d.Primary)
	}
	if len(d.Fallbacks) > 0 {
		fmt.Fprintf(&b, ", fallbacks %s", strings.Join(d.Fallbacks, ", "))
	}
	b.WriteByte('\n')
	for _, r := range d.Reasons {
		p := r.Path.String()
		if r.Path.IsRoot() {
			p = "(request)"
		}
		fmt.Fprintf(&b, "  %s %s", r.Rule, p)
		if r.Value != "" {
			fmt.Fprintf(&b, " = %q", r.Value)
		}
		if r.Note != "" {
			fmt.Fprintf(&b, ": %s", r.Note)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Prepared is a Configuration analysed once for OCC Harness resolution
// (RES-1..RES-9): its candidates, policies and the Harness they select.
// Evaluate it against any number of Requests with [Prepared.Resolve]. A
// Prepared is immutable and safe for concurrent use.
type Prepared struct {
	err     error
	listErr error // agents.list (RES-10), refused on every Compute but SSH
	harness occkit.Harness
	primary string
	// refSel is the setting of the primary, whose fallbacks a Decision
	// lists (nil: no model is selected); it is part of selected.
	refSel  *modelSetting
	reasons []Reason
	// roster is what the roster rules read of the document
	// ([Prepared.CheckRoster]): its root and agents' members, in place.
	roster rosterInput
	// selected is the index, trimmed to the selections and provider keys,
	// of a Configuration without problems ([Prepared.SelectedModels]).
	selected *docIndex
}

// Prepare analyses doc once: one pass builds indexes over the document's
// bytes, then every candidate model is checked against them. Problems of
// the Configuration are kept and returned by every [Prepared.Resolve].
func Prepare(doc occkit.Document) *Prepared {
	return prepare(doc)
}

// Resolve decides the Harness, mode and models of one deployment of doc
// (RES-1..RES-9, RES-11..RES-13). It is Prepare(doc).Resolve(req), with
// its refusals placed in doc's source when it has a source map
// ([occkit.Document.Place]).
//
// Every problem of the Configuration is returned at once, joined with
// [occkit.Join]; only a Configuration without problems is checked against
// the request's mode, Compute and installation (see the package
// documentation, "Errors and precedence").
func Resolve(doc occkit.Document, req Request) (Decision, error) {
	d, err := Prepare(doc).Resolve(req)
	return d, doc.Place(err)
}

// Err reports the Configuration's problems (nil when it resolves). A
// non-empty agents.list (RES-10) is not among them: it is refused by
// [Prepared.Resolve] on every Compute but SSH.
func (p *Prepared) Err() error { return p.err }

// Resolve evaluates the prepared Configuration for req.
func (p *Prepared) Resolve(req Request) (Decision, error) {
	listErr := p.listErr
	if req.Compute == occkit.ComputeSSH {
		listErr = nil // RES-10: SSH deployment applies no roster rules
	}
	if p.err != nil || listErr != nil {
		return Decision{}, occkit.Join(listErr, p.err)
	}
	mode := req.Mode
	if mode == "" {
		mode = occkit.ModeEmbedded
	}
	// The Decision owns its reasons: the kept ones and the topology's,
	// in one slice of the length it returns.
	reasons := make([]Reason, len(p.reasons), len(p.reasons)+topologyReasons(p.harness, mode, req.Compute))
	copy(reasons, p.reasons)
	reasons, err := checkTopology(p.harness, mode, req, reasons)
	if err != nil {
		return Decision{}, err
	}
	// The fallbacks are spelled from the kept selection for each
	// Decision, which owns them.
	var fb []string
	if p.refSel != nil {
		fb = p.refSel.fallbackStrs()
	} else {
		fb = []string{}
	}
	return Decision{
		Harness:   p.harness,
		Mode:      mode,
		Primary:   p.primary,
		Fallbacks: fb,
		Reasons:   reasons,
	}, nil
}
