package occkit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// Every code of the closed set is mapped to a real status and has a template.
func TestAllCodesMapped(t *testing.T) {
	want := map[occkit.Code]int{
		occkit.CodeInvalidRequest:                 http.StatusBadRequest,
		occkit.CodeResourceConflict:               http.StatusConflict,
		occkit.CodeCredentialGatewayNotConfigured: http.StatusConflict,
		occkit.CodeForbidden:                      http.StatusForbidden,
		occkit.CodeNotImplemented:                 http.StatusNotImplemented,
		occkit.CodeDependencyUnavailable:          http.StatusServiceUnavailable,
		occkit.CodeInternal:                       http.StatusInternalServerError,
	}
	templates := []*occkit.Error{occkit.ErrInvalidRequest, occkit.ErrResourceConflict,
		occkit.ErrCredentialGatewayNotConfigured, occkit.ErrForbidden, occkit.ErrNotImplemented, occkit.ErrDependencyUnavailable,
		occkit.ErrInternal}
	if len(occkit.AllCodes()) != len(want) || len(templates) != len(want) {
		t.Fatalf("AllCodes has %d members, want %d", len(occkit.AllCodes()), len(want))
	}
	for i, c := range occkit.AllCodes() {
		if got := c.HTTPStatus(); got != want[c] {
			t.Errorf("%s.HTTPStatus() = %d, want %d", c, got, want[c])
		}
		if templates[i].Code != c {
			t.Errorf("template %d has code %s, want %s", i, templates[i].Code, c)
		}
	}
	if got := occkit.Code("BOGUS").HTTPStatus(); got != http.StatusInternalServerError {
		t.Errorf("unknown code status = %d", got)
	}
}

func TestErrorIsTemplate(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", occkit.Invalid("RES-7", occkit.NewPath("agents", "defaults"), "codex needs the websocket app-server"))
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"code", occkit.ErrInvalidRequest, true},
		{"other code", occkit.ErrResourceConflict, false},
		{"code and rule", &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "RES-7"}, true},
		{"wrong rule", &occkit.Error{Rule: "RES-8"}, false},
		{"path", &occkit.Error{Path: occkit.NewPath("agents", "defaults")}, true},
		{"wrong path", &occkit.Error{Path: occkit.NewPath("agents")}, false},
		{"plain error", errors.New("x"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(err, tt.target); got != tt.want {
				t.Errorf("errors.Is = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	long := strings.Repeat("é", 300)
	got := occkit.Sanitize(long)
	if n := utf8.RuneCountInString(got); n != occkit.MaxMessageRunes || !strings.HasSuffix(got, "…") {
		t.Errorf("Sanitize(300 runes) has %d runes, suffix %q", n, got[len(got)-3:])
	}
	exact := strings.Repeat("a", occkit.MaxMessageRunes)
	if got := occkit.Sanitize(exact); got != exact {
		t.Errorf("a message of exactly the cap was cut")
	}
	if got := occkit.Sanitize("a\x1b[31mb\nc\u202ed\xff"); got != "a?[31mb?c?d?" {
		t.Errorf("Sanitize controls = %q", got)
	}
}

func TestSanitizeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		got := occkit.Sanitize(s)
		if utf8.RuneCountInString(got) > occkit.MaxMessageRunes || !utf8.ValidString(got) {
			t.Fatalf("Sanitize(%q) = %q", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("control %U survived", r)
			}
		}
	})
}

func TestJoin(t *testing.T) {
	if occkit.Join() != nil || occkit.Join(nil, nil) != nil {
		t.Fatal("Join of nothing is not nil")
	}
	a := occkit.Invalid("RES-3", occkit.NewPath("agents", "entries", "b", "model"), "missing model")
	b := occkit.Conflict("RES-13", occkit.NewPath("agents"), "no driver")
	c := occkit.Invalid("RES-1", occkit.NewPath("agents"), "bad runtime")
	one := occkit.Join(a)
	if one != error(a) {
		t.Fatalf("Join of one = %T", one)
	}
	err := occkit.Join(a, b, c, a, occkit.Join(b, c))
	var got []string
	for _, e := range occkit.Errors(err) {
		got = append(got, e.Path.String()+" "+string(e.Code))
	}
	want := []string{"agents INVALID_REQUEST", "agents RESOURCE_CONFLICT", "agents.entries.b.model INVALID_REQUEST"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Errors order (-want +got):\n%s", diff)
	}
	if !errors.Is(err, occkit.ErrResourceConflict) {
		t.Error("aggregate hides a member from errors.Is")
	}
	if f := occkit.First(err); f.Rule != "RES-1" {
		t.Errorf("First = %v", f)
	}
	if got, want := err.Error(), "3 problems: "+c.Error()+"; "+b.Error()+"; "+a.Error(); got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// The aggregate's message lists MaxListed problems and counts the rest;
// every member stays reachable (issue 31).
func TestJoinMessageCapped(t *testing.T) {
	for _, n := range []int{occkit.MaxListed, occkit.MaxListed + 1, 5000} {
		var errs []error
		for i := 0; i < n; i++ {
			errs = append(errs, occkit.Invalid("DOC-5", occkit.NewPath("agents", fmt.Sprintf("k%05d", i)), "unknown key"))
		}
		err := occkit.Join(errs...)
		msg := err.Error()
		if got := strings.Count(msg, "[DOC-5]"); got != min(n, occkit.MaxListed) {
			t.Errorf("%d problems: the message lists %d", n, got)
		}
		more := fmt.Sprintf("; and %d more", n-occkit.MaxListed)
		if n > occkit.MaxListed != strings.HasSuffix(msg, more) || !strings.HasPrefix(msg, fmt.Sprintf("%d problems: ", n)) {
			t.Errorf("%d problems: message %q", n, msg)
		}
		if got := len(occkit.Errors(err)); got != n {
			t.Errorf("%d problems: Errors returns %d", n, got)
		}
		if max := occkit.MaxListed*(len(errs[0].Error())+2) + 64; len(msg) > max {
			t.Errorf("%d problems: %d-byte message", n, len(msg))
		}
	}
}

// A plain error is a server fault (issue 12): 500 INTERNAL, never a 400
// and never its text, with the cause reachable.
func TestPlainErrorIsInternal(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.7: token sk-live-123 refused")
	err := occkit.Join(cause)
	e := occkit.First(err)
	if e == nil || e.Code != occkit.CodeInternal || e.HTTPStatus() != http.StatusInternalServerError {
		t.Fatalf("plain error through Join = %v, want 500 INTERNAL", e)
	}
	if strings.Contains(err.Error(), "sk-live") || strings.Contains(err.Error(), "10.0.0.7") {
		t.Errorf("the message repeats the cause: %v", err)
	}
	if !errors.Is(err, cause) || !errors.Is(err, occkit.ErrInternal) {
		t.Error("the cause or the code is not reachable with errors.Is")
	}
	agg := occkit.Join(cause, occkit.Invalid("RES-1", occkit.NewPath("agents"), "bad"))
	if !errors.Is(agg, cause) {
		t.Error("an aggregate hides a member's cause")
	}
	w := occkit.Wrap(context.Canceled, occkit.CodeDependencyUnavailable, "ADM-1", occkit.Root(), "admission was cancelled")
	if !errors.Is(w, context.Canceled) || strings.Contains(w.Error(), "context canceled") {
		t.Errorf("Wrap = %v: the cause must be reachable and unprinted", w)
	}
}

func TestErrorString(t *testing.T) {
	e := occkit.Invalid("RES-10", occkit.NewPath("agents", "list"), "must be an empty array")
	if got, want := e.Error(), "INVALID_REQUEST agents.list: must be an empty array [RES-10]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.HTTPStatus() != 400 {
		t.Errorf("status %d", e.HTTPStatus())
	}
}
