package policytest

// Handlers for the ref ops.

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/resolver"
)

// opRefParse parses input.ref strictly, or leniently with
// input.defaultProvider when input.strict is false (absent or null
// is the default, strict) (REF-1..REF-5a).
func opRefParse(in input) (result, error) {
	ref := in.Get("ref")
	if ref.Type != gjson.String {
		// REF-3: only a string can be a ref; reading the raw text of an
		// array or object would make ["openai/gpt-5"] look valid.
		return result{"valid": false}, nil
	}
	s := ref.Str
	var (
		r  resolver.Ref
		ok bool
	)
	// Only an explicit false is lenient: absent and null keep the default.
	if st := in.Get("strict"); st.Type == gjson.False {
		r, ok = resolver.ParseRefLenient(s, in.Get("defaultProvider").String())
	} else {
		r, ok = resolver.ParseRef(s)
	}
	if !ok {
		return result{"valid": false}, nil
	}
	return result{"valid": true, "provider": r.Provider, "id": r.ID, "profile": optString(r.Profile)}, nil
}

// opRefMatch reports whether input.rowId names input.ref (REF-4). A ref
// that is not valid matches nothing.
func opRefMatch(in input) (result, error) {
	ref, row := in.Get("ref"), in.Get("rowId")
	if ref.Type != gjson.String || row.Type != gjson.String {
		return result{"match": false}, nil
	}
	r, ok := resolver.ParseRef(ref.Str)
	return result{"match": ok && resolver.MatchRow(r, row.Str)}, nil
}
