package conformance

// Handlers for the compile.endpoint and compile.repair ops.

var (
	opCompileEndpoint = notYet
	opCompileRepair   = notYet
)
