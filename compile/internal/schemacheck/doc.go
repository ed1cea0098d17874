// Package schemacheck is the byte-level side of package compile's DOC-5
// schema check: what compile.Validator derives once from the compiled
// JSON Schema (santhosh-tekuri/jsonschema v5) so that checking a document
// costs little more than reading it.
//
//   - [Project] derives a [Projection]: which keys and elements of an
//     instance the schema can look at. [Projection.Prune] builds, straight
//     from the document bytes, the instance the validator needs, as
//     encoding/json with UseNumber would decode it; the verdict and every
//     error path are those of validating the whole document. A schema
//     whose outcome depends on keys it does not name has no projection.
//   - [NewChecker] compiles a [Checker] that accepts, in one pass over
//     the bytes (the shared walker, internal/jsonwalk) and
//     without allocating, documents that certainly pass; anything else
//     goes to the validator. It is about ten times cheaper than the
//     validator on a decoded map (BenchmarkValidateSizes in compile).
//     Its schema ([Checker.Node]) also rides along OpenClaw's schema
//     walk (compile.Validator.ValidBeside).
//
// The errors, their wording and the fallback to whole-document validation
// stay in compile; this package only ever makes a check faster, never
// different. Its equivalence with whole-document validation is
// property-tested in compile (TestProjectionEquivalent), which also holds
// the Checker to the validator's exact verdict on generated documents.
package schemacheck
