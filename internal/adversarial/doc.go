// Package adversarial holds table tests that feed hostile input to occkit's
// public API and check that every refusal is a clear structured error and
// that nothing is half-written. The package has no exported API; it exists
// for its tests.
//
// # What is checked
//
// Every refusal is an [*occkit.Error] (or an aggregate of them) whose code,
// HTTP status, path and rule ID are asserted; message text never is, except
// that it must be free of control and bidirectional-formatting characters
// and invalid UTF-8, whatever the input carried. On refusal the input
// Document is unchanged and no revision or document is returned.
//
// # Inputs
//
// Duplicate keys; nesting of 65 and 10,000 levels and a 20 MB run of '[';
// strings, keys and documents over the limits; invalid UTF-8; control and
// bidi characters (U+202E, U+2066) in model IDs and Agent IDs; __proto__
// and constructor keys; path traversal in $include and in a harness home;
// unknown Harnesses, binding methods, Compute kinds, modes and levels;
// NaN, Infinity, 1e999 and -0; and a valid Configuration truncated at every
// byte offset. They go through [compile.Load], [resolver.Resolve],
// [resolver.CheckRoster], [admission.Admitter.Admit], [logging.Stamp],
// [logging.CheckStamp], [probe.ClassifyCodex] and [probe.ClassifyOpenClaw].
package adversarial
