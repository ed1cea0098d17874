// Package conformance runs occkit's conformance cases (the public set in
// testdata/cases, the project's own in testdata/extra, or any directory
// given with -cases or OCCKIT_CASES) through the exported runner
// [github.com/occkit/occkit/admission/policytest], and prints the line
// "conformance: N passed, N failed".
package conformance
