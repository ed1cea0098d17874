package conformance

// Handler for the compile.load op.

var opCompileLoad = notYet
