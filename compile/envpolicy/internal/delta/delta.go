// Package delta stores the environment-variable policy of a carried
// OpenClaw release other than the base release (the newest) as what its
// data, as gen.mjs writes it, changes from the base's. Package envpolicy
// applies a delta when a release is first asked for; command gendata
// writes them.
//
// The data is a tree of objects whose leaves are strings and sorted lists
// of strings, so a [Change] names the keys that lead to a member and says
// what became of it: the strings its list gains and loses, its new text,
// or that the release has no such member. [Apply] of [Diff] gives the
// target's tree back (a property the package tests); key order is not
// kept, which no reader of the data depends on.
package delta

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// Delta is one release's data as changes to the base release's. The
// "release" member is not diffed: Delta.Release is the release.
type Delta struct {
	Release string   `json:"release"`
	Base    string   `json:"base"`
	Changes []Change `json:"changes"`
}

// Change is one member that differs from the base.
type Change struct {
	Path []string `json:"path"`
	Add  []string `json:"add,omitempty"`
	Del  []string `json:"del,omitempty"`
	Set  *string  `json:"set,omitempty"`
	Drop bool     `json:"drop,omitempty"`
}

// Diff returns the delta that rebuilds target (a release's data) from
// base. Both must be data as gen.mjs writes it: objects (none empty),
// strings and lists of strings, each list sorted without repeats.
func Diff(base, target []byte) (Delta, error) {
	var b, t map[string]any
	if err := json.Unmarshal(base, &b); err != nil {
		return Delta{}, err
	}
	if err := json.Unmarshal(target, &t); err != nil {
		return Delta{}, err
	}
	d := Delta{Release: str(t["release"]), Base: str(b["release"]), Changes: []Change{}}
	delete(b, "release")
	delete(t, "release")
	var err error
	d.Changes, err = diffObject(d.Changes, b, t, nil)
	return d, err
}

func str(v any) string { s, _ := v.(string); return s }

func diffObject(out []Change, b, t map[string]any, at []string) ([]Change, error) {
	keys := make([]string, 0, len(b)+len(t))
	for k := range b {
		keys = append(keys, k)
	}
	for k := range t {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := append(slices.Clip(at), k)
		bv, inBase := b[k]
		tv, inTarget := t[k]
		if !inTarget {
			out = append(out, Change{Path: path, Drop: true})
			continue
		}
		var err error
		switch tv := tv.(type) {
		case map[string]any:
			if len(tv) == 0 {
				return nil, fmt.Errorf("delta: %q is an empty object", path)
			}
			bo, _ := bv.(map[string]any)
			if inBase && bo == nil {
				return nil, fmt.Errorf("delta: %q changes kind", path)
			}
			out, err = diffObject(out, bo, tv, path)
		case string:
			if bs, ok := bv.(string); inBase && !ok {
				return nil, fmt.Errorf("delta: %q changes kind", path)
			} else if !inBase || bs != tv {
				out = append(out, Change{Path: path, Set: &tv})
			}
		case []any:
			var bl []any
			if inBase {
				var ok bool
				if bl, ok = bv.([]any); !ok {
					return nil, fmt.Errorf("delta: %q changes kind", path)
				}
			}
			var bs, ts []string
			if bs, err = sortedStrings(bl, path); err == nil {
				ts, err = sortedStrings(tv, path)
			}
			c := Change{Path: path}
			for _, s := range ts {
				if _, found := slices.BinarySearch(bs, s); !found {
					c.Add = append(c.Add, s)
				}
			}
			for _, s := range bs {
				if _, found := slices.BinarySearch(ts, s); !found {
					c.Del = append(c.Del, s)
				}
			}
			if c.Add != nil || c.Del != nil || !inBase {
				out = append(out, c)
			}
		default:
			err = fmt.Errorf("delta: %q is neither an object, a string nor a list", path)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sortedStrings is a list of strings, which must be sorted without repeats.
func sortedStrings(l []any, at []string) ([]string, error) {
	out := make([]string, 0, len(l))
	for _, v := range l {
		s, ok := v.(string)
		if !ok || len(out) > 0 && out[len(out)-1] >= s {
			return nil, fmt.Errorf("delta: %q is not a sorted list of distinct strings", at)
		}
		out = append(out, s)
	}
	return out, nil
}

// Apply rebuilds the release's data from the base's: the tree of base
// with d's changes made and d's release, as JSON.
func (d Delta) Apply(base []byte) ([]byte, error) {
	var b map[string]any
	if err := json.Unmarshal(base, &b); err != nil {
		return nil, err
	}
	if got := str(b["release"]); got != d.Base {
		return nil, fmt.Errorf("delta: the delta of %s is against %s, not %s", d.Release, d.Base, got)
	}
	b["release"] = d.Release
	for _, c := range d.Changes {
		if len(c.Path) == 0 || c.Path[0] == "release" {
			return nil, fmt.Errorf("delta: a change of %s names no member", d.Release)
		}
		obj := b
		for _, k := range c.Path[:len(c.Path)-1] {
			next, ok := obj[k].(map[string]any)
			if !ok {
				if _, exists := obj[k]; exists {
					return nil, fmt.Errorf("delta: %q is no object", c.Path)
				}
				next = map[string]any{}
				obj[k] = next
			}
			obj = next
		}
		k := c.Path[len(c.Path)-1]
		switch {
		case c.Drop:
			delete(obj, k)
		case c.Set != nil:
			obj[k] = *c.Set
		default:
			l, _ := obj[k].([]any)
			var cur []string
			for _, v := range l {
				s, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("delta: %q is no list of strings", c.Path)
				}
				cur = append(cur, s)
			}
			cur = slices.DeleteFunc(cur, func(s string) bool { return slices.Contains(c.Del, s) })
			cur = append(cur, c.Add...)
			if cur == nil {
				cur = []string{}
			}
			sort.Strings(cur)
			obj[k] = slices.Compact(cur)
		}
	}
	return json.Marshal(b)
}
