// Package sensitive is OpenClaw's own list of configuration paths that hold
// secrets: the paths the pinned release's schema hints mark `sensitive`
// (buildConfigSchemaCore's uiHints), shipped as data in sensitive.txt.
//
// # Patterns
//
// A pattern is a dot path whose segments are object keys, `*` (any key of
// an object) or a key followed by `[]` (every element of that array), as
// in `models.providers.*.headers.*` or `tools.media.models[].request.auth.token`.
// [Patterns] lists them; [Find] returns the concrete paths of a document
// that match any of a set of patterns.
//
// # Regenerating
//
// gen.mjs reads the list from an installed OpenClaw:
//
//	node gen.mjs "$OCCKIT_OPENCLAW_DIR/node_modules/openclaw/dist" > sensitive.txt
//
// A test compares the shipped file with the installed release when
// OCCKIT_OPENCLAW_DIR is set, so the list cannot drift from the pin
// silently.
//
// The list is a floor, not a limit: package compile's render plan removes
// more than these paths (see its package doc).
package sensitive
