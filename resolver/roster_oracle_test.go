package resolver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// This file keeps the roster rules as they were written before they read
// the entries into a sorted buffer (maps of IDs by normalized ID): the
// oracle of TestCheckRosterMatchesMaps.

// TestCheckRosterMatchesMaps: checkRoster refuses what oldCheckRoster
// refuses, with the same messages, codes, paths and rules, on drawn
// rosters of colliding, invalid, reserved and main-like Agent IDs at
// every stage.
func TestCheckRosterMatchesMaps(t *testing.T) {
	ids := []string{"main", "Main", "MAIN", " main", "main ", "_ops", "_ops-", "_OPS--", "ops", "-ops", "a-b", "__proto__",
		"Constructor", "prototype", "x y", "", strings.Repeat("a", 65), "helper", "HELPER", "é"}
	reqs := []RosterRequest{{}, {Stage: StageDeploy}, {Stage: StageDeploy, Mode: occkit.ModeDedicated},
		{Stage: StageDeploy, Compute: occkit.ComputeDocker, Mode: occkit.ModeDedicated}, {Stage: StageDeploy, Compute: occkit.ComputeSSH}}
	rapid.Check(t, func(t *rapid.T) {
		var agents []string
		if rapid.Bool().Draw(t, "has-entries") {
			keys := rapid.SliceOfNDistinct(rapid.SampledFrom(ids), 0, 8, func(s string) string { return s }).Draw(t, "ids")
			var members []string
			for i, k := range keys {
				kj, _ := json.Marshal(k)
				v := rapid.SampledFrom([]string{`{}`, `{"default":true}`, `{"model":"a/b"}`, `1`, `null`}).Draw(t, "entry-"+string(rune('a'+i)))
				members = append(members, string(kj)+":"+v)
			}
			agents = append(agents, `"entries":{`+strings.Join(members, ",")+`}`)
		}
		if rapid.Bool().Draw(t, "has-ownership") {
			agents = append(agents, `"ownership":`+rapid.SampledFrom([]string{`"explicit"`, `"auto"`, `1`}).Draw(t, "ownership"))
		}
		if rapid.Bool().Draw(t, "has-list") {
			agents = append(agents, `"list":`+rapid.SampledFrom([]string{`[]`, `[{}]`, `{}`}).Draw(t, "list"))
		}
		if rapid.Bool().Draw(t, "has-defaults") {
			agents = append(agents, `"defaults":`+rapid.SampledFrom([]string{`{}`, `{"systemAgent":{"agentId":"ops"}}`,
				`{"sessionStore":{"agentId":" Main "}}`, `1`}).Draw(t, "defaults"))
		}
		doc := occkit.MustParseDocument(`{"agents":{` + strings.Join(agents, ",") + `}}`)
		for _, req := range reqs {
			stage, skip, err := rosterStage(req)
			if err != nil || skip {
				continue
			}
			in := readRoster(doc)
			want, got := oldCheckRoster(in, stage, req), checkRoster(in, stage, req)
			if d := cmp.Diff(occkit.MatchersOf(want), occkit.MatchersOf(got)); d != "" || fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s %+v: (-maps +sorted):\n%s\n%v\n%v", doc.String(), req, d, want, got)
			}
		}
	})
}

// oldCheckRoster is checkRoster on the document's rosterInput.
func oldCheckRoster(in rosterInput, stage Stage, req RosterRequest) error {
	doc, root, agents := in.doc, docjson.Root(in.doc), gjson.Parse(in.agents)
	if !root.IsObject() {
		return occkit.Join(shapeErrors(root)...)
	}
	if !agents.IsObject() {
		return occkit.Join(agentsShapeErrors(agents, gjson.Result{}, gjson.Result{})...)
	}
	var f [len(in.members)]gjson.Result
	for i, m := range in.members {
		f[i] = gjson.Parse(m)
	}
	errs := agentsShapeErrors(agents, f[0], f[1])
	list, entries, ownership := f[2], f[1], f[3]

	// agents.list: only an empty array may remain.
	if list.Exists() {
		switch {
		case !list.IsArray():
			errs = append(errs, invalid("RES-10", pathList,
				"agents.list must be an empty array when present: configure each Agent under agents.entries, keyed by its Agent ID"))
		case len(list.Array()) > 0:
			errs = append(errs, invalid("RES-10", pathList,
				"agents.list is not supported: remove it and configure each Agent under agents.entries, keyed by its Agent ID"))
		}
	}

	// agents.entries: an object of objects with valid, unique IDs.
	type entry struct {
		id   string
		norm string
		val  gjson.Result
	}
	var ids []entry
	entriesOK := true
	if entries.Exists() {
		if !entries.IsObject() {
			entriesOK = false
		} else {
			seen := map[string]bool{}
			entries.ForEach(func(k, v gjson.Result) bool {
				id := k.String()
				if !seen[id] {
					seen[id] = true
					ids = append(ids, entry{id: id, norm: normalizeAgentID(id), val: v})
				}
				return true
			})
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].id < ids[j].id })
	firstByNorm := map[string]string{}
	byNorm := map[string][]string{}
	for _, e := range ids {
		p := pathEntries.Key(e.id)
		if e.val.IsObject() && e.val.Get("default").Exists() {
			errs = append(errs, invalid("RES-10", p.Key("default"),
				"%s is not supported: remove it", p.Key("default")))
		}
		if !validAgentID(e.id) {
			errs = append(errs, invalid("RES-10", p,
				"the Agent ID of %s must be 1 to 64 letters, digits, _ or -, not starting with -", p))
			continue
		}
		if reservedAgentID(e.norm) {
			errs = append(errs, invalid("RES-10", p,
				"the Agent ID of %s is reserved: OpenClaw skips it when it merges objects, so it would not deploy", p))
			continue
		}
		if _, dup := firstByNorm[e.norm]; !dup {
			firstByNorm[e.norm] = e.id
		}
		byNorm[e.norm] = append(byNorm[e.norm], e.id)
	}
	// Colliding IDs: each of them is refused, naming another, so the
	// refusal holds whichever one the author meant to keep.
	for _, e := range ids {
		group := byNorm[e.norm]
		if len(group) < 2 {
			continue
		}
		other := group[0]
		if other == e.id {
			other = group[1]
		}
		p := pathEntries.Key(e.id)
		errs = append(errs, invalid("RES-10", p,
			"%s and %s normalize to the same Agent ID: rename one", pathEntries.Key(other), p))
	}

	// agents.ownership.
	n := len(ids)
	explicit := ownership.Type == gjson.String && ownership.Str == "explicit"
	switch {
	case ownership.Exists() && !explicit:
		errs = append(errs, invalid("RES-10", pathOwnership,
			`agents.ownership accepts only "explicit": set it, or remove it when agents.entries has at most one entry`))
	case entriesOK && n > 1 && !explicit:
		errs = append(errs, invalid("RES-10", pathOwnership,
			`agents.ownership "explicit" is required when agents.entries has more than one entry`))
	case entriesOK && explicit && n == 0:
		errs = append(errs, invalid("RES-10", pathOwnership,
			`agents.ownership "explicit" needs at least one agents.entries entry: add one, or remove agents.ownership`))
	}

	// Dedicated execution serves the main Agent (deployment only).
	if stage == StageDeploy && req.Mode == occkit.ModeDedicated {
		if entriesOK && n > 0 {
			if _, ok := firstByNorm[mainAgent]; !ok {
				errs = append(errs, invalid("RES-10", pathEntries,
					"dedicated execution serves the main Agent: agents.entries must hold main"))
			}
		}
		// A non-object agents.defaults holds no such setting (gjson finds
		// nothing under a scalar), and RES-2 already refused it.
		for _, at := range []occkit.Path{pathSessionAgent, pathSystemAgent, pathSessionAgentTop, pathSystemAgentTop} {
			v := docjson.Get(doc, at)
			if !v.Exists() || v.Type == gjson.Null || v.Type == gjson.String && strings.TrimSpace(v.Str) == "" {
				continue // unset: nothing named
			}
			if v.Type != gjson.String || normalizeAgentID(v.Str) != mainAgent {
				errs = append(errs, invalid("RES-10", at,
					"dedicated execution serves the main Agent: %s may not name another Agent", at))
			}
		}
	}
	return occkit.Join(errs...)
}
