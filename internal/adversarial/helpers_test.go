package adversarial_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/occkit/occkit"
)

// want is the structured refusal a case expects: its HTTP status beside
// what an [occkit.ErrorMatcher] compares.
type want struct {
	status int
	code   occkit.Code
	path   string // dot form, "" for the root
	rule   string
}

// refused checks that err is a structured refusal matching w: the first
// error in occkit order has w's code, status, path and rule, every member
// is an *occkit.Error with a known code and a rule, and the rendered
// message is clean.
func refused(t *testing.T, err error, w want) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted, want %d %s %q at %q", w.status, w.code, w.rule, w.path)
	}
	var one *occkit.Error
	if !errors.As(err, &one) && len(occkit.Errors(err)) == 0 {
		t.Fatalf("unstructured error %T", err)
	}
	for _, e := range occkit.Errors(err) {
		if !slices.Contains(occkit.AllCodes(), e.Code) || e.Rule == "" {
			t.Errorf("member without a known code and a rule: code %q rule %q at %q", e.Code, e.Rule, e.Path)
		}
	}
	e := occkit.First(err)
	if m := (occkit.ErrorMatcher{Code: w.code, Path: w.path, Rule: w.rule}); !m.Matches(e) || e.HTTPStatus() != w.status {
		t.Errorf("got %d %s, want %d %s", e.HTTPStatus(), occkit.MatchersOf(e)[0], w.status, m)
	}
	clean(t, err.Error())
}

// clean fails when s carries a control or bidi formatting character or
// invalid UTF-8: the error rendering must have replaced them.
func clean(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("message is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			t.Errorf("message carries %U: %q", r, s)
		}
	}
}

// unchanged fails when a Document's bytes moved.
func unchanged(t *testing.T, what string, before []byte, d occkit.Document) {
	t.Helper()
	if !bytes.Equal(before, d.Bytes()) {
		t.Errorf("%s changed", what)
	}
}

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// indexPath is "[0]" repeated n times: the path of the innermost of n
// nested arrays.
func indexPath(n int) string { return strings.Repeat("[0]", n) }
