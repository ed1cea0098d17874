package occkit

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/go-multierror"
)

// Code is the stable, machine-readable class of a refusal. The set is closed:
// see [AllCodes].
type Code string

// The closed set of codes. Each maps to exactly one HTTP status.
const (
	// CodeInvalidRequest: the Configuration or the Agent is wrong (400).
	CodeInvalidRequest Code = "INVALID_REQUEST"
	// CodeResourceConflict: the installation's state cannot honour the
	// request: drivers, gateways or bindings this Compute lacks (409).
	CodeResourceConflict Code = "RESOURCE_CONFLICT"
	// CodeCredentialGatewayNotConfigured: a credential_source binding was
	// asked for but no Credential Gateway is selected (409).
	CodeCredentialGatewayNotConfigured Code = "CREDENTIAL_GATEWAY_NOT_CONFIGURED"
	// CodeForbidden: the Authorizer denied the deployment (403).
	CodeForbidden Code = "FORBIDDEN"
	// CodeNotImplemented: the operation exists but this Compute does not
	// provide it, e.g. runtime-log reads under driver-managed logging (501).
	CodeNotImplemented Code = "NOT_IMPLEMENTED"
	// CodeDependencyUnavailable: a required collaborator is missing, e.g. a
	// ComputeDriver without a harness-auth validator (503).
	CodeDependencyUnavailable Code = "DEPENDENCY_UNAVAILABLE"
	// CodeInternal: occkit or a collaborator failed in a way that is
	// nobody's request: a plain error without a code (500). Like
	// apimachinery's field.InternalError it keeps a server fault apart
	// from a client's, and its message never repeats the cause's text;
	// the cause stays reachable with errors.Is and errors.As.
	CodeInternal Code = "INTERNAL"
)

// AllCodes lists every [Code] in a stable order.
func AllCodes() []Code {
	return []Code{
		CodeInvalidRequest, CodeResourceConflict, CodeCredentialGatewayNotConfigured,
		CodeForbidden, CodeNotImplemented, CodeDependencyUnavailable, CodeInternal,
	}
}

// HTTPStatus maps the code to its HTTP status; an unknown code is 500.
func (c Code) HTTPStatus() int {
	switch c {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeResourceConflict, CodeCredentialGatewayNotConfigured:
		return http.StatusConflict
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotImplemented:
		return http.StatusNotImplemented
	case CodeDependencyUnavailable:
		return http.StatusServiceUnavailable
	case CodeInternal:
		return http.StatusInternalServerError
	}
	return http.StatusInternalServerError
}

// MaxMessageRunes caps an error's message; longer text is cut with "…".
const MaxMessageRunes = 256

// Error is the one structured refusal used by every occkit package.
//
// A message names settings, never values: constructors take the detail
// from code that knows what it is printing, and [Error.Error] additionally
// caps it at [MaxMessageRunes] code points and replaces control characters
// with '?', so even a careless detail cannot smuggle a terminal escape.
type Error struct {
	// Code is the stable class of the refusal.
	Code Code
	// Path is the offending setting, or the root when there is none.
	Path Path
	// Rule is the SPEC rule ID that refused, e.g. "RES-7".
	Rule string
	// Detail is the human-readable explanation.
	Detail string
	// Err is the cause, when the refusal stands for another error (a
	// cancelled context, an Authorizer's refusal, a missing file). It is
	// never part of the message, which may be shown to anyone; callers
	// reach it with errors.Is and errors.As through [Error.Unwrap].
	Err error
	// Position is where the refused setting is written in the text the
	// document was loaded from, when that is known (see [Position]); the
	// zero value otherwise. compile's loaders set it on what they refuse,
	// and [Document.Place] on later refusals about a loaded document.
	// [Error.Error] leaves it out; %+v and [Error.Snippet] print it.
	Position Position
}

// Unwrap returns the cause, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Wrap returns an error of the given code, rule and path that stands for
// cause: the message is the formatted detail, never cause's text, and
// errors.Is/As reach cause.
func Wrap(cause error, code Code, rule string, path Path, format string, args ...any) *Error {
	e := New(code, rule, path, format, args...)
	e.Err = cause
	return e
}

// Internal is a server fault at path for rule: code [CodeInternal], the
// message "internal error", cause reachable through Unwrap (as
// apimachinery's field.InternalError).
func Internal(rule string, path Path, cause error) *Error {
	return Wrap(cause, CodeInternal, rule, path, "internal error")
}

// New returns an error of the given code, rule and path with a formatted
// detail. Arguments must be setting names or other non-secret facts.
func New(code Code, rule string, path Path, format string, args ...any) *Error {
	d := format
	if len(args) > 0 {
		d = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, Path: path, Rule: rule, Detail: d}
}

// Invalid is shorthand for New(CodeInvalidRequest, …).
func Invalid(rule string, path Path, format string, args ...any) *Error {
	return New(CodeInvalidRequest, rule, path, format, args...)
}

// Conflict is shorthand for New(CodeResourceConflict, …).
func Conflict(rule string, path Path, format string, args ...any) *Error {
	return New(CodeResourceConflict, rule, path, format, args...)
}

// HTTPStatus is the status of e's code.
func (e *Error) HTTPStatus() int { return e.Code.HTTPStatus() }

// Message is the sanitized, capped detail.
func (e *Error) Message() string { return Sanitize(e.Detail) }

// Error renders "CODE path: message [RULE]".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if !e.Path.IsRoot() {
		b.WriteByte(' ')
		b.WriteString(Sanitize(e.Path.String()))
	}
	b.WriteString(": ")
	b.WriteString(e.Message())
	if e.Rule != "" {
		b.WriteString(" [")
		b.WriteString(e.Rule)
		b.WriteByte(']')
	}
	return b.String()
}

// Is makes every *Error a template: target matches when each of its
// non-empty fields (Code, Rule, Path when not root) equals e's. So
// errors.Is(err, occkit.ErrInvalidRequest) tests the code alone.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.Code != "" && t.Code != e.Code {
		return false
	}
	if t.Rule != "" && t.Rule != e.Rule {
		return false
	}
	if !t.Path.IsRoot() && !t.Path.Equal(e.Path) {
		return false
	}
	return true
}

// Templates for errors.Is, one per code.
var (
	ErrInvalidRequest                 = &Error{Code: CodeInvalidRequest}
	ErrResourceConflict               = &Error{Code: CodeResourceConflict}
	ErrCredentialGatewayNotConfigured = &Error{Code: CodeCredentialGatewayNotConfigured}
	ErrForbidden                      = &Error{Code: CodeForbidden}
	ErrNotImplemented                 = &Error{Code: CodeNotImplemented}
	ErrDependencyUnavailable          = &Error{Code: CodeDependencyUnavailable}
	ErrInternal                       = &Error{Code: CodeInternal}
)

// Sanitize caps s at MaxMessageRunes code points (cutting with "…") and
// replaces control characters and invalid UTF-8 with '?'.
func Sanitize(s string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if n == MaxMessageRunes-1 && i < len(s) {
			b.WriteRune('…')
			return b.String()
		}
		if r == utf8.RuneError && size <= 1 || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// MaxListed bounds how many problems the message of a [Join] aggregate
// lists: "N problems: first; second; …; and M more". [Errors] returns them
// all; the message stays within MaxListed times one error's message (each
// capped by [Sanitize]) however many there are.
const MaxListed = 20

// Join aggregates problems: nil when there are none, the single *Error when
// there is one, otherwise a *multierror.Error whose members are sorted by
// path, then code, then rule, with duplicates removed. Nil members are
// skipped; a member that is itself an aggregate is flattened. Its message
// lists at most [MaxListed] members.
func Join(errs ...error) error {
	list := Errors(errs...)
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	m := &multierror.Error{ErrorFormat: formatList}
	for _, e := range list {
		m.Errors = append(m.Errors, e)
	}
	return m
}

func formatList(es []error) string {
	n := min(len(es), MaxListed)
	parts := make([]string, n, n+1)
	for i, e := range es[:n] {
		parts[i] = e.Error()
	}
	if more := len(es) - n; more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return fmt.Sprintf("%d problems: %s", len(es), strings.Join(parts, "; "))
}

// Errors flattens errs (and any aggregates inside them) into sorted,
// de-duplicated structured errors. A plain error that is not an *Error is
// a server fault, not the client's: it becomes [Internal] (500, message
// "internal error" without its text, which might carry a value), and
// stays reachable through Unwrap.
func Errors(errs ...error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		var m *multierror.Error
		if errors.As(err, &m) {
			for _, inner := range m.Errors {
				walk(inner)
			}
			return
		}
		var e *Error
		if errors.As(err, &e) {
			out = append(out, e)
			return
		}
		out = append(out, Internal("", Root(), err))
	}
	for _, err := range errs {
		walk(err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if c := a.Path.Compare(b.Path); c != 0 {
			return c < 0
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Detail < b.Detail
	})
	dedup := out[:0]
	for i, e := range out {
		if i > 0 {
			p := dedup[len(dedup)-1]
			if p.Code == e.Code && p.Rule == e.Rule && p.Path.Equal(e.Path) && p.Detail == e.Detail {
				continue
			}
		}
		dedup = append(dedup, e)
	}
	return dedup
}

// First returns the first structured error of err in [Errors] order, or nil.
func First(err error) *Error {
	if list := Errors(err); len(list) > 0 {
		return list[0]
	}
	return nil
}
