package openclawschema

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// Rule is the SPEC rule of every refusal: the schema check of
// admission's validation step (DOC-5).
const Rule = "DOC-5"

// Schema returns a copy of the draft-07 schema of [Release], as gen.mjs
// wrote it from its package ([Contract.Schema] for another release).
func Schema() []byte {
	c, err := ContractFor(Release())
	if err != nil {
		return nil
	}
	return c.Schema()
}

// Sensitive returns the configuration paths the hints of [Release] mark
// sensitive ([Contract.Sensitive] for another release), sorted, in
// OpenClaw's notation: dot paths where "*" stands for any key of a map
// and "[]" for any element of an array (for example
// "models.providers.*.apiKey").
func Sensitive() []string {
	c, err := ContractFor(Release())
	if err != nil {
		return nil
	}
	return c.Sensitive()
}

// Validator is a compiled OpenClaw configuration schema. Make one with
// [New], [ForRelease] or [Compile], once, and share it: it is immutable
// and safe for concurrent use.
type Validator struct {
	root    *node
	version string
	// contract is the carried release of the version, whose refinements
	// and channel ids the check mirrors; nil for a release the library
	// does not carry (the schema alone).
	contract *Contract
	// redactInert: no shape refinement applies at or under
	// logging.redactSensitive, so the refinements read a document the
	// same with or without it (see walk).
	redactInert bool
}

// newValidator is the Validator of a compiled schema.
func newValidator(root *node, version string, contract *Contract) *Validator {
	return &Validator{root: root, version: version, contract: contract,
		redactInert: !shaped(root, []string{"logging", "redactSensitive"})}
}

// New returns the compiled check of [Release], the newest carried
// release ([ForRelease] for another). It is compiled once per process, on
// first use (about 0.1 s and 6 MB), and shared: a Validator is immutable.
func New() (*Validator, error) { return ForRelease(Release()) }

// Compile compiles a draft-07 schema published by OpenClaw version. A
// keyword, format or pattern feature the compiler does not implement is
// an error: a schema is never checked partially. For a carried release
// ([Releases]) the release's refinements and channel ids apply beside the
// schema given; for another, the schema alone.
func Compile(schema []byte, version string) (*Validator, error) {
	if version == "" {
		return nil, fmt.Errorf("openclawschema: the schema needs the OpenClaw version it belongs to")
	}
	root, err := compileSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("openclawschema: %w", err)
	}
	var contract *Contract
	if _, carried := catalog()[version]; carried {
		// A schema the caller compiled for a carried release: the
		// release's refinements and channel ids apply.
		if contract, err = ContractFor(version); err != nil {
			return nil, fmt.Errorf("openclawschema: %w", err)
		}
	}
	return newValidator(root, version, contract), nil
}

// compileContract compiles the schema of a carried release.
func compileContract(c *Contract) (*Validator, error) {
	root, err := compileSchema(c.files["schema.json"])
	if err != nil {
		return nil, fmt.Errorf("openclawschema: OpenClaw %s: %w", c.version, err)
	}
	return newValidator(root, c.version, c), nil
}

// Version is the OpenClaw release whose schema v checks.
func (v *Validator) Version() string { return v.version }

// Contract is the carried release v checks, or nil when v was compiled
// for a release the library does not carry (then only its schema is
// checked: no refinement, no channel ids).
func (v *Validator) Contract() *Contract { return v.contract }

// Valid reports whether OpenClaw accepts doc: its schema and, for a
// carried release, the refinements the check mirrors and its channel ids. The schema walk
// reads the document bytes once, in place, outlining the top three levels
// the refinements then read instead of the text; the outline and the
// refinements' index of a configuration without large rosters are one
// allocation (see scratch).
func (v *Validator) Valid(doc occkit.Document) bool {
	s := new(scratch)
	return v.passes(s, v.walkIn(s, doc))
}

// passes reports whether OpenClaw accepts the document w read (see
// Valid), refining it in s (nil: a refiner of its own).
func (v *Validator) passes(s *scratch, w reading) bool {
	if !w.ok || v.contract == nil {
		return w.ok
	}
	return len(refineIn(s.refiner(), v.root, w, v.contract)) == 0 && len(v.contract.channelIssues(w)) == 0
}

// scratch is the room of one verdict (Valid, ValidBeside): the outline
// of its schema walk and the refiner that reads it, in one allocation.
// It is made for each verdict, not pooled: a pool would keep its 2 KB
// alive between verdicts, in the peak heap of every admission after
// (issue 29 measures the peak against the document, which for a small
// one is about that size), for a saving the paired measure of the
// user's path does not show.
type scratch struct {
	out jsonwalk.Outline
	ref refiner
}

// outline is the outline for a walk that reads the members at the paths
// omit names as absent (see newOutline): s's, emptied, or a new one when
// s is nil.
func (s *scratch) outline(omit [][]string) *jsonwalk.Outline {
	if s == nil {
		return newOutline(omit)
	}
	s.out.Reset()
	s.out.Depth, s.out.Watch, s.out.Omit, s.out.Unrecorded = outlineDepth, watched, omit, unrecorded
	return &s.out
}

// refiner is s's refiner, empty, or a new one when s is nil.
func (s *scratch) refiner() *refiner {
	if s == nil {
		return new(refiner)
	}
	return &s.ref
}

// ValidBeside reports whether v accepts doc ([Validator.Valid]) and the
// walk of other, a schema for the shared walker reading JSON as
// jsonwalk.Exact does, accepts its text (package compile's DOC-5 fast
// check, which is how compile calls it). Where v's schema walk reads the
// document's own text (see walk), one walk reads it for both schemas;
// when that refuses, each walks alone, to tell which.
func (v *Validator) ValidBeside(doc occkit.Document, other *jsonwalk.Node) bool {
	src := doc.String()
	if !v.redactInert {
		return jsonwalk.Valid(jsonwalk.Exact{}, other, src) && v.Valid(doc)
	}
	s := new(scratch)
	out := s.outline(omitRedact)
	r := reading{src: src, ok: jsonwalk.ValidBoth(jsonwalk.Exact{}, other, jsonwalk.JS{}, v.root.w, src, out), outline: out}
	if !r.ok && !jsonwalk.Valid(jsonwalk.Exact{}, other, src) {
		return false
	}
	// Either both walks accept the text, or OpenClaw's refuses it and
	// walkFrom reads the view.
	return v.passes(s, v.walkFrom(s, doc, r))
}

// reading is one check's reading of a document: its text as the check
// reads it (specView), whether the schema accepts it, and what the schema
// walk outlined of it for the refinements.
type reading struct {
	src     string
	ok      bool
	outline *jsonwalk.Outline
}

// outlineDepth is how deep the schema walk outlines the objects it reads
// for the refinements: the root, its sections and theirs (agents.defaults,
// gateway.remote, …), where the large catalogs sit below, so the
// refinements reach their settings without scanning a catalog again.
const outlineDepth = 2

// The keys the schema walk watches for: a shape refinement looks at an
// object only when the document has its key somewhere.
const (
	watchSource = iota
	watchAlsoAllow
)

var watched = []string{watchSource: "source", watchAlsoAllow: "alsoAllow"}

// walk walks doc against the schema once, outlining it, as specView
// rewrites it. The walk reads the document's own text omitting
// logging.redactSensitive (when no shape refinement can see it: see
// redactInert), which is all the view drops from a document without
// agents.list, and the outline of the root's sections tells whether
// agents.list is there; so the view is neither written nor walked unless
// the document has agents.list or the schema refuses it. Then the view is
// taken, and walked: a refusal is explained on the view's own text.
func (v *Validator) walk(doc occkit.Document) reading { return v.walkIn(nil, doc) }

// walkIn is walk outlining in s (nil: an outline of its own).
func (v *Validator) walkIn(s *scratch, doc occkit.Document) reading {
	if !v.redactInert {
		return v.walkOmitting(s, specView(doc).String(), nil)
	}
	return v.walkFrom(s, doc, v.walkOmitting(s, doc.String(), omitRedact))
}

// walkFrom is walk given r, the walk of doc's own text omitting
// omitRedact: r itself, or when that does not read the view, the view's
// walk (in s, whose outline r then no longer reads).
func (v *Validator) walkFrom(s *scratch, doc occkit.Document, r reading) reading {
	if r.ok && !hasMember(r, "agents", "list") {
		return r
	}
	return v.walkOmitting(s, specView(doc).String(), nil)
}

// omitRedact is the member specView drops from a document without
// agents.list.
var omitRedact = [][]string{{"logging", "redactSensitive"}}

func (v *Validator) walkText(src string) reading { return v.walkOmitting(nil, src, nil) }

// walkOmitting walks src reading the members at the paths omit names as
// absent (see jsonwalk.Outline), outlining in s (nil: an outline of its
// own).
func (v *Validator) walkOmitting(s *scratch, src string, omit [][]string) reading {
	out := s.outline(omit)
	return reading{src: src, ok: jsonwalk.ValidOutline(jsonwalk.JS{}, v.root.w, src, out), outline: out}
}

// newOutline is the outline the refinements read of a walk that reads
// the members at the paths omit names as absent. It keeps nothing of
// channels (jsonwalk.Outline.Unrecorded): no refinement reads below it
// (the shape refinements skip it, see underChannels; the channel checks
// parse it on their own, see rootSections), and a configuration's
// channels are often its largest section.
func newOutline(omit [][]string) *jsonwalk.Outline {
	return &jsonwalk.Outline{Depth: outlineDepth, Watch: watched, Omit: omit, Unrecorded: unrecorded}
}

// unrecorded are the root members the schema walk's outline keeps
// nothing of (newOutline).
var unrecorded = []string{"channels"}

// hasMember reports whether the outline of r may show the root's
// section a holding the key k: false only when it shows the root and, if
// a is an object, a's members, without k.
func hasMember(r reading, a, k string) bool {
	root, ok := r.outline.Members(rootAt(r.src))
	if !ok {
		return true
	}
	for _, m := range root {
		if m.Key != a || r.src[m.Start] != '{' {
			continue
		}
		members, ok := r.outline.Members(int(m.Start))
		if !ok {
			return true
		}
		for _, c := range members {
			if c.Key == k {
				return true
			}
		}
	}
	return false
}

// rootAt is the offset of the value of the JSON text src: after the
// whitespace before it (none in an occkit.Document's own text). A loop,
// not strings.TrimLeft, which makes a set of its cutset on every call.
func rootAt(src string) int {
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	return i
}

// specView is doc as the check reads it: OpenClaw's own view where it
// rewrites before validating, and the SPEC's where the SPEC says so.
//
//   - The legacy roster: an agents.list array without agents.entries is
//     migrated to agents.entries before OpenClaw's schema applies, so the
//     check leaves the list out (the migrated entries are not checked: a
//     documented divergence).
//   - An empty agents.list is fine beside entries (RES-10 says so); the
//     roster rules, not OpenClaw's schema, decide agents.list.
//   - logging.redactSensitive belongs to the stamp (LOG-1 removes it) and
//     to driver-managed logging, which keeps the native logging unchanged
//     (LOG-3): the logging rules decide it, not OpenClaw's schema.
//
// Each rewrite costs a copy only when its key is present.
func specView(doc occkit.Document) occkit.Document {
	// Without an escape in the text a key is its own bytes between quotes,
	// so a key the text does not hold is absent, found without reading
	// the document's structure.
	src := doc.String()
	escaped := strings.IndexByte(src, '\\') >= 0
	root := doc.Root()
	if escaped || strings.Contains(src, `"list"`) {
		agents := root.Key("agents")
		if list := agents.Key("list"); list.IsArray() &&
			(!agents.Key("entries").Exists() || len(list.Array()) == 0) {
			if out, err := doc.Delete(occkit.NewPath("agents", "list")); err == nil {
				doc = out
			}
		}
	}
	if !escaped && !strings.Contains(src, `"redactSensitive"`) {
		return doc
	}
	if logging := root.Key("logging"); logging.Key("redactSensitive").Exists() {
		if out, err := doc.Delete(occkit.NewPath("logging", "redactSensitive")); err == nil {
			doc = out
		}
	}
	return doc
}

// Validate checks doc against the schema. Each refusal is a 400
// INVALID_REQUEST with rule DOC-5 at the path of the setting OpenClaw
// names: an unknown key is refused at its own path, with the closest key
// the schema allows there as a suggestion; a value outside an enum lists
// the accepted values; a wrong type says which type is expected. Values
// from the document are never quoted. At most 50 refusals come back,
// sorted by path (see [occkit.Join]).
//
// For a carried release the refinements OpenClaw makes beyond its schema
// ([Contract.Refinements]) are checked too, at the path OpenClaw names
// (they run on every document, beside the schema's refusals), and so are
// its channel ids (see the package doc, "Channel ids").
func (v *Validator) Validate(doc occkit.Document) error { return v.refusal(v.walk(doc)) }

// refusal is the refusal of the document w read: the schema's, then the
// refinements' and the channel ids'.
func (v *Validator) refusal(w reading) error {
	var issues []error
	if !w.ok {
		issues = v.schemaIssues(gjson.Parse(w.src))
	}
	if v.contract != nil {
		issues = append(issues, refine(v.root, w, v.contract)...)
		issues = append(issues, v.contract.channelIssues(w)...)
	}
	return occkit.Join(issues...)
}

// schemaIssues explains why the schema refuses root.
func (v *Validator) schemaIssues(root gjson.Result) []error {
	e := &explainer{version: v.version}
	e.explain(v.root, root, occkit.Root())
	if len(e.issues) == 0 {
		// valid and explain disagree only through a bug; stay closed.
		return []error{occkit.Invalid(Rule, occkit.Root(), "OpenClaw %s does not accept the document", v.version)}
	}
	return e.issues
}
