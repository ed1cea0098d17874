package conformance

// Handler for the runtime.select op.

var opRuntimeSelect = notYet
