package occkit

import (
	"fmt"
	"strings"
)

// ErrorMatcher describes an expected refusal by what callers branch on (its
// code, path and SPEC rule), never by its message, as tests of this module
// and of its users check errors. Every field is compared exactly: an empty
// Rule expects an error that names no rule, and an empty Path the root.
type ErrorMatcher struct {
	Code Code
	// Path is the error's path as [Path.String] writes it (and
	// [ParsePath] reads it); "" is the root. The document the path
	// addresses ([Path.Doc]) is not compared, as conformance cases name a
	// setting by its dot path; compare it with errors.Is and a template.
	Path string
	Rule string
}

// Matches reports whether e has m's code, path and rule.
func (m ErrorMatcher) Matches(e *Error) bool {
	return e != nil && e.Code == m.Code && e.Rule == m.Rule && e.Path.String() == m.Path
}

// Find returns the first error of err (as [Errors] lists them) that m
// matches, or nil.
func (m ErrorMatcher) Find(err error) *Error {
	for _, e := range Errors(err) {
		if m.Matches(e) {
			return e
		}
	}
	return nil
}

// Check returns nil when some error of err matches m, else an error that
// says what was expected and what err holds, for a test to report.
func (m ErrorMatcher) Check(err error) error {
	if err == nil {
		return fmt.Errorf("no error, want %s", m)
	}
	if m.Find(err) != nil {
		return nil
	}
	var got []string
	for _, g := range MatchersOf(err) {
		got = append(got, g.String())
	}
	return fmt.Errorf("got %s, want %s (%v)", strings.Join(got, "; "), m, err)
}

// String writes m as "CODE RULE at PATH".
func (m ErrorMatcher) String() string {
	return fmt.Sprintf("%s %q at %q", m.Code, m.Rule, m.Path)
}

// MatchersOf lists err's errors (as [Errors] does) by code, path and rule,
// so a test can compare a whole refusal with the list it expects.
func MatchersOf(err error) []ErrorMatcher {
	var out []ErrorMatcher
	for _, e := range Errors(err) {
		out = append(out, ErrorMatcher{Code: e.Code, Path: e.Path.String(), Rule: e.Rule})
	}
	return out
}
