package conformance

// Handlers for the logging ops.

var (
	opLoggingLevel        = notYet
	opLoggingStamp        = notYet
	opLoggingGuard        = notYet
	opLoggingRender       = notYet
	opLoggingStartupPhase = notYet
)
