package openclawschema

import "github.com/tidwall/gjson"

// The gjson walker the shared byte walker replaced, kept as the oracle
// TestWalkerAgrees compares it with: it reads each object through gjson's
// ForEach, independently of compile/internal/jsonwalk.

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
