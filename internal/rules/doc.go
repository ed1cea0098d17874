// Package rules holds occkit's rule book, RULES.md beside this file: every
// rule ID that the code, the package docs, the README, errors and the
// conformance cases cite (DOC-1 … DRV-6) with its full text, so that a
// reader can look a rule up inside the repository.
//
// RULES.md is the project's contract, kept as published beside the
// repository (shared/SPEC.md); its tests check that every cited ID is
// defined there and fail when the published book has moved on (a stale
// copy): refresh RULES.md from the published book then.
//
// # Where the published book is
//
// The book is looked for in the directory OCCKIT_SHARED names, when it is
// set (the book must then be there: a missing one fails), else in shared/
// beside the repository. A fresh clone has neither: the comparison then
// skips, saying so, and RULES.md is the reference. That skip is not a
// real tier (internal/tiers) and survives OCCKIT_REQUIRE_INTEGRATION=1 on
// purpose: .ci/setup installs servers and tools, and nothing it can install
// provides the book, so requiring it would fail every CI run on a clean
// clone. A CI that has the book sets OCCKIT_SHARED to make the comparison
// mandatory.
package rules
