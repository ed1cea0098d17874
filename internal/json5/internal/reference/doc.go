// Package reference is the JSON5 transcoder of package json5 as it was
// before its strict-JSON fast path (occkit commit f0a6c54), frozen: the
// oracle that package json5's property and fuzz tests compare the
// current transcoder with, byte for byte and error for error. Nothing
// but those tests imports it; it is not to be changed, only deleted when
// the comparison is no longer wanted.
package reference
