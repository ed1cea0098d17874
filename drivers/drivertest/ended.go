package drivertest

import (
	"errors"
	"fmt"

	"github.com/occkit/occkit"
)

// CheckEnded reports whether err is what a call reports once its
// context ended with cause (context.Canceled or context.DeadlineExceeded):
// a 503 DEPENDENCY_UNAVAILABLE from which errors.Is finds cause and no
// other refusal (403, 400 or 409), whatever the collaborator behind the
// call answered ([drivers.Settle]). It returns nil when it is, else an
// error saying how it is not.
func CheckEnded(err, cause error) error {
	var problems []string
	if !errors.Is(err, cause) {
		problems = append(problems, fmt.Sprintf("the context's error (%v) is not reachable", cause))
	}
	if oe := occkit.First(err); oe == nil || oe.Code != occkit.CodeDependencyUnavailable {
		problems = append(problems, "it is not 503 DEPENDENCY_UNAVAILABLE")
	}
	for _, other := range []error{occkit.ErrForbidden, occkit.ErrInvalidRequest, occkit.ErrResourceConflict} {
		if errors.Is(err, other) {
			problems = append(problems, fmt.Sprintf("it also reads as %v", other))
		}
	}
	if problems == nil {
		return nil
	}
	return fmt.Errorf("%v: %v", err, problems)
}
