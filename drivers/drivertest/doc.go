// Package drivertest is the conformance suite for [drivers.ComputeDriver]
// and [drivers.SandboxDriver] implementations, in the spirit of
// testing/slogtest: a driver author runs it from their own tests, and it
// reports every broken contract with an explanation.
//
// # Running the suite
//
// From a test, [Run] (or [RunSandbox]) runs each contract as a subtest
// against a fresh driver:
//
//	func TestConformance(t *testing.T) {
//		drivertest.Run(t, func() drivers.ComputeDriver { return mydriver.New() })
//	}
//
// Outside `go test` (at startup, in a health check against a staging
// backend), [Check] and [CheckSandbox] return the violations as values:
// none means the driver conforms.
//
// # Contracts
//
// [ComputeContracts] and [SandboxContracts] list the contracts by name.
// Among them: the declaration validates and is constant; namespace ensure
// and delete are idempotent; Prepare is idempotent for every declared
// topology and refuses an undeclared one with 400 (RES-11); Retire after
// Prepare, again, and of an unknown revision succeeds; harness-auth
// refusals are structured with 400/409 codes and never project the
// credential into a gateway (AUTH-6, AUTH-7); optional capabilities
// survive a wrapper that forwards only the required methods; every
// context-taking call honours cancellation (its error wraps
// context.Canceled); no error or output carries a secret value the suite
// planted; hooks succeed and are repeatable; the driver is safe for
// concurrent use. Sandbox drivers: the declaration registers, cleanup is
// idempotent, a configuration transform is pure and keeps unknown keys,
// harness provisioning is idempotent and names its sandbox after the
// revision.
//
// # Fixtures
//
// [NewRevision] admits fixture revisions for a driver's own tests: what
// admission.Admitter.Admit returns with the pinned OpenClaw release, for
// every topology on Kubernetes, SSH or a custom Compute, from
// [DefaultConfiguration] or the caller's Configuration. So the logging
// stamp, the sandbox binding and the credential projection are
// admission's own (an api_key binding projects OPENAI_API_KEY or
// ANTHROPIC_API_KEY by the model's provider, Codex's pair on dedicated
// Codex, AUTH-2), and the render plan is real:
// drivers.Plan[compile.Plan](rev, opts) gives every process, its
// documents and environment. What admission refuses, NewRevision
// returns; [ForeignRevision] restores a record admission would never
// make for its Compute (Codex on SSH, any binding on Docker, an Agent ID
// outside ADM-3), for testing that a driver refuses it. The suite's own
// revisions are admitted for the driver's declared topologies, with an
// api_key Secret in [Options].CredentialNamespace, and are foreign only
// for topologies the driver does not declare or admission refuses on its
// Compute.
package drivertest
