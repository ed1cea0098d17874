package selection

import (
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
	"github.com/occkit/occkit/resolver"
)

// Request names the provider/model turn to choose a runtime for.
type Request struct {
	// Provider is the provider ID; "" when only a bare model ID is known
	// (then Model may also be a full "provider/id" ref).
	Provider string
	// Model is the model ID (after the provider's slash). With a Provider
	// it may be "": then only the provider's wildcard keys and its own
	// agentRuntime apply (SEL-1 steps 3 and 4).
	Model string
	// AgentID selects the agent entry (`agents.entries.<id>`, or the
	// `agents.list` item with that id) whose model map is consulted first.
	AgentID string
	// Session holds the session's runtime facts; the zero value is a
	// fresh session.
	Session Session
}

// Session is what a session already says about its runtime (SEL-8).
type Session struct {
	// LockedOwner is the runtime owning a locked native transcript.
	LockedOwner string
	// Override is an explicit session runtime override.
	Override string
	// ACPBackend is the ACP backend of an ACP session.
	ACPBackend string
	// HistoricalHarnessID records which runtime produced the transcript;
	// it never pins the next turn.
	HistoricalHarnessID string
}

// Source says where the deciding runtime policy came from.
type Source string

// The closed set of sources.
const (
	// SourceModel: model-scoped policy (model map key, catalog row or
	// provider wildcard key) naming a runtime.
	SourceModel Source = "model"
	// SourceProvider: `models.providers.<p>.agentRuntime` naming a
	// runtime.
	SourceProvider Source = "provider"
	// SourceImplicit: automatic selection: no policy, or a policy naming
	// `auto` or `default` (as OpenClaw's harness policy reports it).
	SourceImplicit Source = "implicit"
	// SourceSession: the session (locked owner, override or ACP backend).
	SourceSession Source = "session"
)

// AllSources lists every [Source].
func AllSources() []Source {
	return []Source{SourceModel, SourceProvider, SourceImplicit, SourceSession}
}

// Result is the outcome of [Select].
type Result struct {
	// Runtime is the chosen runtime: "openclaw", a registered plugin ID,
	// or the ACP backend of an ACP session.
	Runtime string
	// Source is where the deciding policy came from.
	Source Source
	// CLIBackend is the CLI backend the built-in harness hands the turn
	// to (SEL-7), or "".
	CLIBackend string
	// ACP reports an ACP session that keeps its ACP backend (SEL-8).
	ACP bool
	// Fallback reports that Runtime is openclaw because the requested
	// plugin declared the exact-request OpenClaw fallback (SEL-5).
	Fallback bool
	// Requested is the normalized runtime the policy asked for
	// ([resolver.RuntimeAuto] when none).
	Requested string
	// Provider and Model are the effective route.
	Provider, Model string

	why trail // the reason chain, rebuilt by Reasons
}

// Reasons returns the ordered reason chain (SEL-9). A decision does not
// build it: Reasons rebuilds the document's part from the prepared index
// (the same lookups, recorded) and appends what the session and the
// plugins said, which the decision kept. Each call returns a new slice.
func (s Result) Reasons() []resolver.Reason { return s.why.reasons(s) }

// Explain writes the reason chain, one line per [resolver.Reason],
// followed by the outcome.
func (s Result) Explain(w io.Writer) error { return explain(w, s.Reasons(), s) }

func explain(w io.Writer, reasons []resolver.Reason, s Result) error {
	for i, r := range reasons {
		line := fmt.Sprintf("%d. %s", i+1, r.Rule)
		if !r.Path.IsRoot() {
			line += " " + r.Path.String()
		}
		if r.Value != "" {
			line += " = " + r.Value
		}
		if r.Note != "" {
			line += ": " + r.Note
		}
		if _, err := fmt.Fprintln(w, occkit.Sanitize(line)); err != nil {
			return err
		}
	}
	out := fmt.Sprintf("runtime %s (source %s)", s.Runtime, s.Source)
	if s.CLIBackend != "" {
		out += " via CLI backend " + s.CLIBackend
	}
	_, err := fmt.Fprintln(w, occkit.Sanitize(out))
	return err
}

// cliBackends maps each CLI backend alias to the one provider it serves
// (SEL-7).
var cliBackends = map[string]string{
	"claude-cli":        "anthropic",
	"google-gemini-cli": "google",
}

// Select chooses the runtime for one provider/model turn with OpenClaw
// semantics (SEL-1..SEL-9). doc is the OpenClaw configuration; reg holds
// the registered plugins (nil = none). The environment is never read
// (SEL-2). Every refusal is 400 INVALID_REQUEST naming the runtime and the
// provider/model.
//
// Select decides as Prepare(doc).Select(req, reg) does, preparing only
// what the request can consult (its agent, the model keys and catalog
// rows that can name its model, the providers those name); a caller
// deciding more than once on one document prepares it once.
func Select(doc occkit.Document, req Request, reg *Registry) (Result, error) {
	f, ok := focusOf(req)
	if !ok {
		return Prepare(doc).Select(req, reg)
	}
	return prepare(doc, f).Select(req, reg)
}

// Select decides one turn on the prepared document; see the package
// function [Select]. It allocates nothing in the common case (see
// [Index]): the Result's reasons are rebuilt only by [Result.Reasons].
func (x *Index) Select(req Request, reg *Registry) (res Result, err error) {
	provider, model, trimmed, err := x.target(req.Provider, req.Model)
	if err != nil {
		return Result{}, err
	}
	lookup, params, err := x.agentsFor(req.AgentID)
	if err != nil {
		return Result{}, err
	}
	// Set field by field: a Result and a decision are built in place,
	// never copied whole but for the trail.
	var d decision
	d.x, d.agent, d.params, d.reg, d.provider, d.model, d.reqModel = x, lookup, params, reg, provider, model, model
	if provider != "" {
		d.reqModel = trimmed
	}
	// A fresh session (the common case) says nothing: its checks are
	// skipped whole, out of line.
	if ses := &req.Session; len(ses.ACPBackend)|len(ses.HistoricalHarnessID)|len(ses.LockedOwner)|len(ses.Override) != 0 {
		err = d.session(&res, ses)
		return res, err
	}
	d.routed, d.bareLookup = true, provider == ""
	pol := d.lookup(nil)
	if p := pol.provider(); p != "" && d.provider == "" {
		d.provider = p
	}
	// The commonest decisions, decide's, set in place (the rest of res
	// is zero): a policy naming openclaw, whose trail holds no reason of
	// its own, and, without a registry, an automatic one for a route
	// with a provider other than openai, which no plugin can claim
	// (auto's last step).
	rt := resolver.RuntimeAuto
	if pol.found() {
		rt = pol.runtime()
	}
	switch {
	case !quickOn:
		err = d.decide(&res, pol)
		return res, err
	case rt == string(occkit.HarnessOpenClaw):
		res.Runtime, res.Source, res.Requested = rt, pol.source(), rt
	case rt == resolver.RuntimeAuto && reg == nil && !pol.ambiguous && d.provider != "" && d.provider != "openai":
		res.Runtime, res.Source, res.Requested = string(occkit.HarnessOpenClaw), SourceImplicit, resolver.RuntimeAuto
		res.why.n, res.why.tail[0] = 1, keptReason{site: siteNoClaim, value: string(occkit.HarnessOpenClaw)}
	default:
		err = d.decide(&res, pol)
		return res, err
	}
	res.Provider, res.Model = d.provider, d.model
	t := &res.why
	t.x, t.agent, t.params, t.reqModel, t.routed, t.bareLookup = x, lookup, params, d.reqModel, true, d.bareLookup
	return res, nil
}

// quickOn: when false, Select takes every decision of a fresh session
// by decide (the oracle of TestQuickDecisionsMatchDecide).
var quickOn = true

// session is Select's decision for a session that says something
// (SEL-8), set in r.
func (d *decision) session(r *Result, ses *Session) error {
	if b := strings.ToLower(strings.TrimSpace(ses.ACPBackend)); b != "" {
		d.keep(siteACP, occkit.Root(), b)
		d.hasNote = true
		d.done(r, verdict{runtime: b, source: SourceSession, acp: true, requested: b})
		return nil
	}
	if h := strings.TrimSpace(ses.HistoricalHarnessID); h != "" {
		d.keep(siteHistorical, occkit.Root(), resolver.NormalizeRuntime(h))
		d.hasNote = true
	}

	d.routed, d.bareLookup = true, d.provider == ""
	pol := d.lookup(nil)
	if p := pol.provider(); p != "" && d.provider == "" {
		d.provider = p
	}

	lockedAuto := false
	if o := strings.TrimSpace(ses.LockedOwner); o != "" {
		rt := resolver.NormalizeRuntime(o)
		if rt != resolver.RuntimeAuto {
			d.keep(siteLocked, occkit.Root(), rt)
			sel, err := d.locked(rt)
			d.done(r, sel)
			return err
		}
		// As in OpenClaw: a locked owner recorded as automatic pins
		// nothing, and the session override is not consulted.
		d.keep(siteLockedAuto, occkit.Root(), rt)
		lockedAuto = true
	}
	if o := strings.TrimSpace(ses.Override); o != "" && !lockedAuto {
		if sel, ok := d.sessionOverride(resolver.NormalizeRuntime(o)); ok {
			d.done(r, sel)
			return nil
		}
	}
	return d.decide(r, pol)
}

// decide sets r to the decision by the policy pol found (SEL-3..SEL-7).
func (d *decision) decide(r *Result, pol policyHit) (err error) {
	rt := resolver.RuntimeAuto
	if pol.found() {
		rt = pol.runtime()
	}
	var sel verdict
	switch rt {
	case resolver.RuntimeAuto:
		// An explicit `auto` (or `default`) policy chooses nothing: the
		// decision is automatic, with the implicit source, as in OpenClaw.
		sel = d.auto(SourceImplicit, pol.ambiguous)
	case string(occkit.HarnessOpenClaw):
		sel = verdict{runtime: rt, source: pol.source(), requested: rt}
	default:
		sel, err = d.explicit(rt, pol.source(), pol.place(), "")
	}
	d.done(r, sel)
	return err
}

func ruleFor(runtime string) string {
	if _, cli := cliBackends[runtime]; cli {
		return "SEL-7"
	}
	return "SEL-5"
}

// trail is what a Result keeps to rebuild its reason chain: the prepared
// agent (its SEL-2 reasons), whether the document's policy and route
// were consulted (SEL-1, SEL-6: rebuilt from the index), and the reasons
// that cannot be rebuilt without asking again: the session note (ACP
// backend or historical harness ID), then what the session and the
// plugins said. A Result is returned by value, so the trail is kept
// small: two reasons in place as a site (a fixed rule and note) and a
// value, the others whole in more.
type trail struct {
	x      *Index
	agent  *agent
	params *agent // the agent whose params count (see Index.agentsFor)
	// reqModel is the request's model ID as written (trimmed), which
	// names the models map key whose params count (see paramsKey).
	reqModel string
	// hasNote: the first kept reason is the session note, which comes
	// before the document's reasons.
	hasNote bool
	routed  bool
	// bareLookup: the SEL-1 lookup ran without a provider (a bare model
	// ID); else with the Result's provider.
	bareLookup bool
	n          uint8
	tail       [2]keptReason
	more       []resolver.Reason
}

// keptReason is a reason kept in place: its site's rule and note, its
// value, and its path: the deciding policy's (atPolicy) or the root.
type keptReason struct {
	site     site
	atPolicy bool
	value    string
}

// site names the fixed rule and note of a reason a decision keeps.
type site uint8

const (
	siteWhole site = iota // a whole reason, the next of trail.more
	siteACP
	siteHistorical
	siteNoProvider
	siteNoCodex
	siteOfficial
	siteCustomRoute
	siteNoClaim
	siteTopClaim
	siteCLI
	siteSupports
	siteLocked
	siteLockedAuto
	siteOverrideAuto
	siteOverrideWins
	siteOverrideCLI
)

var sites = [...]struct{ rule, note string }{
	siteACP:          {"SEL-8", "ACP session keeps its ACP backend"},
	siteHistorical:   {"SEL-8", "historical harness ID does not pin the next turn"},
	siteNoProvider:   {"SEL-3", "provider unknown: no plugin is asked"},
	siteNoCodex:      {"SEL-4", "official OpenAI route, but no codex harness is registered"},
	siteOfficial:     {"SEL-4", "official OpenAI Responses route without request overrides"},
	siteCustomRoute:  {"SEL-4", "custom route, adapter or request overrides keep openai on openclaw"},
	siteNoClaim:      {"SEL-3", "no plugin claims the route"},
	siteTopClaim:     {"SEL-3", "highest priority claim wins"},
	siteCLI:          {"SEL-7", "CLI backend runs through the built-in openclaw harness"},
	siteSupports:     {"SEL-5", "explicit runtime supports the route"},
	siteLocked:       {"SEL-8", "locked native transcript keeps its owner"},
	siteLockedAuto:   {"SEL-8", "locked owner is automatic: configured policy applies, the session override is not consulted"},
	siteOverrideAuto: {"SEL-8", "session override is automatic: configured policy applies"},
	siteOverrideWins: {"SEL-8", "session override wins over configured policy"},
	siteOverrideCLI:  {"SEL-8", "session override selects the CLI backend"},
}

// keep records the reason of site s with value v at path p: the root,
// or the deciding policy's path (the one a decision's lookup finds).
func (t *trail) keep(s site, p occkit.Path, v string) {
	if t.n < uint8(len(t.tail)) {
		t.tail[t.n] = keptReason{site: s, atPolicy: p.Len() > 0, value: v}
		t.n++
		return
	}
	t.more = append(t.more, resolver.Reason{Rule: sites[s].rule, Path: p, Value: v, Note: sites[s].note})
}

// keepAt is keep at the policy's place, its path built only when the
// reason does not fit the trail's tail. keep keeps a body of its own,
// which inlines at its many sites: made a call of keepAt, it cost four
// prepared decisions 1-2%.
func (t *trail) keepAt(s site, at policyAt, v string) {
	if t.n < uint8(len(t.tail)) {
		t.tail[t.n] = keptReason{site: s, atPolicy: at.set(), value: v}
		t.n++
		return
	}
	t.more = append(t.more, resolver.Reason{Rule: sites[s].rule, Path: at.get(), Value: v, Note: sites[s].note})
}

// add records a whole reason.
func (t *trail) add(r resolver.Reason) {
	if t.n < uint8(len(t.tail)) {
		t.tail[t.n] = keptReason{site: siteWhole}
		t.n++
	}
	t.more = append(t.more, r)
}

// kept appends the kept reasons to out, policyAt being the path of the
// deciding policy.
func (t *trail) kept(out []resolver.Reason, policyAt occkit.Path) []resolver.Reason {
	j := 0
	for _, k := range t.tail[:t.n] {
		if k.site == siteWhole {
			out = append(out, t.more[j])
			j++
			continue
		}
		p := occkit.Root()
		if k.atPolicy {
			p = policyAt
		}
		out = append(out, resolver.Reason{Rule: sites[k.site].rule, Path: p, Value: k.value, Note: sites[k.site].note})
	}
	return append(out, t.more[j:]...)
}

func (t *trail) reasons(s Result) []resolver.Reason {
	if t.x == nil {
		return nil
	}
	out := make([]resolver.Reason, 0, len(t.agent.sel2)+int(t.n)+len(t.more)+4)
	out = append(out, t.agent.sel2...)
	noteAt := len(out)
	var policyAt occkit.Path
	if t.routed {
		d := decision{trail: trail{x: t.x, agent: t.agent, params: t.params, reqModel: t.reqModel}, provider: s.Provider, model: s.Model}
		if t.bareLookup {
			d.provider = ""
		}
		if pol := d.lookup(&out); pol.found() {
			policyAt = pol.path()
		}
		d.provider = s.Provider
		d.route()
		for _, p := range d.overrides() {
			out = append(out, resolver.Reason{Rule: "SEL-6", Path: p, Note: "authored request override"})
		}
	}
	if !t.hasNote {
		return t.kept(out, policyAt)
	}
	// The session note comes before the document's reasons.
	kept := t.kept(nil, policyAt)
	out = slices.Insert(out, noteAt, kept[0])
	return append(out, kept[1:]...)
}

// decision is one Select in progress; it records its reasons in its
// trail, which becomes the Result's.
type decision struct {
	trail
	reg             *Registry
	provider, model string
	prov            *provider
	row             *row
	// routeKnown: prov and row are the route of routeOf/model, found by
	// the lookup or by route.
	routeKnown bool
	routeOf    string
}

// defaultsModelsPath is the path of the defaults' model map, which
// every preparation names; a Path is immutable and shared.
var defaultsModelsPath = occkit.NewPath("agents", "defaults", "models")

// reason records a reason whose note is no site's.
func (d *decision) reason(rule string, p occkit.Path, value, note string) {
	d.add(resolver.Reason{Rule: rule, Path: p, Value: value, Note: note})
}

// verdict is what a decision step chooses: a Result but for the route
// and the trail, which [decision.done] adds. The steps pass this small
// value, not a Result, which is large (its trail).
type verdict struct {
	runtime, cliBackend, requested string
	source                         Source
	acp, fallback                  bool
}

// done sets r to the Result of the verdict v.
func (d *decision) done(r *Result, v verdict) {
	if v.requested == "" {
		v.requested = resolver.RuntimeAuto
	}
	r.Runtime, r.Source, r.CLIBackend, r.ACP, r.Fallback = v.runtime, v.source, v.cliBackend, v.acp, v.fallback
	r.Requested, r.Provider, r.Model, r.why = v.requested, d.provider, d.model, d.trail
}

func (d *decision) ref() string {
	switch {
	case d.provider == "":
		return d.model
	case d.model == "":
		return d.provider
	}
	return d.provider + "/" + d.model
}

// trim is strings.TrimSpace, at the cost of two byte tests for a string
// with no space at either end.
func trim(s string) string {
	if n := len(s); n > 0 && ' ' < s[0] && s[0] < 0x80 && ' ' < s[n-1] && s[n-1] < 0x80 {
		return s
	}
	return strings.TrimSpace(s)
}

// target normalizes the request's provider and model (REF-1, REF-2).
func target(provider, model string) (string, string, error) {
	p, m, _, err := targetOf(strings.ToLower(strings.TrimSpace(provider)), model)
	return p, m, err
}

// plainTargetOn: when false, Index.target takes targetOf's reading of
// every request (the oracle of TestPlainTargetMatchesTargetOf).
var plainTargetOn = true

// target is targetOf(x.lower(provider), model), which a request as
// nearly every one is written skips: a provider that is its own
// normalized form and a model ID without a slash or anything to trim
// (plainTarget), or no provider and a model ref as nearly every one is
// written (plainRef), are read where they are.
func (x *Index) target(provider, model string) (p, m, trimmed string, err error) {
	if plainTargetOn {
		if provider != "" {
			if plainTarget(provider, model) {
				return provider, model, model, nil
			}
		} else if slash := plainRef(model); slash > 0 {
			return model[:slash], model[slash+1:], model, nil
		}
	}
	return targetOf(x.lower(provider), model)
}

// SWAR masks (see jsonwalk.Word).
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// word4 is the four bytes of s from j, the first in the lowest byte.
func word4(s string, j int) uint64 {
	w := s[j:][:4]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24
}

// plainTarget reports whether the non-empty provider and the model of a
// request are what targetOf makes of them: the provider its own
// normalized ID (nothing to trim: printable ASCII other than a space
// first and last; no upper-case letter, no byte of a wider rune, no
// slash) and the model its own trimmed form without a slash (empty, or
// printable ASCII other than a space first and last; a wider rune or an
// upper-case letter between are its own spelling). Each is read a word
// at a time when it is 4 to 16 bytes long, as nearly every one is.
func plainTarget(provider, model string) bool {
	n, k := len(provider), len(model)
	if n < 4 || n > 16 || k < 4 || k > 16 {
		return plainTargetLong(provider, model)
	}
	if provider[0] <= ' ' || provider[n-1] <= ' ' || model[0] <= ' ' || model[0] >= 0x80 || model[k-1] <= ' ' || model[k-1] >= 0x80 {
		return false
	}
	// The first eight bytes and the last eight, overlapping; for fewer
	// than eight the first four and the last four (a zero byte is none
	// of those looked for).
	var pa, pb, ma, mb uint64
	if n >= 8 {
		pa, pb = jsonwalk.Word(provider, 0), jsonwalk.Word(provider, n-8)
	} else {
		pa = word4(provider, 0) | word4(provider, n-4)<<32
	}
	if k >= 8 {
		ma, mb = jsonwalk.Word(model, 0), jsonwalk.Word(model, k-8)
	} else {
		ma = word4(model, 0) | word4(model, k-4)<<32
	}
	return (pa|pb)&highBits|jsonwalk.Upper(pa)|jsonwalk.Upper(pb)|
		jsonwalk.Matches(pa, '/')|jsonwalk.Matches(pb, '/')|jsonwalk.Matches(ma, '/')|jsonwalk.Matches(mb, '/') == 0
}

// plainTargetLong is plainTarget of a provider or a model of another
// length, byte by byte.
func plainTargetLong(provider, model string) bool {
	n, k := len(provider), len(model)
	if provider[0] <= ' ' || provider[n-1] <= ' ' {
		return false
	}
	if k > 0 && (model[0] <= ' ' || model[0] >= 0x80 || model[k-1] <= ' ' || model[k-1] >= 0x80) {
		return false
	}
	for i := 0; i < n; i++ {
		if c := provider[i]; c >= 0x80 || c == '/' || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return strings.IndexByte(model, '/') < 0
}

// plainRef is the offset of the first slash of s, a model ref written
// without a provider, when s is a ref as nearly every one is written
// (resolver.ParseRef's plain reading): at least eight bytes of printable
// ASCII without a space or an `@`, a slash, neither first nor last, and
// no upper-case letter before the slash. Such a ref is its own trimmed
// form and its provider is lower-case already. Any other s is 0.
func plainRef(s string) int {
	n := len(s)
	if n < 8 || s[0] == '/' || s[n-1] == '/' {
		return 0
	}
	slash := -1
	for j := 0; ; j += 8 {
		if j > n-8 {
			j = n - 8 // the last word overlaps the one before
		}
		w := jsonwalk.Word(s, j)
		low := w &^ highBits
		// A byte of a wider rune, a space or a control, or an `@`.
		if (w|^(low+(0x80-0x21)*lowBits))&highBits|jsonwalk.Matches(w, '@') != 0 {
			return 0
		}
		if slash < 0 {
			// The bytes before the first slash (the word's bytes before
			// j were read before it, and held none).
			in := uint64(highBits)
			if sl := jsonwalk.Matches(w, '/'); sl != 0 {
				sl &= -sl
				slash = j + bits.TrailingZeros64(sl)>>3
				in = (sl - 1) & highBits
			}
			if jsonwalk.Upper(w)&in != 0 {
				return 0
			}
		}
		if j == n-8 {
			break
		}
	}
	return max(slash, 0)
}

// targetOf is target of a provider already trimmed and lower-cased; it
// also returns the model as written, trimmed.
func targetOf(p, model string) (provider, id, trimmed string, err error) {
	trimmed = trim(model)
	m := trimmed
	if p != "" && strings.IndexByte(p, '/') >= 0 {
		return "", "", "", occkit.Invalid("SEL-1", occkit.Root(), "provider must not contain a slash")
	}
	if p == "" {
		if r, ok := resolver.ParseRef(m); ok {
			p, m = r.Provider, r.ID
		}
	} else if pre, rest, ok := strings.Cut(m, "/"); ok && strings.EqualFold(strings.TrimSpace(pre), p) && strings.TrimSpace(rest) != "" {
		m = strings.TrimSpace(rest)
	}
	// A provider without a model ID still has provider-scoped policy (its
	// wildcard keys and agentRuntime), as in OpenClaw; without either there
	// is nothing to select for.
	if m == "" && p == "" {
		return "", "", "", occkit.Invalid("SEL-1", occkit.Root(), "a provider or a model ID is required")
	}
	return p, m, trimmed, nil
}

func runtimeValue(v gjson.Result) string {
	if v.IsObject() {
		v = v.Get("id")
	}
	if v.Type == gjson.String {
		return resolver.NormalizeRuntime(v.String())
	}
	return ""
}

// runtimeIDOf reads a non-blank `id` of an agentRuntime object.
func runtimeIDOf(ar gjson.Result) (string, bool) {
	if !ar.IsObject() {
		return "", false
	}
	id := ar.Get("id")
	if id.Type != gjson.String || strings.TrimSpace(id.String()) == "" {
		return "", false
	}
	return id.String(), true
}

// policyHit is what the SEL-1 lookup found: the policy of a model key,
// of a catalog row or of a provider, or none (ambiguous: a bare model ID
// matched keys of different providers). It is small, so that a decision
// receives it in registers.
type policyHit struct {
	ambiguous  bool
	byProvider bool      // at is the provider's (SourceProvider)
	key        *modelKey // the model key found (exact or wildcard)
	at         *route    // the catalog row or provider found
}

// policyAt is where a decision's runtime was configured: a path, or a
// model key's or a route's agentRuntime.id, whose path is built only
// when a reason or a refusal names it, so that Prepare builds no path for
// each key of a catalog nor for a provider's policy, and a decision none
// for its policy.
type policyAt struct {
	path  occkit.Path
	key   *modelKey
	route *route
}

// get is the path.
func (p policyAt) get() occkit.Path {
	switch {
	case p.key != nil:
		return extend(p.key.in.at, p.key.key, "agentRuntime", "id")
	case p.route != nil:
		return p.route.policyPath()
	}
	return p.path
}

// set reports whether the path is not the root.
func (p policyAt) set() bool { return p.key != nil || p.route != nil || p.path.Len() > 0 }

func (h policyHit) found() bool { return h.key != nil || h.at != nil }

func (h policyHit) runtime() string {
	if h.key != nil {
		return h.key.runtime
	}
	return h.at.runtime
}

func (h policyHit) source() Source {
	if h.byProvider {
		return SourceProvider
	}
	return SourceModel
}

// path is where the policy is.
func (h policyHit) path() occkit.Path { return h.place().get() }

// place is where the policy is, its path not built yet.
func (h policyHit) place() policyAt {
	if h.key != nil {
		return policyAt{key: h.key}
	}
	return policyAt{route: h.at}
}

// provider is the provider of the model key found, which names it for a
// bare model ID.
func (h policyHit) provider() string {
	if h.key != nil {
		return h.key.provider
	}
	return ""
}

// lookup applies the SEL-1 lookup order; rec, when set, receives its
// reason.
func (d *decision) lookup(rec *[]resolver.Reason) policyHit {
	// 1. exact model keys, entry scope then defaults.
	if d.model != "" {
		for _, m := range d.agent.maps {
			k, ambiguous := m.exact(d.provider, d.model)
			if ambiguous {
				if rec != nil {
					noteTo(rec, m.at, d.model, "bare model ID matches keys of different providers: no policy")
				}
				return policyHit{ambiguous: true}
			}
			if k != nil {
				return hitTo(rec, policyHit{key: k}, "model policy")
			}
		}
	}
	// 2. the provider catalog row (a bare model ID names no provider);
	// the route's row (see route) is among the rows read.
	prov := d.x.provider(d.provider)
	bare := prov.routeRow(d.model)
	d.prov, d.row, d.routeOf, d.routeKnown = prov, bare, d.provider, true
	if r := prov.row(bare, d.provider, d.model); r != nil && r.policy {
		return hitTo(rec, policyHit{at: &r.route}, "catalog row policy")
	}
	// 3. provider wildcard keys; for a bare model ID, any provider's,
	// unless keys of different providers match (as in OpenClaw).
	for _, m := range d.agent.maps {
		if k, ambiguous := m.wildcard(d.provider); ambiguous {
			if rec != nil {
				noteTo(rec, m.at, d.model, "bare model ID matches wildcard keys of different providers: no policy")
			}
			return policyHit{ambiguous: true}
		} else if k != nil {
			return hitTo(rec, policyHit{key: k}, "provider wildcard policy")
		}
	}
	if d.provider == "" {
		if rec != nil {
			noteTo(rec, occkit.Root(), d.model, "model ID has no provider: provider policy does not apply")
		}
		return policyHit{}
	}
	// 4. provider-level policy.
	if prov != nil && prov.policy {
		return hitTo(rec, policyHit{at: &prov.route, byProvider: true}, "provider policy")
	}
	return policyHit{}
}

// hitTo records, when rec is set, the reason of the policy found, h.
// It is small, so that it is made in line: a decision records no reason
// of its lookup.
func hitTo(rec *[]resolver.Reason, h policyHit, text string) policyHit {
	if rec != nil {
		hitNote(rec, h, text)
	}
	return h
}

// hitNote is hitTo's note, out of line.
//
//go:noinline
func hitNote(rec *[]resolver.Reason, h policyHit, text string) {
	noteTo(rec, h.path(), h.runtime(), text)
}

// noteTo appends a lookup's reason to rec. It is kept out of line: a
// decision records no reason of its lookup, and its frame holds none.
//
//go:noinline
func noteTo(rec *[]resolver.Reason, p occkit.Path, value, text string) {
	*rec = append(*rec, resolver.Reason{Rule: "SEL-1", Path: p, Value: value, Note: text})
}

// matches reports whether the key reached under model names the target
// provider/model (whole, or as "<provider>/<model>"), and the provider
// the key names.
func (r keyRef) matches(provider string) (string, bool) {
	if r.whole {
		return r.k.provider, true
	}
	return r.k.provider, r.k.provider != "" && (provider == "" || r.k.provider == provider)
}

// better orders two matching keys: a key naming the caller's provider,
// then a provider-qualified key, then the smaller key. Several keys can
// name one model ("vllm/q", "VLLM/q", bare "q", "moonshotai/kimi" and
// "nvidia/moonshotai/kimi" for provider nvidia); as in OpenClaw the
// caller's provider wins, and where OpenClaw takes the first key in author
// order occkit takes the qualified, then the smallest key, so author key
// order never changes a selection.
func better(a, b *modelKey, aProv, bProv, provider string) bool {
	if provider != "" {
		if ca, cb := aProv == provider, bProv == provider; ca != cb {
			return ca
		}
	}
	if qa, qb := aProv != "", bProv != ""; qa != qb {
		return qa
	}
	return a.key < b.key
}

// exact finds the model key with a policy that decides provider/model,
// or reports that a bare model ID matches keys of different providers.
func (m *modelMap) exact(provider, model string) (*modelKey, bool) {
	var best *modelKey
	bestProv := ""
	mixed := false
	one, ok := m.byModel.get(model)
	switch {
	case !ok:
		return nil, false
	case !one.more:
		if _, ok := one.matches(provider); ok && one.k.policy {
			return one.k, false
		}
		return nil, false
	}
	for _, r := range m.dups[model] {
		if !r.k.policy {
			continue
		}
		p, ok := r.matches(provider)
		if !ok {
			continue
		}
		if best != nil && p != bestProv {
			mixed = true
		}
		if best == nil || better(r.k, best, p, bestProv, provider) {
			best, bestProv = r.k, p
		}
	}
	return best, best != nil && provider == "" && mixed
}

// wildcard finds the `<provider>/*` key with a policy that decides the
// provider (for "", any provider's), or reports keys of different
// providers.
func (m *modelMap) wildcard(provider string) (*modelKey, bool) {
	var best *modelKey
	mixed := false
	for _, k := range m.wild {
		if provider != "" && k.provider != provider {
			continue
		}
		if best != nil && k.provider != best.provider {
			mixed = true
		}
		if best == nil || k.key < best.key {
			best = k
		}
	}
	return best, best != nil && provider == "" && mixed
}

// route finds the provider config and catalog row of the effective
// route: the rows whose trimmed ID is the model ID, merged
// ([provider.routeRow]). A decision finds them when it first reads them
// (facts, overrideSources, hasOverrides): a policy naming openclaw reads
// no route.
func (d *decision) route() {
	if d.routeKnown && d.routeOf == d.provider {
		return
	}
	d.prov = d.x.provider(d.provider)
	d.row = d.prov.routeRow(d.model)
	d.routeOf, d.routeKnown = d.provider, true
}

// facts are the route's own facts: the row's, else the provider's.
func (d *decision) facts() *route {
	d.route()
	if d.row != nil {
		return &d.row.route
	}
	if d.prov != nil {
		return &d.prov.route
	}
	return &d.x.noRoute
}

// overrideSources are the sorted override lists of the route (SEL-6,
// SEL-6a): provider config, catalog row, the agent scopes' params and,
// for a route with a provider, the params of the model key naming it in
// each scope (see paramsKeys).
func (d *decision) overrideSources(fn func([]occkit.Path)) {
	d.route()
	if d.prov != nil {
		fn(d.prov.overrides)
	}
	if d.row != nil {
		fn(d.row.overrides)
	}
	fn(d.params.params)
	d.keyParams(func(m *modelMap, k *modelKey) { fn(k.paramPaths(m.at)) })
}

// keyParams calls fn with the model key of each scope whose params count
// for the route (paramsKey) when they hold an override (SEL-6a), when
// the route has a provider.
func (d *decision) keyParams(fn func(*modelMap, *modelKey)) {
	if d.provider == "" || d.reqModel == "" {
		return
	}
	for _, m := range d.params.maps {
		if k := m.paramsKey(d.provider, d.reqModel); k != nil && k.overrides {
			fn(m, k)
		}
	}
}

// paramsKey is the key of m whose params count for provider/model, as
// OpenClaw finds a model's params (its modelKey; exact keys, no trimming
// nor case folding): "<provider>/<model>", or the model ID alone when it
// already starts with "<provider>/" and then, where that entry has no
// params, "<provider>/<model>". The SPEC is silent on which entries'
// params count; other spellings of the model (a bare key, a padded key)
// name its policy (SEL-1) but not its params.
func (m *modelMap) paramsKey(provider, model string) *modelKey {
	var buf [128]byte
	full := append(append(append(buf[:0], provider...), '/'), model...)
	n := len(provider) + 1
	if len(model) > n && strings.EqualFold(model[:n], string(full[:n])) {
		if k := m.key(model); k != nil && k.hasParams {
			return k
		}
	}
	// m.key(string(full)), without allocating for a full ID that ends
	// in ASCII other than space at either end (its own trimmed spelling).
	if c, d := full[0], full[len(full)-1]; c <= ' ' || c >= 0x80 || d <= ' ' || d >= 0x80 {
		return m.key(string(full))
	}
	r, ok := m.byModel.getBytes(full)
	switch {
	case !ok:
		return nil
	case !r.more:
		if r.whole && r.k.key == string(full) {
			return r.k
		}
		return nil
	}
	for _, r := range m.dups[string(full)] {
		if r.whole && r.k.key == string(full) {
			return r.k
		}
	}
	return nil
}

// hasOverrides reports an authored request override on the route,
// listing none.
func (d *decision) hasOverrides() bool {
	d.route()
	if d.prov != nil && len(d.prov.overrides) > 0 || d.row != nil && len(d.row.overrides) > 0 || len(d.params.params) > 0 {
		return true
	}
	found := false
	d.keyParams(func(*modelMap, *modelKey) { found = true })
	return found
}

// overrides lists the route's authored request overrides in path order.
// A list from one source is the prepared (shared, never modified) one.
func (d *decision) overrides() []occkit.Path {
	var one, all []occkit.Path
	n := 0
	d.overrideSources(func(ps []occkit.Path) {
		if len(ps) == 0 {
			return
		}
		if n++; n == 1 {
			one = ps
			return
		}
		if n == 2 {
			all = append(all, one...)
		}
		all = append(all, ps...)
	})
	if n <= 1 {
		return one
	}
	return sortPaths(all)
}

// routeFacts are the secret-free facts a plugin is asked with (SEL-4,
// SEL-6).
func (d *decision) routeFacts() RouteFacts {
	r := d.facts()
	return RouteFacts{Provider: d.provider, Model: d.model, BaseURL: r.baseURL, BaseURLStripped: r.stripped, API: r.api, Overrides: d.overrides()}
}

// auto applies SEL-3 and SEL-4 for an unset or `auto` runtime.
func (d *decision) auto(src Source, ambiguous bool) verdict {
	openclaw := verdict{runtime: string(occkit.HarnessOpenClaw), source: src, requested: resolver.RuntimeAuto}
	if d.provider == "" || ambiguous {
		d.keep(siteNoProvider, occkit.Root(), string(occkit.HarnessOpenClaw))
		return openclaw
	}
	if d.provider == "openai" {
		if d.facts().official && !d.hasOverrides() {
			p, ok := d.reg.Lookup(string(occkit.HarnessCodex))
			if !ok {
				d.keep(siteNoCodex, occkit.Root(), string(occkit.HarnessOpenClaw))
				return openclaw
			}
			sup := ask(p, d.routeFacts(), string(occkit.HarnessCodex))
			if sup.Kind == SupportSupported {
				d.keep(siteOfficial, occkit.Root(), string(occkit.HarnessCodex))
				return verdict{runtime: string(occkit.HarnessCodex), source: src, requested: resolver.RuntimeAuto}
			}
			d.reason("SEL-4", occkit.Root(), string(occkit.HarnessOpenClaw), "codex harness declines the official route: "+sup.Reason)
			return openclaw
		}
		// As in OpenClaw, the route decides alone: no plugin is asked.
		d.keep(siteCustomRoute, occkit.Root(), d.facts().baseURL)
		return openclaw
	}
	type cand struct {
		id  string
		pri int
	}
	var claims []cand
	var facts *RouteFacts
	for _, id := range d.reg.IDs() {
		p, _ := d.reg.Lookup(id)
		if !autoFor(p, d.provider) {
			continue
		}
		if facts == nil {
			f := d.routeFacts()
			facts = &f
		}
		sup := ask(p, *facts, resolver.RuntimeAuto)
		if sup.Kind == SupportSupported {
			claims = append(claims, cand{id: id, pri: p.Priority()})
			d.reason("SEL-3", occkit.Root(), id, fmt.Sprintf("claims the route (priority %d)", p.Priority()))
		} else {
			d.reason("SEL-3", occkit.Root(), id, "does not claim the route: "+sup.Reason)
		}
	}
	if len(claims) == 0 {
		d.keep(siteNoClaim, occkit.Root(), string(occkit.HarnessOpenClaw))
		return openclaw
	}
	sort.Slice(claims, func(i, j int) bool {
		if claims[i].pri != claims[j].pri {
			return claims[i].pri > claims[j].pri
		}
		return claims[i].id < claims[j].id
	})
	d.keep(siteTopClaim, occkit.Root(), claims[0].id)
	return verdict{runtime: claims[0].id, source: src, requested: resolver.RuntimeAuto}
}

// explicit applies SEL-5 and SEL-7 to an explicit runtime; at is where it
// was configured and rule the rule reported on refusal ("": the rule of
// the runtime, ruleFor).
func (d *decision) explicit(rt string, src Source, at policyAt, rule string) (verdict, error) {
	if rt == string(occkit.HarnessOpenClaw) {
		return verdict{runtime: rt, source: src, requested: rt}, nil
	}
	if rule == "" {
		rule = ruleFor(rt)
	}
	if want, cli := cliBackends[rt]; cli {
		if d.provider != want {
			return verdict{}, occkit.Invalid("SEL-7", at.get(), "runtime %q is a CLI backend for provider %s, not for %s", rt, want, d.ref())
		}
		d.keepAt(siteCLI, at, rt)
		return verdict{runtime: string(occkit.HarnessOpenClaw), source: src, cliBackend: rt, requested: rt}, nil
	}
	plug, ok := d.reg.Lookup(rt)
	if !ok {
		return verdict{}, occkit.Invalid(rule, at.get(), "runtime %q is not a registered harness for %s", rt, d.ref())
	}
	sup := ask(plug, d.routeFacts(), rt)
	switch sup.Kind {
	case SupportSupported:
		d.keepAt(siteSupports, at, rt)
		return verdict{runtime: rt, source: src, requested: rt}, nil
	case SupportFallback:
		d.reason("SEL-5", at.get(), string(occkit.HarnessOpenClaw), fmt.Sprintf("runtime %s declares the exact-request OpenClaw fallback: %s", rt, sup.Reason))
		return verdict{runtime: string(occkit.HarnessOpenClaw), source: src, requested: rt, fallback: true}, nil
	}
	detail := ""
	if sup.Reason != "" {
		detail = " (" + sup.Reason + ")"
	}
	return verdict{}, occkit.Invalid(rule, at.get(), "runtime %q does not support %s%s", rt, d.ref(), detail)
}

// locked keeps a locked transcript's owner (SEL-8). As in OpenClaw the
// owner is not asked again whether it supports the route: the transcript
// is native to it. An owner that is no registered harness (nor openclaw,
// nor the provider's CLI backend) is refused like an explicit runtime.
func (d *decision) locked(rt string) (verdict, error) {
	if rt == string(occkit.HarnessOpenClaw) {
		return verdict{runtime: rt, source: SourceSession, requested: rt}, nil
	}
	if _, ok := d.reg.Lookup(rt); ok {
		return verdict{runtime: rt, source: SourceSession, requested: rt}, nil
	}
	return d.explicit(rt, SourceSession, policyAt{}, "SEL-8")
}

// sessionOverride applies a session runtime override when it is
// compatible (SEL-8); an incompatible one is recorded and ignored.
func (d *decision) sessionOverride(rt string) (verdict, bool) {
	if rt == resolver.RuntimeAuto {
		d.keep(siteOverrideAuto, occkit.Root(), rt)
		return verdict{}, false
	}
	ignore := func(why string) (verdict, bool) {
		d.reason("SEL-8", occkit.Root(), rt, "incompatible session override ignored: "+why)
		return verdict{}, false
	}
	if rt == string(occkit.HarnessOpenClaw) {
		d.keep(siteOverrideWins, occkit.Root(), rt)
		return verdict{runtime: rt, source: SourceSession, requested: rt}, true
	}
	if want, cli := cliBackends[rt]; cli {
		if d.provider != want {
			return ignore("CLI backend serves provider " + want)
		}
		d.keep(siteOverrideCLI, occkit.Root(), rt)
		return verdict{runtime: string(occkit.HarnessOpenClaw), source: SourceSession, cliBackend: rt, requested: rt}, true
	}
	plug, ok := d.reg.Lookup(rt)
	if !ok {
		return ignore("no such harness is registered")
	}
	switch sup := ask(plug, d.routeFacts(), rt); sup.Kind {
	case SupportFallback:
		// The harness declares that OpenClaw reproduces the exact request
		// (SEL-5): the override is honoured through that fallback, as in
		// OpenClaw, rather than ignored for the configured policy.
		d.reason("SEL-8", occkit.Root(), string(occkit.HarnessOpenClaw), fmt.Sprintf("session override %s declares the exact-request OpenClaw fallback: %s", rt, sup.Reason))
		return verdict{runtime: string(occkit.HarnessOpenClaw), source: SourceSession, requested: rt, fallback: true}, true
	case SupportUnsupported:
		return ignore("harness does not support the route: " + sup.Reason)
	}
	d.keep(siteOverrideWins, occkit.Root(), rt)
	return verdict{runtime: rt, source: SourceSession, requested: rt}, true
}
