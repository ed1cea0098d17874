package compile

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// Padded model refs. Doctor's canonical-refs migration respells every
// model ref it recognizes without the white space REF-2 and REF-5 ignore
// (` vllm/m @work` is `vllm/m@work`; [resolver.TrimRef]): a padded value
// becomes its trimmed spelling, and a padded `models` map key moves to its
// trimmed key, merged into the entry already there (which wins). It runs
// after a whole-agent CLI pin became model policy and before the legacy
// providers' keys merge, so [repairer.scope] trims between the two. The
// provider keeps its case; a blank value becomes "" as in doctor, a blank
// key becomes "" only along with another key of its map (as doctor moves
// it). The
// SPEC is silent on padded refs in repair; this is doctor's behaviour,
// except that a profile reading as a model suffix keeps the space that
// makes it a profile (`c/d@ q4`; doctor's `c/d@q4` would make `q4` part
// of the model ID, REF-5).

// trimmedRef is the trimmed spelling of a padded ref; ok is false when s
// has nothing to trim.
func trimmedRef(s string) (string, bool) {
	t := resolver.TrimRef(s)
	return t, t != s
}

// trimmedKey is [trimmedRef] for a models map key: a blank key alone
// does not make doctor rewrite its map.
func trimmedKey(s string) (string, bool) {
	t, ok := trimmedRef(s)
	return t, ok && t != ""
}

// trimKeys moves the padded keys of the models map found at at to their
// trimmed keys.
func (r *repairer) trimKeys(at occkit.Path) error {
	m := docjson.Get(r.doc, at)
	if !m.IsObject() {
		return nil
	}
	if raw, changed := r.trimMapKeys(at, m); changed {
		return r.setRaw(at, raw)
	}
	return nil
}

// trimMapKeys is [repairer.trimKeys] on the object m found at at. As in
// doctor, the members keep their order, except that an unpadded key a
// padded one merges into moves up to the first of them; of two padded
// keys with no unpadded one, the first in author order wins, and so does
// the first of the blank keys, the unpadded "" included.
func (r *repairer) trimMapKeys(at occkit.Path, m gjson.Result) (string, bool) {
	pairs := members(m)
	first := map[string]int{} // first member of each key
	padded := false
	for i, p := range pairs {
		if _, seen := first[p.key]; !seen {
			first[p.key] = i
		}
		_, ok := trimmedKey(p.key)
		padded = padded || ok
	}
	if !padded {
		return m.Raw, false
	}
	var out []member
	index := map[string]int{} // position in out of each key written
	consumed := map[int]bool{}
	for i, p := range pairs {
		// Once the map is rewritten, a blank key is trimmed too.
		to, ok := trimmedRef(p.key)
		if !ok {
			if consumed[i] {
				continue
			}
			if j, dup := index[p.key]; dup {
				// The blank key, which a padded blank key took first:
				// the first in author order wins, as doctor merges.
				out[j].raw = mergeEntry(out[j].raw, p.raw, false)
				r.add(ChangeKeyMerged, at.Key(p.key), p.key, p.key)
				continue
			}
			index[p.key] = len(out)
			out = append(out, p)
			continue
		}
		j, written := index[to]
		if !written && to != "" {
			// (Doctor lets no blank key take a padded one in: of the
			// blank keys, the first in author order wins.)
			if c, exists := first[to]; exists {
				// the unpadded entry comes up to take the padded one in
				consumed[c] = true
				j, written = len(out), true
				index[to] = j
				out = append(out, pairs[c])
			}
		}
		if !written {
			index[to] = len(out)
			out = append(out, member{key: to, raw: p.raw})
			r.add(ChangeKeyRenamed, at.Key(to), p.key, to)
			continue
		}
		out[j].raw = mergeEntry(out[j].raw, p.raw, false)
		r.add(ChangeKeyMerged, at.Key(to), p.key, to)
	}
	return rawObject(out), true
}
