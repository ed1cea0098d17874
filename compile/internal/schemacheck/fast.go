package schemacheck

import (
	"math/big"
	"regexp"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// Checker is DOC-5 fast acceptance. Most documents pass the schema, and a
// pass needs no error tree, so compile.Validator first asks a Checker
// compiled from the schema, which reads the document bytes once, in
// place, with the shared schema walker (internal/jsonwalk, reading
// JSON as encoding/json with UseNumber does) and allocates nothing on the
// way. A Checker only ever answers "certainly valid" or "not sure": it is
// built only from keywords whose meaning it reproduces (any other keyword
// leaves the Validator without one), it checks every value of a repeated
// key where the validator sees the last, and a "not sure" sends the
// document to the schema validator, whose verdict and errors are the
// answer. So a Checker can make Validate faster, never different.
type Checker struct {
	root *jsonwalk.Node // nil: the schema accepts every value
}

// NewChecker compiles the Checker of root, or returns nil when some
// reachable schema uses a keyword it does not reproduce. vacuous is what
// [Project] returned for root (which schemas accept every value); root
// must have passed Project's checks (no in-place reference cycle).
func NewChecker(root *jsonschema.Schema, vacuous map[*jsonschema.Schema]bool) *Checker {
	memo := map[*jsonschema.Schema]*jsonwalk.Node{}
	ok := true
	var build func(s *jsonschema.Schema) *jsonwalk.Node
	build = func(s *jsonschema.Schema) *jsonwalk.Node {
		if vacuous[s] {
			return nil
		}
		if n, seen := memo[s]; seen {
			return n
		}
		n := jsonwalk.NewNode()
		memo[s] = n
		if !checkerSupports(s) || len(s.Required) > 64 {
			ok = false
			return n
		}
		if s.Always != nil {
			n.Never = !*s.Always
			return n
		}
		for _, t := range s.Types {
			n.Types |= typeBits[t]
		}
		if len(s.Properties) > 0 {
			n.Props = make(map[string]*jsonwalk.Node, len(s.Properties))
			for k, x := range s.Properties {
				n.Props[k] = build(x)
			}
		}
		if a, isSchema := s.AdditionalProperties.(*jsonschema.Schema); isSchema {
			n.Additional = build(a)
		}
		n.Required = s.Required
		n.MinItems, n.MaxItems = s.MinItems, s.MaxItems
		for _, x := range s.PrefixItems {
			n.Prefix = append(n.Prefix, build(x))
		}
		if s.Items2020 != nil {
			n.Rest = build(s.Items2020)
		}
		c := &exactCheck{minLength: s.MinLength, maxLength: s.MaxLength, pattern: s.Pattern,
			minimum: s.Minimum, exclusiveMinimum: s.ExclusiveMinimum, maximum: s.Maximum, exclusiveMaximum: s.ExclusiveMaximum}
		if c.minLength != -1 || c.maxLength != -1 || c.pattern != nil ||
			c.minimum != nil || c.exclusiveMinimum != nil || c.maximum != nil || c.exclusiveMaximum != nil {
			n.Check = c
		}
		if s.Ref != nil {
			if c := build(s.Ref); c != nil {
				n.AllOf = append(n.AllOf, c)
			}
		}
		for _, x := range s.AllOf {
			if c := build(x); c != nil {
				n.AllOf = append(n.AllOf, c)
			}
		}
		for _, x := range s.AnyOf {
			c := build(x)
			if c == nil {
				// A branch that accepts everything: anyOf always holds.
				n.AnyOf = nil
				break
			}
			n.AnyOf = append(n.AnyOf, c)
		}
		return n
	}
	n := build(root)
	if !ok || jsonwalk.Seal(n) != nil {
		return nil
	}
	return &Checker{root: n}
}

var typeBits = map[string]uint8{
	"null": jsonwalk.Null, "boolean": jsonwalk.Boolean, "number": jsonwalk.Number, "integer": jsonwalk.Integer,
	"string": jsonwalk.String, "object": jsonwalk.Object, "array": jsonwalk.Array,
}

// checkerSupports reports whether the checker reproduces every keyword s
// uses.
func checkerSupports(s *jsonschema.Schema) bool {
	_, draft4Items := s.Items.([]*jsonschema.Schema)
	return refusedKeyword(s) == "" &&
		len(s.Constant) == 0 && len(s.Enum) == 0 && s.Format == "" &&
		s.Not == nil && len(s.OneOf) == 0 && s.If == nil && s.Then == nil && s.Else == nil &&
		len(s.Dependencies) == 0 && len(s.DependentRequired) == 0 && len(s.DependentSchemas) == 0 &&
		s.Items == nil && !draft4Items && s.AdditionalItems == nil &&
		s.Contains == nil && !s.UniqueItems &&
		s.ContentEncoding == "" && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.MultipleOf == nil
}

// Valid reports whether the JSON text doc certainly satisfies the schema.
func (c *Checker) Valid(doc string) bool { return jsonwalk.Valid(jsonwalk.Exact{}, c.root, doc) }

// Node is the Checker's schema for the shared walker, read as
// jsonwalk.Exact reads JSON (nil accepts every value): a walk of a text
// against it that accepts is Valid's true, so another check can walk a
// text against it beside its own schema (jsonwalk.ValidBoth).
func (c *Checker) Node() *jsonwalk.Node { return c.root }

// exactCheck is a schema's string and number keywords as the validator
// reads them: lengths in runes of the decoded string, patterns on it, and
// bounds compared exactly.
type exactCheck struct {
	minLength, maxLength                                 int
	pattern                                              *regexp.Regexp
	minimum, exclusiveMinimum, maximum, exclusiveMaximum *big.Rat
}

func (c *exactCheck) Accepts(kind uint8, raw, s string) bool {
	switch {
	case kind == jsonwalk.String:
		if c.minLength != -1 || c.maxLength != -1 {
			l := utf8.RuneCountInString(s)
			if c.minLength != -1 && l < c.minLength || c.maxLength != -1 && l > c.maxLength {
				return false
			}
		}
		return c.pattern == nil || c.pattern.MatchString(s)
	case kind&jsonwalk.Number != 0:
		if c.minimum == nil && c.exclusiveMinimum == nil && c.maximum == nil && c.exclusiveMaximum == nil {
			return true
		}
		// The exact decimal of the double the literal denotes (see
		// jsonwalk.Exact): bounded work for any spelling.
		lit, ok := jsonwalk.CanonicalNumber(raw)
		if !ok {
			return false
		}
		v, ok := new(big.Rat).SetString(lit)
		return ok &&
			(c.minimum == nil || v.Cmp(c.minimum) >= 0) &&
			(c.exclusiveMinimum == nil || v.Cmp(c.exclusiveMinimum) > 0) &&
			(c.maximum == nil || v.Cmp(c.maximum) <= 0) &&
			(c.exclusiveMaximum == nil || v.Cmp(c.exclusiveMaximum) < 0)
	}
	return true
}
