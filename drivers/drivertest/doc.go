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
// [NewRevision] builds frozen fixture revisions for a driver's own tests.
package drivertest
