package resolver

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// Stage is when roster rules run (RES-10).
type Stage string

// Roster stages.
const (
	// StageSave is a Configuration create or update.
	StageSave Stage = "save"
	// StageDeploy is a deployment of an Agent to a Compute.
	StageDeploy Stage = "deploy"
)

// AllStages lists every [Stage].
func AllStages() []Stage { return []Stage{StageSave, StageDeploy} }

// RosterRequest says which roster rules apply. The zero value checks a
// Configuration save.
type RosterRequest struct {
	// Stage is StageSave ("" means save) or StageDeploy.
	Stage Stage
	// Compute is the deployment's Compute ("" means Kubernetes); read at
	// StageDeploy only.
	Compute occkit.Compute
	// Harness is the resolved Harness. The roster rules are the same for
	// both Harnesses today; it is recorded for the error detail.
	Harness occkit.Harness
	// Mode is the execution mode ("" means embedded); dedicated execution
	// adds the main-Agent rules at StageDeploy.
	Mode occkit.Mode
}

// agentIDPattern is the OpenClaw Agent ID shape: ^[a-z0-9_][a-z0-9_-]{0,63}$,
// case-insensitive.
func validAgentID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return true
}

// reservedAgentID reports the normalized IDs OpenClaw drops as
// prototype-polluting keys when it merges configuration objects: such an
// entry would pass here and vanish at the runtime, so it is refused.
func reservedAgentID(norm string) bool {
	switch norm {
	case "__proto__", "constructor", "prototype":
		return true
	}
	return false
}

// normalizeAgentID is OpenClaw's Agent ID normalization: lower-case; an ID
// starting with "_" also drops its trailing "-".
func normalizeAgentID(id string) string {
	n := strings.ToLower(strings.TrimSpace(id))
	if strings.HasPrefix(n, "_") {
		n = strings.TrimRight(n, "-")
	}
	return n
}

var (
	pathList         = occkit.NewPath("agents", "list")
	pathOwnership    = occkit.NewPath("agents", "ownership")
	pathSessionAgent = occkit.NewPath("agents", "defaults", "sessionStore", "agentId")
	pathSystemAgent  = occkit.NewPath("agents", "defaults", "systemAgent", "agentId")
	// SPEC names the settings without their agents.defaults prefix, where
	// OpenClaw keeps them; a top-level spelling is checked too (fail
	// closed: it can only refuse).
	pathSessionAgentTop = occkit.NewPath("sessionStore", "agentId")
	pathSystemAgentTop  = occkit.NewPath("systemAgent", "agentId")
)

// mainAgent is the Agent dedicated execution serves.
const mainAgent = "main"

// CheckRoster applies the roster rules of RES-10 to doc: the agents roster
// shapes the OpenClaw Gateway refuses, checked at Configuration save and at
// deployment (except on SSH Compute, which runs the host's OpenClaw), plus
// the main-Agent rules of dedicated execution at deployment. Every problem
// is returned at once, joined with [occkit.Join].
func CheckRoster(doc occkit.Document, req RosterRequest) error {
	stage, skip, err := rosterStage(req)
	if err != nil || skip {
		return err
	}
	return checkRoster(readRoster(doc), stage, req)
}

// rosterStage is req's stage ("" is save), and whether the rules are
// skipped (a deployment on SSH Compute); an unknown stage is a 400.
func rosterStage(req RosterRequest) (Stage, bool, error) {
	stage := req.Stage
	if stage == "" {
		stage = StageSave
	}
	if stage != StageSave && stage != StageDeploy {
		return "", false, invalid("RES-10", occkit.Root(), `roster stage must be "save" or "deploy"`)
	}
	compute := req.Compute
	if compute == "" {
		compute = occkit.ComputeKubernetes
	}
	return stage, stage == StageDeploy && compute == occkit.ComputeSSH, nil
}

// rosterInput is what the roster rules read of a document: the document
// and, when it and agents are objects, the text of agents and of agents'
// defaults, entries, list and ownership (the first of each key; "" when
// absent), read as gjson values where a rule reads them. One scan of the
// root and one of agents serve the shape check (RES-2) and the roster
// rules. It holds text rather than gjson values so that a Prepared, which
// keeps it, stays small.
type rosterInput struct {
	doc     occkit.Document
	agents  string
	members [4]string // defaults, entries, list, ownership
	// ids are the entries of an agents.entries object in document order,
	// when Prepare read them (read); else checkRoster reads them.
	ids  []rosterEntry
	read bool
}

// rosterKeys are the members of agents rosterInput keeps.
var rosterKeys = []string{"defaults", "entries", "list", "ownership"}

func readRoster(doc occkit.Document) rosterInput {
	in := rosterInput{doc: doc}
	root := docjson.Root(doc)
	if !root.IsObject() {
		return in
	}
	agents := objectField(root, "agents")
	in.agents = agents.Raw
	if agents.IsObject() {
		for i, m := range objectFields(agents, rosterKeys...) {
			in.members[i] = m.Raw
		}
	}
	return in
}

// CheckRoster is [CheckRoster] of the prepared document: the roster rules
// read what Prepare found, so the document is not scanned again.
func (p *Prepared) CheckRoster(req RosterRequest) error {
	stage, skip, err := rosterStage(req)
	if err != nil || skip {
		return err
	}
	return checkRoster(p.roster, stage, req)
}

// rosterEntry is one agents.entries member as the roster rules read it.
type rosterEntry struct {
	id   string
	norm string // normalizeAgentID(id)
	// hasDefault: the entry is an object with a "default" member (RES-10).
	hasDefault bool
	// notObject: the entry is no object (RES-2); Prepare records it.
	notObject bool
}

// checkRoster is CheckRoster on the document's rosterInput.
func checkRoster(in rosterInput, stage Stage, req RosterRequest) error {
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
	var errs []error
	if in.read {
		// Prepare found the entries' shapes while it read them.
		errs = agentsShapeErrorsOf(agents, f[0], f[1], func(gjson.Result) []error {
			var errs []error
			for _, e := range in.ids {
				if e.notObject {
					errs = append(errs, entryShapeError(e.id))
				}
			}
			return errs
		})
	} else {
		errs = agentsShapeErrors(agents, f[0], f[1])
	}
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

	// agents.entries: an object of objects with valid, unique IDs. The
	// entries are read into a buffer on the stack and sorted, so a roster
	// that passes costs no allocation for a handful of entries; paths are
	// built only for problems.
	var buf [8]rosterEntry
	ids := buf[:0]
	entriesOK := true
	if entries.Exists() {
		switch {
		case !entries.IsObject():
			entriesOK = false
		case in.read:
			ids = append(ids, in.ids...)
		default:
			entries.ForEach(func(k, v gjson.Result) bool {
				ids = append(ids, rosterEntry{id: k.String(), hasDefault: v.IsObject() && v.Get("default").Exists()})
				return true
			})
		}
	}
	// ID order; of an ID written twice, the first is read.
	slices.SortStableFunc(ids, func(a, b rosterEntry) int { return strings.Compare(a.id, b.id) })
	ids = slices.CompactFunc(ids, func(a, b rosterEntry) bool { return a.id == b.id })
	// counted are the entries whose IDs count toward collisions and the
	// main Agent (valid and not reserved), in ID order.
	var countedBuf [8]int32
	counted := countedBuf[:0]
	for i := range ids {
		e := &ids[i]
		e.norm = normalizeAgentID(e.id)
		if e.hasDefault {
			p := pathEntries.Key(e.id)
			errs = append(errs, invalid("RES-10", p.Key("default"),
				"%s is not supported: remove it", p.Key("default")))
		}
		if !validAgentID(e.id) {
			p := pathEntries.Key(e.id)
			errs = append(errs, invalid("RES-10", p,
				"the Agent ID of %s must be 1 to 64 letters, digits, _ or -, not starting with -", p))
			continue
		}
		if reservedAgentID(e.norm) {
			p := pathEntries.Key(e.id)
			errs = append(errs, invalid("RES-10", p,
				"the Agent ID of %s is reserved: OpenClaw skips it when it merges objects, so it would not deploy", p))
			continue
		}
		counted = append(counted, int32(i))
	}
	// The counted entries grouped by normalized ID, each group in ID
	// order (the sort is stable).
	slices.SortStableFunc(counted, func(a, b int32) int { return strings.Compare(ids[a].norm, ids[b].norm) })
	group := func(norm string) []int32 {
		lo, _ := slices.BinarySearchFunc(counted, norm, func(i int32, n string) int { return strings.Compare(ids[i].norm, n) })
		hi := lo
		for hi < len(counted) && ids[counted[hi]].norm == norm {
			hi++
		}
		return counted[lo:hi]
	}
	// Colliding IDs: each of them is refused, naming another, so the
	// refusal holds whichever one the author meant to keep.
	for _, e := range ids {
		g := group(e.norm)
		if len(g) < 2 {
			continue
		}
		other := ids[g[0]].id
		if other == e.id {
			other = ids[g[1]].id
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
			if len(group(mainAgent)) == 0 {
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
