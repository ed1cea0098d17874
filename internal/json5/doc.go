// Package json5 transcodes JSON5 text into compact JSON.
//
// [Transcode] accepts JSON5 as the npm package json5@2.2.3 parses it (the
// parser OpenClaw itself uses) and writes compact JSON, keeping the author's
// object key order. Because every JSON document is also a JSON5 document with
// the same meaning, Transcode doubles as a normalizer for strict JSON.
//
// # Grammar
//
// Accepted beyond JSON: `//` and `/* */` comments; trailing commas in objects
// and arrays; object keys written as ES5 IdentifierNames (`$`, `_`, Unicode
// letters, combining marks, digits and connector punctuation after the
// first character, and `\uXXXX` escapes that spell such characters);
// single-quoted strings; line continuations (a backslash before a line
// terminator); the escapes `\v`, `\0`, `\xHH` and identity escapes such as
// `\a` → `a`; hexadecimal numbers; leading and trailing decimal points;
// an explicit `+` sign; a byte-order mark and all JSON5 white space (tab,
// LF, VT, FF, CR, space, U+00A0, U+2028, U+2029, U+FEFF and every Unicode
// space separator, category Zs). Any JSON value may be the top-level value.
//
// # Output
//
// Output is compact JSON. Strings are re-escaped canonically: `"` and `\`
// are escaped, control characters use `\b \f \n \r \t` or `\u00XX`, and
// everything else is written as raw UTF-8. A lone UTF-16 surrogate (which
// JSON5, like JavaScript, allows through `\uD800`) is written back as a
// `\udXXX` escape, so the value survives. Numbers keep their decimal
// spelling except where JSON5 differs from JSON: a `+` sign is dropped, a
// missing integer part becomes `0` (`.5` → `0.5`), a bare trailing point is
// dropped (`5.` → `5`), and hexadecimal numbers become exact decimal
// integers (`0x1F` → `31`). With [Options.CanonicalNumbers] every number is
// instead written in its RFC 8785 form ([AppendNumber]: the shortest
// decimal that reads back as the same double, as ECMAScript's
// Number-to-String writes it), so `16.0`, `1.6E1` and `0x10` all become
// `16`. With [Options.RejectLoneSurrogates] a lone surrogate is refused
// ([KindSurrogate]) instead of kept.
//
// [Normalize] also writes down, as it writes them, where the members of
// the root object land in its output ([Normalized.Members]: each key's
// opening quote, its value's start and end), so that a reader of the
// root's members (occkit's root index) need not find them again. The
// first eight are kept in an array of the parser's own; only a root with
// more allocates for them.
//
// # Decisions
//
// `Infinity`, `-Infinity` and `NaN` are valid JSON5 but JSON cannot hold
// them: Transcode refuses them with an [Error] of kind [KindNonFinite]
// rather than inventing a spelling (a string, null or a huge number would
// each silently change the value). For the same reason a number that
// JavaScript turns into Infinity, a decimal literal beyond float64 (`1e999`)
// or a hexadecimal literal of more than 256 significant digits, is refused
// with [KindNumber]. Input must be valid UTF-8. Duplicate object
// keys are kept as written unless [Options.RejectDuplicateKeys] is set.
//
// # Limits and errors
//
// The parser is a loop over an explicit stack, never recursive, and nesting
// is bounded by [Options.MaxDepth] ([DefaultMaxDepth] when zero): a document
// of twenty million `[` is refused after MaxDepth bytes. The stack holds a
// few words per open level (only what duplicate detection needs); the
// location of an error is read back from the output written so far
// ([PathAt]), so memory stays proportional to the input at any MaxDepth.
// A string's buffer grows once, to the literal's length, not by repeated
// copies. Optional limits on
// string length and key count stop work early. Every failure is an [*Error]
// with a [Kind], a 1-based line and column (columns count code points), the
// byte offset and the JSON location reached; its message comes from a fixed
// vocabulary and never quotes the document.
//
// # Speed
//
// Most documents are strict JSON, and most of such a document is its own
// output. Without [Options.OnToken], the parser reads plain JSON with a
// loop of its own that writes the source in spans: the output stays the
// source's own prefix, uncopied, until something else must be written
// (white space dropped, a number or string rewritten), and from then on
// each run of text between two such places is copied once. It scans
// strings eight bytes at a time. It leaves every JSON5 form, every limit
// reached and every error to the general grammar, one step at a time,
// from the same state, so the output and every refusal are the general
// grammar's (a frozen copy of the transcoder from before the fast path,
// internal/reference, is the oracle of a property and a fuzz test). An
// object's first sixteen keys are checked for duplicates one by one; an
// object with more finds them through a hash table of eight-byte slots
// that point at the keys as written, in the source or the output. The
// parser keeps its first 16 open containers, the first 64 keys awaiting
// comparison, its first 4 key tables and the 64 slots of one table in
// arrays of its own, on the caller's stack: a document no deeper or
// wider than that allocates nothing for them, only its output (and a
// table for each object of more than 48 keys, or of more than sixteen
// while another one holds the parser's slots).
//
// # Tokens
//
// [Options.OnToken] is told of every piece of text as the parser reads
// it ([Token]: containers opening and closing, keys and strings with
// their decoded values, other scalars, comments), with byte offsets in
// the input, so that a reader of the text (package compile's source map,
// which places refusals and masks credentials in the author's view of a
// line) follows the one grammar instead of a second one of its own. Only
// separators and white space lie between two pieces; on failure, the
// pieces told are those read before it.
package json5
