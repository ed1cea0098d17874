package occkit

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
)

// The wire form of refusals: what a service writes in its response body and
// a client reads back. [ErrorSchema] is its JSON Schema.
//
// It carries what a caller acts on and nothing it must not see: never the
// cause ([Error.Err], whose text may hold a value), never the raw detail
// (the message is [Error.Message], sanitized and capped), never the source
// line unmasked (the snippet is [Error.Snippet], the author view that
// masks credentials; admission drops it altogether for literal
// credentials).

//go:embed errors.schema.json
var errorSchema []byte

// ErrorSchema returns the JSON Schema (draft 2020-12) of the wire form of
// an [*Error] and of an [*ErrorList] (a copy: the caller may keep or change
// it). A service can publish it with its API description; every error
// occkit marshals validates against it.
func ErrorSchema() []byte { return bytes.Clone(errorSchema) }

// wireError is the JSON object of one error. Field order is the order a
// reader meets them in.
type wireError struct {
	Severity   Severity  `json:"severity"`
	Code       Code      `json:"code,omitempty"`
	Status     int       `json:"status,omitempty"`
	Message    string    `json:"message"`
	Rule       string    `json:"rule,omitempty"`
	Document   *Doc      `json:"document,omitempty"`
	Path       *string   `json:"path,omitempty"`
	Pointer    *string   `json:"pointer,omitempty"`
	Position   *Position `json:"position,omitempty"`
	Snippet    string    `json:"snippet,omitempty"`
	Suggestion string    `json:"suggestion,omitempty"`
}

// MarshalJSON writes e's wire form:
//
//	{"severity": "error", "code": "INVALID_REQUEST", "status": 400,
//	 "message": "…", "rule": "DOC-5",
//	 "document": "configuration", "path": "agents.defaults.model.fallback",
//	 "pointer": "/agents/defaults/model/fallback",
//	 "position": {"file": "agent.json5", "line": 7, "column": 9},
//	 "snippet": "7 |   fallback: […],\n  |   ^",
//	 "suggestion": "agents.defaults.model.fallbacks"}
//
// A warning has severity "warning" and no code or status. document, path
// and pointer are absent for an error about no setting (the
// Configuration's root); position when it is unknown; snippet when there
// is no source text; rule and suggestion when empty. The cause and the
// raw detail are never written.
func (e *Error) MarshalJSON() ([]byte, error) {
	w := wireError{
		Severity:   SeverityError,
		Message:    e.Message(),
		Rule:       e.Rule,
		Snippet:    e.Snippet(),
		Suggestion: Sanitize(e.Suggestion),
	}
	if e.IsWarning() {
		w.Severity = SeverityWarning
	} else {
		if !validCode(e.Code) {
			return nil, fmt.Errorf("occkit: marshal error: unknown code %q", e.Code)
		}
		w.Code, w.Status = e.Code, e.Code.HTTPStatus()
	}
	if !e.Path.IsRoot() || e.Path.Doc() != DocConfiguration {
		d, s, ptr := e.Path.Doc(), e.Path.String(), e.Path.Pointer()
		if _, err := d.MarshalText(); err != nil {
			return nil, err
		}
		w.Document, w.Path, w.Pointer = &d, &s, &ptr
	}
	if e.Position.IsValid() || e.Position.File != "" {
		p := Position{File: Sanitize(e.Position.File), Line: e.Position.Line, Column: e.Position.Column}
		w.Position = &p
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads the wire form [Error.MarshalJSON] writes, so a
// client gets back an *Error that errors.Is matches by code, rule and
// path (in its document) as the server's did. It refuses a code outside
// [AllCodes], a status that is not the code's, a path and pointer that
// disagree, and unknown fields. The cause is not on the wire: Unwrap
// returns nil; [Error.Snippet] returns the snippet that was sent.
func (e *Error) UnmarshalJSON(data []byte) error {
	var w wireError
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("occkit: decode error: %w", err)
	}
	out := Error{Rule: w.Rule, Detail: w.Message, Suggestion: w.Suggestion, snippet: w.Snippet}
	switch w.Severity {
	case SeverityError:
		if !validCode(w.Code) {
			return fmt.Errorf("occkit: decode error: unknown code %q", w.Code)
		}
		if w.Status != w.Code.HTTPStatus() {
			return fmt.Errorf("occkit: decode error: status %d is not %s's %d", w.Status, w.Code, w.Code.HTTPStatus())
		}
		out.Code = w.Code
	case SeverityWarning:
		if w.Code != "" || w.Status != 0 {
			return errors.New("occkit: decode error: a warning has no code or status")
		}
		out.Severity = SeverityWarning
	default:
		return fmt.Errorf("occkit: decode error: unknown severity %q", w.Severity)
	}
	p, err := wirePath(w)
	if err != nil {
		return err
	}
	out.Path = p
	if w.Position != nil {
		out.Position = Position{File: w.Position.File, Line: w.Position.Line, Column: w.Position.Column}
	}
	*e = out
	return nil
}

// wirePath reads the document, path and pointer of w: all three or none;
// the path and the pointer must name the same location (the dot path
// wins where a pointer cannot tell a key "0" from an index).
func wirePath(w wireError) (Path, error) {
	if w.Document == nil && w.Path == nil && w.Pointer == nil {
		return Root(), nil
	}
	if w.Document == nil || w.Path == nil || w.Pointer == nil {
		return Path{}, errors.New("occkit: decode error: document, path and pointer come together")
	}
	p, err := ParsePath(*w.Path)
	if err != nil {
		return Path{}, fmt.Errorf("occkit: decode error: %w", err)
	}
	if p.Pointer() != *w.Pointer {
		return Path{}, fmt.Errorf("occkit: decode error: pointer %q does not name path %q", *w.Pointer, *w.Path)
	}
	return p.In(*w.Document), nil
}

func validCode(c Code) bool {
	for _, k := range AllCodes() {
		if c == k {
			return true
		}
	}
	return false
}

// wireList is the JSON object of an aggregate.
type wireList struct {
	Code    Code     `json:"code"`
	Status  int      `json:"status"`
	Message string   `json:"message"`
	Errors  []*Error `json:"errors"`
}

// MarshalJSON writes l's wire form: the code and status of its first
// member (the one an HTTP answer reports, as [First] finds it), the
// aggregate's message, and every member in order:
//
//	{"code": "INVALID_REQUEST", "status": 400, "message": "2 problems: …",
//	 "errors": [{…}, {…}]}
func (l *ErrorList) MarshalJSON() ([]byte, error) {
	if len(l.list) == 0 {
		return nil, errors.New("occkit: marshal error: empty ErrorList")
	}
	first := l.list[0]
	if first.IsWarning() {
		return nil, errors.New("occkit: marshal error: an ErrorList of warnings")
	}
	return json.Marshal(wireList{Code: first.Code, Status: first.HTTPStatus(), Message: Sanitize(l.Error()), Errors: l.list})
}

// UnmarshalJSON reads the wire form of an aggregate, or of one error (a
// list of one). Its members must be refusals; the code and status must be
// those of the first.
func (l *ErrorList) UnmarshalJSON(data []byte) error {
	var probe struct {
		Errors json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return fmt.Errorf("occkit: decode error: %w", err)
	}
	if probe.Errors == nil {
		var e Error
		if err := e.UnmarshalJSON(data); err != nil {
			return err
		}
		if e.IsWarning() {
			return errors.New("occkit: decode error: a warning is not a refusal")
		}
		l.list = []*Error{&e}
		return nil
	}
	var w wireList
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("occkit: decode error: %w", err)
	}
	if len(w.Errors) == 0 {
		return errors.New("occkit: decode error: an aggregate without errors")
	}
	for _, e := range w.Errors {
		if e == nil || e.IsWarning() {
			return errors.New("occkit: decode error: an aggregate member that is not a refusal")
		}
	}
	if w.Code != w.Errors[0].Code || w.Status != w.Errors[0].HTTPStatus() {
		return errors.New("occkit: decode error: the aggregate's code and status are not its first member's")
	}
	l.list = w.Errors
	return nil
}

// DecodeError reads a refusal's wire form, one error or an aggregate, back
// into an error: an [*Error] for one, an [*ErrorList] for several, so
// errors.Is by code, rule and path works on what a client receives as it
// did on the server.
func DecodeError(data []byte) (error, error) {
	var l ErrorList
	if err := l.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	if len(l.list) == 1 {
		return l.list[0], nil
	}
	return &l, nil
}
