package drivers

import (
	"context"
	"errors"

	"github.com/occkit/occkit"
)

// Cancellation is the end of ctx as a refusal: when ctx is done, a 503
// DEPENDENCY_UNAVAILABLE for rule whose cause is the context's error, so
// errors.Is(err, context.Canceled) or errors.Is(err,
// context.DeadlineExceeded) holds; nil while ctx is live.
func Cancellation(ctx context.Context, rule string) error {
	cause := ctx.Err()
	if cause == nil {
		return nil
	}
	what := "the request was cancelled"
	if errors.Is(cause, context.DeadlineExceeded) {
		what = "the request's deadline passed"
	}
	return occkit.Wrap(cause, occkit.CodeDependencyUnavailable, rule, occkit.Root(), "%s", what)
}

// Settle is what a caller reports for err, the outcome of a call made
// under ctx (an Authorizer, a Configuration reader, a driver or one of
// its capabilities): once ctx is done, a failure is [Cancellation]'s
// refusal whatever the call returned, so a timeout never reads as a
// denial, a refusal or a conflict, and a driver that wraps the context's
// error in its own keeps the 503 all the same; a success, or any error
// while ctx is live, is returned as it is.
func Settle(ctx context.Context, rule string, err error) error {
	if err == nil {
		return nil
	}
	if c := Cancellation(ctx, rule); c != nil {
		return c
	}
	return err
}
