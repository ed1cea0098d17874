package occkit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
)

func TestErrorMatcher(t *testing.T) {
	at := occkit.NewPath("agents", "defaults")
	err := occkit.Join(
		occkit.New(occkit.CodeInvalidRequest, "RES-2", at, "agents.defaults must be an object"),
		occkit.New(occkit.CodeResourceConflict, "", occkit.Root(), "taken"),
	)
	tests := []struct {
		name string
		m    occkit.ErrorMatcher
		err  error
		ok   bool
	}{
		{"first", occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "agents.defaults", Rule: "RES-2"}, err, true},
		{"second at the root", occkit.ErrorMatcher{Code: occkit.CodeResourceConflict}, err, true},
		{"other rule", occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "agents.defaults", Rule: "RES-11"}, err, false},
		{"other path", occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "agents", Rule: "RES-2"}, err, false},
		{"empty path is the root", occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "RES-2"}, err, false},
		{"no error", occkit.ErrorMatcher{Code: occkit.CodeResourceConflict}, nil, false},
		{"plain error", occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest}, errors.New("x"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.m.Check(tt.err)
			if (got == nil) != tt.ok {
				t.Errorf("Check = %v, want ok=%t", got, tt.ok)
			}
			if (tt.m.Find(tt.err) != nil) != tt.ok {
				t.Errorf("Find disagrees with Check")
			}
		})
	}
}

// A test names the refusal it expects by code, path and rule.
func ExampleErrorMatcher() {
	err := occkit.New(occkit.CodeInvalidRequest, "RES-2", occkit.NewPath("agents"), "agents must be an object")
	want := occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "agents", Rule: "RES-2"}
	fmt.Println(want.Check(err) == nil)
	fmt.Println(occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "agents", Rule: "RES-11"}.Check(err) == nil)
	// Output:
	// true
	// false
}
