package admission

import (
	"context"
	"slices"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
)

// VerifyFacts are the installation's facts at the moment a worker is about
// to act on a revision (ADM-5).
type VerifyFacts struct {
	// Principal is the identity the worker acts for, re-authorized.
	Principal string
	// AgentID is the Agent the worker reconciles: it must own the revision.
	AgentID string
	// Authorizer re-authorizes the deployment; nil fails closed (503).
	Authorizer Authorizer
	// Compute is the Compute now configured for the Agent.
	Compute ComputeInfo
	// Sandbox is the SandboxDriver now configured, or nil.
	Sandbox             *SandboxInfo
	CredentialGateway   bool
	NativeWorkerSupport occkit.NativeWorkerSupport
	// Account is the managed account binding as verified now; a revision
	// that froze one requires exactly the same (ADM-7: reconciliation
	// cannot substitute a newly issued credential).
	Account Account
}

// Verify re-checks a revision before any runtime effect (ADM-5) and fails
// closed: the record's integrity (the digest matches the document), the
// ownership (the Agent, the Compute identity and any managed account
// binding are the ones admitted), the
// authority (the Authorizer allows the deployment again: 403 otherwise),
// the combination (RES-11 and the harness-auth rules for today's
// installation, which must give the admitted projection), the logging
// ownership, and every required Driver (the bound SandboxDriver must still
// be configured and qualify: 409 otherwise; a missing harness-auth
// validator is 503).
func Verify(ctx context.Context, rev *Revision, f VerifyFacts) error {
	if rev == nil || rev.digest == "" {
		return occkit.Conflict("ADM-5", occkit.Root(), "no admitted revision")
	}
	if err := alive(ctx); err != nil {
		return err
	}
	// The record digest hashes every byte of the canonical document, so
	// it alone shows whether the document is the one admitted.
	if rev.recordDigest() != rev.digest {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("digest"), "the revision digest does not match its record")
	}
	if f.AgentID != rev.agentID {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("agentId"), "the revision belongs to another Agent")
	}
	if f.Compute.Kind == "" {
		f.Compute.Kind = occkit.ComputeKubernetes
	}
	if f.Compute.Kind != rev.compute.Kind || f.Compute.ID != rev.compute.ID {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("compute"), "the revision was admitted for another Compute")
	}
	if !rev.account.IsZero() && f.Account != rev.account {
		return occkit.Conflict("ADM-7", occkit.RevisionPath("account"), "the managed account binding differs from the one admitted")
	}
	owner, err := logging.ParseOwnership(string(f.Compute.RuntimeLogging))
	if err != nil {
		return err
	}
	if owner != rev.ownership {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("runtimeLogging"), "the Compute's logging ownership changed since admission")
	}

	// LOG-2: a platform-owned stamp must still be intact and match.
	if owner == occkit.OwnedByPlatform {
		lvl, err := logging.CheckStamp(rev.Document())
		if err != nil {
			return err
		}
		if lvl != rev.level {
			return occkit.Conflict("ADM-5", occkit.RevisionPath("logging", "level"), "the admitted level does not match the stamped document")
		}
	}

	a := &Admitter{authz: f.Authorizer}
	if err := a.authorize(ctx, f.Principal, Agent{
		ID: rev.agentID, ConfigurationID: rev.source.ID,
		ExecutionMode: rev.mode, HarnessAuth: rev.auth,
	}); err != nil {
		return err
	}

	var sandbox *occkit.SandboxFacts
	if rev.sandboxDriverID != "" {
		if f.Sandbox == nil || f.Sandbox.ID != rev.sandboxDriverID {
			return occkit.Conflict("ADM-5", occkit.RevisionPath("sandboxDriverId"), "the SandboxDriver bound to the revision is not configured")
		}
	}
	if f.Sandbox != nil {
		facts := f.Sandbox.Facts
		sandbox = &facts
	}
	if rev.sandboxDriverID != "" && rev.harness.ID == occkit.HarnessOpenClaw && !sandbox.Qualifies() {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("sandboxDriverId"), "the bound SandboxDriver no longer qualifies")
	}

	proj, err := validateAuth(ctx, f.Compute, drivers.AuthFacts{
		Compute: rev.compute.Kind, Topologies: f.Compute.Topologies,
		Harness: rev.harness.ID, Mode: rev.mode, Binding: rev.auth,
		CredentialGateway: f.CredentialGateway, Sandbox: sandbox,
		NativeWorkerSupport: f.NativeWorkerSupport, Model: rev.primary, AgentID: rev.agentID,
	})
	if err != nil {
		return err
	}
	if !sameProjection(proj, rev.projection) {
		return occkit.Conflict("ADM-5", occkit.RevisionPath("harnessAuth"), "the credential projection changed since admission; redeploy")
	}
	return nil
}

func sameProjection(a, b occkit.Projection) bool {
	return slices.Equal(a.Gateway, b.Gateway) && slices.Equal(a.Harness, b.Harness) &&
		a.StdinLogin == b.StdinLogin && a.EgressProxy == b.EgressProxy && a.HostManaged == b.HostManaged
}
