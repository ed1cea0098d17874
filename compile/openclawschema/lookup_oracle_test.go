package openclawschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// lookupBefore is the refiner's lookup of settings as it was before its
// index kept members in one slice and each stopped splitting patterns and
// wording paths it did not report: the oracle of TestLookupMatchesOracle.
type lookupBefore struct {
	src     string
	outline *jsonwalk.Outline
	doc     *indexBefore
}

type indexBefore struct {
	v     gjson.Result
	at    int
	built bool
	keys  []string
	kids  map[string]*indexBefore
}

func (r *lookupBefore) child(x *indexBefore, k string) *indexBefore {
	if !x.built {
		x.built = true
		if x.v.IsObject() {
			x.kids = map[string]*indexBefore{}
			add := func(key string, start, end int) {
				if _, dup := x.kids[key]; !dup {
					x.keys = append(x.keys, key)
					x.kids[key] = &indexBefore{v: gjson.Parse(r.src[start:end]), at: start}
				}
			}
			if members, ok := r.outline.Members(x.at); ok {
				for _, m := range members {
					add(m.Key, int(m.Start), int(m.End))
				}
			} else {
				jsonwalk.Members(r.src, x.at, func(key string, escaped bool, at int) int {
					end := jsonwalk.Skip(r.src, at)
					add(jsonwalk.JS{}.Decode(key, escaped), at, end)
					return end
				})
			}
		}
	}
	return x.kids[k]
}

func (r *lookupBefore) elements(x *indexBefore, fn func(i int, e *indexBefore)) {
	if !x.v.IsArray() {
		return
	}
	jsonwalk.Elements(r.src, x.at, func(i, at int) int {
		end := jsonwalk.Skip(r.src, at)
		fn(i, &indexBefore{v: gjson.Parse(r.src[at:end]), at: at})
		return end
	})
}

func (r *lookupBefore) get(keys ...string) gjson.Result {
	x := r.doc
	for _, k := range keys {
		if x = r.child(x, k); x == nil {
			return gjson.Result{}
		}
	}
	return x.v
}

func (r *lookupBefore) each(pattern string, fn func(v gjson.Result, at occkit.Path)) {
	var walk func(x *indexBefore, segs []string, at occkit.Path)
	walk = func(x *indexBefore, segs []string, at occkit.Path) {
		if len(segs) == 0 {
			fn(x.v, at)
			return
		}
		switch seg := segs[0]; seg {
		case "*":
			if x.v.IsObject() {
				r.child(x, "")
				for _, k := range x.keys {
					walk(x.kids[k], segs[1:], at.Key(k))
				}
			}
		case "[]":
			r.elements(x, func(i int, c *indexBefore) { walk(c, segs[1:], at.Index(i)) })
		default:
			if c := r.child(x, seg); c != nil {
				walk(c, segs[1:], at.Key(seg))
			}
		}
	}
	walk(r.doc, strings.Split(pattern, "."), occkit.Root())
}

// lookupPatterns are the patterns the refinements look settings up by,
// and more of the same forms.
var lookupPatterns = []string{
	"agents.defaults.heartbeat.agentId", "agents.defaults.systemAgent.agentId", "talk.agentId", "bindings.[].agentId",
	"agents.defaults.heartbeat", "agents.entries.*.heartbeat", "tools.exec", "agents.entries.*.tools.exec",
	"browser.profiles.*", "bindings.[]", "gateway.roles.definitions.*.agents", "hooks.mappings.[]",
	"agents.defaults.heartbeat.every", "agents.entries.*.heartbeat.every", "session.maintenance.pruneAfter",
	"cron.sessionRetention", "cloudWorkers.profiles.*.suspendAfter", "session.maintenance.maxDiskBytes",
	"worktreeRoot", "secrets.providers.*.command", "secrets.providers.*.trustedDirs.[]", "hooks.mappings.[].transform.module",
	"mcp.servers.*.url", "nodeHost.mcp.servers.*.oauth.redirectUrl", "secrets.egressProxy.allowedHosts.[]",
	"*", "*.*", "*.*.*", "agents.*", "agents.*.*", "[]", "*.[]", "*.[].*", "models.providers.*.models.[].id",
	"agents.defaults.models.*.alias", "",
}

// each is eachAt of the pattern written as a dot path, the form the
// tests write patterns in (lookupBefore takes the same).
func (r *refiner) each(pattern string, fn func(v gjson.Result, at occkit.Path)) {
	r.eachAt(strings.Split(pattern, "."), fn)
}

// lookups is what the refiner and the lookup before it find at the
// pattern p, each value with its path.
func lookups(newer *refiner, older *lookupBefore, p string) (got, want []string) {
	newer.each(p, func(v gjson.Result, at occkit.Path) { got = append(got, fmt.Sprintf("%v=%s", at, v.Raw)) })
	older.each(p, func(v gjson.Result, at occkit.Path) { want = append(want, fmt.Sprintf("%v=%s", at, v.Raw)) })
	return got, want
}

// TestLookupMatchesOracle: the refiner's lookups (each, get) find the
// same values at the same paths, in the same order, as lookupBefore, with
// and without the schema walk's outline, on generated documents, compact,
// indented and with escaped keys.
func TestLookupMatchesOracle(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	rapid.Check(t, func(t *rapid.T) {
		b := genDocument(t, v, 17)
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "keys"), 5))
		for _, src := range []string{string(b), spaced.String(), strings.ReplaceAll(string(b), `"a`, `"\u0061`)} {
			w := v.walkText(src)
			for _, out := range []*jsonwalk.Outline{w.outline, nil} {
				root := gjson.Parse(src)
				newer := &refiner{src: src, outline: out, doc: rootIndex(src)}
				older := &lookupBefore{src: src, outline: out, doc: &indexBefore{v: root, at: len(src) - len(root.Raw)}}
				for _, p := range lookupPatterns {
					got, want := lookups(newer, older, p)
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("each(%q) of %s (-before +now):\n%s", p, src, d)
					}
					found += len(got)
				}
				// get along keys the document has, and some it lacks.
				var keys []string
				x := root
				for range 4 {
					var ks []string
					x.ForEach(func(k, _ gjson.Result) bool { ks = append(ks, k.String()); return true })
					if len(ks) == 0 || rng.IntN(6) == 0 {
						keys = append(keys, "absent")
						break
					}
					keys = append(keys, ks[rng.IntN(len(ks))])
					x = x.Get(gjson.Escape(keys[len(keys)-1]))
				}
				for i := range keys {
					if got, want := newer.get(keys[:i+1]...), older.get(keys[:i+1]...); got.Raw != want.Raw || got.Type != want.Type {
						t.Fatalf("get(%q) of %s = %s, before %s", keys[:i+1], src, got.Raw, want.Raw)
					}
				}
			}
		}
	})
	if found == 0 {
		t.Error("no pattern found a value")
	}
}

// FuzzLookupMatchesOracle: on any JSON object text (repeated and escaped
// keys included), the refiner's lookups find what lookupBefore finds,
// with and without the schema walk's outline, one refiner serving every
// pattern in turn as the refinements use it.
func FuzzLookupMatchesOracle(f *testing.F) {
	for _, s := range []string{
		`{"agents":{"entries":{"a":{"heartbeat":{"every":"5m"},"tools":{"exec":{}}},"b":{"tools":1}}}}`,
		`{"agents":{"entries":{"a":{"tools":{"exec":1},"tools":{"exec":2}},"\u0061":{}}}}`,
		`{"agents":{"entries":{"a":{"t\u006fols":{"exec":{"x":[1]}}}},"defaults":{"heartbeat":{"every":"1h"}}}}`,
		`{"secrets":{"providers":{"p":{"command":"/bin/x","trustedDirs":["/a","/b"]}}},"mcp":{"servers":{"s":{"url":"http://h"}}}}`,
		`{"bindings":[{"agentId":"a"},{"agentId":"b"}],"hooks":{"mappings":[{"transform":{"module":"m"}}]}}`,
	} {
		f.Add(s)
	}
	v, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		root := gjson.Parse(src)
		if !json.Valid([]byte(src)) || !root.IsObject() {
			return
		}
		for _, out := range []*jsonwalk.Outline{v.walkText(src).outline, nil} {
			newer := &refiner{src: src, outline: out, doc: rootIndex(src)}
			older := &lookupBefore{src: src, outline: out, doc: &indexBefore{v: root, at: len(src) - len(root.Raw)}}
			for _, p := range lookupPatterns {
				if got, want := lookups(newer, older, p); !cmp.Equal(want, got) {
					t.Fatalf("each(%q) of %s (-before +now):\n%s", p, src, cmp.Diff(want, got))
				}
			}
		}
	})
}
