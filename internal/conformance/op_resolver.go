package conformance

// Handlers for the resolver ops.

var (
	opHarnessResolve = notYet
	opRosterCheck    = notYet
	opRuntimeSelect  = notYet
)
