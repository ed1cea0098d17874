package conformance

// Handlers for the ref ops.

var (
	opRefParse = notYet
	opRefMatch = notYet
)
