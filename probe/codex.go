package probe

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/tidwall/gjson"
)

// CodexRun is what one `codex exec --json` probe attempt produced.
type CodexRun struct {
	// Model is the configured primary model ("openai/gpt-5", "codex/…").
	Model string
	// Stdout is the JSONL event stream the command printed.
	Stdout []byte
	// Stderr is read only to derive the closed [FailureClass]; it never
	// reaches an outcome or a record.
	Stderr []byte
	// Exit is how the command ended.
	Exit Exit
	// TimedOut reports the attempt was stopped at its cap; an Exit.Err of
	// ETIMEDOUT means the same.
	TimedOut bool
}

// maxRecoveredStreamErrors bounds the stream-reconnect errors a probe turn
// may recover from (PRB-4).
const maxRecoveredStreamErrors = 10

var (
	codexModel     = regexp.MustCompile(`^(?:openai|codex)/.+`)
	codexReconnect = regexp.MustCompile(`^Reconnecting\.\.\. ([1-9][0-9]?)/([1-9][0-9]?)(?::| -)? `)
)

// CodexPreconditions are what the Codex probe needs before it may run
// (PRB-4): a primary model under openai/ or codex/. When they do not hold,
// no process starts and the outcome is [Unavailable].
type CodexPreconditions struct {
	// Model is the configured primary model ("openai/gpt-5", "codex/…").
	Model string
}

// Hold reports whether the preconditions hold.
func (p CodexPreconditions) Hold() bool { return codexModel.MatchString(p.Model) }

// codexEvent is one parsed stream line.
type codexEvent struct {
	typ      string
	itemType string
	raw      gjson.Result
}

// ClassifyCodex classifies one Codex probe attempt (PRB-4, PRB-7), in order:
// a model outside openai/ or codex/ is [Unavailable]; a line that is not JSON
// is INVALID_OUTPUT/json and an event without a string type
// INVALID_OUTPUT/shape; a turn.failed whose Codex status frame reports
// 401/403 ("unexpected status 401 Unauthorized: …") is
// [AuthenticationFailed] (a 401 in the URL or the provider's body is not); then the events are walked: an error event is
// tolerated only as a recognised stream reconnect inside the turn (at most
// 10), and any type outside thread.started, turn.started, turn.completed,
// item.* — or an item that is not agent_message, reasoning or error — fails
// (turn-failed, tool-event, unexpected-event). Only then does a timeout count
// ([ModelProbeTimeout]: a tool or protocol failure seen first wins), then a
// failed exit (PROCESS_EXIT). [Ready] needs exactly one turn.started,
// exactly one turn.completed as the last event and a non-blank agent
// message; anything else is PROBE_STATUS/no-reply.
func ClassifyCodex(r CodexRun) Outcome {
	o := classifyCodex(r)
	o.FailureClass = codexFailureClass(r, o)
	return o
}

func classifyCodex(r CodexRun) Outcome {
	if !(CodexPreconditions{Model: r.Model}).Hold() {
		return Outcome{Code: Unavailable}
	}
	events, bad := parseCodexStream(r.Stdout)
	if bad.Code != "" {
		return bad
	}
	for _, e := range events {
		// Codex reports a provider's rejection in its own status frame
		// ("unexpected status 401 Unauthorized: …", "exceeded retry limit,
		// last status: 403 …"); a 401 in the URL or the provider's body
		// does not count.
		if e.typ == "turn.failed" {
			if f := parseFrame(turnFailedText(e.raw)); f.status == 401 || f.status == 403 {
				return Outcome{Code: AuthenticationFailed}
			}
		}
	}
	turnStarted, turnCompleted, recovered := false, false, 0
	for _, e := range events {
		if e.typ == "turn.started" {
			turnStarted = true
		}
		if e.typ == "error" {
			if !turnStarted || turnCompleted || !recoveredStreamError(e.raw) {
				return failed(CauseProbeStatus, "error-event")
			}
			if recovered++; recovered > maxRecoveredStreamErrors {
				return failed(CauseProbeStatus, "error-event")
			}
			continue
		}
		if verdict := codexEventVerdict(e); verdict != "" {
			return failed(CauseProbeStatus, verdict)
		}
		if e.typ == "turn.completed" {
			turnCompleted = true
		}
	}
	if r.TimedOut || r.Exit.Err == "ETIMEDOUT" {
		return Outcome{Code: ModelProbeTimeout}
	}
	if !r.Exit.Clean() {
		return exitFailure(r.Exit)
	}
	if codexReplied(events) {
		return Outcome{Code: Ready}
	}
	return failed(CauseProbeStatus, "no-reply")
}

// parseCodexStream splits the trimmed output into lines, each of which must
// be a JSON value with a string "type".
func parseCodexStream(stdout []byte) ([]codexEvent, Outcome) {
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return nil, Outcome{}
	}
	lines := bytes.Split(out, []byte("\n"))
	events := make([]codexEvent, 0, len(lines))
	for _, line := range lines {
		if !validJSON(line) {
			return nil, failed(CauseInvalidOutput, "json")
		}
		events = append(events, codexEvent{raw: gjson.ParseBytes(line)})
	}
	for i := range events {
		t := events[i].raw.Get("type")
		if t.Type != gjson.String {
			return nil, failed(CauseInvalidOutput, "shape")
		}
		events[i].typ = t.Str
		events[i].itemType = stringAt(events[i].raw, "item.type")
	}
	return events, Outcome{}
}

// codexEventVerdict is the failure detail an event earns, "" when allowed.
func codexEventVerdict(e codexEvent) string {
	switch e.typ {
	case "thread.started", "turn.started", "turn.completed":
		return ""
	case "item.started", "item.updated", "item.completed":
		switch e.itemType {
		case "agent_message", "reasoning", "error":
			return ""
		}
		return "tool-event"
	case "turn.failed":
		return "turn-failed"
	}
	if strings.HasPrefix(e.typ, "item.") {
		return "tool-event"
	}
	return "unexpected-event"
}

// recoveredStreamError recognises Codex's in-turn reconnect notice, the
// only error event a probe turn may survive: "Reconnecting... n/m (…)"
// with n ≤ m ≤ 10 retrying a transient failure (a dropped stream, a server
// error, an overload, a failed connection), or "Reconnecting... waiting
// for network". A notice about a rejected credential, a limit or anything
// Codex does not frame is not recognised. Codex's own text (the message
// without URLs and provider bodies) is bounded at 512 UTF-16 units.
func recoveredStreamError(raw gjson.Result) bool {
	msg := raw.Get("message")
	if msg.Type != gjson.String || len(utf16.Encode([]rune(codexOwnText(msg.Str)))) > 512 {
		return false
	}
	if frameWaitingRE.MatchString(msg.Str) {
		return true
	}
	m := codexReconnect.FindStringSubmatch(msg.Str)
	if m == nil {
		return false
	}
	attempt, limit := atoiSmall(m[1]), atoiSmall(m[2])
	if attempt > limit || limit > maxRecoveredStreamErrors {
		return false
	}
	switch parseFrame(msg.Str).class {
	case ClassConnectionDropped, ClassHTTP5xx, ClassOverloaded, ClassNetwork:
		return true
	}
	return false
}

// codexOwnText is a failure message without what Codex repeats from
// elsewhere: URLs, and the provider's body after a status line.
func codexOwnText(msg string) string {
	msg = codexStatusBody.ReplaceAllString(msg, "$1")
	return failureURL.ReplaceAllLiteralString(msg, "")
}

// codexStatusBody is the provider body Codex appends to a status line,
// up to the ", url:" it ends with or the end of the notice.
var codexStatusBody = regexp.MustCompile(`(?s)(status [1-5][0-9]{2}[^:,]*:).*?(?:, url: |\)?$)`)

// codexReplied holds the READY conditions of PRB-4.
func codexReplied(events []codexEvent) bool {
	started, completed, reply := 0, 0, false
	for _, e := range events {
		switch e.typ {
		case "turn.started":
			started++
		case "turn.completed":
			completed++
		case "item.completed":
			if e.itemType == "agent_message" {
				text := e.raw.Get("item.text")
				reply = reply || (text.Type == gjson.String && strings.TrimSpace(text.Str) != "")
			}
		}
	}
	return started == 1 && completed == 1 && len(events) > 0 &&
		events[len(events)-1].typ == "turn.completed" && reply
}

func stringAt(v gjson.Result, path string) string {
	r := v.Get(path)
	if r.Type != gjson.String {
		return ""
	}
	return r.Str
}

func atoiSmall(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// turnFailedText is the failure message of a turn.failed event: its
// error.message, or an error or message given as a plain string.
func turnFailedText(raw gjson.Result) string {
	if m := stringAt(raw, "error.message"); m != "" {
		return m
	}
	if m := stringAt(raw, "error"); m != "" {
		return m
	}
	return stringAt(raw, "message")
}

// ClassifyLogin classifies the Codex login step (PRB-3): a clean exit is
// [Ready]; an error that reports 401 or 403 is [AuthenticationFailed]; any
// other failure is [LoginFailed]. Stderr is read only to find the status
// and the closed [FailureClass].
func ClassifyLogin(exit Exit, stderr []byte) Outcome {
	switch {
	case exit.Clean():
		return Outcome{Code: Ready}
	case exit.Err == "ETIMEDOUT":
		return Outcome{Code: LoginFailed, FailureClass: ClassTimeout}
	case exit.Err == "" && stderrRejected(stderr):
		return Outcome{Code: AuthenticationFailed, FailureClass: ClassCredential}
	}
	return Outcome{Code: LoginFailed, FailureClass: stderrFailureClass(stderr)}
}
