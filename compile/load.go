package compile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/envpolicy"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/normalized"
)

// Default limits of [Limits] (DOC-2) and the fixed bounds of includes
// (DOC-4).
const (
	// DefaultMaxBytes bounds the size of a document (and of each included
	// file): 2 MiB.
	DefaultMaxBytes = 2 << 20
	// DefaultMaxDepth bounds nesting: the top-level value has depth 1 and
	// each object or array inside another adds 1.
	DefaultMaxDepth = 64
	// DefaultMaxStringBytes bounds the decoded length of every string value
	// and object key: 1 MiB, half a document, so that one string cannot be
	// the whole budget yet any realistic prompt or certificate fits.
	DefaultMaxStringBytes = 1 << 20
	// DefaultMaxKeys bounds the total number of object members in a
	// document. A large real Configuration has a few thousand.
	DefaultMaxKeys = 100_000
	// HardMaxDepth caps [Limits.MaxDepth] whatever the caller asks, so that
	// the recursive readers downstream (gjson) stay well inside the stack.
	HardMaxDepth = 10_000
	// MaxIncludeDepth is how deep $include may nest: the loaded document
	// is level 0 and may start a chain of at most ten included files.
	MaxIncludeDepth = 10
	// MaxIncludeFiles bounds how many files one load may include in total,
	// so that a file included many times over (a diamond) cannot multiply
	// the work.
	MaxIncludeFiles = 32
)

// Limits bound the work of loading one document (DOC-2). A zero field
// takes its default, so the zero value is right for untrusted input.
type Limits struct {
	// MaxBytes is the largest document, the largest included file, the
	// most all included files may hold together, and the largest document
	// substitution may produce, in bytes. Default [DefaultMaxBytes].
	MaxBytes int
	// MaxDepth is the deepest nesting allowed (the top-level value has
	// depth 1). Default [DefaultMaxDepth]; at most [HardMaxDepth].
	MaxDepth int
	// MaxStringBytes bounds every string value and key, decoded, in bytes.
	// Default [DefaultMaxStringBytes].
	MaxStringBytes int
	// MaxKeys bounds the number of object members in the whole document.
	// Default [DefaultMaxKeys].
	MaxKeys int
}

// withDefaults fills zero (or negative) fields with their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxDepth > HardMaxDepth {
		l.MaxDepth = HardMaxDepth
	}
	if l.MaxStringBytes <= 0 {
		l.MaxStringBytes = DefaultMaxStringBytes
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = DefaultMaxKeys
	}
	return l
}

// LoadOptions configure [Load] and [LoadFile]. The zero value applies the
// default [Limits], refuses $include and leaves ${VAR} references as they
// are.
type LoadOptions struct {
	// Limits bound the work (DOC-2).
	Limits Limits
	// Lookup resolves ${VAR} references in string values (DOC-4). Nil
	// turns substitution off: strings, ${VAR} and $${VAR} included, are kept
	// verbatim, as a control plane stores a Configuration whose references
	// the runtime resolves later. The process environment is never read
	// unless the caller passes os.LookupEnv here. As in OpenClaw, the
	// document's own env section (env.vars and its shorthand keys) fills
	// the names Lookup lacks or holds blank ([DefinedEnv]; the package
	// doc, "Variables the document defines"), under the pinned release's
	// environment policy.
	Lookup func(name string) (string, bool)
	// IncludeRoots are the directories $include may read from. For [Load]
	// an empty list refuses $include; for [LoadFile] it defaults to the
	// directory of the file.
	IncludeRoots []string
	// BaseDir is the directory that relative $include paths of the
	// document given to [Load] resolve against. Default: the first root.
	// [LoadFile] uses the file's directory.
	BaseDir string
	// Filename names the text in positions ([occkit.Position]): refusals
	// of the load carry file:line:col, and the loaded Document carries a
	// source map so that later refusals about it can be placed too
	// ([occkit.Document.Place]; admission does it). For [Load], setting it
	// lets the Document keep src, which must then not be modified; without
	// it Load keeps nothing and only its own refusals have a position.
	// [LoadFile] and [LoadFS] use the name they are given, [LoadReader]
	// this one (or none), and all three keep the text they read.
	Filename string
	// SensitivePaths are the paths whose values the author view of a
	// refusal (the source line of %+v and occkit.Error.Snippet) masks,
	// besides the rest of the credential policy: the sensitive paths of
	// the OpenClaw release the document is for. Nil means those of the
	// pinned release ([sensitive.Patterns]).
	SensitivePaths []sensitive.Pattern
}

// Load reads one Configuration: strict JSON first, JSON5 only when that
// fails (DOC-1), within the limits (DOC-2), with $include resolved and
// ${VAR} substituted (DOC-4). A Configuration is a JSON object: any other
// top-level value is refused (DOC-1). The result is compact JSON in the
// author's key order with every string and number in its RFC 8785 form, so
// the same value written as JSON or JSON5, or with another number
// spelling, loads to the same bytes. Loading allocates at most a small
// multiple of its input (see the package doc's "Bounded work").
//
// Load reads the file system only for $include, and then only inside
// [LoadOptions.IncludeRoots], at most [MaxIncludeFiles] files.
func Load(src []byte, opts LoadOptions) (occkit.Document, error) {
	return loadBytes(src, opts, opts.Filename != "")
}

// loadBytes is Load; keep attaches the source map to the Document.
func loadBytes(src []byte, opts LoadOptions, keep bool) (occkit.Document, error) {
	ld := newLoader(opts)
	base := opts.BaseDir
	if base == "" {
		// The first root the includer would keep (one whose absolute
		// form is known), without making the includer.
		for _, r := range opts.IncludeRoots {
			if abs, err := filepath.Abs(r); err == nil {
				base = abs
				break
			}
		}
	}
	if base != "" {
		if abs, err := filepath.Abs(base); err == nil {
			base = abs
		}
	}
	ld.name, ld.keep, ld.baseDir = opts.Filename, keep, base
	return ld.load(src, base, nil)
}

// LoadFile is [Load] for the file at path. Relative $include paths resolve
// against the file's directory, which is also the include root unless
// [LoadOptions.IncludeRoots] names others. The path may be a symbolic link
// (a Kubernetes ConfigMap mount is one); the file it names must be regular.
func LoadFile(path string, opts LoadOptions) (occkit.Document, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return occkit.Document{}, occkit.Wrap(err, occkit.CodeInvalidRequest, "DOC-1", occkit.Root(), "the configuration file path %q cannot be resolved", path)
	}
	if len(opts.IncludeRoots) == 0 {
		opts.IncludeRoots = []string{filepath.Dir(abs)}
	}
	ld := newLoader(opts)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return occkit.Document{}, occkit.Wrap(err, occkit.CodeInvalidRequest, "DOC-1", occkit.Root(), "the configuration file %q cannot be read", path)
	}
	data, fail := readRegularFile(real, ld.limits.MaxBytes, false)
	if fail.reason != "" {
		return occkit.Document{}, fileError(occkit.Root(), "DOC-1", "the configuration file", fail, ld.limits)
	}
	ld.name, ld.keep, ld.baseDir = path, true, filepath.Dir(abs)
	return ld.load(data, filepath.Dir(abs), []string{real})
}

type loader struct {
	limits Limits
	lookup func(string) (string, bool)
	// inc resolves $include; it is made (roots resolved on the file
	// system) only for a document that holds one ([loader.includer]),
	// from roots, unless the loader was made with one (LoadFS).
	inc   *includer
	roots []string
	// name, baseDir and sources place refusals (source.go): the top-level
	// text's name and directory, and the included texts read so far; keep
	// attaches them to the loaded Document.
	name, baseDir string
	sources       []sourceText
	keep          bool
	sens          []sensitive.Pattern
}

func newLoader(opts LoadOptions) *loader {
	l := opts.Limits.withDefaults()
	sens := opts.SensitivePaths
	if sens == nil {
		sens = allSensitive
	}
	return &loader{limits: l, lookup: opts.Lookup, roots: opts.IncludeRoots, sens: sens}
}

// includer returns the loader's includer, making it on first use.
func (ld *loader) includer() *includer {
	if ld.inc == nil {
		ld.inc = newIncluder(ld.roots, ld.limits)
	}
	return ld.inc
}

// load runs the whole pipeline on one top-level document and places what
// it refuses.
func (ld *loader) load(src []byte, dir string, chain []string) (occkit.Document, error) {
	doc, err := ld.run(src, dir, chain)
	return ld.finish(src, doc, err)
}

func (ld *loader) run(src []byte, dir string, chain []string) (occkit.Document, error) {
	norm, err := ld.normalize(src)
	if err != nil {
		return occkit.Document{}, err
	}
	out := norm.Bytes()
	if holdsInclude(out) {
		inc := ld.includer()
		root, err := inc.process(ld, parseTree(out), nil, dir, chain, 0)
		if err != nil {
			return occkit.Document{}, err
		}
		// The merged tree is no larger than the files it came from, and
		// those are bounded in number and total size before being read.
		out = root.appendJSON(make([]byte, 0, len(out)+inc.read))
		// The merged document obeys the same limits (its nesting and
		// key count are new).
		if norm, err = ld.normalize(out); err != nil {
			return occkit.Document{}, withoutPosition(err)
		}
		out = norm.Bytes()
	}
	// DOC-4: substitution applies to the whole merged document, so strings
	// that came from an included file are substituted (and $${ unescaped)
	// like the including file's own.
	substituted := false
	if ld.lookup != nil && bytes.Contains(out, []byte("${")) {
		// Substitution changes string values only, checking their length
		// and the document's size as it writes; keys, nesting and numbers
		// stay as parsed, so the result needs no second parse.
		// The document's own env section defines variables first, as
		// OpenClaw applies it to its environment before substituting.
		// The loader has no release of its own: the pinned one's policy
		// says which names a configuration may set (read only when the
		// document defines any).
		applies := func(name string) bool { return envpolicy.Pinned().ConfigEnvApplies(name) }
		lookup := envLookup(ld.lookup, documentEnv(gjson.GetBytes(out, "env"), applies))
		before := len(out)
		if out, err = substitute(out, lookup, ld.limits); err != nil {
			return occkit.Document{}, err
		}
		substituted = len(out) != before || &out[0] != &norm.Bytes()[0]
	}
	// DOC-1: a Configuration is a JSON object (OpenClaw's configuration
	// schema is one). An included file may hold any value, but the loaded
	// document, after its includes are merged, must be an object.
	if out[0] != '{' {
		return occkit.Document{}, occkit.Invalid("DOC-1", occkit.Root(), "a Configuration must be a JSON object, not %s", jsonKind(out[0]))
	}
	if substituted {
		// A variable's value may be anything (invalid UTF-8 included):
		// the substituted document is checked as any other.
		return occkit.ParseDocument(out)
	}
	// The transcoder's output is already what a Document must be (valid,
	// compact, no repeated key, canonical strings and numbers): it is not
	// read again.
	return normalized.Document[occkit.Document](norm), nil
}

// jsonKind names the JSON type whose normalized encoding starts with c.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// parse turns one source text into normalized JSON within the limits.
func (ld *loader) parse(src []byte) ([]byte, error) {
	n, err := ld.normalize(src)
	return n.Bytes(), err
}

// normalize is parse, its output kept as proof of what the transcoder
// guarantees.
func (ld *loader) normalize(src []byte) (json5.Normalized, error) {
	l := ld.limits
	if len(src) > l.MaxBytes {
		return json5.Normalized{}, occkit.Invalid("DOC-2", occkit.Root(), "the document size exceeds the limit of %d bytes", l.MaxBytes)
	}
	// DOC-2: the transcoder enforces every limit as it reads, before the
	// work it bounds, and keeps O(1) state per open level, so no pre-scan
	// is needed: a too-deep document stops at the first container past
	// the limit, which the error names.
	//
	// DOC-1: strict JSON first. Every JSON document is JSON5 with the same
	// meaning, so one transcoder both normalizes strict JSON and reads JSON5
	// when strict parsing fails; only its error message differs.
	out, err := json5.Normalize(src, json5.Options{MaxDepth: l.MaxDepth, MaxStringBytes: l.MaxStringBytes, MaxKeys: l.MaxKeys})
	if err != nil {
		if json.Valid(src) {
			var e *json5.Error
			if errors.As(err, &e) && e.Kind == json5.KindSyntax {
				// Unreachable: JSON5 accepts all JSON. Fail closed anyway.
				return json5.Normalized{}, occkit.Invalid("DOC-1", occkit.Root(), "the document cannot be normalized")
			}
		}
		return json5.Normalized{}, ld.syntaxError(err)
	}
	return out, nil
}

// syntaxError maps a transcoder error onto the occkit error of its rule.
// Messages name the limit or the grammar problem, never document text,
// and no line or column: where it stopped is the error's Position (set
// by the loader) and its SyntaxPosition cause, as for every other
// refusal.
func (ld *loader) syntaxError(err error) error {
	var e *json5.Error
	if !errors.As(err, &e) {
		return occkit.Invalid("DOC-1", occkit.Root(), "the document is neither JSON nor JSON5")
	}
	at := pathOf(e.Path)
	l := ld.limits
	pos := &SyntaxPosition{Line: e.Line, Column: e.Column}
	invalid := func(rule, format string, args ...any) error {
		if pos.Line <= 0 {
			return occkit.Invalid(rule, at, format, args...)
		}
		return occkit.Wrap(pos, occkit.CodeInvalidRequest, rule, at, format, args...)
	}
	switch e.Kind {
	case json5.KindDepth:
		return invalid("DOC-2", "the nesting depth exceeds the limit of %d levels", l.MaxDepth)
	case json5.KindString:
		return invalid("DOC-2", "a string or key is longer than the limit of %d bytes", l.MaxStringBytes)
	case json5.KindKeys:
		return invalid("DOC-2", "the document has more than the limit of %d object keys", l.MaxKeys)
	case json5.KindDuplicateKey:
		return invalid("DOC-2", "duplicate object key: an object names the same key twice")
	case json5.KindNonFinite:
		return invalid("DOC-1", "Infinity and NaN cannot be represented in JSON")
	case json5.KindNumber:
		return invalid("DOC-1", "a number is too large to be finite")
	case json5.KindSurrogate:
		return invalid("DOC-1", "a string or key holds a lone UTF-16 surrogate, which has no canonical form")
	case json5.KindEncoding:
		return invalid("DOC-1", "the document is not valid UTF-8")
	}
	return invalid("DOC-1", "the document is neither JSON nor JSON5: %s", e.Msg)
}

// SyntaxPosition is the cause of a refusal [Load] makes while reading the
// text (a grammar error, a limit, a duplicate key): where in the loaded
// text it stopped, line and column counted from 1. Reach it with
// errors.As on the returned error; the position is in the top-level
// document. A fault inside an included file is reported at the $include
// that named it, without this cause; its [occkit.Error].Position names
// the included file, line and column (as every load refusal's does).
type SyntaxPosition struct {
	Line, Column int
}

// Error renders the position as "line L, column C".
func (p *SyntaxPosition) Error() string {
	return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
}

// withoutPosition drops the SyntaxPosition of an error about text occkit
// generated (the merged document), where a line and column would point
// nowhere in what the author wrote.
func withoutPosition(err error) error {
	var e *occkit.Error
	if errors.As(err, &e) && e.Err != nil {
		return occkit.New(e.Code, e.Rule, e.Path, "%s", e.Detail)
	}
	return err
}

func pathOf(elems []json5.PathElem) occkit.Path {
	var p occkit.PathBuilder
	p.Grow(len(elems))
	for _, e := range elems {
		if e.IsIndex {
			p.Index(e.Index)
		} else {
			p.Key(e.Key)
		}
	}
	return p.Path()
}

// fileError explains why a file could not be read, naming no path in its
// message; the cause stays reachable for errors.Is.
func fileError(at occkit.Path, rule, what string, fail readFailure, l Limits) error {
	if fail.reason == reasonTooLarge {
		return occkit.Invalid("DOC-2", at, "%s is larger than the limit of %d bytes", what, l.MaxBytes)
	}
	return occkit.Wrap(fail.cause, occkit.CodeInvalidRequest, rule, at, "%s cannot be read: %s", what, fail.reason)
}
