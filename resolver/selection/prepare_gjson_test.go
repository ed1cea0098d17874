package selection

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// The preparation as it read documents with gjson before it read them
// with the byte scanner (read.go), kept as the oracle of
// TestPrepareReadsAsGJSON: the same Index from every document.

func gjsonPrepare(doc occkit.Document, f *focus) *Index {
	var top [2]gjson.Result
	members(docjson.Root(doc), gjsonRootKeys, top[:])
	agents := readAgents(top[0])
	x := &Index{noRoute: route{official: true}}
	def := gjsonScope(scopeAt{}, agents.defaults, &x.provs, f)
	x.none = agent{sel2: def.sel2, params: def.params, two: [2]*modelMap{def.models}}
	x.none.maps = x.none.two[:1]

	r, byID := readRoster(agents, nil)
	x.implicit = r.implicitAgent(&byID, agents.ownership, def.systemAgent.Get("agentId"))
	byID.each(func(id string, i int32) {
		if f == nil || id == f.agent || id == x.implicit {
			m := r.members[i]
			x.agents.set(id, def.with(gjsonScope(m.at, gjson.Parse(m.raw), &x.provs, f), new(agent)))
		}
	})
	x.implicitAgent = x.agent(x.implicit)

	eachProviderGroup(gjsonMembers(top[1].Get("providers")), func(id string, g providerGroup) {
		addProvider(&x.provs, id)
		if f == nil || f.provs[id] {
			x.provs.set(id, provEntry{id, gjsonProvider(g.key, g.merged(), id == "openai", f)})
		}
	})
	return x
}

// gjsonRootKeys are the document's members selection reads.
var gjsonRootKeys = []string{"agents", "models"}

func gjsonScope(at scopeAt, v gjson.Result, names *table[provEntry], f *focus) scope {
	var s scope
	var runtime, embedded, params, models gjson.Result
	if v.IsObject() {
		v.ForEach(func(k, val gjson.Result) bool {
			switch k.String() {
			case "agentRuntime":
				gjsonFirstOf(&runtime, val)
			case "embeddedHarness":
				gjsonFirstOf(&embedded, val)
			case "params":
				gjsonFirstOf(&params, val)
			case "models":
				gjsonFirstOf(&models, val)
			case "systemAgent":
				gjsonFirstOf(&s.systemAgent, val)
			}
			return true
		})
	}
	s.read(at, runtime, embedded, params)
	s.models = noModels
	if models.Exists() {
		s.models = gjsonModelMap(at.path("models"), models, names, f)
	}
	return s
}

func gjsonFirstOf(dst *gjson.Result, v gjson.Result) {
	if !dst.Exists() {
		*dst = v
	}
}

// gjsonKeyMembers are the members of a model-map key that selection reads.
var gjsonKeyMembers = []string{"agentRuntime", "params"}

func gjsonModelMap(at occkit.Path, m gjson.Result, names *table[provEntry], f *focus) *modelMap {
	mm := &modelMap{at: at}
	if !m.IsObject() {
		return mm
	}
	// The keys are read first, so the maps are made at their size (no
	// growing); they are allocated in chunks, never copied.
	var ks []*modelKey
	chunk := chunks[modelKey]{buf: mm.own[:0]}
	m.ForEach(func(key, v gjson.Result) bool {
		t := strings.TrimSpace(key.String())
		pre, rest, qualified := strings.Cut(t, "/")
		if !f.key(key.String(), t, rest, qualified) {
			return true
		}
		k := chunk.next(512)
		k.key, k.qualified, k.in = key.String(), qualified, mm
		if qualified {
			k.provider = fold(pre)
		}
		var vs [2]gjson.Result
		members(v, gjsonKeyMembers, vs[:])
		if raw, ok := runtimeIDOf(vs[0]); ok {
			k.policy, k.runtime = true, resolver.NormalizeRuntime(raw)
		}
		if p := vs[1]; present(p) {
			k.params, k.hasParams, k.overrides = p.Raw, true, hasParamOverride(p)
		}
		ks = append(ks, k)
		return true
	})
	mm.index(ks, names, f)
	return mm
}

// newProvider prepares the config v at models.providers.<key>; openai
// marks the provider whose routes SEL-4 tests.
func gjsonProvider(key string, v gjson.Result, openai bool, f *focus) *provider {
	p := &provider{key: key}
	o := objectOf(v)
	p.config(&o, openai)

	rows := o.get("models")
	if !rows.IsArray() {
		return p
	}
	// The rows are read into one slice first (no allocation per row),
	// then indexed in maps made at their size.
	var rs []*row
	var chunk chunks[row]
	rowsAt := occkit.NewPath("models", "providers", key, "models")
	i := 0
	rows.ForEach(func(_, v gjson.Result) bool {
		defer func() { i++ }()
		var m [len(rowKeys)]gjson.Result
		members(v, rowKeys[:], m[:])
		id := m[0]
		if !v.IsObject() || id.Type != gjson.String || !f.row(strings.TrimSpace(id.String())) {
			return true
		}
		r := chunk.next(512)
		r.idx, r.id = i, id.String()
		at := rowsAt.Index(i)
		if raw, ok := runtimeIDOf(m[1]); ok {
			r.policy, r.runtime = true, resolver.NormalizeRuntime(raw)
			r.owner, r.policyRow = p, i
		}
		var scan overrideScan
		for j, name := range rowFields {
			scan.rowField(name, m[4+j], at)
		}
		r.overrides = sortPaths(scan.paths)
		r.rowFacts(m[2], m[3], p, openai)
		rs = append(rs, r)
		return true
	})
	p.index(rs, rows.Raw, openai)
	return p
}

func objectOf(v gjson.Result) object {
	o := object{v: v}
	if v.IsObject() {
		o.m = map[string]gjson.Result{}
		v.ForEach(func(k, val gjson.Result) bool {
			if _, dup := o.m[k.String()]; !dup {
				o.m[k.String()] = val
			}
			return true
		})
	}
	return o
}

// members sets out[i] to the first member of the object o named keys[i]
// (gjson's Get of a plain key, for several keys in one pass over o); a
// member that is absent stays the zero Result (Exists false).
func members(o gjson.Result, keys []string, out []gjson.Result) {
	if !o.IsObject() {
		return
	}
	left := len(keys)
	o.ForEach(func(k, v gjson.Result) bool {
		name := k.String()
		for i, key := range keys {
			if name == key && !out[i].Exists() {
				out[i] = v
				left--
			}
		}
		return left > 0
	})
}

var agentsKeys = []string{"defaults", "entries", "list", "ownership"}

func readAgents(agents gjson.Result) agentsSection {
	var m [4]gjson.Result
	members(agents, agentsKeys, m[:])
	return agentsSection{v: agents, defaults: m[0], entries: m[1], list: m[2], ownership: m[3]}
}

// gjsonMembers are the members of o, each as gjson reads it (none when o
// is not an object).
func gjsonMembers(o gjson.Result) []member {
	if !o.IsObject() {
		return nil
	}
	var ms []member
	o.ForEach(func(k, v gjson.Result) bool {
		ms = append(ms, member{key: k.String(), v: v})
		return true
	})
	return ms
}
