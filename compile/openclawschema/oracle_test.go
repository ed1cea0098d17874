package openclawschema

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// The gjson walker the shared byte walker replaced, kept as the oracle
// TestWalkerAgrees compares it with: it reads each object through gjson's
// ForEach, independently of internal/jsonwalk.

// valid reports whether r satisfies n. It reads the document bytes in
// place and allocates only to compare a whole object or array with an
// enum, which the OpenClaw schema never does.
func (n *node) oracleValid(r gjson.Result) bool {
	if n.never {
		return false
	}
	if n.types != 0 && n.types&typeOf(r) == 0 {
		return false
	}
	switch r.Type {
	case gjson.JSON:
		if r.Raw[0] == '{' {
			if n.walkObject && !n.oracleObject(r) {
				return false
			}
		} else if n.walkArray && !n.oracleArray(r) {
			return false
		}
	case gjson.String:
		if !n.validString(r) {
			return false
		}
	case gjson.Number:
		if !n.validNumber(r) {
			return false
		}
	}
	if n.enum != nil && !n.inEnum(r) {
		return false
	}
	for _, c := range n.allOf {
		if !c.oracleValid(r) {
			return false
		}
	}
	if n.anyOf != nil {
		ok := false
		for _, c := range n.anyOf {
			if c.oracleValid(r) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if n.oneOf != nil {
		matched := 0
		for _, c := range n.oneOf {
			if c.oracleValid(r) {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	return true
}

func (n *node) oracleObject(r gjson.Result) bool {
	ok := true
	count := 0
	r.ForEach(func(k, v gjson.Result) bool {
		count++
		name := keyOf(k)
		c, allowed := n.child(name)
		if !allowed || c != nil && !c.oracleValid(v) {
			ok = false
			return false
		}
		if n.keys != nil && !n.keys.oracleValid(k) {
			ok = false
		}
		return ok
	})
	if !ok || n.maxProps >= 0 && count > n.maxProps {
		return false
	}
	for _, name := range n.required {
		if !has(r, name) {
			return false
		}
	}
	return true
}

func (n *node) oracleArray(r gjson.Result) bool {
	ok := true
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		if c := n.itemSchema(i); c != nil && !c.oracleValid(v) {
			ok = false
		}
		i++
		return ok
	})
	return ok && (n.minItems < 0 || i >= n.minItems) && (n.maxItems < 0 || i <= n.maxItems)
}

// oracleWalkSchema is the gjson walk refiner.walkSchema replaced. It calls fn for every value of v with the schema n that
// applies to it, walking the document beside the schema: a union's first
// branch the value satisfies, every allOf member, object members and
// array elements.
func oracleWalkSchema(n *node, v gjson.Result, at occkit.Path, depth int, fn func(n *node, v gjson.Result, at occkit.Path)) {
	if n == nil || depth > maxWalkDepth {
		return
	}
	for _, union := range [][]*node{n.anyOf, n.oneOf} {
		for _, c := range union {
			if c.valid(v) {
				oracleWalkSchema(c, v, at, depth+1, fn)
				break
			}
		}
	}
	for _, c := range n.allOf {
		oracleWalkSchema(c, v, at, depth+1, fn)
	}
	fn(n, v, at)
	switch {
	case v.IsObject():
		v.ForEach(func(k, c gjson.Result) bool {
			if cn, ok := n.child(k.String()); ok {
				oracleWalkSchema(cn, c, at.Key(k.String()), depth+1, fn)
			}
			return true
		})
	case v.IsArray():
		for i, c := range v.Array() {
			oracleWalkSchema(n.itemSchema(i), c, at.Index(i), depth+1, fn)
		}
	}
}
