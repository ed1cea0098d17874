package admission

import (
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// Plan is the render stage of the revision (CMP-4): every process it runs
// on a Compute placed by opts, with its native document or TOML, its
// environment (Secret references only), arguments and files by role. It
// is what every driver maps onto its objects; no driver re-derives a
// credential rule. Admission has already built the same plan with the
// Compute-independent defaults, so a failure here is a fact of the
// Compute (its namespace or placement), never one admission could know.
//
// An admitted revision builds it from what admission's check read of the
// document (compile.PreparedPlan); a revision restored from its record
// reads the document again. Either way it is compile.BuildPlan's plan,
// the caller's own.
func (r *Revision) Plan(opts compile.PlanOptions) (compile.Plan, error) {
	if r.plan != nil {
		return r.plan.Plan(opts)
	}
	return compile.BuildPlan(r.planInput(), opts)
}

func (r *Revision) planInput() compile.PlanInput {
	cred := r.projection
	// AUTH-5: a runtime binding is the host's credentials.
	cred.HostManaged = cred.HostManaged || r.auth.Method == occkit.MethodRuntime
	return compile.PlanInput{
		Document: r.doc, Harness: r.harness.ID, Mode: r.mode, Compute: r.compute.Kind,
		Level: r.level, DriverLogging: r.ownership == occkit.OwnedByDriver,
		Credentials:     cred,
		SecretBindings:  r.secretBindings,
		Namespace:       r.namespace,
		HarnessVersion:  r.harness.Version,
		OpenClawRelease: r.openclawSchema,
		Secrets:         r.secrets,
	}
}

// SecretBindings returns the revision's frozen secretBindings.
func (r *Revision) SecretBindings() []occkit.SecretBinding {
	return append([]occkit.SecretBinding(nil), r.secretBindings...)
}

// Namespace is the Agent's tenant namespace ID the revision was admitted
// for, or "" when the deployment did not name one.
func (r *Revision) Namespace() string { return r.namespace }

// checkVersion refuses a Harness the installation approves no version of
// (ADM-3, LOG-6: the version is frozen and labels every workload), naming
// the Harnesses that have one.
func (a *Admitter) checkVersion(h occkit.Harness) error {
	if a.versions[h] != "" {
		return nil
	}
	var approved []string
	for _, k := range []occkit.Harness{occkit.HarnessOpenClaw, occkit.HarnessCodex} {
		if a.versions[k] != "" {
			approved = append(approved, string(k))
		}
	}
	list := "none"
	if len(approved) > 0 {
		list = strings.Join(approved, ", ")
	}
	return occkit.Conflict("ADM-3", occkit.InstallationPath("harnessVersions").Key(string(h)),
		"the installation approves no version of the %s Harness (Options.HarnessVersions); approved: %s", h, list)
}
