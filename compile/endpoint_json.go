package compile

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/occkit/occkit"
)

// JSON helpers shared by the rewriting side of the package (endpoint
// compile, legacy repair, rendering). Values travel as raw JSON text, so the
// bytes of everything that is not rewritten stay exactly as they were
// (DOC-3).

// epPair is one member of a JSON object: its key (decoded), the key as it
// was written (quoted, raw) and the raw value.
type epPair struct {
	key    string
	rawKey string
	raw    string
}

// epPairs lists the members of an object in document order (nil for a
// non-object).
func epPairs(obj gjson.Result) []epPair {
	if !obj.IsObject() {
		return nil
	}
	var out []epPair
	obj.ForEach(func(k, v gjson.Result) bool {
		out = append(out, epPair{key: k.String(), rawKey: k.Raw, raw: v.Raw})
		return true
	})
	return out
}

// epObject renders pairs as a compact JSON object. A pair whose rawKey is
// empty gets its key freshly quoted; otherwise the author's bytes are kept.
func epObject(pairs []epPair) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte(',')
		}
		if p.rawKey != "" {
			b.WriteString(p.rawKey)
		} else {
			b.WriteString(epQuote(p.key))
		}
		b.WriteByte(':')
		b.WriteString(p.raw)
	}
	b.WriteByte('}')
	return b.String()
}

// epQuote renders s as a JSON string without HTML escaping.
func epQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// epSetRaw sets the member key of the raw object obj to the raw value v,
// keeping the member's position when it exists (sjson replaces in place) and
// appending it otherwise. A non-object obj is treated as {}.
func epSetRaw(obj, key, v string) string {
	if !gjson.Parse(obj).IsObject() {
		obj = "{}"
	}
	out, err := sjson.SetRaw(obj, occkit.NewPath(key).GJSON(), v)
	if err != nil {
		// sjson only fails on an invalid path; Path.GJSON always escapes.
		return obj
	}
	return out
}

// epDeepMerge merges the raw JSON value under into over: when both are
// objects, members of over win, nested objects are merged the same way and
// members only under has are appended in under's order; otherwise over wins
// outright.
func epDeepMerge(over, under gjson.Result) string {
	if !over.IsObject() || !under.IsObject() {
		return over.Raw
	}
	pairs := epPairs(over)
	seen := make(map[string]int, len(pairs))
	for i, p := range pairs {
		if _, dup := seen[p.key]; !dup {
			seen[p.key] = i
		}
	}
	for _, u := range epPairs(under) {
		i, ok := seen[u.key]
		if !ok {
			seen[u.key] = len(pairs)
			pairs = append(pairs, u)
			continue
		}
		o := gjson.Parse(pairs[i].raw)
		if uv := gjson.Parse(u.raw); o.IsObject() && uv.IsObject() {
			pairs[i].raw = epDeepMerge(o, uv)
		}
	}
	return epObject(pairs)
}

// epIsWildcard reports whether a model ID names a provider wildcard (`*` or
// a trailing `/*`) rather than one model.
func epIsWildcard(id string) bool {
	return id == "*" || strings.HasSuffix(id, "/*")
}
