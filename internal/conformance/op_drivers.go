package conformance

// Handlers for the drivers ops.

var (
	opDriversSandbox      = notYet
	opDriversInstallation = notYet
	opDriversConcurrency  = notYet
)
