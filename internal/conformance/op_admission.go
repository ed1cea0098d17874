package conformance

// Handlers for the admission ops.

var (
	opAuthValidate   = notYet
	opAdmissionAdmit = notYet
)
