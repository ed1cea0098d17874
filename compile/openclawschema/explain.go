package openclawschema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// maxIssues bounds the refusals one document reports.
const maxIssues = 50

// maxListed bounds the accepted values one refusal lists.
const maxListed = 8

// explainer collects the refusals of a document that [node.valid]
// refused, placed as OpenClaw places them (see the package doc).
type explainer struct {
	version string
	issues  []error
	// aborted: some refusal is of a kind that, in OpenClaw's validator,
	// stops a union from looking into the branch (a type, a missing key,
	// a value outside an enum or a union); unknown keys and the checks on
	// a value of the right type do not.
	aborted bool
}

func (e *explainer) add(at occkit.Path, format string, args ...any) {
	e.addSuggested(at, "", format, args...)
}

// addSuggested is add for a refusal whose did-you-mean is suggestion (its
// Suggestion; "" for none).
func (e *explainer) addSuggested(at occkit.Path, suggestion, format string, args ...any) {
	if len(e.issues) < maxIssues {
		issue := occkit.Invalid(Rule, at, format, args...)
		issue.Suggestion = suggestion
		e.issues = append(e.issues, issue)
	}
}

// fatal is add for a refusal that aborts a union branch.
func (e *explainer) fatal(at occkit.Path, format string, args ...any) {
	e.fatalSuggested(at, "", format, args...)
}

// fatalSuggested is fatal with a did-you-mean (see addSuggested).
func (e *explainer) fatalSuggested(at occkit.Path, suggestion, format string, args ...any) {
	e.aborted = true
	e.addSuggested(at, suggestion, format, args...)
}

func name(at occkit.Path) string {
	if at.IsRoot() {
		return "the document"
	}
	return at.String()
}

// explain adds the refusals of r against n at the path at.
func (e *explainer) explain(n *node, r gjson.Result, at occkit.Path) {
	if n.never {
		e.fatal(at, "OpenClaw %s accepts no value at %s", e.version, name(at))
		return
	}
	if n.types != 0 && n.types&typeOf(r) == 0 {
		e.fatal(at, "%s must be %s (OpenClaw %s)", name(at), typeNames(n.types), e.version)
		return
	}
	switch r.Type {
	case gjson.JSON:
		if r.Raw[0] == '{' {
			e.explainObject(n, r, at)
		} else {
			e.explainArray(n, r, at)
		}
	case gjson.String:
		e.explainString(n, r, at)
	case gjson.Number:
		if !n.validNumber(r) {
			e.add(at, "%s is out of the range OpenClaw %s accepts (%s)", name(at), e.version, rangeText(n))
		}
	}
	if n.enum != nil && !n.inEnum(r) {
		if n.isConst {
			e.fatal(at, "%s must be %s (OpenClaw %s)", name(at), n.enum[0].text, e.version)
		} else {
			e.fatalSuggested(at, valueSuggestion(r, n.enum), "%s is not a value OpenClaw %s accepts%s; accepted: %s", name(at), e.version, valueHint(r, n.enum), listValues(n.enum))
		}
	}
	for _, c := range n.allOf {
		if !c.valid(r) {
			e.explain(c, r, at)
		}
	}
	if n.anyOf != nil && !anyValid(n.anyOf, r) {
		e.explainUnion(n.anyOf, r, at, false)
	}
	if n.oneOf != nil {
		matched := 0
		for _, c := range n.oneOf {
			if c.valid(r) {
				matched++
			}
		}
		switch {
		case matched == 0:
			e.explainUnion(n.oneOf, r, at, true)
		case matched > 1:
			e.fatal(at, "%s matches more than one of the shapes OpenClaw %s accepts there", name(at), e.version)
		}
	}
}

func anyValid(ns []*node, r gjson.Result) bool {
	for _, c := range ns {
		if c.valid(r) {
			return true
		}
	}
	return false
}

// explainUnion reports a value no branch accepts, placing the refusal
// as OpenClaw's validator does. Branches refused for the value's type are
// set aside, and so are object branches whose discriminator (a property
// with a const value) the value sets to something else. When one branch
// is left, and it was chosen by its discriminator, or the union is a
// discriminated one (oneOf), or its refusals do not abort it, its own
// refusals are the answer (so a typo inside the object form of a
// string-or-object setting is named where it is); otherwise the union
// itself is refused at its path.
func (e *explainer) explainUnion(branches []*node, r gjson.Result, at occkit.Path, discriminated bool) {
	var left []*node
	var values []enumValue
	literals := true
	for _, c := range branches {
		if c.typeFits(r) {
			left = append(left, c)
		}
		if c.enum == nil {
			literals = false
		}
		values = append(values, c.enum...)
	}
	chosen := false
	if len(left) > 1 && r.IsObject() {
		keys := discriminators(left)
		var keep []*node
		for _, c := range left {
			if c.discriminatorFits(r, keys) {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 && discriminated && len(keys) > 0 {
			k := keys[0]
			var values []enumValue
			for _, c := range left {
				values = append(values, c.props[k].enum...)
			}
			e.fatalSuggested(at.Key(k), valueSuggestion(r.Get(gjson.Escape(k)), values), "%s is not a value OpenClaw %s accepts%s; accepted: %s", at.Key(k).String(), e.version, valueHint(r.Get(gjson.Escape(k)), values), listValues(values))
			return
		}
		if len(keep) == 1 && len(keep) < len(left) {
			left, chosen = keep, true
		}
	}
	if len(left) > 1 && !literals {
		// As OpenClaw's validator: when exactly one branch fails without
		// aborting, its refusals are the answer.
		var open *explainer
		count := 0
		for _, c := range left {
			sub := &explainer{version: e.version}
			sub.explain(c, r, at)
			if !sub.aborted {
				open = sub
				count++
			}
		}
		if count == 1 {
			for _, is := range open.issues {
				if len(e.issues) < maxIssues {
					e.issues = append(e.issues, is)
				}
			}
			return
		}
	}
	if len(left) == 1 && !(literals && len(branches) > 1) {
		sub := &explainer{version: e.version}
		sub.explain(left[0], r, at)
		if chosen || discriminated || !sub.aborted {
			e.aborted = e.aborted || sub.aborted
			for _, is := range sub.issues {
				if len(e.issues) < maxIssues {
					e.issues = append(e.issues, is)
				}
			}
			return
		}
	}
	if literals {
		e.fatalSuggested(at, valueSuggestion(r, values), "%s is not a value OpenClaw %s accepts%s; accepted: %s", name(at), e.version, valueHint(r, values), listValues(values))
		return
	}
	var types uint8
	for _, c := range branches {
		types |= c.typesDeep()
	}
	if len(left) == 0 && types != 0 {
		e.fatal(at, "%s must be %s (OpenClaw %s)", name(at), typeNames(types), e.version)
		return
	}
	e.fatal(at, "%s matches none of the shapes OpenClaw %s accepts there", name(at), e.version)
}

// discriminators are the keys every branch of bs gives a const value:
// the properties a discriminated union chooses its branch by, sorted.
func discriminators(bs []*node) []string {
	var keys []string
	for _, k := range bs[0].names {
		all := true
		for _, c := range bs {
			p := c.props[k]
			all = all && p != nil && p.isConst
		}
		if all {
			keys = append(keys, k)
		}
	}
	return keys
}

// discriminatorFits reports whether object r sets none of the keys to a
// value other than n's.
func (n *node) discriminatorFits(r gjson.Result, keys []string) bool {
	for _, k := range keys {
		if v := r.Get(gjsonKey(k)); v.Exists() && !n.props[k].inEnum(v) {
			return false
		}
	}
	return true
}

// gjsonKey escapes a key for a gjson path.
func gjsonKey(k string) string {
	var b strings.Builder
	for _, c := range k {
		if strings.ContainsRune(`.*?|#@!\:{}[]()=<>"`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// typeFits reports whether r has a type n (or, for a union, one of its
// branches) names; a schema naming no type fits any value.
func (n *node) typeFits(r gjson.Result) bool {
	if n.never {
		return false
	}
	if n.types != 0 && n.types&typeOf(r) == 0 {
		return false
	}
	if n.anyOf != nil || n.oneOf != nil {
		for _, c := range append(append([]*node(nil), n.anyOf...), n.oneOf...) {
			if c.typeFits(r) {
				return true
			}
		}
		return false
	}
	return true
}

// typesDeep is the set of types n accepts, 0 for any.
func (n *node) typesDeep() uint8 {
	if n.types != 0 {
		return n.types
	}
	var t uint8
	for _, c := range append(append([]*node(nil), n.anyOf...), n.oneOf...) {
		ct := c.typesDeep()
		if ct == 0 {
			return 0
		}
		t |= ct
	}
	return t
}

func (e *explainer) explainObject(n *node, r gjson.Result, at occkit.Path) {
	count := 0
	r.ForEach(func(k, v gjson.Result) bool {
		count++
		key := keyOf(k)
		c, allowed := n.child(key)
		if !allowed {
			if s := suggest(key, n.names); s != "" {
				e.addSuggested(at.Key(key), at.Key(s).String(), "OpenClaw %s does not accept the key %s here; did you mean %s?", e.version, quoteKey(key), at.Key(s).String())
			} else {
				e.add(at.Key(key), "OpenClaw %s does not accept the key %s here", e.version, quoteKey(key))
			}
			return true
		}
		if n.keys != nil && !n.keys.valid(k) {
			e.add(at.Key(key), "OpenClaw %s does not accept %s as a key under %s", e.version, quoteKey(key), name(at))
		}
		if c != nil && !c.valid(v) {
			e.explain(c, v, at.Key(key))
		}
		return true
	})
	if n.maxProps >= 0 && count > n.maxProps {
		e.add(at, "%s has more than the %d keys OpenClaw %s accepts", name(at), n.maxProps, e.version)
	}
	for _, req := range n.required {
		if !has(r, req) {
			e.fatal(at.Key(req), "OpenClaw %s requires %s", e.version, at.Key(req).String())
		}
	}
}

func (e *explainer) explainArray(n *node, r gjson.Result, at occkit.Path) {
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		if c := n.itemSchema(i); c != nil && !c.valid(v) {
			e.explain(c, v, at.Index(i))
		}
		i++
		return true
	})
	if n.minItems >= 0 && i < n.minItems {
		e.add(at, "%s must hold at least %d items (OpenClaw %s)", name(at), n.minItems, e.version)
	}
	if n.maxItems >= 0 && i > n.maxItems {
		e.add(at, "%s must hold at most %d items (OpenClaw %s)", name(at), n.maxItems, e.version)
	}
}

func (e *explainer) explainString(n *node, r gjson.Result, at occkit.Path) {
	s := r.String()
	l := utf16Len(s)
	if n.minLen >= 0 && l < n.minLen {
		e.add(at, "%s must be at least %d characters long (OpenClaw %s)", name(at), n.minLen, e.version)
	}
	if n.maxLen >= 0 && l > n.maxLen {
		e.add(at, "%s must be at most %d characters long (OpenClaw %s)", name(at), n.maxLen, e.version)
	}
	if n.pattern != nil && !n.pattern.match(s) {
		e.add(at, "%s does not have the form OpenClaw %s accepts there", name(at), e.version)
	}
	if n.uri && !validURL(s) {
		e.add(at, "%s must be a URL (OpenClaw %s)", name(at), e.version)
	}
}

// quoteKey quotes a key for a message; a key is the setting's own name.
func quoteKey(k string) string { return fmt.Sprintf("%q", k) }

func typeNames(t uint8) string {
	var out []string
	for _, x := range []struct {
		bit  uint8
		name string
	}{{jsObject, "an object"}, {jsArray, "an array"}, {jsString, "a string"}, {jsNumber, "a number"}, {jsInteger, "an integer"}, {jsBoolean, "a boolean"}, {jsNull, "null"}} {
		if t&x.bit != 0 && !(x.bit == jsInteger && t&jsNumber != 0) {
			out = append(out, x.name)
		}
	}
	switch len(out) {
	case 0:
		return "a JSON value"
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

func rangeText(n *node) string {
	var parts []string
	f := func(p *float64) string { return fmt.Sprintf("%v", *p) }
	if n.minimum != nil {
		parts = append(parts, "at least "+f(n.minimum))
	}
	if n.exclMin != nil {
		parts = append(parts, "above "+f(n.exclMin))
	}
	if n.maximum != nil {
		parts = append(parts, "at most "+f(n.maximum))
	}
	if n.exclMax != nil {
		parts = append(parts, "below "+f(n.exclMax))
	}
	return strings.Join(parts, ", ")
}

// listValues lists a schema's accepted values, sorted, at most maxListed.
func listValues(vs []enumValue) string {
	seen := map[string]bool{}
	var texts []string
	for _, v := range vs {
		if !seen[v.text] {
			seen[v.text] = true
			texts = append(texts, v.text)
		}
	}
	sort.Strings(texts)
	if len(texts) > maxListed {
		return strings.Join(texts[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(texts)-maxListed)
	}
	return strings.Join(texts, ", ")
}

// valueHint is " (did you mean X?)" when the string r is a typo of one of
// the accepted string values vs (X is the schema's value, quoted as
// listValues quotes it), else "". It quotes nothing of the document.
func valueHint(r gjson.Result, vs []enumValue) string {
	s := valueSuggestion(r, vs)
	if s == "" {
		return ""
	}
	for _, v := range vs {
		if v.isString && v.str == s {
			return " (did you mean " + v.text + "?)"
		}
	}
	return ""
}

// valueSuggestion is the accepted string value of vs the string r is a
// typo of ([occkit.Suggest]), or "".
func valueSuggestion(r gjson.Result, vs []enumValue) string {
	if r.Type != gjson.String {
		return ""
	}
	var strs []string
	for _, v := range vs {
		if v.isString {
			strs = append(strs, v.str)
		}
	}
	return occkit.Suggest(r.Str, strs)
}

// suggest is the key of names closest to key by edit distance, when it
// is close enough to be a typo ([occkit.Suggest]).
func suggest(key string, names []string) string { return occkit.Suggest(key, names) }
