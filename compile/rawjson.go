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

// member is one member of a JSON object: its key (decoded), the key as it
// was written (quoted, raw) and the raw value.
type member struct {
	key    string
	rawKey string
	raw    string
}

// members lists the members of an object in document order (nil for a
// non-object).
func members(obj gjson.Result) []member {
	if !obj.IsObject() {
		return nil
	}
	var out []member
	obj.ForEach(func(k, v gjson.Result) bool {
		out = append(out, member{key: k.String(), rawKey: k.Raw, raw: v.Raw})
		return true
	})
	return out
}

// rawObject renders pairs as a compact JSON object. A pair whose rawKey is
// empty gets its key freshly quoted; otherwise the author's bytes are kept.
func rawObject(pairs []member) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte(',')
		}
		if p.rawKey != "" {
			b.WriteString(p.rawKey)
		} else {
			b.WriteString(quoteJSON(p.key))
		}
		b.WriteByte(':')
		b.WriteString(p.raw)
	}
	b.WriteByte('}')
	return b.String()
}

// quoteJSON renders s as a JSON string without HTML escaping.
func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// setMember sets the member key of the raw object obj to the raw value v,
// keeping the member's position when it exists (sjson replaces in place) and
// appending it otherwise. A non-object obj is treated as {}.
func setMember(obj, key, v string) string {
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

// deepMerge merges the raw JSON value under into over: when both are
// objects, members of over win, nested objects are merged the same way and
// members only under has are appended in under's order; otherwise over wins
// outright.
func deepMerge(over, under gjson.Result) string {
	if !over.IsObject() || !under.IsObject() {
		return over.Raw
	}
	pairs := members(over)
	seen := make(map[string]int, len(pairs))
	for i, p := range pairs {
		if _, dup := seen[p.key]; !dup {
			seen[p.key] = i
		}
	}
	for _, u := range members(under) {
		i, ok := seen[u.key]
		if !ok {
			seen[u.key] = len(pairs)
			pairs = append(pairs, u)
			continue
		}
		o := gjson.Parse(pairs[i].raw)
		if uv := gjson.Parse(u.raw); o.IsObject() && uv.IsObject() {
			pairs[i].raw = deepMerge(o, uv)
		}
	}
	return rawObject(pairs)
}

// isWildcard reports whether a model ID names a provider wildcard (`*` or
// a trailing `/*`) rather than one model.
func isWildcard(id string) bool {
	return id == "*" || strings.HasSuffix(id, "/*")
}
