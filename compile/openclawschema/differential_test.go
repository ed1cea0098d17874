package openclawschema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/tiers"
)

// TestDifferential compares the check's verdict with the real
// validateConfigObject's on generated documents: valid ones drawn from the
// schema, realistic ones, and mutations of both (typos at every depth,
// wrong types, values outside an enum, retired keys). Disagreements
// outside the documented classes (see divergenceClass) must stay under
// 0.1%, and an unknown key OpenClaw names must be refused at its path.
// The agreement of the whole set of refused paths is reported: OpenClaw
// places some union refusals differently (its bindings-specific union
// summary, discriminator messages), which changes where, not whether.
func TestDifferential(t *testing.T) {
	installs, run := openclawDirs(t, tiers.SchemaDifferential)
	for _, in := range installs {
		t.Run(in.version, func(t *testing.T) { differential(t, in, run) })
	}
}

func differential(t *testing.T, in installed, run *tiers.Run) {
	dir := in.dir
	v, err := ForRelease(in.version)
	if err != nil {
		t.Fatal(err)
	}
	n := 10000
	if s := os.Getenv("OCCKIT_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(14)
	if s := os.Getenv("OCCKIT_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	g := &docGen{rng: rand.New(rand.NewPCG(seed, 18))}
	docs := make([][]byte, 0, n)
	kinds := make([]string, 0, n)
	for len(docs) < n {
		doc, kind := g.next(v.root)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
		kinds = append(kinds, kind)
	}
	verdicts, bundledList := oracle(t, dir, docs)
	bundled := map[string]bool{}
	for _, c := range bundledList {
		bundled[c] = true
	}

	d := newDiffer(v, bundled)
	agree, refusedBoth, pathAgree := 0, 0, 0
	keysNamed, keysFound := 0, 0
	classes := map[string]int{}
	accepted := 0
	var bad []string
	// Disagreements whose excuse needs the gateway's own verdict: asked of
	// the CLI's validation once, for all of them, below.
	var pending []int
	errs := make([]error, len(docs))
	for i, b := range docs {
		doc, err := occkit.ParseDocument(b)
		if err != nil {
			t.Fatal(err)
		}
		errs[i] = v.Validate(doc)
		ours := errs[i] == nil
		theirs := verdicts[i]
		if theirs.OK {
			accepted++
		}
		if ours != theirs.OK {
			pending = append(pending, i)
			continue
		}
		agree++
		if ours {
			continue
		}
		refusedBoth++
		named, found := unknownKeysNamed(errs[i], theirs)
		keysNamed += named
		keysFound += found
		if named != found && len(bad) < 20 {
			bad = append(bad, fmt.Sprintf("unknown key (%s): ours %v; OpenClaw %+v", kinds[i], errs[i], theirs.Issues))
		}
		excused, ok := d.samePaths(b, errs[i], theirs)
		if ok {
			pathAgree++
			for _, c := range excused {
				classes["path/"+c]++
			}
		} else if len(bad) < 20 {
			bad = append(bad, fmt.Sprintf("path (%s): %s\n  ours %v; OpenClaw %+v\n  %s", kinds[i], excused[len(excused)-1], errs[i], theirs.Issues, clip(b)))
		}
	}
	var gateway []verdict
	if len(pending) > 0 {
		batch := make([][]byte, len(pending))
		for j, i := range pending {
			batch[j] = docs[i]
		}
		gateway = cliOracle(t, dir, batch)
	}
	unexplained := 0
	for j, i := range pending {
		c := d.verdictClass(docs[i], errs[i], verdicts[i], gateway[j])
		if c != "" {
			classes[c]++
			continue
		}
		unexplained++
		if len(bad) < 40 {
			bad = append(bad, fmt.Sprintf("verdict (%s): ours %v; OpenClaw %+v; gateway %+v\n  %s", kinds[i], errs[i], verdicts[i].Issues, gateway[j].Issues, clip(docs[i])))
		}
	}
	run.Done(len(docs))
	t.Logf("N=%d (OpenClaw accepts %d), verdicts agree on %d, %d disagreements excused %v, %d unexplained; refused by both %d, same refused paths %d",
		len(docs), accepted, agree, len(pending)-unexplained, classes, unexplained, refusedBoth, pathAgree)
	t.Logf("unknown keys OpenClaw names: %d, refused by the check at the same path: %d", keysNamed, keysFound)
	for _, b := range bad {
		t.Error(b)
	}
	for c, n := range classes {
		if limit := excuseBound(c, len(docs)); n > limit {
			t.Errorf("the excuse %s absorbs %d of %d documents, more than its bound %d: narrow it or explain why it grew", c, n, len(docs), limit)
		}
	}
	if accepted < len(docs)/5 || accepted > len(docs)*4/5 {
		t.Errorf("the generator is unbalanced: OpenClaw accepts %d of %d", accepted, len(docs))
	}
}

// structuralPrefixes start the messages OpenClaw's validator (zod) words
// for what a JSON Schema states: unknown keys, types, enums and literals,
// lengths and bounds, patterns and formats, record keys and unions.
var structuralPrefixes = []string{
	"Unrecognized key", "Invalid input", "Invalid option", "Too small", "Too big",
	"Invalid string", "Invalid discriminator value", "Invalid URL",
	"Invalid url", "Invalid email", "Invalid ISO", "Invalid format", "Invalid element", "Invalid value",
}

func structural(msg string) bool {
	for _, p := range structuralPrefixes {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

var unrecognized = regexp.MustCompile(`Unrecognized keys?: (.*)`)
var quoted = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

// unknownKeysNamed counts the unknown keys OpenClaw's issues name and how
// many of them the check refuses at the same path.
func unknownKeysNamed(err error, theirs verdict) (named, found int) {
	got := map[string]bool{}
	for _, e := range occkit.Errors(err) {
		got[ourPath(e.Path)] = true
	}
	for _, is := range theirs.Issues {
		if m := unrecognized.FindStringSubmatch(is.Message); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				named++
				if got[joinPath(is.Path, q[1])] {
					found++
				}
			}
		}
	}
	return named, found
}

// ourPath renders p as OpenClaw's dot path, indexes as segments.
func ourPath(p occkit.Path) string { return strings.Join(pathKeys(p), ".") }

var bracket = regexp.MustCompile(`\[(\d+)\]`)

func normPath(p string) string { return bracket.ReplaceAllString(p, ".$1") }

func joinPath(base, key string) string {
	if base == "" {
		return key
	}
	return normPath(base) + "." + key
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// docGen draws documents from the compiled schema.
type docGen struct {
	rng *rand.Rand
}

// strPool are the strings a generated setting tries, in a random order,
// until one fits the setting's schema.
var strPool = []string{
	"main", "work", "openai/gpt-5.2", "anthropic/claude-opus-5", "https://api.example.com/v1",
	"http://127.0.0.1:8080", "ws://127.0.0.1:9000", "wss://relay.example.com", "${OPENAI_API_KEY}",
	"OPENAI_API_KEY", "123456", "#a1b2c3", "/var/run/app.sock", "2026-01-02T03:04:05Z",
	"ops@example.com", "hello world", "x", "info", "debug", "json", "default", "ghp_0123456789abcdef0123456789abcdef",
	"01234567-89ab-4cde-8f01-23456789abcd", "https://team.cloudflareaccess.com", "openai:gpt", "a.b", "",
}

var keyPool = []string{"main", "work", "openai", "anthropic", "default", "ops", "team-a", "X_TOKEN"}

// next draws one document and says how it was made.
func (g *docGen) next(root *node) (any, string) {
	base, _ := g.value(root, 0)
	doc, _ := base.(map[string]any)
	if doc == nil {
		doc = map[string]any{}
	}
	switch g.rng.IntN(10) {
	case 0, 1, 2, 3:
		return doc, "valid"
	case 4:
		g.realistic(doc)
		return doc, "realistic"
	case 5, 6:
		if g.typo(doc, root) {
			return doc, "typo"
		}
	case 7:
		if g.wrongType(doc) {
			return doc, "type"
		}
	case 8:
		if g.badEnum(doc, root) {
			return doc, "enum"
		}
	case 9:
		g.retired(doc)
		return doc, "retired"
	}
	return doc, "valid"
}

// value draws a value n accepts (best effort: the check is the judge).
func (g *docGen) value(n *node, depth int) (any, bool) {
	if n == nil {
		return "x", true
	}
	if n.never {
		return nil, false
	}
	if n.enum != nil {
		var v any
		_ = json.Unmarshal([]byte(n.enum[g.rng.IntN(len(n.enum))].text), &v)
		return v, true
	}
	if len(n.anyOf) > 0 {
		return g.value(n.anyOf[g.rng.IntN(len(n.anyOf))], depth)
	}
	if len(n.oneOf) > 0 {
		return g.value(n.oneOf[g.rng.IntN(len(n.oneOf))], depth)
	}
	if n.types == 0 && !n.walkObject && len(n.allOf) > 0 {
		for i := 0; i < 8; i++ {
			if v, ok := g.value(n.allOf[0], depth); ok && n.valid(gjson.Parse(mustJSON(v))) {
				return v, true
			}
		}
		return nil, false
	}
	var types []uint8
	for _, b := range []uint8{jsObject, jsArray, jsString, jsNumber, jsInteger, jsBoolean, jsNull} {
		if n.types&b != 0 {
			types = append(types, b)
		}
	}
	if len(types) == 0 {
		if n.walkObject {
			types = []uint8{jsObject}
		} else {
			types = []uint8{jsString, jsBoolean, jsNumber}
		}
	}
	t := types[g.rng.IntN(len(types))]
	switch t {
	case jsObject:
		if depth > 7 {
			return nil, false
		}
		m := map[string]any{}
		p := 0.5
		if len(n.names) > 6 {
			p = 3.0 / float64(len(n.names))
		}
		if depth == 0 {
			p = 0.12
		}
		for _, k := range n.names {
			req := contains(n.required, k)
			if !req && g.rng.Float64() >= p {
				continue
			}
			if v, ok := g.value(n.props[k], depth+1); ok {
				m[k] = v
			} else if req {
				return nil, false
			}
		}
		if n.additional != nil && !n.additional.never && g.rng.IntN(3) == 0 {
			for i := g.rng.IntN(3); i > 0; i-- {
				k := keyPool[g.rng.IntN(len(keyPool))]
				if n.keys != nil && !n.keys.valid(gjson.Parse(strconv.Quote(k))) {
					continue
				}
				if v, ok := g.value(n.additional, depth+1); ok {
					m[k] = v
				}
			}
		}
		for _, r := range n.required {
			if _, ok := m[r]; !ok {
				return nil, false
			}
		}
		return m, true
	case jsArray:
		if depth > 7 {
			return nil, false
		}
		a := []any{}
		want := g.rng.IntN(3)
		if n.minItems > want {
			want = n.minItems
		}
		for i := 0; i < want; i++ {
			c := n.itemSchema(i)
			v, ok := g.value(c, depth+1)
			if !ok {
				break
			}
			a = append(a, v)
		}
		return a, true
	case jsString:
		for _, i := range g.rng.Perm(len(strPool)) {
			s := strPool[i]
			if n.validString(gjson.Parse(strconv.Quote(s))) && allValid(n.allOf, strconv.Quote(s)) {
				return s, true
			}
		}
		return nil, false
	case jsNumber, jsInteger:
		for _, f := range []float64{1, 0, 30, 1000, 0.5, 65535} {
			if t == jsInteger && f != float64(int(f)) {
				continue
			}
			if n.validNumber(gjson.Parse(strconv.FormatFloat(f, 'g', -1, 64))) {
				return f, true
			}
		}
		if n.minimum != nil {
			return *n.minimum, true
		}
		return nil, false
	case jsBoolean:
		return g.rng.IntN(2) == 0, true
	}
	return nil, true
}

func allValid(ns []*node, raw string) bool {
	for _, c := range ns {
		if !c.valid(gjson.Parse(raw)) {
			return false
		}
	}
	return true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// realistic overlays the settings occkit deployments hold.
func (g *docGen) realistic(doc map[string]any) {
	agents := map[string]any{"defaults": map[string]any{
		"model":         map[string]any{"primary": "openai/gpt-5.2", "fallbacks": []any{"anthropic/claude-opus-5"}},
		"maxConcurrent": 4,
		"models": map[string]any{
			"openai/gpt-5.2":          map[string]any{"alias": "gpt", "agentRuntime": map[string]any{"id": "codex"}},
			"anthropic/claude-opus-5": map[string]any{"params": map[string]any{"temperature": 0.2}},
		},
	}}
	doc["agents"] = agents
	doc["logging"] = map[string]any{"level": "debug", "consoleStyle": "json"}
	doc["models"] = map[string]any{"providers": map[string]any{"vllm": map[string]any{
		"baseUrl": "http://127.0.0.1:8000/v1", "api": "openai-completions", "apiKey": "${VLLM_API_KEY}",
		"models": []any{map[string]any{"id": "m1", "name": "M1", "contextWindow": 128000, "maxTokens": 8192}},
	}}}
	if g.rng.IntN(2) == 0 {
		doc["plugins"] = map[string]any{"entries": map[string]any{"codex": map[string]any{"enabled": true}}}
	}
}

// objects lists the objects of doc with the schema that applies to each
// (when one single schema does), deepest last.
type place struct {
	obj  map[string]any
	node *node
}

func (g *docGen) places(v any, n *node, out *[]place) {
	if n != nil && (len(n.anyOf) > 0 || len(n.oneOf) > 0) {
		for _, c := range append(append([]*node(nil), n.anyOf...), n.oneOf...) {
			if c.valid(gjson.Parse(mustJSON(v))) {
				g.places(v, c, out)
				return
			}
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		*out = append(*out, place{x, n})
		for _, k := range sortedMapKeys(x) {
			var c *node
			if n != nil {
				c, _ = n.child(k)
			}
			g.places(x[k], c, out)
		}
	case []any:
		for i, e := range x {
			var c *node
			if n != nil {
				c = n.itemSchema(i)
			}
			g.places(e, c, out)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedMapKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// typo renames one key of a random object at any depth.
func (g *docGen) typo(doc map[string]any, root *node) bool {
	var ps []place
	g.places(doc, root, &ps)
	var cands []place
	for _, p := range ps {
		if len(p.obj) > 0 {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		doc["agents"] = map[string]any{"defualts": map[string]any{}}
		return true
	}
	p := cands[g.rng.IntN(len(cands))]
	keys := sortedMapKeys(p.obj)
	k := keys[g.rng.IntN(len(keys))]
	t := mangle(g.rng, k)
	v := p.obj[k]
	delete(p.obj, k)
	p.obj[t] = v
	return true
}

func mangle(rng *rand.Rand, k string) string {
	r := []rune(k)
	switch rng.IntN(4) {
	case 0:
		if len(r) > 1 {
			i := rng.IntN(len(r) - 1)
			r[i], r[i+1] = r[i+1], r[i]
			if string(r) != k {
				return string(r)
			}
		}
		return k + "s"
	case 1:
		if len(r) > 1 {
			i := rng.IntN(len(r))
			return string(append(r[:i:i], r[i+1:]...))
		}
		return k + "x"
	case 2:
		return k + "s"
	}
	return strings.ToUpper(k[:1]) + k[1:] + "_"
}

// wrongType replaces one value at any depth with one of another type.
func (g *docGen) wrongType(doc map[string]any) bool {
	var ps []place
	g.places(doc, nil, &ps)
	p := ps[g.rng.IntN(len(ps))]
	if len(p.obj) == 0 {
		doc["gateway"] = map[string]any{"port": "18789"}
		return true
	}
	keys := sortedMapKeys(p.obj)
	k := keys[g.rng.IntN(len(keys))]
	switch p.obj[k].(type) {
	case string:
		p.obj[k] = 42
	case float64, int:
		p.obj[k] = "42"
	case bool:
		p.obj[k] = "true"
	case map[string]any:
		p.obj[k] = []any{"x"}
	case []any:
		p.obj[k] = "x"
	default:
		p.obj[k] = map[string]any{}
	}
	return true
}

// badEnum sets a value outside the enum of one setting that has one.
func (g *docGen) badEnum(doc map[string]any, root *node) bool {
	var ps []place
	g.places(doc, root, &ps)
	var cands []struct {
		obj map[string]any
		key string
	}
	for _, p := range ps {
		if p.node == nil {
			continue
		}
		for _, k := range sortedMapKeys(p.obj) {
			if c := p.node.props[k]; c != nil && c.enum != nil && !c.isConst {
				cands = append(cands, struct {
					obj map[string]any
					key string
				}{p.obj, k})
			}
		}
	}
	if len(cands) == 0 {
		doc["tools"] = map[string]any{"profile": "everything"}
		return true
	}
	c := cands[g.rng.IntN(len(cands))]
	c.obj[c.key] = "everything"
	return true
}

// retired adds a key OpenClaw retired or never had.
func (g *docGen) retired(doc map[string]any) {
	switch g.rng.IntN(5) {
	case 0:
		doc["cron"] = map[string]any{"store": "~/.openclaw/cron.json"}
	case 1:
		doc["routing"] = map[string]any{"allowFrom": []any{"+15550001"}}
	case 2:
		doc["agents"] = map[string]any{"defaults": map[string]any{"model": map[string]any{"primary": "openai/gpt-5.2", "fallback": []any{"x/y"}}}}
	case 3:
		doc["agents"] = map[string]any{"defualts": map[string]any{}}
	default:
		doc["tools"] = map[string]any{"profile": "everything"}
	}
}
