package openclawschema

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// Refinement is one check OpenClaw's validator makes beyond its
// published JSON Schema (a zod refinement), mirrored at admission.
type Refinement struct {
	// Class names the refinement in refusals' tests and the differential.
	Class string
	// Paths are the settings it judges, in OpenClaw's notation ("*" any
	// key of a map, "[]" any element of an array). check reads the
	// document only under their first keys: refineIn passes a
	// refinement over when the root holds none of them (rootsOf).
	Paths []string
	// Refuses says what OpenClaw refuses there.
	Refuses string

	check func(root gjson.Result, r *refiner)
}

// Refinements lists the refinements the check mirrors for [Release],
// in the order they run ([Contract.Refinements] for another release).
func Refinements() []Refinement {
	c, err := ContractFor(Release())
	if err != nil {
		return nil
	}
	return c.Refinements()
}

// refinementsAbsent are, by release, the classes of [Refinements] that
// do not hold for it: measured with TestRefinementDifferential against
// each release's own validation (see doc.go, "Releases").
//
// broadcast-size: OpenClaw bounds an agent group thread to 16 agents from
// 2026.9.5 on; earlier releases accept any number.
var refinementsAbsent = map[string][]string{
	"2026.8.1": {"broadcast-size"}, "2026.8.2": {"broadcast-size"},
	"2026.9.1": {"broadcast-size"}, "2026.9.2": {"broadcast-size"},
	"2026.9.3": {"broadcast-size"}, "2026.9.4": {"broadcast-size"},
}

// refiner collects a document's refinement refusals.
type refiner struct {
	version string
	// skip are the refinement classes that do not hold for the version.
	skip   map[string]bool
	schema *node
	issues []error
	// src is the document's text; doc indexes its objects as the
	// refinements reach them, so that each object is scanned once however
	// many settings they read in it, and an object the schema walk
	// outlined is not scanned again at all.
	src     string
	outline *jsonwalk.Outline
	doc     index
	// kids holds the members of every object indexed, each object's
	// in one run (see build). It starts in kidsRoom, which holds the
	// sections the refinements read in a configuration without large
	// rosters (the paired benchmarks' documents index 12 members, stamped
	// as admission checks them), so that a refiner is one allocation; 14
	// fill its size class (896 bytes, the allocation's header included).
	// Valid and ValidBeside make theirs in their scratch; Validate
	// allocates its own.
	kids     []index
	kidsRoom [14]index
	// spare holds the members found in objects not indexed (scanFor).
	spare []index
	// accepted: the schema walk read the whole document, so its outline
	// met every key of an object the schema has a shape for.
	accepted bool
	// rootKeys has keyBit set of every key of the root's members indexed
	// (addKid): most of the refinements' patterns start at a
	// section a small document lacks, told by one bit where a scan of the
	// root's members compared strings.
	rootKeys uint64
	// trail is walkSchema's way from the root to where it is.
	trail []trailStep
}

// index is one value of the document, from offset at to end of its
// text, with its object members, found on first use. The value itself is
// parsed only when a refinement reads it (see value).
type index struct {
	// at and end are offsets in a text of at most math.MaxInt32 bytes
	// (refine refuses a larger one): 8 bytes less per member indexed.
	at, end int32
	key     string // its key in the object holding it
	// kids and n are the members, the first of a repeated key, in
	// document order: n of them from kids, a run of r.kids (a pointer
	// and a count rather than a slice: 48 bytes a member in all, not 72);
	// byKey finds one among many.
	kids  *index
	n     int32
	built bool
	byKey map[string]int
}

// members are x's members indexed so far.
func (x *index) members() []index {
	if x.n == 0 {
		return nil
	}
	return unsafe.Slice(x.kids, x.n)
}

// rootIndex is the index of the document src, whose value is
// gjson.Parse(src).
func rootIndex(src string) index {
	return index{at: int32(rootAt(src)), end: int32(len(src))}
}

// value is x's value.
func (r *refiner) value(x *index) gjson.Result { return gjson.Parse(r.src[x.at:x.end]) }

// is reports whether x's value starts with the byte c: '{' an object,
// '[' an array.
func (r *refiner) is(x *index, c byte) bool { return x.at < x.end && r.src[x.at] == c }

// manyKids is the most members child looks up by a scan.
const manyKids = 8

// child is x's member k (the first of a repeated key), or nil.
func (r *refiner) child(x *index, k string) *index {
	if !x.built {
		r.build(x)
	}
	if x == &r.doc && r.rootKeys&keyBit(k) == 0 {
		return nil
	}
	kids := x.members()
	if x.byKey != nil {
		if i, ok := x.byKey[k]; ok {
			return &kids[i]
		}
		return nil
	}
	for i := range kids {
		if kids[i].key == k {
			return &kids[i]
		}
	}
	return nil
}

// keyBit is the bit of the key k in refiner.rootKeys: one of 64 by its
// length and its first and last bytes.
func keyBit(k string) uint64 {
	if k == "" {
		return 1
	}
	h := uint64(len(k)) | uint64(k[0])<<8 | uint64(k[len(k)-1])<<16
	return 1 << (h * 0x9e3779b97f4a7c15 >> 58)
}

// scanFor is child for x, not indexed, below a wildcard of a pattern
// (see eachFrom): the first member k in x's text, or nil. x is not
// indexed for it, and only the member found is kept (found): a
// refinement asks each agent entry for a setting or two, most often
// absent, and indexing each entry's members would keep every member of
// every entry while the refinements run.
func (r *refiner) scanFor(x *index, k string) *index {
	if !r.is(x, '{') {
		return nil
	}
	var hit *index
	jsonwalk.Members(r.src, int(x.at), func(key string, escaped bool, at int) int {
		end := jsonwalk.Skip(r.src, at)
		if (jsonwalk.JS{}).Decode(key, escaped) == k {
			hit = r.found(k, at, end)
			return -1
		}
		return end
	})
	return hit
}

// lacks reports that x's value holds no value at the keys of pattern,
// a rest of an [refiner.eachAt] pattern, by a search of its text rather
// than a walk of its members: a key is its bytes in the text unless it
// holds an escape, so a text without a backslash that lacks one of the
// pattern's keys has nothing at the pattern. Most agent entries lack the
// settings a refinement asks them for (a heartbeat, a tool's exec), and
// one search of agents.entries answers for all of them.
func (r *refiner) lacks(x *index, pattern []string) bool {
	if len(pattern) == 0 {
		// A wildcard that ends its pattern: every value is at it, and
		// the text need not be searched.
		return false
	}
	text := r.src[x.at:x.end]
	if strings.IndexByte(text, '\\') >= 0 {
		return false
	}
	for _, k := range pattern {
		if k != "*" && k != "[]" && !strings.Contains(text, k) {
			return true
		}
	}
	return false
}

// foundChunk is how many found members one block of r.spare holds.
const foundChunk = 16

// found is a node for the member key, at start to end of the text, that
// scanFor found. The nodes live in blocks never grown in place, so each
// keeps its address while the refinements hold it.
func (r *refiner) found(key string, start, end int) *index {
	if len(r.spare) == cap(r.spare) {
		r.spare = make([]index, 0, foundChunk)
	}
	r.spare = append(r.spare, index{at: int32(start), end: int32(end), key: key})
	return &r.spare[len(r.spare)-1]
}

// build indexes the members of x, from the schema walk's outline when it
// holds x, else from the text. They go to the end of r.kids, x.kids
// their run there: no other object is built meanwhile.
func (r *refiner) build(x *index) {
	x.built = true
	if !r.is(x, '{') {
		return
	}
	if r.kids == nil {
		r.kids = r.kidsRoom[:0]
	}
	x.kids, x.n = nil, 0
	if members, ok := r.outline.Members(int(x.at)); ok {
		r.room(x, len(members))
		for _, m := range members {
			r.addKid(x, m.Key, int(m.Start), int(m.End))
		}
		return
	}
	jsonwalk.Members(r.src, int(x.at), func(key string, escaped bool, at int) int {
		end := jsonwalk.Skip(r.src, at)
		r.addKid(x, jsonwalk.JS{}.Decode(key, escaped), at, end)
		return end
	})
}

// addKid adds the member key, at start to end of the text, to x's unless
// x has that key already.
func (r *refiner) addKid(x *index, key string, start, end int) {
	kids := x.members()
	if x.byKey == nil && len(kids) == manyKids {
		x.byKey = make(map[string]int, 2*manyKids)
		for i := range kids {
			x.byKey[kids[i].key] = i
		}
	}
	if x.byKey != nil {
		if _, dup := x.byKey[key]; dup {
			return
		}
		x.byKey[key] = len(kids)
	} else {
		for i := range kids {
			if kids[i].key == key {
				return
			}
		}
	}
	if x == &r.doc {
		r.rootKeys |= keyBit(key)
	}
	r.room(x, 1)
	lo := len(r.kids) - int(x.n)
	r.kids = append(r.kids, index{at: int32(start), end: int32(end), key: key})
	x.kids, x.n = &r.kids[lo], x.n+1
}

// kidsChunk caps how much room a new block of r.kids has beyond what
// its run needs: blocks start at twice kidsRoom and double up to it, so
// a configuration whose refinements index a few dozen members more than
// kidsRoom pays for a few dozen, not for 6 KB (performance, issue 29).
const kidsChunk = 128

// room makes room for n more members of the run x is building at the
// end of r.kids. r.kids is a chain of blocks, never grown in place: the
// runs indexed before keep their block, and the pointers into it (a
// caller walking a run holds one while it builds a member). When the
// block is full, x's run moves to a new block with room to double, the
// only run that moves: nothing points into it while it is built. (An
// append that grew r.kids would copy every run of the block and leave
// the old block to the runs indexed before: for a document whose
// refinements index thousands of members, Go's growth by a quarter then
// keeps about four copies of the index alive beside the one in use.)
func (r *refiner) room(x *index, n int) {
	if cap(r.kids)-len(r.kids) >= n {
		return
	}
	run := make([]index, x.n, max(min(2*cap(r.kids), kidsChunk), 2*(int(x.n)+n)))
	copy(run, x.members())
	r.kids = run
	if x.n > 0 {
		x.kids = &run[0]
	}
}

// elements calls fn for each element of x, an array.
func (r *refiner) elements(x *index, fn func(i int, e *index)) {
	if !r.is(x, '[') {
		return
	}
	jsonwalk.Elements(r.src, int(x.at), func(i, at int) int {
		end := jsonwalk.Skip(r.src, at)
		fn(i, &index{at: int32(at), end: int32(end)})
		return end
	})
}

// get is the value at the keys, or a missing result.
func (r *refiner) get(keys ...string) gjson.Result {
	x := &r.doc
	for _, k := range keys {
		if x = r.child(x, k); x == nil {
			return gjson.Result{}
		}
	}
	return r.value(x)
}

// schemaValid reports whether the value at path satisfies its schema but
// for unknown keys. An object-level refinement runs in OpenClaw only on an
// object whose parse did not abort: zod runs a superRefine after a parse
// that found at most unknown keys (they leave it dirty, not aborted); a
// refinement of one string runs whatever its siblings hold.
func (r *refiner) schemaValid(path ...string) bool {
	n := r.schema
	for _, k := range path {
		if n == nil {
			return true
		}
		n, _ = n.child(k)
	}
	return n == nil || n.validBarUnknownKeys(r.get(path...))
}

func (r *refiner) add(at occkit.Path, format string, args ...any) {
	// A refinement judges a setting only where the release's schema has
	// it: a release without the setting refuses the key itself.
	if len(r.issues) < maxIssues && allows(r.schema, at, 0, 0) {
		r.issues = append(r.issues, occkit.Invalid(Rule, at, format+" (OpenClaw %s)", append(args, r.version)...))
	}
}

// refine runs every refinement on the document the schema walk read.
func refine(schema *node, w reading, c *Contract) []error {
	return refineIn(new(refiner), schema, w, c)
}

// refineIn is refine in r, an empty refiner.
func refineIn(r *refiner, schema *node, w reading, c *Contract) []error {
	if len(w.src) > math.MaxInt32 {
		// The index's offsets are 32 bits. DOC-2 refuses a document of
		// more than 2 MiB long before; a caller of this package alone is
		// refused here rather than checked wrongly.
		return []error{occkit.Invalid(Rule, occkit.Root(), "the document is larger than %d bytes, more than the refinements read", math.MaxInt32)}
	}
	r.version, r.skip, r.schema, r.src, r.outline, r.accepted = c.version, c.skip, schema, w.src, w.outline, w.ok
	r.doc = rootIndex(w.src)
	root := r.value(&r.doc)
	// A refinement reads the document only at its Paths, and so only
	// under their first keys (Contract.roots): when the root holds none
	// of them, every lookup it would make ends at the root, and it is
	// passed over on one test of the root's keys, not run to find
	// nothing (a small document holds four or five of the sections the
	// refinements read).
	if !r.doc.built {
		r.build(&r.doc)
	}
	for i := range refinements {
		if !c.skipped[i] && r.rootKeys&c.roots[i] != 0 {
			refinements[i].check(root, r)
		}
	}
	schemaRefinements(root, r)
	return r.issues
}

// eachAt calls fn for every value at pattern, the keys of a dot path
// where "*" is any key of an object and "[]" any element of an array.
// The refinements write their patterns split ({"agents", "entries", "*",
// "heartbeat"}), not as the dot path: a validation looks up some forty of
// them, most absent from a small document at their first key, and cutting
// each at its dots on every call was a quarter of the refinements' time
// on an empty document. For the same reason a pattern whose first key the
// root lacks ends before the way to a value is set up (its 256 bytes
// zeroed). The path of a value is worded only for fn.
//
// The keys before the pattern's first wildcard are followed here, one
// lookup each, and the way down starts where they lead: most patterns
// name a setting of a section the document has (agents.defaults, models)
// that it lacks, which ends the pattern there, before its trail is set
// up, where eachFrom looked the first key up again and stepped down key
// by key through a call each.
func (r *refiner) eachAt(pattern []string, fn func(v gjson.Result, at occkit.Path)) {
	x, k := &r.doc, 0
	for ; k < len(pattern) && pattern[k] != "*" && pattern[k] != "[]"; k++ {
		if x = r.child(x, pattern[k]); x == nil {
			return
		}
	}
	var trail [8]trailStep
	steps := trail[:0]
	for _, key := range pattern[:k] {
		steps = append(steps, trailStep{key: key})
	}
	r.eachFrom(x, pattern[k:], false, steps, fn)
}

// eachFrom is eachAt from x, where rest is what is left of the pattern
// and trail the way to x. Below a wildcard (below), a key is looked up by
// scanFor in an object not indexed yet.
func (r *refiner) eachFrom(x *index, rest []string, below bool, trail []trailStep, fn func(v gjson.Result, at occkit.Path)) {
	if len(rest) == 0 {
		fn(r.value(x), stepsPath(trail))
		return
	}
	switch seg := rest[0]; seg {
	case "*":
		if r.lacks(x, rest[1:]) {
			return
		}
		if r.is(x, '{') {
			if !x.built {
				r.build(x)
			}
			kids := x.members()
			for i := range kids {
				c := &kids[i]
				r.eachFrom(c, rest[1:], true, append(trail, trailStep{key: c.key}), fn)
			}
		}
	case "[]":
		r.elements(x, func(i int, c *index) {
			r.eachFrom(c, rest[1:], true, append(trail, trailStep{index: i, isIndex: true}), fn)
		})
	default:
		var c *index
		if below && !x.built {
			if r.lacks(x, rest) {
				return
			}
			c = r.scanFor(x, seg)
		} else {
			c = r.child(x, seg)
		}
		if c != nil {
			r.eachFrom(c, rest[1:], below, append(trail, trailStep{key: seg}), fn)
		}
	}
}

// eachString calls fn for every string value at the patterns (see
// eachAt).
func (r *refiner) eachString(patterns [][]string, fn func(s string, at occkit.Path)) {
	for _, p := range patterns {
		r.eachAt(p, func(v gjson.Result, at occkit.Path) {
			if v.Type == gjson.String {
				fn(v.String(), at)
			}
		})
	}
}

var (
	validAgentID   = regexp.MustCompile(`(?i)^[a-z0-9][a-z0-9_-]{0,63}$`)
	agentIDInvalid = regexp.MustCompile(`[^a-z0-9_-]+`)
	channelPeerKey = regexp.MustCompile(`(?i)^[a-z][a-z0-9_-]*:.+$`)
)

// normalizeAgentID is OpenClaw's normalizeAgentId: trimmed and
// lower-cased; an id of another form has its other characters replaced
// by "-", leading and trailing "-" dropped and is cut to 64; "main" when
// nothing is left.
func normalizeAgentID(id string) string {
	t := strings.TrimSpace(id)
	lower := strings.ToLower(t)
	if validAgentID.MatchString(t) {
		return lower
	}
	s := strings.Trim(agentIDInvalid.ReplaceAllString(lower, "-"), "-")
	if len(s) > 64 {
		s = s[:64]
	}
	if s == "" {
		return "main"
	}
	return s
}

// roster is the agents OpenClaw knows after loading: the keys of
// agents.entries with object values, else the ids of an agents.list
// array, else the implicit "main" agent its loader adds to a document
// without a roster.
// roster calls fn with each id, in document order.
func roster(r *refiner, fn func(id string)) {
	n := 0
	if e := r.get("agents", "entries"); e.IsObject() {
		e.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() {
				fn(k.String())
				n++
			}
			return true
		})
	} else if l := r.get("agents", "list"); l.IsArray() {
		l.ForEach(func(_, v gjson.Result) bool {
			if v.IsObject() {
				fn(v.Get("id").String())
				n++
			}
			return true
		})
	}
	if n == 0 {
		fn("main")
	}
}

// refinements are OpenClaw 2026.9.6's refinements the check mirrors
// (the ones it does not are in [Unmirrored]).
var refinements = []Refinement{
	{
		Class: "agent-reference",
		Paths: []string{"agents.defaults.heartbeat.agentId", "agents.defaults.systemAgent.agentId", "talk.agentId",
			"bindings[].agentId", "broadcast.*[]", "broadcast.*.agents[]"},
		Refuses: "an agent id that names no configured agent (ids compare normalized, broadcast lists exactly)",
		check: func(root gjson.Result, r *refiner) {
			// The roster is read for the first reference, if any: most
			// documents name no agent outside agents.entries.
			var exact, norm map[string]bool
			known := func() {
				if exact == nil {
					exact, norm = map[string]bool{}, map[string]bool{}
					roster(r, func(id string) {
						exact[id] = true
						norm[normalizeAgentID(id)] = true
					})
				}
			}
			r.eachString([][]string{{"agents", "defaults", "heartbeat", "agentId"}, {"agents", "defaults", "systemAgent", "agentId"}, {"talk", "agentId"}},
				func(s string, at occkit.Path) {
					if known(); !norm[normalizeAgentID(s)] {
						r.add(at, "%s names no agent of agents.entries", at)
					}
				})
			r.eachString([][]string{{"bindings", "[]", "agentId"}}, func(s string, at occkit.Path) {
				if known(); s != "main" && !norm[normalizeAgentID(s)] {
					r.add(at, "%s names no agent of agents.entries", at)
				}
			})
			r.get("broadcast").ForEach(func(k, v gjson.Result) bool {
				if k.String() == "strategy" || !(v.IsObject() || v.IsArray()) {
					return true
				}
				at := occkit.NewPath("broadcast", k.String())
				list := v
				if v.IsObject() {
					list, at = v.Get("agents"), at.Key("agents")
				}
				if !list.IsArray() {
					return true
				}
				known()
				for i, id := range list.Array() {
					if !exact[id.String()] || id.Type != gjson.String {
						r.add(at.Index(i), "%s names no agent of agents.entries (broadcast lists name agents exactly)", at.Index(i))
					}
				}
				return true
			})
		},
	},
	{
		Class: "broadcast-key", Paths: []string{"broadcast.*"},
		Refuses: "a broadcast group object whose key is not channel-qualified (<channel>:<peerId>)",
		check: func(root gjson.Result, r *refiner) {
			r.get("broadcast").ForEach(func(k, v gjson.Result) bool {
				if v.IsObject() && !channelPeerKey.MatchString(k.String()) {
					at := occkit.NewPath("broadcast", k.String())
					r.add(at, "%s: a broadcast group needs a channel-qualified key (<channel>:<peerId>)", at)
				}
				return true
			})
		},
	},
	{
		Class: "active-hours", Paths: []string{"agents.defaults.heartbeat.activeHours.start", "agents.defaults.heartbeat.activeHours.end",
			"agents.entries.*.heartbeat.activeHours.start", "agents.entries.*.heartbeat.activeHours.end"},
		Refuses: "a heartbeat active-hours time that is not HH:MM (24h; 24:00 only as an end)",
		check: func(root gjson.Result, r *refiner) {
			for _, hb := range [][]string{{"agents", "defaults", "heartbeat"}, {"agents", "entries", "*", "heartbeat"}} {
				r.eachAt(hb, func(v gjson.Result, at occkit.Path) {
					if !v.IsObject() || !r.schemaValid(pathKeys(at)...) {
						return
					}
					for _, end := range []string{"start", "end"} {
						t := v.Get("activeHours." + end)
						if t.Type != gjson.String || t.String() == "" {
							continue
						}
						if problem := activeTime(t.String(), end == "end"); problem != "" {
							a := at.Key("activeHours").Key(end)
							r.add(a, "%s: "+problem, a)
						}
					}
				})
			}
		},
	},
	{
		Class: "exec-mode", Paths: []string{"tools.exec.mode", "agents.entries.*.tools.exec.mode"},
		Refuses: "an exec policy that sets mode beside the legacy security or ask",
		check: func(root gjson.Result, r *refiner) {
			for _, p := range [][]string{{"tools", "exec"}, {"agents", "entries", "*", "tools", "exec"}} {
				r.eachAt(p, func(v gjson.Result, at occkit.Path) {
					if !v.IsObject() || !v.Get("mode").Exists() || !v.Get("security").Exists() && !v.Get("ask").Exists() ||
						!r.schemaValid(pathKeys(at)...) {
						return
					}
					r.add(at.Key("mode"), "%s cannot be combined with security or ask in the same exec object (run openclaw doctor --fix to migrate)", at.Key("mode"))
				})
			}
		},
	},
	{
		Class: "talk-provider", Paths: []string{"talk.provider", "talk.realtime.provider"},
		Refuses: "a talk provider that names none of talk.providers, or none named when several are defined (and the same for talk.realtime)",
		check: func(root gjson.Result, r *refiner) {
			for _, scope := range [][]string{{"talk"}, {"talk", "realtime"}} {
				v := r.get(scope...)
				if !v.IsObject() || !r.schemaValid(scope...) {
					continue
				}
				provider := ""
				if p := v.Get("provider"); p.Type == gjson.String {
					provider = strings.ToLower(strings.TrimSpace(p.String()))
				}
				var keys []string
				v.Get("providers").ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.String()); return true })
				at := occkit.NewPath(append(scope, "provider")...)
				switch {
				case provider != "" && len(keys) > 0 && !v.Get("providers").Get(gjson.Escape(provider)).Exists():
					r.add(at, "%s must name a key of %s.providers", at, strings.Join(scope, "."))
				case provider == "" && len(keys) > 1:
					r.add(at, "%s is required when %s.providers defines several providers", at, strings.Join(scope, "."))
				}
			}
		},
	},
	{
		Class: "browser-profile", Paths: []string{"browser.profiles.*"},
		Refuses: "a browser profile without cdpPort or cdpUrl (unless existing-session or extension), userDataDir outside existing-session, or cdpUrl with extension",
		check: func(root gjson.Result, r *refiner) {
			r.eachAt([]string{"browser", "profiles", "*"}, func(v gjson.Result, at occkit.Path) {
				if !v.IsObject() || !r.schemaValid(pathKeys(at)...) {
					return
				}
				driver := v.Get("driver").String()
				cdpURL := v.Get("cdpUrl").String() != ""
				switch {
				case driver != "existing-session" && driver != "extension" && !truthy(v.Get("cdpPort")) && !cdpURL:
					r.add(at, "%s must set cdpPort or cdpUrl", at)
				case driver != "existing-session" && v.Get("userDataDir").String() != "":
					r.add(at, "%s: userDataDir is only supported with driver existing-session", at)
				case driver == "extension" && cdpURL:
					r.add(at, "%s: cdpUrl is not supported with driver extension", at)
				}
			})
		},
	},
	{
		Class: "edge-auth", Paths: []string{"gateway.remote.edgeAuth", "gateway.remote.edgeAuth.*"},
		Refuses: "remote gateway edge-auth headers that are empty, not HTTP header names, transport-owned, or differ only by case (the first such header)",
		check: func(root gjson.Result, r *refiner) {
			h := r.get("gateway", "remote", "edgeAuth")
			if !h.IsObject() || !r.schemaValid("gateway", "remote", "edgeAuth") {
				return
			}
			at := occkit.NewPath("gateway", "remote", "edgeAuth")
			var names []string
			h.ForEach(func(k, _ gjson.Result) bool { names = append(names, k.String()); return true })
			if len(names) == 0 {
				r.add(at, "%s: the header map must not be empty", at)
				return
			}
			seen := map[string]bool{}
			for _, n := range names {
				lower := strings.ToLower(n)
				switch {
				case !headerName.MatchString(n):
					r.add(at.Key(n), "%s is not an HTTP header name", at.Key(n))
				case transportHeaders[lower]:
					r.add(at.Key(n), "%s is a transport-owned header", at.Key(n))
				case seen[lower]:
					r.add(at.Key(n), "%s differs from another header only by case", at.Key(n))
				default:
					seen[lower] = true
					continue
				}
				return
			}
		},
	},
	{
		Class: "broadcast-size", Paths: []string{"broadcast.*"},
		Refuses: "a broadcast list under a channel-qualified key naming more than 16 agents",
		check: func(root gjson.Result, r *refiner) {
			r.get("broadcast").ForEach(func(k, v gjson.Result) bool {
				if v.IsArray() && channelPeerKey.MatchString(k.String()) && len(v.Array()) > 16 {
					at := occkit.NewPath("broadcast", k.String())
					r.add(at, "%s: an agent group thread holds at most 16 agents", at)
				}
				return true
			})
		},
	},
	{
		Class: "acp-binding", Paths: []string{"bindings[].match.peer"},
		Refuses: "an ACP binding (type acp) whose match.peer.id is missing or blank",
		check: func(root gjson.Result, r *refiner) {
			r.eachAt([]string{"bindings", "[]"}, func(v gjson.Result, at occkit.Path) {
				if v.Get("type").String() != "acp" || v.Get("type").Type != gjson.String || !r.schemaValidAt(v, "bindings", "[]") {
					return
				}
				if id := v.Get("match.peer.id"); id.Type != gjson.String || strings.TrimSpace(id.String()) == "" {
					at = at.Key("match").Key("peer")
					r.add(at, "%s: an ACP binding needs match.peer.id to name a conversation", at)
				}
			})
		},
	},
	{
		Class: "role-agents", Paths: []string{"gateway.roles.definitions.*.agents"},
		Refuses: "an operator role's allowed agent that is not an agent id (trimmed: a letter or digit, then up to 63 letters, digits, _ or -)",
		check: func(root gjson.Result, r *refiner) {
			r.eachAt([]string{"gateway", "roles", "definitions", "*", "agents"}, func(v gjson.Result, at occkit.Path) {
				if !v.IsArray() {
					return
				}
				for _, id := range v.Array() {
					if id.Type == gjson.String && !validAgentID.MatchString(strings.TrimSpace(id.String())) {
						// OpenClaw reports the union of "*" and the list.
						r.add(at, "%s: an allowed agent must be an agent id", at)
						return
					}
				}
			})
		},
	},
	{
		Class: "hook-session", Paths: []string{"hooks.mappings[].sessionKey"},
		Refuses: "a persistent agent hook mapping without sessionKey, hooks.defaultSessionKey or a transform",
		check: func(root gjson.Result, r *refiner) {
			hooks := r.get("hooks")
			if !hooks.IsObject() || !r.schemaValid("hooks") || strings.TrimSpace(hooks.Get("defaultSessionKey").String()) != "" {
				return
			}
			r.eachAt([]string{"hooks", "mappings", "[]"}, func(v gjson.Result, at occkit.Path) {
				action := v.Get("action")
				if action.Exists() && action.String() != "agent" || v.Get("sessionMode").String() != "persistent" ||
					strings.TrimSpace(v.Get("sessionKey").String()) != "" || v.Get("transform").Exists() {
					return
				}
				r.add(at.Key("sessionKey"), "%s: a persistent hook mapping needs sessionKey, hooks.defaultSessionKey or a transform", at.Key("sessionKey"))
			})
		},
	},
	{
		Class: "duration", Paths: []string{"agents.defaults.heartbeat.every", "agents.entries.*.heartbeat.every"},
		Refuses: "a heartbeat interval that is not a duration (ms, s, m, h; minutes by default)",
		check: func(root gjson.Result, r *refiner) {
			r.eachString([][]string{{"agents", "defaults", "heartbeat", "every"}, {"agents", "entries", "*", "heartbeat", "every"}}, func(s string, at occkit.Path) {
				if !r.schemaValid(pathKeys(at.Parent())...) {
					return
				}
				if _, ok := parseDuration(s, "m"); s != "" && !ok {
					r.add(at, "%s must be a duration (use ms, s, m, h)", at)
				}
			})
		},
	},
	{
		Class: "duration",
		Paths: []string{"session.maintenance.pruneAfter", "session.maintenance.archiveDashboardAfter",
			"session.maintenance.preserveRecent", "session.maintenance.resetArchiveRetention"},
		Refuses: "a session retention that is not a positive duration (ms, s, m, h, d; days by default)",
		check: func(root gjson.Result, r *refiner) {
			for _, k := range []string{"pruneAfter", "archiveDashboardAfter", "preserveRecent", "resetArchiveRetention"} {
				r.eachAt([]string{"session", "maintenance", k}, func(v gjson.Result, at occkit.Path) {
					if v.Type != gjson.String && v.Type != gjson.Number ||
						k == "archiveDashboardAfter" && v.Type == gjson.Number && v.Float() == 0 {
						return
					}
					s, _ := stringified(v)
					ms, ok := parseDuration(s, "d")
					switch {
					case !ok:
						r.add(at, "%s must be a duration (use ms, s, m, h, d)", at)
					case ms <= 0:
						r.add(at, "%s must be a positive duration (use ms, s, m, h, d)", at)
					}
				})
			}
		},
	},
	{
		Class: "duration", Paths: []string{"cron.sessionRetention"},
		Refuses: "a cron session retention that is not a duration (ms, s, m, h, d; hours by default)",
		check: func(root gjson.Result, r *refiner) {
			r.eachAt([]string{"cron", "sessionRetention"}, func(v gjson.Result, at occkit.Path) {
				if v.Type != gjson.String && v.Type != gjson.Number || !r.schemaValid("cron") {
					return
				}
				s, _ := stringified(v)
				if _, ok := parseDuration(s, "h"); !ok {
					r.add(at, "%s must be a duration (use ms, s, m, h, d)", at)
				}
			})
		},
	},
	{
		Class: "duration", Paths: []string{"cloudWorkers.profiles.*.suspendAfter"},
		Refuses: "a worker suspend delay that is not a duration with a unit of at least 1m",
		check: func(root gjson.Result, r *refiner) {
			r.eachString([][]string{{"cloudWorkers", "profiles", "*", "suspendAfter"}}, func(s string, at occkit.Path) {
				ms, ok := parseDuration(s, "ms")
				if !hasDurationUnit(s) || !ok || ms < 60e3 {
					r.add(at, "%s must be a duration of at least 1m", at)
				}
			})
		},
	},
	{
		Class: "byte-size",
		Paths: []string{"session.maintenance.maxDiskBytes", "session.maintenance.highWaterBytes",
			"agents.defaults.compaction.memoryFlush.forceFlushTranscriptBytes", "agents.defaults.compaction.maxActiveTranscriptBytes"},
		Refuses: "a size that is not a byte count or a size with a unit (b, kb, mb, gb, tb)",
		check: func(root gjson.Result, r *refiner) {
			for _, p := range [][]string{{"session", "maintenance", "maxDiskBytes"}, {"session", "maintenance", "highWaterBytes"}} {
				r.eachAt(p, func(v gjson.Result, at occkit.Path) {
					if v.Type != gjson.String && v.Type != gjson.Number || !r.schemaValid("session", "maintenance") {
						return
					}
					s, _ := stringified(v)
					if _, ok := parseByteSize(s, "b"); !ok {
						r.add(at, "%s must be a size (use b, kb, mb, gb, tb)", at)
					}
				})
			}
			r.eachString([][]string{{"agents", "defaults", "compaction", "memoryFlush", "forceFlushTranscriptBytes"},
				{"agents", "defaults", "compaction", "maxActiveTranscriptBytes"}}, func(s string, at occkit.Path) {
				if _, ok := parseByteSize(s, "b"); strings.TrimSpace(s) == "" || !ok {
					r.add(at, "%s must be a byte size such as 2mb", at)
				}
			})
		},
	},
	{
		Class: "absolute-path",
		Paths: []string{"worktreeRoot", "desktop.host.passwordFile", "gateway.tls.certPath", "gateway.tls.keyPath", "secrets.providers.*.command",
			"secrets.providers.*.trustedDirs[]", "hooks.mappings[].transform.module"},
		Refuses: "a relative path where OpenClaw needs an absolute one (worktreeRoot may start with ~), a blank TLS file path, or an unsafe hook module path",
		check: func(root gjson.Result, r *refiner) {
			r.eachString([][]string{{"worktreeRoot"}}, func(s string, at occkit.Path) {
				s = strings.TrimSpace(s)
				if s != "" && !isAbsPath(s) && s != "~" && !strings.HasPrefix(s, "~/") {
					r.add(at, "%s must be an absolute path or start with ~", at)
				}
			})
			r.eachString([][]string{{"gateway", "tls", "certPath"}, {"gateway", "tls", "keyPath"}}, func(s string, at occkit.Path) {
				if strings.TrimSpace(s) == "" {
					r.add(at, "%s must not be blank", at)
				}
			})
			r.eachString([][]string{{"desktop", "host", "passwordFile"}}, func(s string, at occkit.Path) {
				if s = strings.TrimSpace(s); s != "" && !isAbsPath(s) {
					r.add(at, "%s must be an absolute path", at)
				}
			})
			r.eachString([][]string{{"secrets", "providers", "*", "command"}, {"secrets", "providers", "*", "trustedDirs", "[]"}}, func(s string, at occkit.Path) {
				if s != "" && !isAbsPathAnyOS(s) {
					r.add(at, "%s must be an absolute path", at)
				}
			})
			r.eachString([][]string{{"hooks", "mappings", "[]", "transform", "module"}}, func(s string, at occkit.Path) {
				if !safeRelativeModule(s) {
					r.add(at, "%s must be a safe relative path (no absolute paths, ~, : or ..)", at)
				}
			})
		},
	},
	{
		Class: "url-scheme",
		Paths: []string{"proxy.proxyUrl", "models.catalogRefresh.url", "mcp.apps.sandboxOrigin", "gateway.publicOrigin",
			"mcp.servers.*.url", "mcp.servers.*.oauth.redirectUrl", "nodeHost.mcp.servers.*.url", "nodeHost.mcp.servers.*.oauth.redirectUrl"},
		Refuses: "a URL of a scheme or form OpenClaw does not use there (http(s) only; https or loopback http for catalogs and public origins; bare origins)",
		check: func(root gjson.Result, r *refiner) {
			r.eachString([][]string{{"proxy", "proxyUrl"}, {"mcp", "servers", "*", "url"}, {"mcp", "servers", "*", "oauth", "redirectUrl"},
				{"nodeHost", "mcp", "servers", "*", "url"}, {"nodeHost", "mcp", "servers", "*", "oauth", "redirectUrl"}}, func(s string, at occkit.Path) {
				if validURL(s) && !httpURL(s) {
					r.add(at, "%s must be an http:// or https:// URL", at)
				}
			})
			r.eachString([][]string{{"models", "catalogRefresh", "url"}}, func(s string, at occkit.Path) {
				u, ok := parseWebURL(s)
				if !ok || !(u.scheme == "https" || u.scheme == "http" && loopbackHTTPHosts[u.hostname]) {
					r.add(at, "%s must use https, or http on localhost", at)
				}
			})
			r.eachString([][]string{{"mcp", "apps", "sandboxOrigin"}}, func(s string, at occkit.Path) {
				if validURL(s) && !httpOrigin(s) {
					r.add(at, "%s must be an http(s) origin without a path, query or credentials", at)
				}
			})
			r.eachString([][]string{{"gateway", "publicOrigin"}}, func(s string, at occkit.Path) {
				u, _ := parseWebURL(s)
				if validURL(s) && !(httpOrigin(s) && (u.scheme == "https" || loopbackHTTPHosts[u.hostname])) {
					r.add(at, "%s must be a bare https origin (http only for localhost, 127.0.0.1 or [::1])", at)
				}
			})
		},
	},
	{
		Class: "exact-host", Paths: []string{"secrets.egressProxy.allowedHosts[]", "secrets.egressProxy.bypassHosts[]"},
		Refuses: "an egress host that is not one exact hostname or IP (no scheme, path, port or wildcard)",
		check: func(root gjson.Result, r *refiner) {
			r.eachString([][]string{{"secrets", "egressProxy", "allowedHosts", "[]"}, {"secrets", "egressProxy", "bypassHosts", "[]"}}, func(s string, at occkit.Path) {
				switch exactHost(s) {
				case "wildcard":
					r.add(at, "%s cannot contain a wildcard; use one exact hostname", at)
				case "form":
					r.add(at, "%s must be a hostname without a scheme, path, wildcard or port", at)
				case "hostname":
					r.add(at, "%s is not a valid hostname", at)
				}
			})
		},
	},
	{
		Class: "gateway-roles", Paths: []string{"gateway.roles.definitions", "gateway.roles.default"},
		Refuses: "role definitions that are empty, or a default role that names none of them",
		check: func(root gjson.Result, r *refiner) {
			roles := r.get("gateway", "roles")
			defs := roles.Get("definitions")
			if !roles.IsObject() || !defs.IsObject() || !r.schemaValid("gateway", "roles", "definitions") {
				return
			}
			n := 0
			defs.ForEach(func(gjson.Result, gjson.Result) bool { n++; return true })
			if n == 0 {
				r.add(occkit.NewPath("gateway", "roles", "definitions"), "gateway.roles.definitions must hold at least one role definition")
			}
			// A definition whose allowed agents are not agent ids fails
			// OpenClaw's parse of the roles (role-agents), which then stops.
			agentsOK := true
			defs.ForEach(func(_, def gjson.Result) bool {
				if !def.Get("agents").IsArray() {
					return true
				}
				def.Get("agents").ForEach(func(_, id gjson.Result) bool {
					agentsOK = id.Type != gjson.String || validAgentID.MatchString(strings.TrimSpace(id.String()))
					return agentsOK
				})
				return agentsOK
			})
			if d := roles.Get("default"); agentsOK && r.schemaValid("gateway", "roles") && d.Type == gjson.String && !defs.Get(gjson.Escape(d.String())).Exists() {
				r.add(occkit.NewPath("gateway", "roles", "default"), "gateway.roles.default must name a configured role definition")
			}
		},
	},
}

// shapeRefinements document the refinements schemaRefinements finds by
// the schema's shape.
var shapeRefinements = []Refinement{
	{Class: "secret-ref-id", Paths: []string{"any SecretRef of source file or exec outside channels"},
		Refuses: "a file SecretRef id that is not an absolute JSON pointer or \"value\"; an exec id outside its pattern or with . or .. segments"},
	{Class: "tools-allow", Paths: []string{"any tool policy object outside channels (tools, tools.byProvider.*, tools.toolsBySender.*, agents.entries.*.tools, sandbox and subagent tools, …)"},
		Refuses: "a tool policy that sets both allow and alsoAllow (non-empty) in one scope"},
}

var activeHoursTime = regexp.MustCompile(`^([01]\d|2[0-3]|24):([0-5]\d)$`)

// activeTime is "" for a time OpenClaw accepts as a heartbeat's active
// hours bound, else why not.
func activeTime(s string, end bool) string {
	if !activeHoursTime.MatchString(s) {
		return `must be a time as "HH:MM" (24h)`
	}
	switch {
	case strings.HasPrefix(s, "24:") && s != "24:00":
		return "24:00 is the only 24:xx time"
	case s == "24:00" && !end:
		return "a start cannot be 24:00"
	}
	return ""
}

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v gjson.Result) bool {
	switch v.Type {
	case gjson.String:
		return v.Str != ""
	case gjson.Number:
		return v.Float() != 0
	case gjson.True, gjson.JSON:
		return true
	}
	return false
}

var headerName = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")

// transportHeaders are the headers the transport owns.
var transportHeaders = map[string]bool{"host": true, "connection": true, "upgrade": true, "content-length": true,
	"sec-websocket-key": true, "sec-websocket-version": true, "sec-websocket-protocol": true, "sec-websocket-extensions": true}

var durationUnitSuffix = regexp.MustCompile(`(?i)(ms|s|m|h|d)$`)

func hasDurationUnit(s string) bool { return durationUnitSuffix.MatchString(s) }

var pathSeparators = regexp.MustCompile(`[\\/]+`)

// safeRelativeModule is OpenClaw's isSafeRelativeModulePath.
func safeRelativeModule(raw string) bool {
	s := strings.TrimSpace(raw)
	if s == "" || isAbsPath(s) || strings.HasPrefix(s, "~") || strings.Contains(s, ":") {
		return false
	}
	for _, part := range pathSeparators.Split(s, -1) {
		if part == ".." {
			return false
		}
	}
	return true
}

// schemaValidAt reports whether v satisfies the schema at path but for
// unknown keys (see schemaValid), where
// "[]" stands for an array's elements.
func (r *refiner) schemaValidAt(v gjson.Result, path ...string) bool {
	n := r.schema
	for _, k := range path {
		if n == nil {
			return true
		}
		if k == "[]" {
			n = n.itemSchema(0)
			continue
		}
		n, _ = n.child(k)
	}
	return n == nil || n.validBarUnknownKeys(v)
}

// allows reports whether the schema n has a place for a value at p: on
// the way, some branch of each union is an object that admits the key,
// or an array, for an index.
func allows(n *node, p occkit.Path, from, depth int) bool {
	if n == nil || from == p.Len() {
		return true
	}
	if n.never || depth > maxWalkDepth {
		return false
	}
	for _, union := range [][]*node{n.anyOf, n.oneOf, n.allOf} {
		for _, c := range union {
			if allows(c, p, from, depth+1) {
				return true
			}
		}
	}
	k, i, isIdx := p.Elem(from)
	if isIdx {
		return (n.walkArray || n.types&jsArray != 0) && allows(n.itemSchema(i), p, from+1, depth+1)
	}
	if !n.walkObject && n.types&jsObject == 0 {
		return false
	}
	c, ok := n.child(k)
	return ok && allows(c, p, from+1, depth+1)
}

// pathKeys are p's elements as keys (indexes written in decimal).
func pathKeys(p occkit.Path) []string {
	out := make([]string, p.Len())
	for i := range out {
		k, idx, isIdx := p.Elem(i)
		if isIdx {
			k = strconv.Itoa(idx)
		}
		out[i] = k
	}
	return out
}

// underChannels reports whether at is inside channels: a channel's
// section is checked by its plugin's own JSON Schema, which carries no
// refinement (OpenClaw leaves its SecretRef ids to secret resolution).
func underChannels(at occkit.Path) bool {
	k, _, isIdx := at.Elem(0)
	return at.Len() > 0 && !isIdx && k == "channels"
}

// walkSchema calls fn for every object of the document, at offset i of
// its text, that a schema want picks applies to, walking the document
// beside the schema: a union's first branch the value satisfies, every
// allOf member, object members and array elements. It reads the text
// once, returning the offset after the value (a union reads its value
// again per branch it tries), and words a path only for fn (r.trail holds
// the way there).
func (r *refiner) walkSchema(n *node, i, depth int, want func(n *node) bool, fn func(n *node, v gjson.Result, at occkit.Path)) int {
	s := r.src
	if n == nil || depth > maxWalkDepth || i >= len(s) {
		return jsonwalk.Skip(s, i)
	}
	value := func() gjson.Result { return gjson.Parse(s[i:jsonwalk.Skip(s, i)]) }
	for _, union := range [][]*node{n.anyOf, n.oneOf} {
		if len(union) == 0 {
			continue
		}
		v := value()
		for _, c := range union {
			if c.valid(v) {
				r.walkSchema(c, i, depth+1, want, fn)
				break
			}
		}
	}
	for _, c := range n.allOf {
		r.walkSchema(c, i, depth+1, want, fn)
	}
	switch s[i] {
	case '{':
		if n.props != nil && want(n) {
			fn(n, value(), r.trailPath())
		}
		return jsonwalk.Members(s, i, func(key string, escaped bool, at int) int {
			k := jsonwalk.JS{}.Decode(key, escaped)
			cn, ok := n.child(k)
			if !ok || len(r.trail) == 0 && k == "channels" {
				// The shape refinements judge nothing under channels
				// (underChannels).
				return jsonwalk.Skip(s, at)
			}
			r.trail = append(r.trail, trailStep{key: k})
			end := r.walkSchema(cn, at, depth+1, want, fn)
			r.trail = r.trail[:len(r.trail)-1]
			return end
		})
	case '[':
		return jsonwalk.Elements(s, i, func(idx, at int) int {
			r.trail = append(r.trail, trailStep{index: idx, isIndex: true})
			end := r.walkSchema(n.itemSchema(idx), at, depth+1, want, fn)
			r.trail = r.trail[:len(r.trail)-1]
			return end
		})
	}
	return jsonwalk.Skip(s, i)
}

// trailStep is one step of the way walkSchema took from the root.
type trailStep struct {
	key     string
	index   int
	isIndex bool
}

// trailPath words walkSchema's way to the value it is at as a path.
func (r *refiner) trailPath() occkit.Path { return stepsPath(r.trail) }

// stepsPath words a way from the root as a path.
func stepsPath(steps []trailStep) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(len(steps))
	for _, t := range steps {
		if t.isIndex {
			b.Index(t.index)
		} else {
			b.Key(t.key)
		}
	}
	return b.Path()
}

// maxWalkDepth bounds walkSchema (the document's own depth is bounded at
// load; unions add levels without adding depth).
const maxWalkDepth = 256

// constString is the string n's const holds, or "".
func constString(n *node) string {
	if n == nil || !n.isConst || len(n.enum) != 1 {
		return ""
	}
	var s string
	if err := json.Unmarshal([]byte(n.enum[0].text), &s); err != nil {
		return ""
	}
	return s
}

var (
	fileRefSegment = regexp.MustCompile(`^(?:[^~]|~0|~1)*$`)
	execRefID      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$`)
)

// validFileRefID is OpenClaw's isValidFileSecretRefId: "value", or an
// absolute JSON pointer.
func validFileRefID(id string) bool {
	if id == "value" {
		return true
	}
	if !strings.HasPrefix(id, "/") {
		return false
	}
	for _, seg := range strings.Split(id[1:], "/") {
		if !fileRefSegment.MatchString(seg) {
			return false
		}
	}
	return true
}

// validExecRefID is OpenClaw's isValidExecSecretRefId: the pattern and no
// "." or ".." segment.
func validExecRefID(id string) bool {
	if !execRefID.MatchString(id) {
		return false
	}
	for _, seg := range strings.Split(id, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// schemaRefinements are the refinements found by the schema's shape, on a
// walk of the document beside it (only when the document holds a key
// they judge): SecretRef ids wherever OpenClaw takes a SecretRef, and
// tool policies (allow beside alsoAllow) wherever a policy object is.
func schemaRefinements(root gjson.Result, r *refiner) {
	want, check := r.shapeChecks(root)
	if want != nil {
		r.walkSchema(r.schema, int(r.doc.at), 0, want, check)
	}
}

// shapeChecks are the shape refinements: which schemas they look at
// (nil: none, the document holds no key they judge) and the check of an
// object such a schema applies to.
func (r *refiner) shapeChecks(root gjson.Result) (want func(n *node) bool, check func(n *node, v gjson.Result, at occkit.Path)) {
	var refs, tools bool
	if r.accepted {
		refs, tools = r.outline.Met(watchSource), r.outline.Met(watchAlsoAllow)
	} else {
		// A key is its bytes between quotes unless the text holds an
		// escape.
		raw := root.Raw
		escaped := strings.IndexByte(raw, '\\') >= 0
		refs, tools = escaped || strings.Contains(raw, `"source"`), escaped || strings.Contains(raw, `"alsoAllow"`)
	}
	refs, tools = refs && !r.skip["secret-ref-id"], tools && !r.skip["tools-allow"]
	if !refs && !tools {
		return nil, nil
	}
	want = func(n *node) bool {
		return refs && secretRefShape(n) || tools && toolPolicyShape(n)
	}
	return want, func(n *node, v gjson.Result, at occkit.Path) {
		if src := constString(n.props["source"]); refs && secretRefShape(n) && !underChannels(at) {
			id := v.Get("id")
			switch {
			case id.Type != gjson.String || v.Get("source").String() != src:
			case src == "file" && !validFileRefID(id.String()):
				r.add(at.Key("id"), "%s: a file secret reference id must be an absolute JSON pointer or \"value\"", at.Key("id"))
			case src == "exec" && !validExecRefID(id.String()):
				r.add(at.Key("id"), "%s: an exec secret reference id must match ^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$ without . or .. segments", at.Key("id"))
			}
		}
		if tools && toolPolicyShape(n) && !underChannels(at) && n.validBarUnknownKeys(v) {
			if len(v.Get("allow").Array()) > 0 && len(v.Get("alsoAllow").Array()) > 0 {
				r.add(at, "%s: a tool policy cannot set both allow and alsoAllow in one scope", at)
			}
		}
	}
}

// secretRefShape reports whether n is the schema of a SecretRef object,
// whose id the shape refinements judge.
func secretRefShape(n *node) bool { return n.props["id"] != nil && n.props["provider"] != nil }

// toolPolicyShape reports whether n is the schema of a tool policy
// object, whose allow and alsoAllow the shape refinements judge.
func toolPolicyShape(n *node) bool { return n.props["allow"] != nil && n.props["alsoAllow"] != nil }

// shaped reports whether a shape refinement may look at the value at
// path (object keys from the root) or under it: whether walkSchema,
// whichever union branches it takes, can reach a schema of a SecretRef
// or a tool policy there.
func shaped(root *node, path []string) bool {
	at := unionClosure([]*node{root})
	for _, k := range path {
		var next []*node
		for _, n := range at {
			if c, ok := n.child(k); ok && c != nil {
				next = append(next, c)
			}
		}
		at = unionClosure(next)
	}
	seen := map[*node]bool{}
	var reach func(n *node) bool
	reach = func(n *node) bool {
		if n == nil || seen[n] {
			return false
		}
		seen[n] = true
		if n.props != nil && (secretRefShape(n) || toolPolicyShape(n)) {
			return true
		}
		subs := []*node{n.additional, n.items, n.extraItems, n.keys}
		for _, c := range n.props {
			subs = append(subs, c)
		}
		for _, us := range [][]*node{n.tuple, n.allOf, n.anyOf, n.oneOf} {
			subs = append(subs, us...)
		}
		for _, c := range subs {
			if reach(c) {
				return true
			}
		}
		return false
	}
	for _, n := range at {
		if reach(n) {
			return true
		}
	}
	return false
}

// unionClosure is ns with every branch of their unions, transitively.
func unionClosure(ns []*node) []*node {
	for i := 0; i < len(ns); i++ {
		n := ns[i]
		for _, us := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
			for _, c := range us {
				if c != nil {
					ns = append(ns, c)
				}
			}
		}
	}
	return ns
}
