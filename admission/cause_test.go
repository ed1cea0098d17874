package admission_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// Causes stay reachable (issue 12): a refusal that stands for another
// error keeps it for errors.Is/As, and never repeats its text.
func TestRefusalsKeepTheirCause(t *testing.T) {
	t.Run("a cancelled Admit is 503 and context.Canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newAdmitter(t, allow()).Admit(ctx, embeddedRequest(embeddedConfig))
		if !errors.Is(err, context.Canceled) || !errors.Is(err, occkit.ErrDependencyUnavailable) {
			t.Fatalf("Admit after cancel = %v, want 503 wrapping context.Canceled", err)
		}
	})
	t.Run("the Authorizer's refusal is 403 and reachable", func(t *testing.T) {
		denied := errors.New("policy engine: principal user_1 lacks deploy on agt_1")
		az := admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return denied })
		_, err := newAdmitter(t, az).Admit(context.Background(), embeddedRequest(embeddedConfig))
		if !errors.Is(err, denied) || !errors.Is(err, occkit.ErrForbidden) {
			t.Fatalf("Admit with a denying Authorizer = %v, want 403 wrapping its error", err)
		}
		if strings.Contains(err.Error(), "policy engine") {
			t.Errorf("the refusal repeats the Authorizer's text: %v", err)
		}
	})
	t.Run("a failing Configuration read is 503 and reachable", func(t *testing.T) {
		broken := errors.New("database is down")
		req := embeddedRequest(embeddedConfig)
		req.Configuration = failingReader{broken}
		_, err := newAdmitter(t, allow()).Admit(context.Background(), req)
		if !errors.Is(err, broken) || !errors.Is(err, occkit.ErrDependencyUnavailable) || strings.Contains(err.Error(), "database") {
			t.Fatalf("Admit with a failing reader = %v", err)
		}
	})
}

type failingReader struct{ err error }

func (f failingReader) ReadConfiguration(context.Context, string) (occkit.Document, int64, error) {
	return occkit.Document{}, 0, f.err
}
