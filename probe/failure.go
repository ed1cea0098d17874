package probe

import (
	"regexp"
	"strconv"
	"strings"
)

// Codex writes a failure in a handful of its own forms ("frames"): an HTTP
// status it received, its exhausted retry budget, its named error kinds
// (high demand, model at capacity, quota, usage limit, context window), a
// dropped stream, a failed connection, a reconnect notice. Around a frame
// it may repeat what it does not own: the provider's response body, the
// request URL (the deployment's base URL), and in its notices the probe
// directory. The failure class is read from the frame first; free text is
// read last and only from the parts Codex's own transport stack writes (the
// detail of a failed connection, a fatal "Error:" line), after URLs and
// file paths are removed. A message Codex does not frame is the provider's
// own text and decides nothing.

// frameKind is the kind of a recognised Codex failure message.
type frameKind int

const (
	frameNone       frameKind = iota
	frameStatus               // an HTTP status: "unexpected status 503 …", "exceeded retry limit, last status: 429 …"
	frameHighDemand           // Codex's notice for an HTTP 500
	frameCapacity             // Codex's notice for an in-stream server_is_overloaded
	frameLimit                // quota, usage or rate limit named by Codex
	frameContext              // the context window ran out
	frameDropped              // the stream disconnected before completion
	frameTransport            // the connection failed (transport stack text)
	frameWaiting              // "Reconnecting... waiting for network"
)

// frame is a parsed Codex failure message. It keeps no text.
type frame struct {
	kind   frameKind
	status int // the HTTP status of a frameStatus, or of a dropped stream's inner status
	class  FailureClass
}

var (
	// A reconnect notice wraps the failure it retries: "Reconnecting...
	// 2/5 (inner)", also spelled "2/5: inner" or "2/5 - inner".
	frameReconnectRE = regexp.MustCompile(`(?s)^Reconnecting\.\.\. ([1-9][0-9]?)/([1-9][0-9]?)(?::| -)? (.*)$`)
	frameWaitingRE   = regexp.MustCompile(`^Reconnecting\.\.\. waiting for network\b`)
	frameStatusRE    = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:unexpected )?(?:http )?status(?: code)?:? ([1-5][0-9]{2})\b`),
		regexp.MustCompile(`(?i)^http (?:error )?([1-5][0-9]{2})\b`),
		regexp.MustCompile(`(?i)^(?:exceeded retry limit|retry limit (?:reached|exceeded)),? last status:? ([1-5][0-9]{2})\b`),
		regexp.MustCompile(`(?i)^([1-5][0-9]{2}) (?:unauthori[sz]ed|forbidden|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out)\b`),
	}
	frameHighDemandRE = regexp.MustCompile(`(?i)^We(?:'|’)re currently experiencing high demand\b`)
	frameCapacityRE   = regexp.MustCompile(`(?i)^Selected model is at capacity\b`)
	frameLimitRE      = regexp.MustCompile(`(?i)^(?:quota exceeded\b|rate limit exceeded\b|you(?:'|’)ve hit your usage limit\b|usage limit (?:reached|exceeded)\b)`)
	frameContextRE    = regexp.MustCompile(`(?i)^Codex ran out of room in the model(?:'|’)s context window\b`)
	frameDroppedRE    = regexp.MustCompile(`(?is)^stream disconnected(?: before completion| - retrying sampling request)?\b[:.]? ?(.*)$`)
	frameTransportRE  = regexp.MustCompile(`(?is)^(?:connection failed|error sending request|transport error|network error|(?:tcp )?connect(?:ion)? error|dns error|failed to lookup address|invalid peer certificate|deadline exceeded|operation timed out|request timed out|connection (?:refused|reset|closed))\b(.*)$`)
)

// parseFrame recognises a Codex failure message, unwrapping reconnect
// notices. depth bounds the unwrapping.
func parseFrame(msg string) frame {
	return parseFrameDepth(strings.TrimSpace(msg), 0)
}

func parseFrameDepth(msg string, depth int) frame {
	if depth > 3 {
		return frame{}
	}
	if frameWaitingRE.MatchString(msg) {
		return frame{kind: frameWaiting, class: ClassNetwork}
	}
	if m := frameReconnectRE.FindStringSubmatch(msg); m != nil {
		inner := strings.TrimSpace(m[3])
		if strings.HasPrefix(inner, "(") {
			inner = strings.TrimSuffix(strings.TrimPrefix(inner, "("), ")")
		}
		return parseFrameDepth(inner, depth+1)
	}
	for _, re := range frameStatusRE {
		if m := re.FindStringSubmatch(msg); m != nil {
			status, _ := strconv.Atoi(m[1])
			return frame{kind: frameStatus, status: status, class: statusClass(status)}
		}
	}
	switch {
	case frameHighDemandRE.MatchString(msg):
		// Codex prints this instead of "unexpected status 500": its own
		// kind for a provider's internal server error (measured with
		// codex-cli 0.171.0; a 503 or 502 keeps its status line).
		return frame{kind: frameHighDemand, status: 500, class: ClassHTTP5xx}
	case frameCapacityRE.MatchString(msg):
		return frame{kind: frameCapacity, class: ClassOverloaded}
	case frameLimitRE.MatchString(msg):
		return frame{kind: frameLimit, class: ClassLimit}
	case frameContextRE.MatchString(msg):
		return frame{kind: frameContext, class: ClassOther}
	}
	if m := frameDroppedRE.FindStringSubmatch(msg); m != nil {
		// The detail of a dropped stream is either Codex's own (a status,
		// a transport error) or the provider's failure message: only a
		// frame inside it counts, and only a rejected credential changes
		// the class.
		if inner := parseFrameDepth(strings.TrimSpace(m[1]), depth+1); inner.class == ClassCredential {
			return frame{kind: frameDropped, status: inner.status, class: ClassCredential}
		}
		return frame{kind: frameDropped, class: ClassConnectionDropped}
	}
	if m := frameTransportRE.FindStringSubmatch(msg); m != nil {
		// Codex's HTTP and TLS stack writes this text, but it names the
		// URL: drop URLs and paths before reading it.
		if c := matchFailureText(sanitizeFailureText(msg)); c != "" && c != ClassOther {
			return frame{kind: frameTransport, class: c}
		}
		return frame{kind: frameTransport, class: ClassNetwork}
	}
	return frame{}
}

// statusClass is the failure class of an HTTP status (PRB-5): 401/403 name
// the credential, 429 a limit, 529 overload, other 5xx a server error;
// anything else is not retried.
func statusClass(status int) FailureClass {
	switch {
	case status == 401 || status == 403:
		return ClassCredential
	case status == 429:
		return ClassLimit
	case status == 529:
		return ClassOverloaded
	case status >= 500 && status <= 599:
		return ClassHTTP5xx
	}
	return ClassOther
}

// Failure text patterns, checked in this order: a failure that names a
// credential, a TLS error or a limit is never retried, whatever else it says.
var failureText = []struct {
	class   FailureClass
	pattern *regexp.Regexp
}{
	{ClassCredential, regexp.MustCompile(`(?i)\b40[13]\b|unauthori[sz]ed|forbidden|credential|api.?key|access.?token|invalid.?auth|authenticat`)},
	{ClassTLS, regexp.MustCompile(`(?i)\btls\b|\bssl\b|certificate|x509|handshake`)},
	{ClassLimit, regexp.MustCompile(`(?i)\b429\b|rate.?limit|usage.?limit|quota|too many requests|insufficient_quota|limit (?:reached|exceeded)|exceeded your`)},
	{ClassOverloaded, regexp.MustCompile(`(?i)overload|\b529\b`)},
	{ClassHTTP5xx, regexp.MustCompile(`(?i)\b5[0-9][0-9]\b|internal server error|bad gateway|service unavailable|gateway time-?out|server error`)},
	{ClassConnectionDropped, regexp.MustCompile(`(?i)stream disconnected|connection (?:reset|closed|aborted)|broken pipe|unexpected eof|closed before|dropped`)},
	{ClassNetwork, regexp.MustCompile(`(?i)error sending request|failed to connect|connection (?:refused|failed|error)|could not connect|dns|lookup|resolve|network|unreachable|timed out|connect error|os error`)},
}

// matchFailureText is the first class whose pattern text matches, "" for
// none.
func matchFailureText(text string) FailureClass {
	for _, f := range failureText {
		if text != "" && f.pattern.MatchString(text) {
			return f.class
		}
	}
	return ""
}

var (
	failureURL  = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s)\]}>"',]*`)
	failurePath = regexp.MustCompile(`(^|[\s(\[{"'=:,])(?:~|\.{1,2})?/[^\s)\]}"',]*`)
)

// sanitizeFailureText removes what a deployment chooses from failure text
// before any pattern reads it: URLs (the base URL) and file paths (the
// probe and home directories).
func sanitizeFailureText(text string) string {
	text = failureURL.ReplaceAllLiteralString(text, " ")
	return failurePath.ReplaceAllString(text, "$1 ")
}

// classifyFailureText maps one failure message to a class: a Codex frame
// first; otherwise, as a last resort, the words of the message once URLs
// and paths are removed. Unrecognised text is [ClassOther]. The text itself
// is never kept.
func classifyFailureText(text string) FailureClass {
	if f := parseFrame(text); f.kind != frameNone {
		return f.class
	}
	if c := matchFailureText(sanitizeFailureText(text)); c != "" {
		return c
	}
	return ClassOther
}

// stderrFailureLines are the lines of Codex's stderr that speak about the
// failure: its fatal "Error: …" lines (without the prefix), or, when it
// printed none, every line but its warnings and notices (which name its
// home directory). Log records and blank lines never count.
func stderrFailureLines(stderr []byte) []string {
	var errs, rest []string
	for _, line := range strings.Split(string(stderr), "\n") {
		line = strings.TrimSpace(line)
		lower := strings.ToLower(line)
		switch {
		case line == "":
		case strings.HasPrefix(lower, "error:"):
			errs = append(errs, strings.TrimSpace(line[len("error:"):]))
		case strings.HasPrefix(lower, "warning"), strings.HasPrefix(lower, "note:"),
			strings.HasPrefix(lower, "reading ") && strings.Contains(lower, "stdin"),
			codexLogLine.MatchString(line):
		default:
			rest = append(rest, line)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return rest
}

// codexLogLine is a tracing record ("2026-01-01T00:00:00.000000Z ERROR
// codex_core::…: …"): diagnostics, not the failure Codex reports.
var codexLogLine = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T[0-9:.]+Z?\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\s`)

// stderrFailureClass classifies the failure lines of stderr: the first
// Codex frame wins; otherwise the first line whose words name a class;
// otherwise [ClassOther].
func stderrFailureClass(stderr []byte) FailureClass {
	lines := stderrFailureLines(stderr)
	for _, l := range lines {
		if f := parseFrame(l); f.kind != frameNone {
			return f.class
		}
	}
	for _, l := range lines {
		if c := matchFailureText(sanitizeFailureText(l)); c != "" {
			return c
		}
	}
	return ClassOther
}

// stderrRejected reports whether a failure line of stderr is a frame whose
// status rejects the credential (401 or 403).
func stderrRejected(stderr []byte) bool {
	for _, l := range stderrFailureLines(stderr) {
		if f := parseFrame(l); f.status == 401 || f.status == 403 {
			return true
		}
	}
	return false
}
