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
	"github.com/occkit/occkit/internal/docjson"
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
	dir, run := openclawDir(t, tiers.SchemaDifferential)
	v, err := New()
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

	agree, diverge, pathAgree, refusedBoth := 0, 0, 0, 0
	keysNamed, keysFound := 0, 0
	classes := map[string]int{}
	accepted := 0
	var bad, badVerdict []string
	for i, d := range docs {
		doc, err := occkit.ParseDocument(d)
		if err != nil {
			t.Fatal(err)
		}
		err = v.Validate(doc)
		ours := err == nil
		theirs := verdicts[i]
		if theirs.OK {
			accepted++
		}
		if ours == theirs.OK {
			agree++
			if !ours && refinementOnly(theirs) == "" {
				refusedBoth++
				var schemaErr error
				if root := docjson.Root(specView(doc)); !v.root.valid(root) {
					schemaErr = occkit.Join(v.schemaIssues(root)...)
				}
				named, found := unknownKeysNamed(schemaErr, theirs)
				keysNamed += named
				keysFound += found
				if named != found && len(bad) < 20 {
					bad = append(bad, fmt.Sprintf("unknown key (%s): ours %v; OpenClaw %+v", kinds[i], err, theirs.Issues))
				}
				if samePaths(bundledOnly(schemaErr, bundled), theirs) {
					pathAgree++
				} else if len(bad) < 20 {
					bad = append(bad, fmt.Sprintf("path (%s): ours %v; OpenClaw %+v\n  %s", kinds[i], err, theirs.Issues, clip(d)))
				}
			}
			continue
		}
		if c := divergenceClass(err, theirs, bundled); c != "" {
			classes[c]++
			diverge++
			continue
		}
		if len(badVerdict) < 20 {
			badVerdict = append(badVerdict, fmt.Sprintf("verdict (%s): ours %v; OpenClaw %+v\n  %s", kinds[i], err, theirs.Issues, clip(d)))
		}
	}
	run.Done(len(docs))
	counted := len(docs) - diverge
	pct := 100 * float64(agree) / float64(counted)
	t.Logf("N=%d (OpenClaw accepts %d), agreement %.3f%% outside %d documented divergences %v; refused by both %d, same refused paths %d (%.3f%%)",
		len(docs), accepted, pct, diverge, classes, refusedBoth, pathAgree, 100*float64(pathAgree)/float64(max(refusedBoth, 1)))
	t.Logf("unknown keys OpenClaw names: %d, refused by the check at the same path: %d", keysNamed, keysFound)
	for _, b := range append(badVerdict, bad...) {
		t.Log(b)
	}
	if pct < 99.9 {
		t.Errorf("verdict agreement %.3f%% < 99.9%%", pct)
	}
	if float64(keysFound) < 0.999*float64(keysNamed) {
		t.Errorf("unknown keys refused at OpenClaw's path: %d/%d < 99.9%%", keysFound, keysNamed)
	}
	if accepted < len(docs)/5 || accepted > len(docs)*4/5 {
		t.Errorf("the generator is unbalanced: OpenClaw accepts %d of %d", accepted, len(docs))
	}
}

// divergenceClass names the documented class of a disagreement, or ""
// for one that counts against agreement (see the package doc):
//
//   - refinement: OpenClaw refuses only through its validator's
//     refinements, the cross-field and semantic checks (an agent id must
//     name a configured agent, a path must be absolute, a duration must
//     parse, a record key must have some form, …) that its published
//     schema does not carry, recognised from OpenClaw's own issues;
//   - plugin-channel: the check refuses only settings of a channel the
//     schema describes but validateConfigObject does not check, because the
//     channel comes from a plugin that is not bundled (the gateway checks
//     it once the plugin is installed).
//   - spec: OpenClaw refuses only keys the SPEC decides (an empty
//     agents.list beside entries, RES-10; logging.redactSensitive, LOG-1
//     and LOG-3), which the check leaves to those rules;
//   - channel-default: validateConfigObject checks a bundled channel's
//     section without its defaults and refuses a missing property the
//     schema gives a default; the gateway and `openclaw config validate`
//     fill the defaults in first and accept (measured with the CLI), as
//     the check does; likewise channel-raw, the account keys of a raw
//     channel section (zalouser) that the CLI accepts.
func divergenceClass(ours error, theirs verdict, bundled map[string]bool) string {
	if ours == nil && specOnly(theirs) {
		return "spec"
	}
	if ours == nil {
		// Each refusal must be a missing channel setting with a default
		// or a documented unmirrored refinement.
		var classes []string
		for _, is := range theirs.Issues {
			c := "channel-default"
			if channelRaw(is.Path, is.Message) {
				c = "channel-raw"
			} else if !strings.HasPrefix(is.Message, "invalid config: must have required property") {
				if structural(is.Message) {
					return ""
				}
				if c = unmirroredClass(normPath(is.Path), is.Message); c == "" {
					return ""
				}
				c = "refinement/" + c
			}
			if !contains(classes, c) {
				classes = append(classes, c)
			}
		}
		sort.Strings(classes)
		return strings.Join(classes, "+")
	}
	if !theirs.OK {
		return ""
	}
	for _, e := range occkit.Errors(ours) {
		k, _, isIdx := e.Path.Elem(0)
		if e.Path.Len() < 2 || isIdx || k != "channels" {
			return ""
		}
		if c, _, _ := e.Path.Elem(1); bundled[c] {
			return ""
		}
	}
	return "plugin-channel"
}

// channelRaw recognises validateConfigObject's refusal of the account
// keys of a bundled channel's raw section (the zalouser accounts map),
// which the CLI's validation, after the channel's normalization, accepts
// (measured with testdata/cli-oracle.mjs), as the check does.
func channelRaw(path, message string) bool {
	return strings.HasPrefix(path, "channels.") && strings.HasSuffix(path, ".accounts") &&
		strings.HasPrefix(message, "invalid config: must not have additional properties")
}

// specOnly reports whether OpenClaw refuses only keys the SPEC decides
// (see specView): an agents.list beside entries, logging.redactSensitive.
func specOnly(theirs verdict) bool {
	if theirs.OK || len(theirs.Issues) == 0 {
		return false
	}
	for _, is := range theirs.Issues {
		switch {
		case is.Path == "agents" && strings.Contains(is.Message, `"list"`):
		case is.Path == "logging" && strings.Contains(is.Message, `"redactSensitive"`):
		default:
			return false
		}
	}
	return true
}

// refinementOnly is "refinement/<class>" when OpenClaw refuses only
// through refinements the check does not mirror, all of one documented
// class (UnmirroredRefinements); "" when some refusal is structural or
// a refinement no row recognises.
func refinementOnly(theirs verdict) string {
	if theirs.OK {
		return ""
	}
	class := ""
	for _, is := range theirs.Issues {
		if structural(is.Message) {
			return ""
		}
		c := unmirroredClass(normPath(is.Path), is.Message)
		if c == "" {
			return ""
		}
		if class == "" || c < class {
			class = c
		}
	}
	return "refinement/" + class
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

// samePaths reports whether our refusals name the same settings as
// OpenClaw's issues: each issue's path, or the path and key of an
// unrecognized key.
var unrecognized = regexp.MustCompile(`Unrecognized keys?: (.*)`)
var quoted = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

func samePaths(err error, theirs verdict) bool {
	want := map[string]bool{}
	for _, is := range theirs.Issues {
		if !structural(is.Message) {
			continue
		}
		base := is.Path
		if m := unrecognized.FindStringSubmatch(is.Message); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				want[joinPath(base, q[1])] = true
			}
			continue
		}
		want[normPath(base)] = true
	}
	got := map[string]bool{}
	for _, e := range occkit.Errors(err) {
		got[ourPath(e.Path)] = true
	}
	for p := range want {
		if !got[p] {
			return false
		}
	}
	for p := range got {
		if !want[p] {
			return false
		}
	}
	return true
}

// bundledOnly drops refusals of channels validateConfigObject does not
// check (the plugin-channel class), so paths compare on what both judge.
func bundledOnly(err error, bundled map[string]bool) error {
	var keep []error
	for _, e := range occkit.Errors(err) {
		if e.Path.Len() >= 2 {
			k, _, _ := e.Path.Elem(0)
			c, _, _ := e.Path.Elem(1)
			if k == "channels" && !bundled[c] {
				continue
			}
		}
		keep = append(keep, e)
	}
	return occkit.Join(keep...)
}

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
