package openclawschema

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// node is one compiled schema. The OpenClaw schema has no $ref, so the
// compiled form is a tree.
type node struct {
	// never is the false schema; the true schema and {} compile to a node
	// that asserts nothing.
	never bool

	types uint8 // jsType bits; 0 = any

	// Objects.
	props      map[string]*node
	names      []string // the property names, sorted, for suggestions
	additional *node    // nil: any value; never: closed
	required   []string
	keys       *node // propertyNames
	maxProps   int   // -1: none
	walkObject bool

	// Arrays.
	items      *node   // items as one schema
	tuple      []*node // items as an array
	extraItems *node   // additionalItems after a tuple
	minItems   int
	maxItems   int
	walkArray  bool

	// Strings: lengths in UTF-16 code units, as OpenClaw's validator
	// counts them.
	minLen, maxLen int
	pattern        *pattern
	uri            bool

	// Numbers, as JavaScript reads them: float64.
	minimum, maximum, exclMin, exclMax *float64

	// enum and const, as canonical JSON text; const is enum of one.
	enum    []enumValue
	isConst bool

	allOf, anyOf, oneOf []*node

	// hasDefault: the schema states a default, which OpenClaw fills in
	// before it checks (see compileSchema).
	hasDefault bool

	// w is the node's form for the shared walker (see walkTree); nil when
	// the node asserts nothing.
	w *jsonwalk.Node
}

// The JSON types, as the shared walker names them.
const (
	jsNull    = jsonwalk.Null
	jsBoolean = jsonwalk.Boolean
	jsNumber  = jsonwalk.Number
	jsInteger = jsonwalk.Integer
	jsString  = jsonwalk.String
	jsObject  = jsonwalk.Object
	jsArray   = jsonwalk.Array
)

var typeBits = map[string]uint8{
	"null": jsNull, "boolean": jsBoolean, "number": jsNumber, "integer": jsInteger,
	"string": jsString, "object": jsObject, "array": jsArray,
}

// annotations are keywords that never decide a verdict.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"examples": true, "readOnly": true, "writeOnly": true,
}

// assertions are the draft-07 keywords the compiler implements; any
// other keyword fails the compile (see [SupportedKeywords]).
var assertions = map[string]bool{
	"type": true, "properties": true, "additionalProperties": true, "required": true,
	"propertyNames": true, "maxProperties": true,
	"items": true, "additionalItems": true, "minItems": true, "maxItems": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"enum": true, "const": true, "anyOf": true, "oneOf": true, "allOf": true,
	"default": true,
}

// formats maps each format the compiler knows to whether it asserts. The
// schema states date-time, email and starts_with with a pattern beside
// them, which is what OpenClaw checks; uri is OpenClaw's URL parse.
var formats = map[string]bool{"uri": true, "date-time": false, "email": false, "starts_with": false}

// SupportedKeywords lists, sorted, every keyword a schema may use: the
// assertions the compiler implements and the annotations it ignores. A
// schema using any other keyword, or a format or pattern feature the
// compiler does not implement, does not compile.
func SupportedKeywords() []string {
	var out []string
	for k := range assertions {
		out = append(out, k)
	}
	for k := range annotations {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type compiler struct {
	patterns map[string]*pattern
}

func compileSchema(raw []byte) (*node, error) {
	if !gjson.ValidBytes(raw) {
		return nil, fmt.Errorf("the schema is not valid JSON")
	}
	root := gjson.ParseBytes(raw)
	if s := root.Get(`\$schema`); !s.Exists() || s.String() != "http://json-schema.org/draft-07/schema#" {
		return nil, fmt.Errorf("the schema is not draft-07")
	}
	c := &compiler{patterns: map[string]*pattern{}}
	n, err := c.compile(root, "#")
	if err != nil {
		return nil, err
	}
	if err := jsonwalk.Seal(walkTree(n)); err != nil {
		return nil, err
	}
	return n, nil
}

// walkTree gives n and every node under it its form for the shared
// walker, and returns n's. A node that asserts nothing has none (the
// walker skips its value); an additionalProperties false closes its
// object; the checks of a value itself are the node's own (jsCheck).
func walkTree(n *node) *jsonwalk.Node {
	if n == nil {
		return nil
	}
	w := jsonwalk.NewNode()
	w.Never, w.Types = n.never, n.types
	if n.props != nil {
		w.Props = make(map[string]*jsonwalk.Node, len(n.props))
		for k, c := range n.props {
			w.Props[k] = walkTree(c)
		}
	}
	if n.additional != nil && n.additional.never {
		w.Closed = true
	} else {
		w.Additional = walkTree(n.additional)
	}
	w.Required = n.required
	w.Keys = walkTree(n.keys)
	w.MaxProps = n.maxProps
	if n.tuple != nil {
		for _, c := range n.tuple {
			w.Prefix = append(w.Prefix, walkTree(c))
		}
		w.Rest = walkTree(n.extraItems)
	} else {
		w.Rest = walkTree(n.items)
	}
	w.MinItems, w.MaxItems = n.minItems, n.maxItems
	if n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil || n.uri || n.enum != nil ||
		n.minimum != nil || n.maximum != nil || n.exclMin != nil || n.exclMax != nil {
		w.Check = jsCheck{n}
	}
	for _, c := range n.allOf {
		w.AllOf = append(w.AllOf, walkTree(c))
	}
	for _, c := range n.anyOf {
		w.AnyOf = append(w.AnyOf, walkTree(c))
	}
	if m := stringChoice(n.anyOf); m != nil && w.Check == nil && (w.Types == 0 || w.Types&jsString != 0) {
		// A choice among strings (zod's union of literals, as the
		// schema writes an enum): one check of the string against all of
		// them, where the walker tried each branch in turn, reading the
		// literal again for each. The branches keep their own forms
		// (walkSchema's union tries them).
		w.AnyOf, w.Types, w.Check = nil, jsString, jsCheck{m}
	}
	for _, c := range n.oneOf {
		w.OneOf = append(w.OneOf, walkTree(c))
	}
	if !w.Never && w.Types == 0 && w.Props == nil && !w.Closed && w.Additional == nil && len(w.Required) == 0 &&
		w.Keys == nil && w.MaxProps < 0 && w.Prefix == nil && w.Rest == nil && w.MinItems < 0 && w.MaxItems < 0 &&
		w.Check == nil && w.AllOf == nil && w.AnyOf == nil && w.OneOf == nil {
		return nil
	}
	n.w = w
	return w
}

// stringChoice is the node asserting what anyOf of branches does when
// each branch is only an enum (or a const) of strings, maybe typed
// string: a string among all of theirs, in one enum. It is nil for any
// other branches.
func stringChoice(branches []*node) *node {
	if len(branches) == 0 {
		return nil
	}
	m := &node{maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	for _, c := range branches {
		if !stringEnum(c) {
			return nil
		}
		m.enum = append(m.enum, c.enum...)
	}
	return m
}

// stringEnum reports whether n asserts only that a value is one of its
// enum's strings (its type, if named, string).
func stringEnum(n *node) bool {
	if n == nil || n.never || n.enum == nil || n.types != 0 && n.types != jsString {
		return false
	}
	for _, e := range n.enum {
		if !e.isString {
			return false
		}
	}
	w := n.w
	return w != nil && w.Types == n.types && w.Check != nil &&
		w.Props == nil && !w.Closed && w.Additional == nil && len(w.Required) == 0 && w.Keys == nil && w.MaxProps < 0 &&
		w.Prefix == nil && w.Rest == nil && w.MinItems < 0 && w.MaxItems < 0 &&
		w.AllOf == nil && w.AnyOf == nil && w.OneOf == nil &&
		n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.uri &&
		n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil
}

// jsCheck is a node's checks of a value itself: string lengths in UTF-16
// code units, ECMAScript patterns and the uri format, float64 bounds, and
// its enum or const.
type jsCheck struct{ n *node }

func (c jsCheck) Accepts(kind uint8, raw, s string) bool {
	switch {
	case kind == jsString && !c.n.stringOK(s):
		return false
	case kind&jsNumber != 0 && !c.n.numberOK(raw):
		return false
	case c.n.enum == nil:
		return true
	case kind == jsString:
		for _, e := range c.n.enum {
			if e.isString && e.str == s {
				return true
			}
		}
		return false
	}
	return c.n.inEnum(gjson.Parse(raw))
}

func (c *compiler) compile(s gjson.Result, at string) (*node, error) {
	n := &node{maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	switch s.Type {
	case gjson.True:
		return n, nil
	case gjson.False:
		n.never = true
		return n, nil
	}
	if !s.IsObject() {
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean", at)
	}
	var err error
	sub := func(key string, v gjson.Result) *node {
		if err != nil {
			return nil
		}
		var x *node
		x, err = c.compile(v, at+"/"+key)
		return x
	}
	list := func(key string, v gjson.Result) []*node {
		if !v.IsArray() || len(v.Array()) == 0 {
			err = fmt.Errorf("%s/%s must be a non-empty array", at, key)
			return nil
		}
		var out []*node
		for i, x := range v.Array() {
			out = append(out, sub(key+"/"+strconv.Itoa(i), x))
		}
		return out
	}
	count := func(key string, v gjson.Result) int {
		f := v.Float()
		if v.Type != gjson.Number || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
			err = fmt.Errorf("%s/%s must be a non-negative integer", at, key)
			return 0
		}
		return int(f)
	}
	bound := func(key string, v gjson.Result) *float64 {
		if v.Type != gjson.Number {
			err = fmt.Errorf("%s/%s must be a number", at, key)
			return nil
		}
		f := v.Float()
		return &f
	}
	s.ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		switch key {
		case "type":
			names := []gjson.Result{v}
			if v.IsArray() {
				names = v.Array()
			}
			for _, t := range names {
				bit, ok := typeBits[t.String()]
				if t.Type != gjson.String || !ok {
					err = fmt.Errorf("%s/type: unknown type", at)
					break
				}
				n.types |= bit
			}
		case "properties":
			if !v.IsObject() {
				err = fmt.Errorf("%s/properties must be an object", at)
				break
			}
			n.props = map[string]*node{}
			v.ForEach(func(pk, pv gjson.Result) bool {
				name := pk.String()
				n.props[name] = sub("properties/"+name, pv)
				n.names = append(n.names, name)
				return err == nil
			})
			sort.Strings(n.names)
		case "additionalProperties":
			n.additional = sub(key, v)
		case "required":
			if !v.IsArray() {
				err = fmt.Errorf("%s/required must be an array", at)
				break
			}
			for _, r := range v.Array() {
				n.required = append(n.required, r.String())
			}
		case "propertyNames":
			n.keys = sub(key, v)
		case "maxProperties":
			n.maxProps = count(key, v)
		case "items":
			if v.IsArray() {
				n.tuple = list(key, v)
			} else {
				n.items = sub(key, v)
			}
		case "additionalItems":
			n.extraItems = sub(key, v)
		case "minItems":
			n.minItems = count(key, v)
		case "maxItems":
			n.maxItems = count(key, v)
		case "minLength":
			n.minLen = count(key, v)
		case "maxLength":
			n.maxLen = count(key, v)
		case "pattern":
			src := v.String()
			p, ok := c.patterns[src]
			if !ok {
				var perr error
				if p, perr = compilePattern(src); perr != nil {
					err = fmt.Errorf("%s/pattern: %v", at, perr)
					break
				}
				c.patterns[src] = p
			}
			n.pattern = p
		case "format":
			asserting, known := formats[v.String()]
			if !known {
				err = fmt.Errorf("%s/format: unsupported format %q", at, v.String())
				break
			}
			n.uri = asserting
		case "minimum":
			n.minimum = bound(key, v)
		case "maximum":
			n.maximum = bound(key, v)
		case "exclusiveMinimum":
			n.exclMin = bound(key, v)
		case "exclusiveMaximum":
			n.exclMax = bound(key, v)
		case "enum":
			if !v.IsArray() {
				err = fmt.Errorf("%s/enum must be an array", at)
				break
			}
			for _, e := range v.Array() {
				n.enum = append(n.enum, newEnumValue(e))
			}
		case "const":
			n.enum = []enumValue{newEnumValue(v)}
			n.isConst = true
		case "anyOf":
			n.anyOf = list(key, v)
		case "oneOf":
			n.oneOf = list(key, v)
		case "allOf":
			n.allOf = list(key, v)
		case "default":
			n.hasDefault = true
		default:
			if !annotations[key] {
				err = fmt.Errorf("%s: unsupported keyword %q", at, key)
			}
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if _, hasEnum := s.Map()["enum"]; hasEnum && s.Get("const").Exists() {
		return nil, fmt.Errorf("%s: enum beside const", at)
	}
	// A required property with a default is filled in by OpenClaw's
	// validator before anything is checked (zod's defaults in the core,
	// applied defaults for channel and plugin sections), so OpenClaw
	// accepts a document without it.
	if len(n.required) > 0 {
		var req []string
		for _, k := range n.required {
			if p := n.props[k]; p == nil || !p.hasDefault {
				req = append(req, k)
			}
		}
		n.required = req
	}
	n.walkObject = n.props != nil || n.additional != nil || len(n.required) > 0 || n.keys != nil || n.maxProps >= 0
	n.walkArray = n.items != nil || n.tuple != nil || n.extraItems != nil || n.minItems >= 0 || n.maxItems >= 0
	return n, nil
}

// enumValue is one value of an enum or a const: a string as itself,
// anything else as canonical JSON text.
type enumValue struct {
	isString bool
	str      string
	text     string
}

func newEnumValue(v gjson.Result) enumValue {
	if v.Type == gjson.String {
		return enumValue{isString: true, str: v.String(), text: canonical(v)}
	}
	return enumValue{text: canonical(v)}
}

// canonical is the JSON text of v with object keys sorted and numbers as
// JavaScript prints them, so equal values compare equal as strings.
func canonical(v gjson.Result) string {
	var b strings.Builder
	writeCanonical(&b, v)
	return b.String()
}

func writeCanonical(b *strings.Builder, v gjson.Result) {
	switch {
	case v.IsObject():
		m := map[string]gjson.Result{}
		var keys []string
		v.ForEach(func(k, x gjson.Result) bool {
			name := k.String()
			if _, dup := m[name]; !dup {
				keys = append(keys, name)
			}
			m[name] = x // JSON.parse keeps the last
			return true
		})
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeCanonical(b, m[k])
		}
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for i, x := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, x)
		}
		b.WriteByte(']')
	case v.Type == gjson.String:
		b.WriteString(strconv.Quote(v.String()))
	case v.Type == gjson.Number:
		f, _ := strconv.ParseFloat(strings.TrimSpace(v.Raw), 64)
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	case v.Type == gjson.True:
		b.WriteString("true")
	case v.Type == gjson.False:
		b.WriteString("false")
	default:
		b.WriteString("null")
	}
}
