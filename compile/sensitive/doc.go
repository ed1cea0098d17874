// Package sensitive finds, in a document, the configuration paths that
// OpenClaw's own schema hints mark `sensitive` (buildConfigSchemaCore's
// uiHints in the pinned release, shipped as data by package
// openclawschema): 173 patterns in 2026.9.6, among them
// models.providers.*.apiKey, models.providers.*.headers.* and
// models.providers.*.request.auth.token.
//
// # Patterns
//
// A pattern is a dot path whose segments are object keys, `*` (any key of
// an object) or a key followed by `[]` (every element of that array), as
// in `models.providers.*.headers.*` or
// `tools.media.models[].request.auth.token`. [Patterns] lists OpenClaw's;
// [Parse] reads one; [Find] returns the concrete paths of a document that
// match any of a set of patterns, matching keys literally (a key holding
// a dot or gjson syntax is one key). A [Cursor] does the same matching one
// key or index at a time, for a reader that walks a text rather than a
// Document (compile's author view of a refusal masks what it finds).
//
// [For] gives an OpenClaw release's patterns and [SetFor] the same
// compiled (the pinned release's for it, and as a floor for a release
// whose data the library does not carry: one line per release when more
// are carried); [Compile] merges any patterns into a [Set] whose Find
// reads a document's text once, entering only where a pattern can match,
// and whose Each hands over each match's value text from the same pass
// (finding each value again from the root would cost the document's size
// per match); [Set.EachKnown] is Each for a caller that has read some
// of the document's values already and hands over where they end, so
// that the walk passes over each in one step rather than reading it
// again (compile's credential scan walks the model maps first). A small
// document that holds no member whose key the patterns end with (apiKey,
// token, headers, …; most hold none) is told so by one pass over its
// text instead of the walk, whose cost is mostly fixed. A [Cursor] that
// is no longer Live matches nothing below: a walk may copy the rest of
// that value as it is.
//
// The list is a floor, not a limit: package compile's render plan removes
// more than these paths (see its package doc, "Credential policy").
package sensitive
