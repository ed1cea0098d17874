package schemacheck

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// DOC-5 projection. The schema leaves objects open and asserts the types
// of a few settings, so its verdict depends on a small part of a
// Configuration. A projection, derived once from the compiled schema, says
// which keys and elements each position of an instance can be looked at
// by; the validator then sees the instance pruned to those parts, built
// straight from the document bytes. The verdict and every error path are
// those of validating the whole document, because:
//
//   - a key is dropped only when every schema that applies to its value
//     (properties, additionalProperties, through $ref, allOf, anyOf, oneOf,
//     not, if/then/else, dependentSchemas) accepts every value and the
//     key's presence is asked by nobody (required, dependentRequired,
//     dependencies, dependentSchemas name the keys they ask about);
//   - arrays keep their length, and a dropped element becomes null;
//   - a value kept has its JSON type, and a scalar kept is decoded as
//     encoding/json with UseNumber decodes it;
//   - a position where some schema compares whole values (enum or const
//     with an object or array, uniqueItems, format) keeps its whole value;
//   - a schema whose outcome depends on keys it does not name
//     (minProperties, maxProperties, propertyNames, patternProperties,
//     additionalProperties false, unevaluatedProperties, unevaluatedItems),
//     dynamic references, extensions or an in-place reference cycle make
//     the projection refuse: compile.Validator then validates the whole
//     document.

// Projection is the projection at one position of an instance (the
// root's is what [Project] returns). A nil *Projection drops the value;
// presence keeps a key with a null value.
type Projection struct {
	full   bool                   // keep the whole value
	named  map[string]*Projection // keys some schema names; nil value drops
	other  *Projection            // keys no schema names; nil drops them
	prefix []*Projection          // elements by index
	rest   *Projection            // elements after prefix
}

// presence keeps a key whose value no schema looks at but whose presence
// one asks about.
var presence = &Projection{}

// Project derives the projection of root, or reports why it cannot.
// vacuous holds every schema reachable from root, true when it accepts
// every value.
func Project(root *jsonschema.Schema) (n *Projection, vacuous map[*jsonschema.Schema]bool, err error) {
	p := &projector{memo: map[string]*Projection{}, vacuous: map[*jsonschema.Schema]bool{}}
	if err := p.check(root); err != nil {
		return nil, nil, err
	}
	p.fixVacuity()
	n = p.node([]*jsonschema.Schema{root})
	if n == nil {
		// The schema accepts everything: keep the root's type only.
		n = &Projection{}
	}
	return n, p.vacuous, nil
}

type projector struct {
	memo    map[string]*Projection
	vacuous map[*jsonschema.Schema]bool // every schema reachable, true while it accepts every value
}

// inPlace lists the subschemas that apply to the same instance as s.
func inPlace(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(xs ...*jsonschema.Schema) {
		for _, x := range xs {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	add(s.Ref, s.Not, s.If, s.Then, s.Else)
	add(s.AllOf...)
	add(s.AnyOf...)
	add(s.OneOf...)
	for _, k := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
		add(s.DependentSchemas[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
		if d, ok := s.Dependencies[k].(*jsonschema.Schema); ok {
			add(d)
		}
	}
	return out
}

// children lists the subschemas that apply to parts of the instance.
func children(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(xs ...*jsonschema.Schema) {
		for _, x := range xs {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		add(s.Properties[k])
	}
	if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		add(a)
	}
	switch it := s.Items.(type) {
	case *jsonschema.Schema:
		add(it)
	case []*jsonschema.Schema:
		add(it...)
	}
	if a, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
		add(a)
	}
	add(s.PrefixItems...)
	add(s.Items2020, s.Contains, s.ContentSchema)
	return out
}

// check walks every reachable schema, refuses the keywords the projection
// cannot honour, and refuses in-place reference cycles (the validator
// reports those as a loop wherever they apply, kept or not).
func (p *projector) check(root *jsonschema.Schema) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[*jsonschema.Schema]int{}
	var inPlaceWalk func(s *jsonschema.Schema) error
	inPlaceWalk = func(s *jsonschema.Schema) error {
		switch state[s] {
		case visiting:
			return fmt.Errorf("in-place reference cycle at %s", s.Location)
		case done:
			return nil
		}
		state[s] = visiting
		for _, x := range inPlace(s) {
			if err := inPlaceWalk(x); err != nil {
				return err
			}
		}
		state[s] = done
		return nil
	}
	queue := []*jsonschema.Schema{root}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if _, seen := p.vacuous[s]; seen {
			continue
		}
		p.vacuous[s] = true
		if kw := refusedKeyword(s); kw != "" {
			return fmt.Errorf("%s uses %s", s.Location, kw)
		}
		if err := inPlaceWalk(s); err != nil {
			return err
		}
		queue = append(queue, inPlace(s)...)
		queue = append(queue, children(s)...)
	}
	return nil
}

// refusedKeyword names a keyword of s whose outcome depends on parts of
// the instance no schema names, or "".
func refusedKeyword(s *jsonschema.Schema) string {
	switch {
	case s.MinProperties != -1:
		return "minProperties"
	case s.MaxProperties != -1:
		return "maxProperties"
	case s.PropertyNames != nil:
		return "propertyNames"
	case len(s.PatternProperties) > 0:
		return "patternProperties"
	case s.RegexProperties:
		return "regexProperties"
	case s.AdditionalProperties == false:
		return "additionalProperties false"
	case s.UnevaluatedProperties != nil:
		return "unevaluatedProperties"
	case s.UnevaluatedItems != nil:
		return "unevaluatedItems"
	case s.RecursiveRef != nil || s.RecursiveAnchor:
		return "$recursiveRef"
	case s.DynamicRef != nil || s.DynamicAnchor != "":
		return "$dynamicRef"
	case len(s.Extensions) > 0:
		return "an extension keyword"
	}
	return ""
}

// asserts reports whether s itself (its subschemas aside) can refuse some
// value.
func asserts(s *jsonschema.Schema) bool {
	if s.Always != nil {
		return !*s.Always
	}
	_, draft4Items := s.Items.([]*jsonschema.Schema)
	return len(s.Types) > 0 || len(s.Constant) > 0 || len(s.Enum) > 0 || s.Format != "" ||
		len(s.OneOf) > 0 || s.Not != nil ||
		len(s.Required) > 0 || len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 ||
		s.MinItems != -1 || s.MaxItems != -1 || s.UniqueItems || draft4Items ||
		s.AdditionalItems == false || s.Contains != nil ||
		s.MinLength != -1 || s.MaxLength != -1 || s.Pattern != nil ||
		s.ContentEncoding != "" || s.ContentMediaType != "" || s.ContentSchema != nil ||
		s.Minimum != nil || s.ExclusiveMinimum != nil || s.Maximum != nil ||
		s.ExclusiveMaximum != nil || s.MultipleOf != nil
}

// fixVacuity settles which schemas accept every value: the greatest fixed
// point, so a reference cycle with no assertion on it stays vacuous.
func (p *projector) fixVacuity() {
	for changed := true; changed; {
		changed = false
		for s, vac := range p.vacuous {
			if !vac {
				continue
			}
			bad := asserts(s)
			for _, x := range append(inPlace(s), children(s)...) {
				bad = bad || !p.vacuous[x]
			}
			if bad {
				p.vacuous[s] = false
				changed = true
			}
		}
	}
}

// Closure adds the in-place subschemas of set, without duplicates, in a
// stable order.
func Closure(set []*jsonschema.Schema) []*jsonschema.Schema {
	seen := map[*jsonschema.Schema]bool{}
	var out []*jsonschema.Schema
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		for _, x := range inPlace(s) {
			walk(x)
		}
	}
	for _, s := range set {
		walk(s)
	}
	return out
}

func setKey(set []*jsonschema.Schema) string {
	ks := make([]string, len(set))
	for i, s := range set {
		ks[i] = fmt.Sprintf("%p", s)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// node is the projection of the positions the schemas of set apply to.
func (p *projector) node(set []*jsonschema.Schema) *Projection {
	set = Closure(set)
	key := setKey(set)
	if n, ok := p.memo[key]; ok {
		return n
	}
	vac := true
	for _, s := range set {
		vac = vac && p.vacuous[s]
	}
	if vac {
		p.memo[key] = nil
		return nil
	}
	n := &Projection{}
	p.memo[key] = n
	for _, s := range set {
		if s.UniqueItems || s.Format != "" || !scalars(s.Constant) || !scalars(s.Enum) {
			n.full = true
			return n
		}
	}

	// Objects: the keys any schema names, and the keys none does.
	names := map[string]bool{} // name → its presence is asked about
	for _, s := range set {
		for k := range s.Properties {
			if _, ok := names[k]; !ok {
				names[k] = false
			}
		}
		for _, k := range s.Required {
			names[k] = true
		}
		for k, deps := range s.DependentRequired {
			names[k] = true
			for _, d := range deps {
				names[d] = true
			}
		}
		for k, d := range s.Dependencies {
			names[k] = true
			if deps, ok := d.([]string); ok {
				for _, d := range deps {
					names[d] = true
				}
			}
		}
		for k := range s.DependentSchemas {
			names[k] = true
		}
	}
	var others []*jsonschema.Schema
	for _, s := range set {
		if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			others = append(others, a)
		}
	}
	n.other = p.node(others)
	for _, k := range slices.Sorted(maps.Keys(names)) {
		var sub []*jsonschema.Schema
		for _, s := range set {
			if x, ok := s.Properties[k]; ok {
				sub = append(sub, x)
			} else if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				sub = append(sub, a)
			}
		}
		c := p.node(sub)
		if c == nil && names[k] {
			c = presence
		}
		if c != nil || n.other != nil {
			if n.named == nil {
				n.named = map[string]*Projection{}
			}
			n.named[k] = c
		}
	}

	// Arrays: elements by index, then the rest.
	prefix := 0
	for _, s := range set {
		prefix = max(prefix, len(s.PrefixItems))
		if it, ok := s.Items.([]*jsonschema.Schema); ok {
			prefix = max(prefix, len(it))
		}
	}
	elem := func(i int) []*jsonschema.Schema {
		var sub []*jsonschema.Schema
		for _, s := range set {
			if i >= 0 && i < len(s.PrefixItems) {
				sub = append(sub, s.PrefixItems[i])
			} else if s.Items2020 != nil {
				sub = append(sub, s.Items2020)
			}
			switch it := s.Items.(type) {
			case *jsonschema.Schema:
				sub = append(sub, it)
			case []*jsonschema.Schema:
				if i >= 0 && i < len(it) {
					sub = append(sub, it[i])
				} else if a, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
					sub = append(sub, a)
				}
			}
			if s.Contains != nil {
				sub = append(sub, s.Contains)
			}
		}
		return sub
	}
	for i := 0; i < prefix; i++ {
		n.prefix = append(n.prefix, p.node(elem(i)))
	}
	n.rest = p.node(elem(-1))
	return n
}

// scalars reports whether no value of vs is an object or an array: a kept
// object or array never equals a scalar, pruned or not.
func scalars(vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// Prune builds the instance n can look at from r, as encoding/json with
// UseNumber would decode it, each number spelled as jsonwalk.Exact reads
// it.
func (n *Projection) Prune(r gjson.Result) any {
	if n == presence {
		return nil
	}
	switch r.Type {
	case gjson.JSON:
		if n.full {
			return DecodeAll(r)
		}
		if r.Raw[0] == '{' {
			m := map[string]any{}
			r.ForEach(func(k, v gjson.Result) bool {
				name := decodeKey(k)
				c, named := n.named[name]
				if !named {
					c = n.other
				}
				if c != nil {
					m[name] = c.Prune(v)
				}
				return true
			})
			return m
		}
		a := []any{}
		i := 0
		r.ForEach(func(_, v gjson.Result) bool {
			c := n.rest
			if i < len(n.prefix) {
				c = n.prefix[i]
			}
			var e any
			if c != nil {
				e = c.Prune(v)
			}
			a = append(a, e)
			i++
			return true
		})
		return a
	}
	return decodeScalar(r)
}

// DecodeAll decodes r whole, as encoding/json with UseNumber does (each
// number spelled as jsonwalk.Exact reads it): a key
// repeated keeps its last value.
func DecodeAll(r gjson.Result) any {
	if r.Type != gjson.JSON {
		return decodeScalar(r)
	}
	if r.Raw[0] == '{' {
		m := map[string]any{}
		r.ForEach(func(k, v gjson.Result) bool {
			m[decodeKey(k)] = DecodeAll(v)
			return true
		})
		return m
	}
	a := []any{}
	r.ForEach(func(_, v gjson.Result) bool {
		a = append(a, DecodeAll(v))
		return true
	})
	return a
}

func decodeScalar(r gjson.Result) any {
	switch r.Type {
	case gjson.String:
		return decodeString(r.Raw)
	case gjson.Number:
		// The double the literal denotes, as jsonwalk.Exact reads it; a
		// literal beyond a double (never in a Document) stays as written.
		if c, ok := jsonwalk.CanonicalNumber(r.Raw); ok {
			return json.Number(c)
		}
		return json.Number(strings.TrimSpace(r.Raw))
	case gjson.True:
		return true
	case gjson.False:
		return false
	}
	return nil
}

func decodeKey(k gjson.Result) string { return decodeString(k.Raw) }

// decodeString unquotes a JSON string literal exactly as encoding/json
// does (jsonwalk.DecodeExact, the fast check's reading).
func decodeString(raw string) string {
	raw = strings.TrimSpace(raw)
	return jsonwalk.DecodeExact(raw, strings.IndexByte(raw, '\\') >= 0)
}
