// Package jsonwalk is the one schema walker behind occkit's two document
// checks: compile's DOC-5 fast acceptance (compile/internal/schemacheck,
// occkit's own JSON Schema) and the OpenClaw release's configuration
// schema (compile/openclawschema).
//
// A schema compiles to a tree of [Node]s; [Valid] walks JSON text
// against it in one pass over the bytes, in place: a member's value is
// checked as it is read, so nested structure is scanned once whatever its
// depth, and a value no schema looks at is skipped eight bytes a step
// (each word's quotes, backslashes and brackets found at once, then
// visited in order). Only a union (allOf, anyOf, oneOf) reads its value
// again, once per branch.
// String literals, most of a configuration's bytes, are read eight bytes
// a step over their first 64 bytes, which also tells a plain literal (no
// escape, all ASCII): its decoding under every policy is its own bytes,
// so a plain key is looked up without a decode.
//
// The two checks read JSON differently, and a [Policy] says how: [Exact]
// as encoding/json with UseNumber decodes it (what a JSON Schema
// validator on decoded values sees: exact numbers), [JS] as OpenClaw's
// JSON.parse does (float64 numbers, an overflowing literal not a
// number). String lengths, patterns, number bounds and enums are a
// node's [Check], written by each package in its own terms (runes or
// UTF-16 code units, RE2 or ECMAScript).
//
// [ValidBoth] walks one text against two schemas, each read by its own
// policy, in one pass: where both look at a value its key and literal
// are scanned once for the two (admission checks a document against
// DOC-5 and OpenClaw's schema so). Below a union of either, or where
// only one looks, that schema's own walk goes on alone.
//
// [ValidOutline] also records, for later lookups at known paths, the
// members of the objects the walk read down to a depth, and which of some
// watched keys it met anywhere ([Outline]): compile/openclawschema's
// refinements read those instead of scanning the text again. An Outline
// can also name members the walk reads as absent (Omit): the verdict of
// a view of the text without them, without writing that view. [Skip],
// [Members] and [Elements] are the same scanner for values no schema
// drives (compile's plugin and secret scans, resolver's index,
// resolver/selection's preparation and the root package's index of a
// Document's root members, which is why the package sits outside
// compile).
//
// The walker does not validate JSON syntax beyond what it needs to find
// values: its input is an occkit.Document's text, valid JSON by
// construction. Text that is not JSON is never read out of bounds and is
// not valid.
package jsonwalk
