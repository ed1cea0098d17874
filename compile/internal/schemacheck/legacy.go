package schemacheck

import (
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"
)

// LegacyChecker is the gjson checker [Checker] replaces, kept while
// their agreement is tested.
//
// It is DOC-5 fast acceptance. Most documents pass the schema, and a
// pass needs no error tree, so compile.Validator first asks a Checker
// compiled from the schema, which reads the document bytes in place and
// allocates nothing on the way. A Checker only ever answers "certainly
// valid" or "not sure": it is built only from keywords whose meaning it
// reproduces (any other keyword leaves the Validator without one), it
// checks every value of a repeated key where the validator sees the last,
// and a "not sure" sends the document to the schema validator, whose
// verdict and errors are the answer. So a Checker can make Validate
// faster, never different. A *LegacyChecker is the checker of one schema
// position; the root's is what [NewChecker] returns.
type LegacyChecker struct {
	vacuous bool // accepts every value; never walked
	never   bool // the false schema

	types uint8 // type bits; 0 = any

	props      map[string]*LegacyChecker // every key properties names; nil = vacuous
	additional *LegacyChecker            // additionalProperties; nil = none or vacuous
	required   map[string]int            // required key → bit
	walkObject bool                      // some object keyword needs the keys

	minItems, maxItems int
	prefix             []*LegacyChecker
	items              *LegacyChecker
	walkArray          bool

	minLength, maxLength int
	pattern              *regexp.Regexp

	minimum, exclusiveMinimum, maximum, exclusiveMaximum *big.Rat

	all []*LegacyChecker // $ref and allOf
	any []*LegacyChecker // anyOf
}

const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeObject
	typeArray
)

var legacyTypeBits = map[string]uint8{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "object": typeObject, "array": typeArray,
}

// NewChecker compiles the Checker of root, or returns nil when some
// reachable schema uses a keyword it does not reproduce. vacuous is what
// [Project] returned for root (which schemas accept every value); root
// must have passed Project's checks (no in-place reference cycle).
func NewLegacyChecker(root *jsonschema.Schema, vacuous map[*jsonschema.Schema]bool) *LegacyChecker {
	memo := map[*jsonschema.Schema]*LegacyChecker{}
	ok := true
	var build func(s *jsonschema.Schema) *LegacyChecker
	build = func(s *jsonschema.Schema) *LegacyChecker {
		if n, seen := memo[s]; seen {
			return n
		}
		n := &LegacyChecker{vacuous: vacuous[s], minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
		memo[s] = n
		if !checkerSupports(s) || len(s.Required) > 64 {
			ok = false
			return n
		}
		if s.Always != nil {
			n.never = !*s.Always
			return n
		}
		for _, t := range s.Types {
			n.types |= legacyTypeBits[t]
		}
		sub := func(x *jsonschema.Schema) *LegacyChecker {
			c := build(x)
			if c.vacuous {
				return nil
			}
			return c
		}
		if len(s.Properties) > 0 {
			n.props = make(map[string]*LegacyChecker, len(s.Properties))
			for k, x := range s.Properties {
				n.props[k] = sub(x)
				n.walkObject = n.walkObject || n.props[k] != nil
			}
		}
		if a, isSchema := s.AdditionalProperties.(*jsonschema.Schema); isSchema {
			n.additional = sub(a)
			n.walkObject = n.walkObject || n.additional != nil
		}
		if len(s.Required) > 0 {
			n.required = make(map[string]int, len(s.Required))
			for _, k := range s.Required {
				if _, dup := n.required[k]; !dup {
					n.required[k] = len(n.required)
				}
			}
			n.walkObject = true
		}
		n.minItems, n.maxItems = s.MinItems, s.MaxItems
		for _, x := range s.PrefixItems {
			n.prefix = append(n.prefix, sub(x))
		}
		if s.Items2020 != nil {
			n.items = sub(s.Items2020)
		}
		n.walkArray = n.minItems != -1 || n.maxItems != -1 || n.items != nil
		for _, p := range n.prefix {
			n.walkArray = n.walkArray || p != nil
		}
		n.minLength, n.maxLength, n.pattern = s.MinLength, s.MaxLength, s.Pattern
		n.minimum, n.exclusiveMinimum = s.Minimum, s.ExclusiveMinimum
		n.maximum, n.exclusiveMaximum = s.Maximum, s.ExclusiveMaximum
		if s.Ref != nil {
			if c := sub(s.Ref); c != nil {
				n.all = append(n.all, c)
			}
		}
		for _, x := range s.AllOf {
			if c := sub(x); c != nil {
				n.all = append(n.all, c)
			}
		}
		if len(s.AnyOf) > 0 {
			for _, x := range s.AnyOf {
				if c := sub(x); c == nil {
					// A branch that accepts everything: anyOf always holds.
					n.any = nil
					break
				} else {
					n.any = append(n.any, c)
				}
			}
		}
		return n
	}
	n := build(root)
	if !ok {
		return nil
	}
	return n
}

// Valid reports whether r certainly satisfies n.
func (n *LegacyChecker) Valid(r gjson.Result) bool {
	if n.vacuous {
		return true
	}
	if n.never {
		return false
	}
	if n.types != 0 && n.types&typeOf(r) == 0 {
		return false
	}
	switch r.Type {
	case gjson.JSON:
		if r.Raw[0] == '{' {
			if n.walkObject && !n.validObject(r) {
				return false
			}
		} else if n.walkArray && !n.validArray(r) {
			return false
		}
	case gjson.String:
		if n.minLength != -1 || n.maxLength != -1 || n.pattern != nil {
			s := decodeString(r.Raw)
			if n.minLength != -1 || n.maxLength != -1 {
				l := utf8.RuneCountInString(s)
				if n.minLength != -1 && l < n.minLength || n.maxLength != -1 && l > n.maxLength {
					return false
				}
			}
			if n.pattern != nil && !n.pattern.MatchString(s) {
				return false
			}
		}
	case gjson.Number:
		if n.minimum != nil || n.exclusiveMinimum != nil || n.maximum != nil || n.exclusiveMaximum != nil {
			v, ok := new(big.Rat).SetString(strings.TrimSpace(r.Raw))
			if !ok ||
				n.minimum != nil && v.Cmp(n.minimum) < 0 ||
				n.exclusiveMinimum != nil && v.Cmp(n.exclusiveMinimum) <= 0 ||
				n.maximum != nil && v.Cmp(n.maximum) > 0 ||
				n.exclusiveMaximum != nil && v.Cmp(n.exclusiveMaximum) >= 0 {
				return false
			}
		}
	}
	for _, c := range n.all {
		if !c.Valid(r) {
			return false
		}
	}
	if len(n.any) > 0 {
		for _, c := range n.any {
			if c.Valid(r) {
				return true
			}
		}
		return false
	}
	return true
}

func (n *LegacyChecker) validObject(r gjson.Result) bool {
	ok := true
	var seen uint64
	r.ForEach(func(k, v gjson.Result) bool {
		name := decodeKey(k)
		if bit, req := n.required[name]; req {
			seen |= 1 << bit
		}
		c, named := n.props[name]
		if !named {
			c = n.additional
		}
		if c != nil && !c.Valid(v) {
			ok = false
		}
		return ok
	})
	return ok && seen == 1<<len(n.required)-1
}

func (n *LegacyChecker) validArray(r gjson.Result) bool {
	ok := true
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		c := n.items
		if i < len(n.prefix) {
			c = n.prefix[i]
		}
		if c != nil && !c.Valid(v) {
			ok = false
		}
		i++
		return ok
	})
	return ok && (n.minItems == -1 || i >= n.minItems) && (n.maxItems == -1 || i <= n.maxItems)
}

// typeOf is the JSON type of r as the validator names it; a number
// whose value is whole is also an integer.
func typeOf(r gjson.Result) uint8 {
	switch r.Type {
	case gjson.Null:
		return typeNull
	case gjson.True, gjson.False:
		return typeBoolean
	case gjson.String:
		return typeString
	case gjson.Number:
		raw := strings.TrimSpace(r.Raw)
		if !strings.ContainsAny(raw, ".eE") {
			return typeNumber | typeInteger
		}
		if v, ok := new(big.Rat).SetString(raw); ok && v.IsInt() {
			return typeNumber | typeInteger
		}
		return typeNumber
	}
	if r.Raw[0] == '{' {
		return typeObject
	}
	return typeArray
}
