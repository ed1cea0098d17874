package admission_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/compile/sensitive"
)

// carried are the OpenClaw releases the library carries (issue 32): every
// stable release from 2026.8.1 to 2026.9.6.
var carried = []string{"2026.9.6", "2026.9.5", "2026.9.4", "2026.9.3", "2026.9.2", "2026.9.1", "2026.8.2", "2026.8.1"}

// TestNewRefusesUnknownVersions (ADM-3): an approved version the library
// does not know is a 400 at New naming the supported ones.
func TestNewRefusesUnknownVersions(t *testing.T) {
	for _, tt := range []struct {
		name     string
		versions map[occkit.Harness]string
		at       occkit.Path
		lists    []string
	}{
		{"older openclaw", map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.5.1"}, occkit.NewPath("harnessVersions", "openclaw"), carried},
		{"future openclaw", map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.7"}, occkit.NewPath("harnessVersions", "openclaw"), carried},
		{"latest", map[occkit.Harness]string{occkit.HarnessOpenClaw: "latest"}, occkit.NewPath("harnessVersions", "openclaw"), carried},
		{"garbage", map[occkit.Harness]string{occkit.HarnessOpenClaw: "garbage!!"}, occkit.NewPath("harnessVersions", "openclaw"), carried},
		{"padded", map[occkit.Harness]string{occkit.HarnessOpenClaw: " 2026.9.6"}, occkit.NewPath("harnessVersions", "openclaw"), carried},
		{"older codex", map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.130.0"}, occkit.NewPath("harnessVersions", "codex"), []string{"0.171.0"}},
		{"codex latest", map[occkit.Harness]string{occkit.HarnessCodex: "latest"}, occkit.NewPath("harnessVersions", "codex"), []string{"0.171.0"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := admission.New(admission.Options{Authorizer: allow(), HarnessVersions: tt.versions})
			if a != nil || !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "ADM-3", Path: tt.at}) {
				t.Fatalf("New = %v, want 400 ADM-3 at %s", err, tt.at)
			}
			for _, v := range tt.lists {
				if !strings.Contains(occkit.First(err).Message(), v) {
					t.Errorf("the refusal does not list %s: %v", v, err)
				}
			}
		})
	}
}

// TestAdmitChecksTheApprovedRelease (ADM-3, DOC-5): each carried release
// admits with its own contract, and the revision freezes that release as
// both the approved version and the checked one, in its digest.
func TestAdmitChecksTheApprovedRelease(t *testing.T) {
	// cron.skipMissedJobs came in 2026.9.1; messages.suppressToolErrors
	// left in 2026.9.2 (read from each release's generated schema).
	newer := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"cron":{"skipMissedJobs":true}}`
	older := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"messages":{"suppressToolErrors":true}}`
	digests := map[string]string{}
	for _, v := range carried {
		t.Run(v, func(t *testing.T) {
			a, err := admission.New(admission.Options{Authorizer: allow(), HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: v}})
			if err != nil {
				t.Fatal(err)
			}
			rev, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
			if err != nil {
				t.Fatal(err)
			}
			if rev.HarnessIdentity().Version != v || rev.OpenClawSchemaVersion() != v {
				t.Errorf("approved %q, checked %q, want %s for both", rev.HarnessIdentity().Version, rev.OpenClawSchemaVersion(), v)
			}
			digests[v] = rev.Digest()
			_, errNewer := a.Admit(context.Background(), embeddedRequest(newer))
			_, errOlder := a.Admit(context.Background(), embeddedRequest(older))
			eight, nineOne := strings.HasPrefix(v, "2026.8."), v == "2026.9.1"
			for _, c := range []struct {
				err    error
				refuse bool
				at     occkit.Path
			}{{errNewer, eight, occkit.NewPath("cron", "skipMissedJobs")}, {errOlder, !eight && !nineOne, occkit.NewPath("messages", "suppressToolErrors")}} {
				refused := errors.Is(c.err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "DOC-5", Path: c.at})
				if refused != c.refuse || !refused && c.err != nil {
					t.Errorf("%s: refused %v (%v), want refused %v", c.at, refused, c.err, c.refuse)
				}
			}
		})
	}
	seen := map[string]string{}
	for v, d := range digests {
		if other, dup := seen[d]; dup {
			t.Errorf("%s and %s freeze the same digest", v, other)
		}
		seen[d] = v
	}
}

// TestAdmitOwnValidator: a caller's check of a release the library does
// not carry is used when it is the approved release, and refused when it
// is another.
func TestAdmitOwnValidator(t *testing.T) {
	c, err := openclawschema.ContractFor("2026.8.2")
	if err != nil {
		t.Fatal(err)
	}
	own, err := openclawschema.Compile(c.Schema(), "2026.8.99")
	if err != nil {
		t.Fatal(err)
	}
	a, err := admission.New(admission.Options{Authorizer: allow(), OpenClawSchema: own,
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.8.99"}})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	if rev.OpenClawSchemaVersion() != "2026.8.99" || rev.HarnessIdentity().Version != "2026.8.99" {
		t.Errorf("froze %q checked, %q approved", rev.OpenClawSchemaVersion(), rev.HarnessIdentity().Version)
	}
	if _, err := a.Admit(context.Background(), embeddedRequest(`{"agents":{"defaults":{"model":"anthropic/a"}},"cron":{"skipMissedJobs":true}}`)); !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "DOC-5", Path: occkit.NewPath("cron", "skipMissedJobs")}) {
		t.Errorf("the own schema was not applied: %v", err)
	}
	for _, approved := range []string{"2026.9.6", "", "2026.8.98"} {
		_, err := admission.New(admission.Options{Authorizer: allow(), OpenClawSchema: own,
			HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: approved}})
		if !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "ADM-3", Path: occkit.NewPath("harnessVersions", "openclaw")}) {
			t.Errorf("approved %q beside a check of 2026.8.99: %v", approved, err)
		}
	}
}

// TestDisabledCheckStillApprovesKnownReleases: turning the check off
// freezes no checked release but approves only known ones.
func TestDisabledCheckStillApprovesKnownReleases(t *testing.T) {
	if _, err := admission.New(admission.Options{Authorizer: allow(), DisableOpenClawSchema: true,
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "1999.1.1"}}); !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "ADM-3"}) {
		t.Errorf("disabled check approved an unknown release: %v", err)
	}
}

// TestMissingOpenClawVersion (ADM-3): every topology runs the OpenClaw
// gateway, so without an approved OpenClaw release every deployment is
// refused, a Codex one too.
func TestMissingOpenClawVersion(t *testing.T) {
	a, err := admission.New(admission.Options{Authorizer: allow(), HarnessVersions: map[occkit.Harness]string{occkit.HarnessCodex: "0.171.0"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, disabled := range []bool{false, true} {
		a, err := admission.New(admission.Options{Authorizer: allow(), DisableOpenClawSchema: disabled,
			HarnessVersions: map[occkit.Harness]string{occkit.HarnessCodex: "0.171.0"}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Admit(context.Background(), embeddedRequest(embeddedConfig))
		if !errors.Is(err, &occkit.Error{Code: occkit.CodeResourceConflict, Rule: "ADM-3", Path: occkit.NewPath("harnessVersions", "openclaw")}) {
			t.Errorf("disabled %v: Admit = %v", disabled, err)
		}
	}
	if got := a.SensitivePatterns(); got != nil {
		t.Errorf("no approved release, yet %d sensitive patterns", len(got))
	}
}

// TestSensitivePatternsOfTheApprovedRelease: the Admitter exposes the
// approved release's sensitive paths.
func TestSensitivePatternsOfTheApprovedRelease(t *testing.T) {
	texts := func(ps []sensitive.Pattern) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.String())
		}
		return out
	}
	var lists [][]string
	for _, v := range []string{"2026.8.2", "2026.9.6"} {
		a, err := admission.New(admission.Options{Authorizer: allow(), HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: v}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := openclawschema.ContractFor(v)
		if err != nil {
			t.Fatal(err)
		}
		got := texts(a.SensitivePatterns())
		if d := cmp.Diff(c.Sensitive(), got); d != "" || len(got) == 0 {
			t.Errorf("%s (-contract +admitter):\n%s", v, d)
		}
		lists = append(lists, got)
	}
	if cmp.Equal(lists[0], lists[1]) {
		t.Error("2026.8.2 and 2026.9.6 expose the same sensitive paths")
	}
}
