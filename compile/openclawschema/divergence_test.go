package openclawschema

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema/internal/releasedata"
)

// The schema differential's excuses. validateConfigObject (the oracle of
// TestDifferential) is not all of OpenClaw's validation: the gateway
// validates with its plugins loaded (validatePreparedConfigWithPlugins:
// channel ids, channel sections with their defaults applied) and its
// loader rewrites a document first. Each excuse below is a predicate that
// recomputes, from the document, the schema and where needed the
// gateway's own verdict (the CLI's validation, testdata/cli-oracle.mjs),
// that its reason applies to this disagreement and that the two answers
// differ only as that reason says; anything else fails the test.
// excuseBound bounds how many documents each absorbs.

// differ holds what the excuses need: the release's check and the
// channels validateConfigObject validates (its bundledChannelIds).
type differ struct {
	v       *Validator
	bundled map[string]bool
	// unknownKeysStop: the release's validator stops at an unknown key
	// before its refinements (zod's strict objects abort): measured for
	// 2026.8.1 to 2026.9.4; from 2026.9.5 on an unknown key leaves the
	// parse going.
	unknownKeysStop bool
}

func newDiffer(v *Validator, bundled map[string]bool) *differ {
	return &differ{v: v, bundled: bundled, unknownKeysStop: releasedata.Compare(v.Version(), "2026.9.5") < 0}
}

var (
	// ajv's words for a bundled channel section's own JSON Schema.
	requiredProperty = regexp.MustCompile(`^invalid config: must have required property '([^']*)'$`)
	additionalProps  = regexp.MustCompile(`^invalid config: must not have additional properties(?:: (.*))?$`)
	unknownChannelID = regexp.MustCompile(`^unknown channel id: (.*)$`)
)

// excuseBound is the most documents of n an excuse may absorb: about
// twice what it absorbs with the project's generator (seed 14, N=10,000,
// 2026.9.6 and 2026.8.2), in documents per thousand, so that a predicate
// that widens fails. A document excused by several classes at once
// ("a+b") is bounded by the largest of theirs; "path/" classes count the
// documents both refuse whose refused settings needed the excuse.
var excuseBounds = map[string]int{
	"spec":                            10,
	"channel-default":                 45,
	"channel-raw":                     5,
	"channel-id":                      15,
	"union":                           70,
	"unknown-key-stops":               5,
	"roster-key":                      10,
	"root-refinement":                 100,
	"channel-after-core":              15,
	"refinement/roster":               70,
	"refinement/custom-provider":      35,
	"refinement/cloud-worker-project": 30,
}

func excuseBound(class string, n int) int {
	perMille := 0
	for _, part := range strings.Split(strings.TrimPrefix(class, "path/"), "+") {
		pm, ok := excuseBounds[part]
		if !ok && strings.HasPrefix(part, "refinement/") {
			pm = 15
		}
		perMille = max(perMille, pm)
	}
	return n*perMille/1000 + 3
}

// verdictClass names the excuse of a document whose verdicts differ
// (ours is the check's refusal or nil), or "" when none applies. gw is the
// gateway's verdict on the document.
func (d *differ) verdictClass(doc []byte, ours error, theirs, gw verdict) string {
	root := gjson.ParseBytes(doc)
	if ours != nil {
		// The check refuses, validateConfigObject accepts: only channel
		// ids it does not check (the gateway's plugin validation refuses
		// an id no bundled or installed plugin provides: "unknown channel
		// id"), with the sections under them.
		if c := d.channelIDs(root, ours, gw); c != "" {
			return c
		}
		for _, e := range occkit.Errors(ours) {
			if !rosterKey(ourPath(e.Path)) {
				return ""
			}
		}
		return "roster-key"
	}
	// The check accepts, validateConfigObject refuses: every issue must
	// be excused, and those excused by what the gateway does must be
	// absent from the gateway's verdict.
	var classes []string
	for _, is := range theirs.Issues {
		c := d.excusedIssue(root, is)
		if c == "" {
			return ""
		}
		if (c == "channel-default" || c == "channel-raw") && refusedAt(issuePaths(gw), normPath(is.Path)) {
			return ""
		}
		if !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	return strings.Join(classes, "+")
}

// excusedIssue names the excuse of one validateConfigObject issue the
// check does not make, or "".
//
//   - spec: the SPEC decides the key (see specView): an agents.list the
//     view drops (no entries beside it, or an empty list, RES-10), or
//     logging.redactSensitive (LOG-1, LOG-3); OpenClaw names them as
//     unrecognized keys;
//   - channel-default: a missing property of a bundled channel's section
//     (validateBundledChannels runs its JSON Schema without defaults) that
//     the schema gives a default and the document leaves out: the gateway
//     fills the default in first (validatePreparedPluginSchemaValue with
//     applyDefaults), and so does the check;
//   - channel-raw: validateConfigObject refuses the account keys of a
//     bundled channel's raw section that the channel's normalization
//     (which the gateway runs first) accepts;
//   - refinement/<row>: a refinement the check does not mirror, by its
//     row (UnmirroredRefinements: path pattern and message).
//
// The channel excuses hold for a verdict only when the gateway accepts
// what validateConfigObject refused there (verdictClass checks it).
func (d *differ) excusedIssue(root gjson.Result, is issue) string {
	path := normPath(is.Path)
	if keys := unknownKeys(is.Message); keys != nil && d.specKeys(root, is.Path, keys) {
		return "spec"
	}
	if m := requiredProperty.FindStringSubmatch(is.Message); m != nil && d.bundledSection(path) {
		// ajv places the issue at the missing property itself.
		parent, name, ok := cutLast(path)
		obj := valueAt(root, parent)
		if ok && name == m[1] && obj.IsObject() && !hasKey(obj, name) && defaultedAt(d.v.root, parent, name) {
			return "channel-default"
		}
		return ""
	}
	if keys := unknownKeys(is.Message); additionalProps.MatchString(is.Message) && d.bundledSection(path) {
		// The published schema admits each key there: the channel's raw
		// section refuses what its normalization accepts.
		for _, k := range keys {
			if !admitsKey(d.v.root, path, k) {
				return ""
			}
		}
		if len(keys) > 0 {
			return "channel-raw"
		}
		return ""
	}
	if structural(is.Message) {
		return ""
	}
	if c := unmirroredClass(path, is.Message); c != "" {
		return "refinement/" + c
	}
	return ""
}

// specKeys reports whether the unknown keys OpenClaw names at path are
// keys the SPEC decides and the check's view of this document drops.
func (d *differ) specKeys(root gjson.Result, path string, keys []string) bool {
	for _, k := range keys {
		switch {
		case path == "agents" && k == "list":
			list, entries := root.Get("agents.list"), root.Get("agents.entries")
			if !list.IsArray() || entries.Exists() && len(list.Array()) > 0 {
				return false
			}
		case path == "logging" && k == "redactSensitive":
			if !root.Get("logging.redactSensitive").Exists() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// bundledSection reports whether path is inside the section of a channel
// validateConfigObject validates.
func (d *differ) bundledSection(path string) bool {
	segs := strings.Split(path, ".")
	return len(segs) >= 2 && segs[0] == "channels" && d.bundled[segs[1]]
}

// channelIDs is "channel-id" when every refusal of the check is at or
// below channels.<key> for keys validateConfigObject does not validate,
// and the gateway refuses each such id as unknown; "" otherwise.
func (d *differ) channelIDs(root gjson.Result, ours error, gw verdict) string {
	unknown := map[string]bool{}
	for _, is := range gw.Issues {
		if m := unknownChannelID.FindStringSubmatch(is.Message); m != nil && is.Path == "channels."+m[1] {
			unknown[m[1]] = true
		}
	}
	for _, e := range occkit.Errors(ours) {
		k, _, isIdx := e.Path.Elem(0)
		if e.Path.Len() < 2 || isIdx || k != "channels" {
			return ""
		}
		c, _, _ := e.Path.Elem(1)
		if d.bundled[c] || !unknown[strings.TrimFunc(c, isJSSpace)] {
			return ""
		}
	}
	return "channel-id"
}

// samePaths compares where both refuse a document: the settings
// validateConfigObject's issues name (unknown keys at their own path,
// without the issues excusedIssue excuses) against the check's refusals
// (without those of channels validateConfigObject does not validate,
// which channelIDs judges). The documented placements (see the package
// doc) are recomputed below: union, root-refinement, channel-after-core.
// It returns the placements excused, and whether the paths agree.
func (d *differ) samePaths(doc []byte, ours error, theirs verdict) (excused []string, ok bool) {
	root := gjson.ParseBytes(doc)
	got := map[string]bool{}
	for _, e := range occkit.Errors(ours) {
		if e.Path.Len() >= 2 {
			k, _, _ := e.Path.Elem(0)
			c, _, _ := e.Path.Elem(1)
			if k == "channels" && !d.bundled[c] && !slices.Contains(channelSettings, c) {
				continue
			}
		}
		got[ourPath(e.Path)] = true
	}
	want := map[string]string{} // path → message
	aborted, core := false, false
	for _, is := range theirs.Issues {
		// A wrong type, enum value, bound or record key stops zod's parse;
		// so does a roster refusal, which OpenClaw's refinement of the whole
		// configuration makes before it checks agent references.
		aborted = aborted || structural(is.Message) && unknownKeys(is.Message) == nil ||
			strings.HasPrefix(is.Message, "Invalid key in record") ||
			unmirroredClass(normPath(is.Path), is.Message) == "roster" ||
			d.unknownKeysStop && unrecognized.MatchString(is.Message)
		core = core || !strings.HasPrefix(is.Message, "invalid config: ")
		// An issue the check makes at the same setting agrees, whatever
		// a row would excuse there.
		if c := d.excusedIssue(root, is); c != "" && !got[normPath(is.Path)] {
			if strings.HasPrefix(c, "refinement/") {
				excused = append(excused, c)
			}
			continue
		}
		for _, p := range issuePaths(verdict{Issues: []issue{is}}) {
			want[p] = is.Message
		}
	}
	// OpenClaw's refinements of the whole configuration (agent references,
	// broadcast groups) run only when its parse did not abort: an unknown
	// key leaves it going, a wrong type, enum value or bound stops it
	// (zod). The check reports them beside every other refusal.
	if aborted {
		for p := range got {
			if _, theirs := want[p]; !theirs && rootRefinement(p) {
				delete(got, p)
				excused = append(excused, "root-refinement")
			}
		}
	}
	// An agents.entries key with capitals: the check applies the
	// published key pattern (lower case), OpenClaw's loader compares agent
	// ids lower-cased and accepts it; the roster rules (RES-10) are the
	// SPEC's. Only a key whose lower-cased form fits the pattern.
	for p := range got {
		if _, theirs := want[p]; !theirs && rosterKey(p) {
			delete(got, p)
			excused = append(excused, "roster-key")
		}
	}
	// Settings the SPEC's roster rules decide (the roster row): where
	// OpenClaw refuses through that row, the check's refusals at the
	// row's settings are the SPEC's.
	for _, is := range theirs.Issues {
		if unmirroredClass(normPath(is.Path), is.Message) != "roster" {
			continue
		}
		for p := range got {
			if _, theirs := want[p]; !theirs && unmirroredClass(p, "") == "roster" {
				delete(got, p)
				excused = append(excused, "refinement/roster")
			}
		}
	}
	// Before 2026.9.5 an unknown key also stops the refinements of the
	// object that holds it and of its ancestors: the check still reports
	// them.
	if d.unknownKeysStop {
		schemaOnly := map[string]bool{}
		if root := gjson.ParseBytes(doc); !d.v.root.valid(root) {
			for _, e := range occkit.Errors(occkit.Join(d.v.schemaIssues(root)...)) {
				schemaOnly[ourPath(e.Path)] = true
			}
		}
		for p := range got {
			if _, theirs := want[p]; theirs || schemaOnly[p] {
				continue
			}
			parent, _, _ := cutLast(p)
			for _, is := range theirs.Issues {
				// The refinement of an object holding an unknown key, or of
				// one of its ancestors, does not run.
				if at := normPath(is.Path); unrecognized.MatchString(is.Message) && (under(p, at) || under(at, parent)) {
					delete(got, p)
					excused = append(excused, "unknown-key-stops")
					break
				}
			}
		}
	}
	// validateConfigObject validates the sections of bundled channels
	// only once the core configuration validated: a core issue hides
	// every refusal of a channel section.
	if core {
		for p := range got {
			if _, theirs := want[p]; !theirs && d.bundledSection(p) && !slices.Contains(channelSettings, strings.Split(p, ".")[1]) {
				delete(got, p)
				excused = append(excused, "channel-after-core")
			}
		}
	}
	refusedUnder := func(set map[string]bool, u string) bool {
		for p := range set {
			if p == u || strings.HasPrefix(p, u+".") {
				return true
			}
		}
		return false
	}
	allWant, allGot := map[string]bool{}, map[string]bool{}
	for p := range want {
		allWant[p] = true
	}
	for p := range got {
		allGot[p] = true
	}
	for p := range want {
		if got[p] {
			delete(got, p)
			delete(want, p)
		}
	}
	// A union none of whose branches fits: OpenClaw reports the union
	// ("Invalid input", a discriminator, every branch's errors for ajv),
	// the check the settings of the branch the value's type selects. Both
	// must refuse at or below the same union, and each setting left over
	// must lie below a union both refuse.
	unmatched := map[string]bool{}
	for p := range want {
		unmatched[p] = true
	}
	for p := range got {
		unmatched[p] = true
	}
	for p := range unmatched {
		if unionBothRefuse(d.v.root, p, func(u string) bool { return refusedUnder(allWant, u) && refusedUnder(allGot, u) }) {
			delete(want, p)
			delete(got, p)
			excused = append(excused, "union")
		}
	}
	if len(want) > 0 || len(got) > 0 {
		return append(excused, fmt.Sprintf("unmatched: OpenClaw %v, the check %v", sortedKeys(want), sortedKeys(got))), false
	}
	return excused, true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// rootRefinement reports whether a refusal at path comes from one of the
// refinements OpenClaw runs on the whole configuration: agent-reference
// (heartbeat, system agent, talk, bindings, broadcast), broadcast-key and
// broadcast-size.
func rootRefinement(path string) bool {
	for _, p := range []string{"agents.defaults.heartbeat.agentId", "agents.defaults.systemAgent.agentId", "talk.agentId",
		"bindings.[].agentId", "broadcast.*", "broadcast.*.[]", "broadcast.*.agents.[]"} {
		if regexp.MustCompile(strings.TrimSuffix(pathPattern(p).String(), `(\..+)?$`) + "$").MatchString(path) {
			return true
		}
	}
	return false
}

// issue is one of OpenClaw's issues.
type issue = struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// issuePaths are the settings OpenClaw's issues name: each issue's path
// (ajv's missing property is at its own path), or the path and key of
// each unrecognized key (zod) or additional property (ajv).
func issuePaths(v verdict) []string {
	var out []string
	for _, is := range v.Issues {
		if keys := unknownKeys(is.Message); keys != nil {
			for _, k := range keys {
				out = append(out, joinPath(is.Path, k))
			}
			continue
		}
		out = append(out, normPath(is.Path))
	}
	return out
}

// unknownKeys are the keys an unrecognized-key (zod) or
// additional-properties (ajv) message names, or nil.
func unknownKeys(msg string) []string {
	var list string
	if m := unrecognized.FindStringSubmatch(msg); m != nil {
		list = m[1]
	} else if m := additionalProps.FindStringSubmatch(msg); m != nil && m[1] != "" {
		list = m[1]
	} else {
		return nil
	}
	keys := []string{}
	for _, q := range quoted.FindAllStringSubmatch(list, -1) {
		keys = append(keys, q[1])
	}
	return keys
}

// valueAt is the document's value at an OpenClaw dot path.
func valueAt(root gjson.Result, path string) gjson.Result {
	v := root
	for _, k := range strings.Split(path, ".") {
		found := gjson.Result{}
		if v.IsObject() {
			v.ForEach(func(key, val gjson.Result) bool {
				if keyOf(key) == k {
					found = val
					return false
				}
				return true
			})
		} else if v.IsArray() {
			found = v.Get(gjson.Escape(k))
		}
		if v = found; !v.Exists() {
			return v
		}
	}
	return v
}

func hasKey(obj gjson.Result, k string) bool { return has(obj, k) }

// cutLast splits a dot path before its last segment.
func cutLast(path string) (parent, last string, ok bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return "", path, path != ""
	}
	return path[:i], path[i+1:], true
}

// nodesAt are the schemas that may apply at an OpenClaw dot path: every
// branch of the unions on the way.
func nodesAt(n *node, path string) []*node {
	cur := []*node{n}
	for _, k := range strings.Split(path, ".") {
		var next []*node
		for _, c := range expand(cur) {
			if c.walkArray || c.types&jsArray != 0 {
				var i int
				if _, err := fmt.Sscanf(k, "%d", &i); err == nil {
					next = append(next, c.itemSchema(i))
					continue
				}
			}
			if ch, ok := c.child(k); ok && ch != nil {
				next = append(next, ch)
			}
		}
		cur = next
	}
	return expand(cur)
}

// expand adds the branches of every union, transitively.
func expand(ns []*node) []*node {
	var out []*node
	var add func(n *node, depth int)
	add = func(n *node, depth int) {
		if n == nil || depth > maxWalkDepth || slices.Contains(out, n) {
			return
		}
		out = append(out, n)
		for _, u := range [][]*node{n.anyOf, n.oneOf, n.allOf} {
			for _, c := range u {
				add(c, depth+1)
			}
		}
	}
	for _, n := range ns {
		add(n, 0)
	}
	return out
}

// defaultedAt reports whether the schema gives the property key of the
// object at path a default.
func defaultedAt(root *node, path, key string) bool {
	for _, n := range nodesAt(root, path) {
		if p := n.props[key]; p != nil && p.hasDefault {
			return true
		}
	}
	return false
}

var agentEntryKey = regexp.MustCompile(`^[a-z0-9_][a-z0-9_-]{0,63}$`)

// rosterKey reports whether path is an agents.entries key with capitals
// whose lower-cased form is an agent id the published pattern admits.
func rosterKey(path string) bool {
	k, ok := strings.CutPrefix(path, "agents.entries.")
	return ok && !strings.Contains(k, ".") && strings.ToLower(k) != k && agentEntryKey.MatchString(strings.ToLower(k))
}

// admitsKey reports whether the schema admits the key in the object at
// path.
func admitsKey(root *node, path, key string) bool {
	for _, n := range nodesAt(root, path) {
		if _, ok := n.child(key); ok && n.walkObject {
			return true
		}
	}
	return false
}

// under reports whether path p is q or below it ("" is the root).
func under(p, q string) bool { return q == "" || p == q || strings.HasPrefix(p, q+".") }

// unionBothRefuse reports whether some path at or above p is a union in
// the schema where both refuse.
func unionBothRefuse(root *node, p string, both func(u string) bool) bool {
	for q := p; q != ""; {
		if unionAt(root, q) && both(q) {
			return true
		}
		parent, _, ok := cutLast(q)
		if !ok {
			break
		}
		q = parent
	}
	return false
}

// unionAt reports whether the schema at path is a union.
func unionAt(root *node, path string) bool {
	for _, n := range nodesAt(root, path) {
		if len(n.anyOf) > 0 || len(n.oneOf) > 0 {
			return true
		}
	}
	return false
}
