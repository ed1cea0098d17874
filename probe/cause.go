package probe

import "regexp"

// CauseKind is the kind of a [ModelProbeFailed] cause (PRB-6). The set is
// closed: see [AllCauseKinds].
type CauseKind string

// The closed set of cause kinds. Each admits only the details named here.
const (
	// CauseProcessExit: the probe process failed: "exit-N" (1 ≤ N ≤ 999),
	// "signal-SIG…" or "error-E…" (an errno name), or no detail.
	CauseProcessExit CauseKind = "PROCESS_EXIT"
	// CauseProbeStatus: the probe reported a failure: an OpenClaw status
	// (format, rate_limit, billing, unknown, no_model, other) or a Codex
	// stream verdict (turn-failed, error-event, tool-event,
	// unexpected-event, no-reply).
	CauseProbeStatus CauseKind = "PROBE_STATUS"
	// CauseInvalidOutput: the probe's output was not JSON ("json") or not
	// the expected shape ("shape").
	CauseInvalidOutput CauseKind = "INVALID_OUTPUT"
	// CauseWrapperError: the wrapper around the probe failed; no detail.
	CauseWrapperError CauseKind = "WRAPPER_ERROR"
)

// AllCauseKinds lists every [CauseKind] in a stable order.
func AllCauseKinds() []CauseKind {
	return []CauseKind{CauseProcessExit, CauseProbeStatus, CauseInvalidOutput, CauseWrapperError}
}

// The detail vocabulary of each kind (PRB-6). A nil pattern admits no detail.
var causeDetails = map[CauseKind]*regexp.Regexp{
	CauseProcessExit:   regexp.MustCompile(`^(?:exit-[1-9][0-9]{0,2}|signal-SIG[A-Z0-9]{1,10}|error-E[A-Z0-9]{1,15})$`),
	CauseProbeStatus:   regexp.MustCompile(`^(?:format|rate_limit|billing|unknown|no_model|other|turn-failed|error-event|tool-event|unexpected-event|no-reply)$`),
	CauseInvalidOutput: regexp.MustCompile(`^(?:json|shape)$`),
	CauseWrapperError:  nil,
}

// Cause explains a [ModelProbeFailed] outcome with a token from a closed
// vocabulary, so it can never carry native output, a provider response or a
// credential. The zero Cause means "no cause".
type Cause struct {
	Kind   CauseKind
	Detail string
}

// NewCause returns the cause when kind and detail are in the vocabulary of
// PRB-6 (an empty detail is always allowed), and the zero Cause with false
// otherwise: an off-vocabulary cause is dropped, never repaired.
func NewCause(kind CauseKind, detail string) (Cause, bool) {
	pattern, ok := causeDetails[kind]
	if !ok {
		return Cause{}, false
	}
	if detail == "" {
		return Cause{Kind: kind}, true
	}
	if pattern == nil || !pattern.MatchString(detail) {
		return Cause{}, false
	}
	return Cause{Kind: kind, Detail: detail}, true
}

// IsZero reports whether c is "no cause".
func (c Cause) IsZero() bool { return c == Cause{} }

// Valid reports whether c is the zero Cause or in the vocabulary.
func (c Cause) Valid() bool {
	if c.IsZero() {
		return true
	}
	got, ok := NewCause(c.Kind, c.Detail)
	return ok && got == c
}

// String renders the cause as KIND or KIND/detail, "" for no cause.
func (c Cause) String() string {
	if c.Detail == "" {
		return string(c.Kind)
	}
	return string(c.Kind) + "/" + c.Detail
}

// Outcome is a classified probe attempt: its code, the cause of a
// [ModelProbeFailed] (zero otherwise: authentication failures and timeouts
// carry no cause) and, for Codex, the closed failure class that decides a
// retry (PRB-5).
type Outcome struct {
	Code         Code
	Cause        Cause
	FailureClass FailureClass
}

// failed builds a ModelProbeFailed outcome; an off-vocabulary cause is
// dropped and the code kept (PRB-6).
func failed(kind CauseKind, detail string) Outcome {
	c, _ := NewCause(kind, detail)
	return Outcome{Code: ModelProbeFailed, Cause: c}
}
