package conformance

// Handlers for the harness.resolve and roster.check ops.

var (
	opHarnessResolve = notYet
	opRosterCheck    = notYet
)
