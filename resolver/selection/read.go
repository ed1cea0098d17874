package selection

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// Preparation reads the document's text in place with internal/jsonwalk's
// byte scanner: the model maps and catalogs are most of a large document,
// and each of their members is read once, its end found by the same pass
// that reads it, the members selection does not read skipped without
// being parsed. gjson reads each member value to its end before its
// caller looks into it, so reading the maps with it read every byte two or
// three times. Small values (a policy's `id`, a params entry, a scope's
// whole-agent keys) are still handed to the shared checks as gjson values
// of their own text, which read them exactly as before.
//
// The scanner reads any JSON, white space included, and keeps gjson's
// reading where the two could differ: an object's first member of a name
// is the one read (a Document never repeats a key, but nothing here
// relies on it), and a key or string with an escape is decoded by gjson.

// eachMember calls fn with each member of the value at i of s (nothing when
// it is not an object) and returns the offset after the value; fn
// returns the offset after the member's value.
func eachMember(s string, i int, fn func(key string, at int) int) int {
	end := jsonwalk.Members(s, i, func(lit string, escaped bool, at int) int {
		return fn(text(lit, escaped), at)
	})
	if end < 0 {
		return jsonwalk.Skip(s, i)
	}
	return end
}

// text is the string the literal lit (quotes included) holds, decoded
// as gjson decodes it.
func text(lit string, escaped bool) string {
	if escaped || len(lit) < 2 {
		return gjson.Parse(lit).Str
	}
	return lit[1 : len(lit)-1]
}

// value is the value at i of s, as gjson reads it, and the offset after it.
func value(s string, i int) (gjson.Result, int) {
	end := jsonwalk.Skip(s, i)
	return gjson.Parse(s[min(i, end):end]), end
}

// skip is the offset after the value at i of s.
func skip(s string, i int) int { return jsonwalk.Skip(s, i) }

// opens reports whether the value at i of s is an object.
func opens(s string, i int) bool { return i < len(s) && s[i] == '{' }

// runtimeID reads the agentRuntime value at i of s: the non-blank string
// `id` of an object ([runtimeIDOf]), and the offset after the value.
func runtimeID(s string, i int) (id string, ok bool, end int) {
	seen := false
	end = eachMember(s, i, func(key string, i int) int {
		if key != "id" || seen {
			return skip(s, i)
		}
		seen = true
		if i >= len(s) || s[i] != '"' {
			return skip(s, i)
		}
		end, escaped := jsonwalk.StringEnd(s, i)
		id = text(s[i:end], escaped)
		ok = strings.TrimSpace(id) != ""
		return end
	})
	return id, ok, end
}

// paramOverride reads the params value at i of s (present, not null):
// whether it holds an override [overrideScan.params] lists
// ([hasParamOverride]), and the offset after the value.
func paramOverride(s string, i int) (found bool, end int) {
	if !opens(s, i) {
		return true, skip(s, i)
	}
	end = eachMember(s, i, func(key string, i int) int {
		if found || !controlKey(key) {
			found = true
			return skip(s, i)
		}
		v, end := value(s, i)
		found = !runtimeControl(key, v)
		return end
	})
	return found, end
}
