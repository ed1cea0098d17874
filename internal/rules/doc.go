// Package rules holds occkit's rule book, RULES.md beside this file: every
// rule ID that the code, the package docs, the README, errors and the
// conformance cases cite (DOC-1 … DRV-6) with its full text, so that a
// reader can look a rule up inside the repository.
//
// RULES.md is the project's contract, kept as published beside the
// repository (shared/SPEC.md); its test checks that every cited ID is
// defined there and says when the published book has moved on.
package rules
