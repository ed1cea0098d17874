package resolver

import (
	"iter"
	"slices"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// This file builds, in one pass over the document, the indexes OCC Harness
// resolution evaluates: selections, selectable catalogs, provider rows and
// plugin routing. Every lookup afterwards is a hash lookup, so resolution
// stays linear in the number of models.

// runtimeState is the state of one agentRuntime setting (RES-1).
type runtimeState uint8

const (
	runtimeNone runtimeState = iota // no agentRuntime
	runtimeOK                       // agentRuntime {id: openclaw|codex}
	runtimeBad                      // present but unsupported (already reported)
)

// harnessID is a supported agentRuntime id stored in one byte, so the
// per-model indexes hold no string (and no pointer) for it.
type harnessID uint8

const (
	hidOpenClaw harnessID = iota
	hidCodex
)

// toHarnessID maps a supported agentRuntime id ("openclaw" or "codex").
func toHarnessID(id string) harnessID {
	if id == string(occkit.HarnessCodex) {
		return hidCodex
	}
	return hidOpenClaw
}

func (h harnessID) String() string {
	if h == hidCodex {
		return string(occkit.HarnessCodex)
	}
	return string(occkit.HarnessOpenClaw)
}

// runtimeErr is the RES-1 refusal of the agentRuntime under base.
func runtimeErr(base occkit.Path, shape bool, holder gjson.Result) error {
	if shape {
		return invalid("RES-1", base.Key("agentRuntime"),
			"%s must be an object {id}", base.Key("agentRuntime"))
	}
	hint, suggestion := "", ""
	if id := holder.Get("agentRuntime.id"); id.Type == gjson.String {
		runtimes := []string{string(occkit.HarnessOpenClaw), string(occkit.HarnessCodex)}
		hint, suggestion = occkit.DidYouMean(id.Str, runtimes), occkit.Suggest(id.Str, runtimes)
	}
	e := invalid("RES-1", base.Key("agentRuntime").Key("id"),
		`%s must be "openclaw" or "codex"%s`, base.Key("agentRuntime").Key("id"), hint)
	e.Suggestion = suggestion
	return e
}

// catalogKey is one key of a selectable catalog (agents.defaults.models or
// an entry's models).
//
// It is kept small and pointer-free (one entry per model, live while a
// catalog is evaluated, 12 bytes): the ref is its key "provider/id" (a
// strRef; the provider is what comes before the key's first slash, as a
// provider holds none), and the runtime a byte. The key as written is
// kept apart (catalogIndex.raws) only when it differs from the ref's key,
// and so is a key whose ref an earlier key names too (catalogIndex.prevs).
type catalogKey struct {
	key   strRef // the ref's Key() when valid, else the key as written
	valid bool   // the key as written is a valid selected ref (REF-3)
	other bool   // the key as written differs from key: see catalogIndex.raws
	rt    harnessID
	rtSt  runtimeState
}

// catalogIndex is one selectable catalog.
type catalogIndex struct {
	present bool
	bad     bool // not an object (reported)
	path    occkit.Path
	strs    strTable // the keys' strings
	keys    seq[catalogKey]
	raws    map[int32]string // the keys as written that differ from their ref's key
	byKey   indexTable       // Ref.Key() -> last index into keys (chained by prevs); nil without valid keys
	// prevs chains the keys with the same Ref.Key: the previous one of
	// each key that has one (nil when no two keys name one ref).
	prevs map[int32]int32
}

// lookup calls f for each key whose ref is key, in document order.
func (c *catalogIndex) lookup(key string, f func(i int32)) {
	u, ok := c.get(key)
	if !ok {
		return
	}
	i := int32(u)
	if _, dup := c.prevs[i]; !dup { // the common case: one key
		f(i)
		return
	}
	var buf [8]int32
	all := append(buf[:0], i)
	for prev, dup := c.prevs[i]; dup; prev, dup = c.prevs[prev] {
		all = append(all, prev)
	}
	for j := len(all) - 1; j >= 0; j-- {
		f(all[j])
	}
}

// has reports whether the catalog holds key.
func (c *catalogIndex) has(key string) bool {
	_, ok := c.get(key)
	return ok
}

// key is the ref's key of keys[i] (the key as written when invalid).
func (c *catalogIndex) key(i int) string { return c.strs.get(c.keys.at(i).key) }

// provider is the provider of keys[i]'s ref (valid keys only).
func (c *catalogIndex) provider(i int) string { return keyProvider(c.key(i)) }

// keyProvider is the provider of the ref whose key is key ("provider/id"):
// what comes before its first slash, as a provider holds none (REF-1).
func keyProvider(key string) string {
	if j := strings.IndexByte(key, '/'); j >= 0 {
		return key[:j]
	}
	return ""
}

func (c *catalogIndex) keyPath(i int) occkit.Path { return c.path.Key(c.keyRaw(i)) }

// keyRaw is keys[i] as written.
func (c *catalogIndex) keyRaw(i int) string {
	if k := c.keys.at(i); !k.other {
		return c.strs.get(k.key)
	}
	return c.raws[int32(i)]
}

// slot returns the slot of byKey holding key's value, or the empty slot
// where key belongs. byKey must not be empty.
func (c *catalogIndex) slot(key string) (int, bool) {
	t := c.byKey
	for i := firstSlot(t, key); ; {
		switch s := t[i]; {
		case s == 0:
			return i, false
		case c.key(int(s-1)) == key:
			return i, true
		}
		if i++; i == len(t) {
			i = 0
		}
	}
}

// get returns the value byKey holds under key.
func (c *catalogIndex) get(key string) (uint32, bool) {
	if len(c.byKey) == 0 {
		return 0, false
	}
	i, found := c.slot(key)
	return c.byKey[i] - 1, found
}

// refKey is r.Key(), reusing raw when it is already written that way
// (the common case), so indexing does not allocate per key.
func refKey(raw string, r Ref) string {
	if r.Profile == "" && len(raw) == len(r.Provider)+1+len(r.ID) &&
		raw[:len(r.Provider)] == r.Provider && raw[len(r.Provider)] == '/' && raw[len(r.Provider)+1:] == r.ID {
		return raw
	}
	return r.Key()
}

// refAt is a model ref and where it is written: at *base, or at
// (*base)[idx] for a fallback. The location is built only when a reason or a
// problem needs it. The ref is its key "provider/id" (the provider is its
// first pl bytes) and profile. A setting keeps its primary as a refAt and
// its fallbacks as fallbackRefs, from which [modelSetting.fallback] makes
// one.
type refAt struct {
	key     string // ref.Key()
	profile string // ref.Profile
	base    *occkit.Path
	pl      int32 // len(ref.Provider)
	idx     int32 // -1: at base itself
}

// ref is the parsed ref.
func (r *refAt) ref() Ref {
	return Ref{Provider: r.key[:r.pl], ID: r.key[r.pl+1:], Profile: r.profile}
}

// provider is ref().Provider.
func (r *refAt) provider() string { return r.key[:r.pl] }

// str is ref().String(): the key itself unless there is a profile.
func (r *refAt) str() string {
	if r.profile == "" {
		return r.key
	}
	return r.ref().String()
}

func (r *refAt) loc() occkit.Path {
	if r.idx < 0 {
		return *r.base
	}
	return r.base.Index(int(r.idx))
}

func newRefAt(raw string, ref Ref, base *occkit.Path, idx int) refAt {
	return refAt{key: refKey(trimSpace(raw), ref), profile: ref.Profile, base: base,
		pl: int32(len(ref.Provider)), idx: int32(idx)}
}

// fallbackRef is one fallback of a setting as the setting stores it:
// small and pointer-free (one is kept per fallback, 16 bytes), its key a
// strRef of the list's strTable, its provider the key's first pl bytes
// (what comes before its first slash), its profile, which few have,
// kept apart (fallbackList.profiles), its base the list's path and its
// element of fallbacks its place among them (see fallbackList.idxs).
type fallbackRef struct {
	key  strRef
	pl   int32 // len(ref.Provider)
	prof int32 // the profile's index in fallbackList.profiles; -1: none
}

// fallbackList is a setting's fallbacks member, kept apart from the
// setting so that a setting without one (an Agent entry's, most often),
// or with one that holds no ref, holds one pointer for it rather than
// the list's 176 bytes.
type fallbackList struct {
	refs seq[fallbackRef]
	// idxs are the fallbacks' elements, when an element that is no ref
	// comes before one that is (nil: fallback i is element i).
	idxs []int32
	strs strTable // the fallbacks' strings
	// profiles are the profiles of the fallbacks that have one
	// (fallbackRef.prof).
	profiles []strRef
	// at is where the fallbacks are written: the base of their refAt.
	at occkit.Path
}

// pushFallback appends the fallback raw, written at fallbacks[idx],
// which parses as ref.
func (l *fallbackList) pushFallback(raw string, ref Ref, idx int) {
	r := newRefAt(raw, ref, &l.at, idx)
	f := fallbackRef{key: l.strs.put(r.key), pl: r.pl, prof: -1}
	if r.profile != "" {
		f.prof = int32(len(l.profiles))
		l.profiles = append(l.profiles, l.strs.put(r.profile))
	}
	l.push(f, idx)
}

// push appends the fallback f, written at fallbacks[idx].
func (l *fallbackList) push(f fallbackRef, idx int) {
	n := l.refs.len()
	if l.idxs == nil && idx != n {
		// An element before this one was no ref: from here on the
		// elements are kept apart.
		l.idxs = make([]int32, n, n+1)
		for i := range l.idxs {
			l.idxs[i] = int32(i)
		}
	}
	if l.idxs != nil {
		l.idxs = append(l.idxs, int32(idx))
	}
	l.refs.push(f)
}

// fallbacks is how many of m's fallbacks are refs.
func (m *modelSetting) fallbacks() int {
	if m.fb == nil {
		return 0
	}
	return m.fb.refs.len()
}

// fallbackIdx is the element of fallbacks that fallback i of m is.
func (m *modelSetting) fallbackIdx(i int) int32 {
	if m.fb.idxs == nil {
		return int32(i)
	}
	return m.fb.idxs[i]
}

// fallbackKey is fallback i's key (fallback(i).key without the rest).
func (m *modelSetting) fallbackKey(i int) string {
	return m.fb.strs.get(m.fb.refs.at(i).key)
}

// fallbackChunks is how many chunks of m.fb.refs hold fallbacks (0
// without a list).
func (m *modelSetting) fallbackChunks() int {
	if m.fb == nil {
		return 0
	}
	return m.fb.refs.chunks()
}

// fallback is fallback i of m.
func (m *modelSetting) fallback(i int) refAt {
	f := m.fb.refs.at(i)
	r := refAt{key: m.fb.strs.get(f.key), base: &m.fb.at, pl: f.pl, idx: m.fallbackIdx(i)}
	if f.prof >= 0 {
		r.profile = m.fb.strs.get(m.fb.profiles[f.prof])
	}
	return r
}

// fallbackStrs are m's fallbacks, each fallback(i).str(), in a slice
// of their own: the list is walked chunk by chunk, and a fallback
// without a profile is its key.
func (m *modelSetting) fallbackStrs() []string {
	out := make([]string, m.fallbacks())
	if m.fb == nil {
		return out
	}
	i := 0
	for ch := range m.fb.refs.chunks() {
		for _, f := range m.fb.refs.chunk(ch) {
			if f.prof < 0 {
				out[i] = m.fb.strs.get(f.key)
			} else {
				r := m.fallback(i)
				out[i] = r.str()
			}
			i++
		}
	}
	return out
}

// fallbacksOnceOn: when false, parseModelSetting looks for the
// fallbacks off the primary's provider one by one, among the elements
// that are no refs, whatever allOn finds (the oracle of
// TestFastPathsPrepareAlike).
var fallbacksOnceOn = true

// allOn reports whether every fallback of m is on provider, walking the
// list chunk by chunk.
func (m *modelSetting) allOn(provider string) bool {
	if m.fb == nil {
		return true
	}
	for ch := range m.fb.refs.chunks() {
		for _, f := range m.fb.refs.chunk(ch) {
			if int(f.pl) != len(provider) || m.fb.strs.get(f.key)[:f.pl] != provider {
				return false
			}
		}
	}
	return true
}

// fallbackOn reports whether fallback i of m is on provider, a ref's
// provider (fallback(i).provider() == provider without the rest).
func (m *modelSetting) fallbackOn(i int, provider string) bool {
	f := m.fb.refs.at(i)
	return int(f.pl) == len(provider) && m.fb.strs.get(f.key)[:f.pl] == provider
}

// modelSetting is one `model` setting: a string or {primary, fallbacks}
// (RES-3).
type modelSetting struct {
	present  bool
	ok       bool // the primary is known
	complete bool // every ref parsed
	// evaluated: prepare evaluated every ref, and so marked the provider
	// rows each names (docIndex.sources), which checkRows need not look
	// up again.
	evaluated bool
	primary   refAt
	// fb is the fallbacks member, nil when there is none or it holds no
	// ref.
	fb *fallbackList
	// primaryAt is where the primary is written: the base of its refAt,
	// which points here, so a modelSetting is filled in place and never
	// copied.
	primaryAt occkit.Path
}

// agentEntry is one agents.entries value.
type agentEntry struct {
	id   string
	path occkit.Path
	sel  modelSetting
	// models is the entry's catalog, nil when the entry has no models
	// member (most have none: a catalogIndex is 176 bytes).
	models *catalogIndex
}

// catalogRow is one row of models.providers.<p>.models, small and
// pointer-free (16 bytes): the rows that an earlier row's ID names too
// are chained apart (providerConfig.prevs).
type catalogRow struct {
	id strRef // trimmed row id
	// hasAlt: id is written "<p>/…", and the model ID after that provider
	// prefix (rowAlt) is not empty.
	hasAlt bool
	idOK   bool // the row is an object with a string id
	used   bool // a selected model names this row (RES-9)
	rt     harnessID
	rtSt   runtimeState
}

// id is row i's trimmed id.
func (p *providerConfig) id(i int) string { return p.strs.get(p.rows.at(i).id) }

// alt is row i's model ID after its provider prefix, or "".
func (p *providerConfig) alt(i int) string {
	if r := p.rows.at(i); r.hasAlt {
		return rowAlt(p.strs.get(r.id))
	}
	return ""
}

// rowAlt is what a row id written "<p>/…" names after the prefix: the
// rest after the first slash, trimmed.
func rowAlt(id string) string {
	_, rest, _ := strings.Cut(id, "/")
	return trimSpace(rest)
}

// providerConfig is one models.providers value.
type providerConfig struct {
	raw    string // the key as written (its path is built when named: path)
	name   string // normalized provider name (REF-2)
	rt     harnessID
	rtSt   runtimeState
	rowsAt bool     // a models array is present
	strs   strTable // the rows' ids
	rows   seq[catalogRow]
	// byID indexes every row under each model ID it can name on this
	// provider (REF-4): its id, and the ID after a "<p>/" prefix. The map
	// holds the last such row; earlier ones are chained by prevs.
	// Its values are row<<1, or row<<1|1 for a row indexed under its alt.
	byID indexTable
	// prevs chains the rows indexed under one ID: the previous row of an
	// entry of byID (row<<1, or row<<1|1 for its alt) that has one (nil
	// when no two rows share an ID).
	prevs map[uint32]int32
}

// path is where the provider is written, models.providers[raw]: built
// for a refusal that names it, not for every provider indexed (a reason
// builds its own, policySource.path).
func (p *providerConfig) path() occkit.Path { return pathProviders.Key(p.raw) }

func (p *providerConfig) rowPath(i int) occkit.Path { return p.path().Key("models").Index(i) }

// normProvider normalizes a provider name the way refs are (REF-2).
func normProvider(s string) string { return strings.ToLower(trimSpace(s)) }

// rowKey is the key of an entry of byID: the id of row v>>1, or its
// alt when v is odd.
func (p *providerConfig) rowKey(v uint32) string {
	if v&1 == 0 {
		return p.id(int(v >> 1))
	}
	return p.alt(int(v >> 1))
}

// slot returns the slot of byID holding id's value, or the empty slot
// where id belongs. byID must not be empty.
func (p *providerConfig) slot(id string) (int, bool) {
	t := p.byID
	for i := firstSlot(t, id); ; {
		switch s := t[i]; {
		case s == 0:
			return i, false
		case p.rowKey(s-1) == id:
			return i, true
		}
		if i++; i == len(t) {
			i = 0
		}
	}
}

// get returns the value byID holds under id.
func (p *providerConfig) get(id string) (uint32, bool) {
	if len(p.byID) == 0 {
		return 0, false
	}
	i, found := p.slot(id)
	return p.byID[i] - 1, found
}

// rowsFor returns the indexes of the rows that name the candidate ref
// (REF-4), in row order, each confirmed by [MatchRow].
func (p *providerConfig) rowsFor(ref Ref, buf []int32) []int32 {
	out := buf[:0]
	u, ok := p.get(ref.ID)
	for i := int32(u >> 1); ok; {
		id := p.id(int(i))
		if MatchRow(ref, id) {
			out = append(out, i)
		}
		v := uint32(i) << 1
		if id != ref.ID {
			v |= 1 // indexed under its alt
		}
		i, ok = p.prevs[v]
	}
	// The chain runs from the last row back to the first.
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// docIndex is everything resolution reads from one document.
type docIndex struct {
	errs []error

	shapeOK bool // agents, agents.defaults and agents.entries have their shapes
	// shapeErrs are the RES-2 refusals; when there are any, they are all
	// that is reported (the candidates cannot be known).
	shapeErrs []error
	// agents.list (RES-10: only an empty array may remain) is
	// roster.members[2].
	defaults modelSetting
	catalog  catalogIndex // agents.defaults.models
	entries  []*agentEntry
	// byDoc are the entries in the order the document writes them, when
	// that is not ID order (nil: entries is that order too).
	byDoc []*agentEntry

	// provOrder are the models.providers entries in document order;
	// providers indexes them by normalized name when there are more than
	// providersScanned ([docIndex.providersNamed]).
	providers map[string][]*providerConfig
	provOrder []*providerConfig
	// routed holds the normalized plugins.entries keys (RES-6), each
	// true when one of its keys is written as the name itself
	// ([Prepared.ConfiguresProvider]).
	routed map[string]bool

	// The Codex plugin's verdict for openai on codex (RES-7), decided once:
	// codexBad is the setting that refuses it, when codexRefused.
	codexRefused bool
	codexBad     occkit.Path

	// roster is what the roster rules read (Prepared.CheckRoster).
	roster rosterInput
}

var (
	pathAgents        = occkit.NewPath("agents")
	pathDefaults      = occkit.NewPath("agents", "defaults")
	pathEntries       = occkit.NewPath("agents", "entries")
	pathDefaultModel  = occkit.NewPath("agents", "defaults", "model")
	pathDefaultModels = occkit.NewPath("agents", "defaults", "models")
	// The defaults' primary and fallbacks, so their paths are not built
	// for each document (settingKey).
	pathDefaultPrimary   = occkit.NewPath("agents", "defaults", "model", "primary")
	pathDefaultFallbacks = occkit.NewPath("agents", "defaults", "model", "fallbacks")
	pathModels           = occkit.NewPath("models")
	pathProviders        = occkit.NewPath("models", "providers")
	pathPlugins          = occkit.NewPath("plugins")
	pathPluginEntries    = occkit.NewPath("plugins", "entries")
	pathCodexPlugin      = occkit.NewPath("plugins", "entries", "codex")
	pathCodexTransport   = occkit.NewPath("plugins", "entries", "codex", "config", "appServer", "transport")
)

// objectField returns the first value of key in the object o (gjson
// semantics for duplicate keys) without building a path string.
func objectField(o gjson.Result, key string) gjson.Result {
	var out gjson.Result
	o.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			out = v
			return false // stop: the rest of a large object is not scanned
		}
		return true
	})
	return out
}

// objectFields scans the object o once and returns the first value of
// each named key, in the order of keys (absent keys give a zero Result).
func objectFields(o gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	o.ForEach(func(k, v gjson.Result) bool {
		for i, key := range keys {
			if k.Str == key && !out[i].Exists() {
				out[i] = v
			}
		}
		return true
	})
	return out
}

// codexPluginVerdict decides whether the Codex plugin admits openai on
// the codex runtime: enabled true and the "websocket" app-server
// transport (RES-7). It names the first setting that refuses.
func codexPluginVerdict(plug gjson.Result) (bool, occkit.Path) {
	if !plug.Exists() || !plug.IsObject() {
		return true, pathCodexPlugin
	}
	if plug.Get("enabled").Type != gjson.True {
		return true, pathCodexPlugin.Key("enabled")
	}
	if t := plug.Get("config.appServer.transport"); t.Type != gjson.String || t.Str != "websocket" {
		return true, pathCodexTransport
	}
	return false, occkit.Path{}
}

// The index reads the document's text once, left to right, with
// jsonwalk's scanner: each member is read where it stands, a container is
// entered at most once, and a value no rule reads is skipped byte by byte
// (gjson would scan a value once per lookup or iteration of each level
// above it). A gjson value is made from its span only where other code
// reads one: the roster's members, agents.list, the Codex plugin, and the
// policy holder a RES-1 refusal quotes. Keys decode as gjson decodes them
// (jsonwalk.JS). Where a lookup takes the first of several members, so
// does the walk; a Document names no key twice, so every other member is
// read as it comes. Problems are collected per setting and joined in the
// order the settings are evaluated, whatever the document's key order.
//
// The loops that run once per model (a catalog's keys and their policy
// holders, a models array's rows, a fallbacks list) take the scanner's
// steps themselves (scan.go), not through a closure per member, and read
// what a compacted document writes for nearly every model in one step
// each, leaving anything else to the general reading: a ref literal
// (refLitScan: scanned, decoded and parsed at once, its text its own
// key), an agentRuntime of a supported id (runtimeLit), and the keys id
// and agentRuntime (keyLitID, keyLitRuntime). Each such path has its
// oracle, the general reading of the same text, and Prepare with all of
// them off prepares alike (TestFastPathsPrepareAlike).

// byteAt is the first byte of the value at s[i], or 0 past the text.
func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// eachMember calls fn for each member of the object at s[i] with its
// decoded key and the offset of its value; fn returns the offset after
// the value. It returns the offset after the object (-1: not JSON).
func eachMember(s string, i int, fn func(key string, v int) int) int {
	return jsonwalk.Members(s, i, func(lit string, escaped bool, v int) int {
		return fn(decodeJS(lit, escaped), v)
	})
}

// decodeJS is [jsonwalk.JS.Decode] of the string literal lit: one
// without an escape, nearly every key and string, is its bytes between
// the quotes, told without a call.
func decodeJS(lit string, escaped bool) string {
	if !escaped && len(lit) >= 2 {
		return lit[1 : len(lit)-1]
	}
	return jsonwalk.JS{}.Decode(lit, escaped)
}

// escapedKeyIs reports whether the key literal lit, which holds an
// escape, decodes to the key whose literal is quoted (quotes included,
// no escapes). The walk compares a key literal without escapes to quoted
// as it stands (lit == quoted, a few loads when quoted is a constant) and
// decodes only an escaped one, here: `"agent\u0052untime"` is
// "agentRuntime" as gjson reads it.
func escapedKeyIs(lit, quoted string) bool {
	return len(quoted) >= 2 && jsonwalk.JS{}.Decode(lit, true) == quoted[1:len(quoted)-1]
}

// valueAt is the gjson value of s[i:end], the value at s[i].
func valueAt(s string, i, end int) gjson.Result {
	if end < i || end > len(s) {
		end = jsonwalk.Skip(s, i)
	}
	return gjson.Parse(s[i:end])
}

// stringAt reads the value at s[i]: the decoded string and true when it
// is a string, and the offset after it.
func stringAt(s string, i int) (str string, ok bool, end int) {
	if byteAt(s, i) != '"' {
		return "", false, jsonwalk.Skip(s, i)
	}
	end, escaped := jsonwalk.StringEnd(s, i)
	return decodeJS(s[i:end], escaped), true, end
}

// readRuntime reads the agentRuntime at s[i] (RES-1): a supported id, or
// why it is refused (shape: agentRuntime is not an object {id}), and the
// offset after it.
func readRuntime(s string, i int) (id string, st runtimeState, shape bool, end int) {
	if byteAt(s, i) != '{' {
		return "", runtimeBad, true, jsonwalk.Skip(s, i)
	}
	if id, end, ok := runtimeLit(s, i); ok {
		return id, runtimeOK, false, end
	}
	st = runtimeBad
	found := false
	at, done := jsonwalk.Open(s, i, '{', '}')
	for !done {
		lit, escaped, v := jsonwalk.Key(s, at)
		if v < 0 {
			return id, st, false, -1
		}
		var e int
		if found || !isKey(lit, escaped, `"id"`) {
			e = jsonwalk.Skip(s, v)
		} else {
			found = true
			var str string
			var ok bool
			str, ok, e = stringAt(s, v)
			if ok && (str == string(occkit.HarnessOpenClaw) || str == string(occkit.HarnessCodex)) {
				id, st = str, runtimeOK
			}
		}
		at, done = jsonwalk.Next(s, e, '}')
	}
	return id, st, false, at
}

// runtimeLitOn: when false, runtimeLit reads nothing, so every
// agentRuntime takes the general reading (the oracle of
// TestRuntimeLitMatchesGeneral and TestFastPathsPrepareAlike).
var runtimeLitOn = true

// The agentRuntime objects as a compacted document writes nearly every
// one: an object of one member, the id of a supported runtime.
const (
	runtimeLitOpenClaw = `{"id":"` + string(occkit.HarnessOpenClaw) + `"}`
	runtimeLitCodex    = `{"id":"` + string(occkit.HarnessCodex) + `"}`
)

// runtimeLit reads the agentRuntime at s[i] when its text is written
// exactly as runtimeLitOpenClaw or runtimeLitCodex: then it is that
// runtime's, the object ends there (end), and the general reading would
// find the same, one member at a time.
func runtimeLit(s string, i int) (id string, end int, ok bool) {
	if !runtimeLitOn {
		return "", 0, false
	}
	// The comparisons are of constants of at most 16 bytes, which load
	// the text in place: runtimeLitOpenClaw is its first 16 bytes and
	// the closing brace.
	const ocHead = `{"id":"` + string(occkit.HarnessOpenClaw) + `"`
	switch t := s[i:]; {
	case len(t) > len(ocHead) && t[:len(ocHead)] == ocHead && t[len(ocHead)] == '}':
		return string(occkit.HarnessOpenClaw), i + len(ocHead) + 1, true
	case len(t) >= len(runtimeLitCodex) && t[:len(runtimeLitCodex)] == runtimeLitCodex:
		return string(occkit.HarnessCodex), i + len(runtimeLitCodex), true
	}
	return "", 0, false
}

// holderLitOn: when false, holderLit reads nothing, so every catalog
// entry takes readHolder's reading (the oracle of
// TestHolderLitMatchesReadHolder and TestFastPathsPrepareAlike).
var holderLitOn = true

// holderLit reads the policy holder at s[i] when its text is written
// `{"agentRuntime":` and then runtimeLitOpenClaw or runtimeLitCodex and
// the closing brace, as a compacted catalog entry that names only its
// runtime is written: then it is that runtime's, the holder ends there
// (end), and readHolder would find the same, one step at a time.
func holderLit(s string, i int) (id string, end int, ok bool) {
	const k = `{"agentRuntime":`
	if !holderLitOn || i < 0 || len(s)-i < len(k) || s[i:i+len(k)] != k {
		return "", 0, false
	}
	if id, end, ok = runtimeLit(s, i+len(k)); !ok || byteAt(s, end) != '}' {
		return "", 0, false
	}
	return id, end + 1, true
}

// isKey reports whether the key literal lit (escaped: it holds an
// escape) is the key whose literal, without escapes, is quoted.
func isKey(lit string, escaped bool, quoted string) bool {
	return lit == quoted || escaped && escapedKeyIs(lit, quoted)
}

// readHolder reads the policy holder (an object) at s[i]: its
// agentRuntime (runtimeNone when it has none), and, when other is not "",
// it hands the offset of the member named other (other is that key's
// JSON literal, quotes included: `"models"`) to fn, which returns the
// offset after that value. end is the offset after the holder.
func readHolder(s string, i int, other string, fn func(v int) int) (id string, st runtimeState, shape bool, end int) {
	seenRuntime, seenOther := false, false
	at, done := jsonwalk.Open(s, i, '{', '}')
	for !done {
		var e int
		if v, ok := keyLitRuntime(s, at); ok && !seenRuntime {
			seenRuntime = true
			id, st, shape, e = readRuntime(s, v)
			at, done = jsonwalk.Next(s, e, '}')
			continue
		}
		lit, escaped, v := jsonwalk.Key(s, at)
		if v < 0 {
			return id, st, shape, -1
		}
		switch {
		case !seenRuntime && isKey(lit, escaped, `"agentRuntime"`):
			seenRuntime = true
			id, st, shape, e = readRuntime(s, v)
		case other != "" && !seenOther && isKey(lit, escaped, other):
			seenOther = true
			e = fn(v)
		default:
			e = jsonwalk.Skip(s, v)
		}
		at, done = jsonwalk.Next(s, e, '}')
	}
	return id, st, shape, at
}

// buildCatalog indexes the selectable catalog at s[i] (RES-4: it must be
// an object of objects; RES-1: each agentRuntime is supported) into c,
// where it is kept (so it is built in place, not copied there), and
// returns the offset after it.
func buildCatalog(s string, i int, path occkit.Path, errs *[]error, c *catalogIndex) int {
	*c = catalogIndex{present: true, path: path, strs: strTable{text: s}}
	if byteAt(s, i) != '{' {
		c.bad = true
		*errs = append(*errs, invalid("RES-4", path, "%s must be an object keyed by model ref", path))
		return jsonwalk.Skip(s, i)
	}
	// The members are read one at a time, not through a closure: the
	// catalog is the document's bulk.
	at, done := jsonwalk.Open(s, i, '{', '}')
	for !done {
		var raw string
		var ck catalogKey
		v := -1
		if kend, _ := refLitScan(s, at); kend >= 0 {
			// A plain ref: it is its own key, a span of the text.
			_, _, v = colonAt(s, at, kend, false)
			raw, ck = s[at+1:kend-1], catalogKey{key: c.strs.span(at+1, kend-at-2), valid: true}
		} else {
			var lit string
			var escaped bool
			if lit, escaped, v = jsonwalk.Key(s, at); v >= 0 {
				raw = decodeJS(lit, escaped)
				ck = c.newKey(raw)
			}
		}
		if v < 0 {
			at = -1
			break
		}
		var end int
		if byteAt(s, v) != '{' {
			*errs = append(*errs, invalid("RES-4", path.Key(raw), "%s must be an object", path.Key(raw)))
			ck.rtSt, end = runtimeBad, jsonwalk.Skip(s, v)
		} else if rt, e, ok := holderLit(s, v); ok {
			ck.rt, ck.rtSt, end = toHarnessID(rt), runtimeOK, e
		} else {
			var rt string
			var shape bool
			rt, ck.rtSt, shape, end = readHolder(s, v, "", nil)
			ck.rt = toHarnessID(rt)
			if ck.rtSt == runtimeBad {
				*errs = append(*errs, runtimeErr(path.Key(raw), shape, valueAt(s, v, end)))
			}
		}
		c.keys.push(ck)
		at, done = jsonwalk.Next(s, end, '}')
	}
	c.index()
	return at
}

// newKey is the catalogKey of the key raw, the next of c.keys.
func (c *catalogIndex) newKey(raw string) catalogKey {
	var ck catalogKey
	key := raw
	if ref, ok := ParseRef(raw); ok {
		ck.valid, key = true, refKey(raw, ref)
		if key != raw {
			ck.other = true
			if c.raws == nil {
				c.raws = map[int32]string{}
			}
			c.raws[int32(c.keys.len())] = raw
		}
	}
	ck.key = c.strs.put(key)
	return ck
}

// index makes byKey, once the keys are known, so the table is sized once.
func (c *catalogIndex) index() {
	i := 0
	for ch := range c.keys.chunks() {
		for _, k := range c.keys.chunk(ch) {
			if !k.valid {
				i++
				continue
			}
			if c.byKey == nil {
				c.byKey = newIndexTable(c.keys.len() - i)
			}
			j, dup := c.slot(c.strs.get(k.key))
			if dup {
				if c.prevs == nil {
					c.prevs = map[int32]int32{}
				}
				c.prevs[int32(i)] = int32(c.byKey[j] - 1)
			}
			c.byKey[j] = uint32(i) + 1
			i++
		}
	}
}

// settingKey is path.Key(k) for the member k (primary or fallbacks) of
// the model setting at path, without building it for agents.defaults.model.
func settingKey(path occkit.Path, k string) occkit.Path {
	if path.Equal(pathDefaultModel) {
		if k == "primary" {
			return pathDefaultPrimary
		}
		return pathDefaultFallbacks
	}
	return path.Key(k)
}

// parseModelSetting reads the `model` setting at s[i], at path (RES-3),
// into the zero m, and returns the offset after it. primaryPath is the
// path of its primary member, or root to build it.
func parseModelSetting(s string, i int, path, primaryPath occkit.Path, errs *[]error, m *modelSetting) int {
	m.present = true
	switch byteAt(s, i) {
	case '"':
		str, _, end := stringAt(s, i)
		r, ok := ParseRef(str)
		if !ok {
			*errs = append(*errs, invalid("RES-3", path, "%s must be a provider/model ref", path))
			return end
		}
		m.primaryAt = path
		m.ok, m.complete, m.primary = true, true, newRefAt(str, r, &m.primaryAt, -1)
		return end
	case '{':
	default:
		*errs = append(*errs, invalid("RES-3", path,
			"%s must be a provider/model ref or an object {primary, fallbacks}", path))
		return jsonwalk.Skip(s, i)
	}
	m.complete = true
	if m.primaryAt = primaryPath; primaryPath.IsRoot() {
		m.primaryAt = settingKey(path, "primary")
	}
	pp := &m.primaryAt
	// The fallbacks are read where they stand, which may be before the
	// primary; the refusals that need the primary are made after it.
	var primary string
	var fbAt occkit.Path
	var fp *occkit.Path // set once the fallbacks are met (to &fbAt)
	primaryStr, seenPrimary, fbArray := false, false, false
	var bad []int32 // fallbacks that are no provider/model ref
	end := eachMember(s, i, func(k string, v int) int {
		switch {
		case k == "primary" && !seenPrimary:
			seenPrimary = true
			var end int
			primary, primaryStr, end = stringAt(s, v)
			return end
		case k == "fallbacks" && fp == nil:
			fbAt = settingKey(path, "fallbacks")
			fp = &fbAt
			if byteAt(s, v) != '[' {
				return jsonwalk.Skip(s, v)
			}
			fbArray = true
			return readFallbacks(s, v, m, fbAt, &bad)
		}
		return jsonwalk.Skip(s, v)
	})
	if r, ok := ParseRef(primary); ok && primaryStr {
		m.ok, m.primary = true, newRefAt(primary, r, pp, -1)
	} else {
		m.complete = false
		*errs = append(*errs, invalid("RES-3", *pp, "%s must be a provider/model ref", *pp))
	}
	switch {
	case fp == nil:
		return end
	case !fbArray:
		m.complete = false
		*errs = append(*errs, invalid("RES-3", *fp, "%s must be an array of provider/model refs", *fp))
		return end
	}
	if fallbacksOnceOn && len(bad) == 0 && (!m.ok || m.allOn(m.primary.provider())) {
		return end // nothing to refuse
	}
	// The refusals in element order: the bad elements and the refs off
	// the primary's provider, merged.
	for f, b := 0, 0; f < m.fallbacks() || b < len(bad); {
		if b < len(bad) && (f == m.fallbacks() || bad[b] < m.fallbackIdx(f)) {
			m.complete = false
			at := fp.Index(int(bad[b]))
			*errs = append(*errs, invalid("RES-3", at, "%s must be a provider/model ref", at))
			b++
			continue
		}
		if m.ok && !m.fallbackOn(f, m.primary.provider()) {
			at := fp.Index(int(m.fallbackIdx(f)))
			*errs = append(*errs, invalid("RES-3", at, "%s must keep the primary model's provider", at))
		}
		f++
	}
	return end
}

// readFallbacks reads the fallbacks array at s[v], written at fbAt,
// into m, the elements that are no provider/model ref into bad, and
// returns the offset after it. The elements are read one at a time, not
// through a closure: a fallbacks list may name every model.
func readFallbacks(s string, v int, m *modelSetting, fbAt occkit.Path, bad *[]int32) int {
	at, done := jsonwalk.Open(s, v, '[', ']')
	for n := 0; !done; n++ {
		end, slash := refLitScan(s, at)
		var r Ref
		var str string
		ok := end >= 0
		if !ok {
			var isStr bool
			str, isStr, end = stringAt(s, at)
			r, ok = ParseRef(str)
			ok = ok && isStr
		}
		if ok {
			if m.fb == nil {
				// Made for the first ref: a list that holds none
				// (empty, most often) is not kept.
				m.fb = &fallbackList{strs: strTable{text: s}, at: fbAt}
			}
			if slash >= 0 {
				// A plain ref: its text is its key, the provider before
				// the slash, no profile.
				m.fb.push(fallbackRef{key: m.fb.strs.span(at+1, end-at-2), pl: int32(slash), prof: -1}, n)
			} else {
				m.fb.pushFallback(str, r, n)
			}
		} else {
			*bad = append(*bad, int32(n))
		}
		at, done = jsonwalk.Next(s, end, ']')
	}
	return at
}

// buildProvider indexes the provider entry at s[i] (RES-4, RES-1, RES-9
// shapes) and returns the offset after it.
func buildProvider(raw, s string, i int, errs *[]error) (*providerConfig, int) {
	p := &providerConfig{raw: raw, name: normProvider(raw), strs: strTable{text: s}}
	if byteAt(s, i) != '{' {
		*errs = append(*errs, invalid("RES-4", p.path(), "%s must be an object", p.path()))
		p.rtSt = runtimeBad
		return p, jsonwalk.Skip(s, i)
	}
	seenModels := false
	var rowErrs []error
	keys := 0 // the rows' IDs: each row's id, and its alt
	rt, st, shape, end := readHolder(s, i, `"models"`, func(v int) int {
		seenModels = true
		if byteAt(s, v) != '[' {
			return jsonwalk.Skip(s, v)
		}
		p.rowsAt = true
		// The rows are read one at a time, not through a closure: the
		// array may list every model.
		at, done := jsonwalk.Open(s, v, '[', ']')
		for n := 0; !done; n++ {
			row, end := p.readRow(s, at, n, &rowErrs)
			if row.idOK {
				keys++
				if row.hasAlt {
					keys++
				}
			}
			p.rows.push(row)
			at, done = jsonwalk.Next(s, end, ']')
		}
		return at
	})
	p.rt, p.rtSt = toHarnessID(rt), st
	if p.rtSt == runtimeBad {
		*errs = append(*errs, runtimeErr(p.path(), shape, valueAt(s, i, end)))
	}
	switch {
	case !seenModels:
		return p, end
	case !p.rowsAt:
		*errs = append(*errs, invalid("RES-9", p.path().Key("models"),
			"%s must be an array of model objects", p.path().Key("models")))
		return p, end
	}
	*errs = append(*errs, rowErrs...)
	p.index(keys)
	return p, end
}

// index makes byID, once the rows are known, so the table is sized
// exactly: keys is how many IDs the rows have (readRow counts them).
func (p *providerConfig) index(keys int) {
	i := 0
	for ch := range p.rows.chunks() {
		for _, row := range p.rows.chunk(ch) {
			if !row.idOK {
				i++
				continue
			}
			if p.byID == nil {
				p.byID = newIndexTable(keys)
			}
			id := p.strs.get(row.id)
			p.put(id, uint32(i)<<1)
			if row.hasAlt {
				p.put(rowAlt(id), uint32(i)<<1|1)
			}
			i++
		}
	}
}

// put indexes the byID entry v (a row, or its alt) under id, chaining the
// row it replaces.
func (p *providerConfig) put(id string, v uint32) {
	j, dup := p.slot(id)
	if dup {
		if p.prevs == nil {
			p.prevs = map[uint32]int32{}
		}
		p.prevs[v] = int32((p.byID[j] - 1) >> 1)
	}
	p.byID[j] = v + 1
}

// readRow reads row n of the provider's models array, at s[i] (RES-9,
// RES-1), and returns the offset after it.
func (p *providerConfig) readRow(s string, i, n int, errs *[]error) (catalogRow, int) {
	var row catalogRow
	if byteAt(s, i) != '{' {
		*errs = append(*errs, invalid("RES-9", p.rowPath(n),
			"%s must be an object with an id, not a bare string or other value", p.rowPath(n)))
		return row, jsonwalk.Skip(s, i)
	}
	// The row's members are read one at a time (readHolder's reading,
	// with the id for its other member), not through a closure.
	var id, rt string
	var st runtimeState
	idStr, shape, seenRuntime, seenID := false, false, false, false
	at, done := jsonwalk.Open(s, i, '{', '}')
	if v, ok := keyLitID(s, at); ok && !done {
		// The id first, as rows are most often written.
		seenID = true
		id, idStr, at = stringAt(s, v)
		at, done = jsonwalk.Next(s, at, '}')
	}
	for !done {
		var e int
		lit, escaped, v := jsonwalk.Key(s, at)
		if v < 0 {
			at = -1
			break
		}
		switch {
		case !seenRuntime && isKey(lit, escaped, `"agentRuntime"`):
			seenRuntime = true
			rt, st, shape, e = readRuntime(s, v)
		case !seenID && isKey(lit, escaped, `"id"`):
			seenID = true
			id, idStr, e = stringAt(s, v)
		default:
			e = jsonwalk.Skip(s, v)
		}
		at, done = jsonwalk.Next(s, e, '}')
	}
	end := at
	row.rt, row.rtSt = toHarnessID(rt), st
	if row.rtSt == runtimeBad {
		*errs = append(*errs, runtimeErr(p.rowPath(n), shape, valueAt(s, i, end)))
	}
	if !idStr || trimSpace(id) == "" {
		*errs = append(*errs, invalid("RES-9", p.rowPath(n).Key("id"),
			"%s must be a model ID", p.rowPath(n).Key("id")))
		return row, end
	}
	row.setID(id, p)
	return row, end
}

// setID sets the row's id, trimmed, and its alt on the provider p.
func (row *catalogRow) setID(id string, p *providerConfig) {
	row.idOK = true
	id = trimSpace(id)
	row.id = p.strs.put(id)
	if j := strings.IndexByte(id, '/'); j >= 0 && strings.EqualFold(trimSpace(id[:j]), p.name) {
		// rowAlt is a part of id after its slash, never id itself.
		row.hasAlt = rowAlt(id) != ""
	}
}

// buildIndex makes the one pass over doc.
func buildIndex(doc occkit.Document) *docIndex {
	x := &docIndex{shapeOK: true}
	root := docjson.Root(doc)
	x.roster = rosterInput{doc: doc}
	if !root.IsObject() {
		x.shapeOK, x.shapeErrs = false, shapeErrors(root)
		return x
	}
	s := root.Raw
	// The shape check (RES-2), the roster rules (RES-10) and the indexes
	// read the same members: agents and its rosterKeys.
	var agents, codex gjson.Result
	var roster [len(rosterInput{}.members)]gjson.Result
	var agentErrs, modelErrs, pluginErrs, entryShapeErrs []error
	var seen [3]bool
	eachMember(s, 0, func(k string, v int) int {
		switch {
		case k == "agents" && !seen[0]:
			seen[0] = true
			end := x.indexAgents(s, v, &roster, &agentErrs, &entryShapeErrs)
			agents = valueAt(s, v, end)
			return end
		case k == "models" && !seen[1]:
			seen[1] = true
			return x.indexProviders(s, v, &modelErrs)
		case k == "plugins" && !seen[2]:
			seen[2] = true
			return x.indexPlugins(s, v, &pluginErrs, &codex)
		}
		return jsonwalk.Skip(s, v)
	})
	x.roster.agents = agents.Raw
	for i, m := range roster {
		x.roster.members[i] = m.Raw
	}
	// The entries' own shapes were found while they were indexed.
	entryErrs := func(gjson.Result) []error { return entryShapeErrs }
	if errs := agentsShapeErrorsOf(agents, roster[0], roster[1], entryErrs); len(errs) > 0 {
		x.shapeOK, x.shapeErrs = false, errs
	}
	x.errs = append(append(agentErrs, modelErrs...), pluginErrs...)
	x.codexRefused, x.codexBad = codexPluginVerdict(codex)
	return x
}

// indexAgents indexes the agents object at s[i] and sets roster to its
// rosterKeys members; it returns the offset after it. The RES-2
// refusals of agents.entries' members go to shapeErrs.
func (x *docIndex) indexAgents(s string, i int, roster *[len(rosterInput{}.members)]gjson.Result, errs, shapeErrs *[]error) int {
	if byteAt(s, i) != '{' {
		return jsonwalk.Skip(s, i) // RES-2, decided by shapeErrors
	}
	var seen [len(rosterInput{}.members)]bool
	// The defaults' problems come before the entries'.
	var entryErrs []error
	end := eachMember(s, i, func(k string, v int) int {
		r := slices.Index(rosterKeys, k)
		if r < 0 || seen[r] {
			return jsonwalk.Skip(s, v)
		}
		seen[r] = true
		var end int
		switch r {
		case 0:
			end = x.indexDefaults(s, v, errs)
		case 1:
			end = x.indexEntries(s, v, &entryErrs, shapeErrs)
		default:
			end = jsonwalk.Skip(s, v)
		}
		roster[r] = valueAt(s, v, end)
		return end
	})
	*errs = append(*errs, entryErrs...)
	// Entries are evaluated in ID order so that the author's key order never
	// changes a decision or the problems reported; the document's order is
	// kept apart only when it differs.
	byID := func(a, b *agentEntry) int { return strings.Compare(a.id, b.id) }
	if !slices.IsSortedFunc(x.entries, byID) {
		x.byDoc = slices.Clone(x.entries)
		slices.SortFunc(x.entries, byID)
	}
	return end
}

// scopeModels reads the model and models members of the object at s[i]
// (agents.defaults or an entry, at scope) into sel and cat, the model's
// problems before the catalog's, and returns the offset after it. model
// and models are the settings' paths, primary the path of model's
// primary member; a root one is built from scope (or model) only when the
// setting is there. *cat is the catalog to fill, made when it is nil
// and the catalog is there (an absent one is left nil, or keeps models,
// which nothing reads).
func scopeModels(s string, i int, scope, model, primary, models occkit.Path, sel *modelSetting, cat **catalogIndex, hasDefault *bool, errs *[]error) int {
	var catErrs []error
	seenModel, seenCat := false, false
	end := eachMember(s, i, func(k string, v int) int {
		var end int
		switch {
		case k == "default" && hasDefault != nil:
			*hasDefault = true
			end = jsonwalk.Skip(s, v)
		case k == "model" && !seenModel:
			seenModel = true
			if model.IsRoot() {
				model = scope.Key("model")
			}
			end = parseModelSetting(s, v, model, primary, errs, sel)
		case k == "models" && !seenCat:
			seenCat = true
			if models.IsRoot() {
				models = scope.Key("models")
			}
			if *cat == nil {
				*cat = new(catalogIndex)
			}
			end = buildCatalog(s, v, models, &catErrs, *cat)
		default:
			end = jsonwalk.Skip(s, v)
		}
		return end
	})
	if !seenCat && *cat != nil {
		**cat = catalogIndex{path: models}
	}
	*errs = append(*errs, catErrs...)
	return end
}

// indexDefaults indexes agents.defaults, at s[i].
func (x *docIndex) indexDefaults(s string, i int, errs *[]error) int {
	if byteAt(s, i) != '{' {
		return jsonwalk.Skip(s, i) // RES-2
	}
	cat := &x.catalog
	return scopeModels(s, i, pathDefaults, pathDefaultModel, pathDefaultPrimary, pathDefaultModels, &x.defaults, &cat, nil, errs)
}

// indexEntries indexes agents.entries, at s[i]; the RES-2 refusals of
// its members go to shapeErrs.
func (x *docIndex) indexEntries(s string, i int, errs, shapeErrs *[]error) int {
	if byteAt(s, i) != '{' {
		return jsonwalk.Skip(s, i) // RES-2
	}
	x.roster.read = true
	return eachMember(s, i, func(id string, v int) int {
		x.roster.ids = append(x.roster.ids, rosterEntry{id: id, notObject: byteAt(s, v) != '{'})
		if byteAt(s, v) != '{' {
			// A Document names no Agent ID twice, so each is refused as
			// entryShapeErrors refuses the first of its name.
			*shapeErrs = append(*shapeErrs, entryShapeError(id))
			return jsonwalk.Skip(s, v) // RES-2
		}
		// The entry's path, its model's and its primary's in one
		// allocation: each is the next one's parent, sharing its
		// elements (a Path never changes).
		var b occkit.PathBuilder
		b.Grow(5)
		b.Key("agents")
		b.Key("entries")
		b.Key(id)
		b.Key("model")
		b.Key("primary")
		primary := b.Path()
		model := primary.Parent()
		e := &agentEntry{id: id, path: model.Parent()}
		x.entries = append(x.entries, e)
		return scopeModels(s, v, e.path, model, primary, occkit.Path{}, &e.sel, &e.models, &x.roster.ids[len(x.roster.ids)-1].hasDefault, errs)
	})
}

// indexProviders indexes models (at s[i]) and its providers.
func (x *docIndex) indexProviders(s string, i int, errs *[]error) int {
	if byteAt(s, i) != '{' {
		*errs = append(*errs, invalid("RES-4", pathModels, "models must be an object"))
		return jsonwalk.Skip(s, i)
	}
	seen := false
	return eachMember(s, i, func(k string, v int) int {
		if k != "providers" || seen {
			return jsonwalk.Skip(s, v)
		}
		seen = true
		if byteAt(s, v) != '{' {
			*errs = append(*errs, invalid("RES-4", pathProviders,
				"models.providers must be an object keyed by provider"))
			return jsonwalk.Skip(s, v)
		}
		end := eachMember(s, v, func(raw string, v int) int {
			p, end := buildProvider(raw, s, v, errs)
			x.provOrder = append(x.provOrder, p)
			return end
		})
		x.indexProviderNames()
		return end
	})
}

// providersScanned is how many providers [docIndex.providersNamed] finds
// by reading them all rather than through a map: a Configuration
// usually configures a handful.
const providersScanned = 8

// indexProviderNames makes the map of provider names, once the providers
// are known, when there are more than providersScanned.
func (x *docIndex) indexProviderNames() {
	if len(x.provOrder) <= providersScanned {
		return
	}
	x.providers = make(map[string][]*providerConfig, len(x.provOrder))
	for _, p := range x.provOrder {
		x.providers[p.name] = append(x.providers[p.name], p)
	}
}

// providersNamed yields the providers whose normalized name (REF-2) is
// name, in document order.
func (x *docIndex) providersNamed(name string) iter.Seq[*providerConfig] {
	return func(yield func(*providerConfig) bool) {
		if x.providers != nil {
			for _, p := range x.providers[name] {
				if !yield(p) {
					return
				}
			}
			return
		}
		for _, p := range x.provOrder {
			if p.name == name && !yield(p) {
				return
			}
		}
	}
}

// indexPlugins indexes plugins (at s[i]): the plugin routing (RES-6) and
// the Codex plugin, which it sets codex to (RES-7).
func (x *docIndex) indexPlugins(s string, i int, errs *[]error, codex *gjson.Result) int {
	if byteAt(s, i) != '{' {
		*errs = append(*errs, invalid("RES-6", pathPlugins, "plugins must be an object"))
		return jsonwalk.Skip(s, i)
	}
	seen := false
	return eachMember(s, i, func(k string, v int) int {
		if k != "entries" || seen {
			return jsonwalk.Skip(s, v)
		}
		seen = true
		if byteAt(s, v) != '{' {
			*errs = append(*errs, invalid("RES-6", pathPluginEntries, "plugins.entries must be an object keyed by plugin"))
			return jsonwalk.Skip(s, v)
		}
		x.routed = map[string]bool{}
		return eachMember(s, v, func(k string, v int) int {
			n := normProvider(k)
			x.routed[n] = x.routed[n] || n == k
			end := jsonwalk.Skip(s, v)
			if k == "codex" && !codex.Exists() {
				*codex = valueAt(s, v, end)
			}
			return end
		})
	})
}

// nameRunes bounds how much of a setting's path a message spells out.
// Error details are capped at [occkit.MaxMessageRunes]; a path built from
// a long author key would otherwise push the rule text out of the message.
const nameRunes = 96

// boundedArgs returns args with every [occkit.Path] rendered as its dot
// path, cut to nameRunes code points with "…" when longer.
func boundedArgs(args []any) []any {
	out := args
	copied := false
	for i, a := range args {
		p, ok := a.(occkit.Path)
		if !ok {
			continue
		}
		if !copied {
			out, copied = append([]any(nil), args...), true
		}
		s := messagePath(p).String()
		if r := []rune(s); len(r) > nameRunes {
			s = string(r[:nameRunes-1]) + "…"
		}
		out[i] = s
	}
	return out
}

// messagePath is p with control characters in its keys replaced by '?'
// (as messages replace them), so a message names such a key as the author
// reads it rather than by its JSON escape.
func messagePath(p occkit.Path) occkit.Path {
	q := occkit.Root()
	for i := 0; i < p.Len(); i++ {
		k, idx, isIdx := p.Elem(i)
		if isIdx {
			q = q.Index(idx)
			continue
		}
		q = q.Key(strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, k))
	}
	return q
}

// invalid is [occkit.Invalid] with the paths named in the message
// bounded (boundedArgs); the error's Path stays exact.
func invalid(rule string, path occkit.Path, format string, args ...any) *occkit.Error {
	return occkit.Invalid(rule, path, format, boundedArgs(args)...)
}

// conflict is [occkit.Conflict] with bounded path arguments.
func conflict(rule string, path occkit.Path, format string, args ...any) *occkit.Error {
	return occkit.Conflict(rule, path, format, boundedArgs(args)...)
}
