package compile

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
)

// sourceText is one text a document was loaded from: the top-level file or
// an included one, whose value sits at at in the loaded document.
type sourceText struct {
	name string
	at   occkit.Path
	src  []byte
}

// sourceMap is the source map the loaders attach to a document
// (occkit.SourceMap). It keeps the texts as they were read and does its
// work only when asked, that is when something is refused: a document
// that is admitted pays a small allocation a text for it. The first placement
// in a text reads it once ([sourceIndex]); every placement after costs
// the excerpt it prints. It is safe for concurrent use.
type sourceMap struct {
	// files in precedence order: a file after the files it includes, and
	// later includes after earlier ones, as the merge lets the including
	// object's own keys win over what it includes and a later include win
	// over an earlier one. The last is the text the load (or the failing
	// include) read last.
	files []*sourceFile
}

// sourceFile is one text of a sourceMap and its index, built once.
type sourceFile struct {
	sourceText
	// under is where the text's values sit in the loaded document, for
	// the credential policy of the author view: at, except for an
	// included file refused on its own, which is placed as a document of
	// its own (at the root) but masked where it was included.
	under    occkit.Path
	sens     []sensitive.Pattern
	maxDepth int
	once     sync.Once
	idx      *sourceIndex
}

func (f *sourceFile) index() *sourceIndex {
	f.once.Do(func() { f.idx = indexSource(f.src, f.under, f.sens, f.maxDepth) })
	return f.idx
}

// newSourceMap is the map of texts nested at most maxDepth deep, whose
// author view masks the values at sens (OpenClaw's sensitive paths)
// besides the rest of the credential policy.
func newSourceMap(sens []sensitive.Pattern, maxDepth int, texts ...sourceText) *sourceMap {
	m := &sourceMap{files: make([]*sourceFile, len(texts))}
	for i, t := range texts {
		m.files[i] = &sourceFile{sourceText: t, under: t.at, sens: sens, maxDepth: maxDepth}
	}
	return m
}

// Position places p in the text that writes the most of it; of texts
// writing equally much, the one whose value wins the merge.
func (m *sourceMap) Position(p occkit.Path) (occkit.Position, bool) {
	if p.IsRoot() {
		return occkit.Position{}, false
	}
	var best *sourceFile
	bestDepth, bestNode := 0, 0
	for _, f := range m.files {
		if !hasPrefix(p, f.at) {
			continue
		}
		n, found, ok := f.index().locate(p, f.at.Len())
		if !ok {
			continue
		}
		if d := f.at.Len() + found; best == nil || d >= bestDepth {
			best, bestDepth, bestNode = f, d, n
		}
	}
	if best == nil || bestDepth == 0 {
		return occkit.Position{}, false
	}
	n := best.idx.nodes[bestNode]
	return best.position(int(n.off), best.idx.line(int(n.off)), int(n.col)), true
}

// position is the position at byte offset off, on line at column col,
// with the author view of its line.
func (f *sourceFile) position(off, line, col int) occkit.Position {
	text, textCol := f.index().excerpt(line, off)
	return occkit.Position{File: f.name, Line: line, Column: col, Text: text, TextColumn: textCol}
}

// hasPrefix reports whether p starts with q.
func hasPrefix(p, q occkit.Path) bool {
	if q.Len() > p.Len() {
		return false
	}
	for i := 0; i < q.Len(); i++ {
		ak, ai, aIdx := p.Elem(i)
		bk, bi, bIdx := q.Elem(i)
		if aIdx != bIdx || aIdx && ai != bi || !aIdx && ak != bk {
			return false
		}
	}
	return true
}

// snippetRunes bounds the excerpt of a long line a Position keeps, so
// that with its ellipses it fits occkit.Error.Snippet uncut.
const snippetRunes = occkit.MaxSnippetRunes - 2 // room for the two "…"

// place gives err's structured errors that have no position one from
// sources (errors are fresh from this load, so they are set in place). A
// refusal caused by a SyntaxPosition is placed in the last text of
// sources, the one the failing parse read, whose paths are relative to
// its own root.
func place(err error, sources *sourceMap) error {
	top := sources.files[len(sources.files)-1]
	for _, e := range occkit.Errors(err) {
		if e.Position.IsValid() {
			continue
		}
		var sp *SyntaxPosition
		if errors.As(e.Err, &sp) && sp.Line > 0 {
			x := top.index()
			line := min(sp.Line, len(x.lines))
			e.Position = top.position(x.offset(line, sp.Column), line, sp.Column)
			continue
		}
		if pos, ok := sources.Position(e.Path); ok {
			e.Position = pos
		}
	}
	return err
}

// displayName is how a file at the host path p is named in positions:
// relative to the directory the top-level file was named in, as the
// caller wrote that name, or p itself when it lies elsewhere. Inside an
// fs.FS, p is already the name.
func (ld *loader) displayName(p string) string {
	if ld.inc != nil && ld.inc.fsys != nil || ld.baseDir == "" {
		return p
	}
	rel, err := filepath.Rel(ld.baseDir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	if ld.name == "" {
		return rel
	}
	return filepath.Join(filepath.Dir(ld.name), rel)
}

// sourceMap is [newSourceMap] with the loader's sensitive paths.
func (ld *loader) sourceMap(texts ...sourceText) *sourceMap {
	return newSourceMap(ld.sens, ld.limits.MaxDepth, texts...)
}

// finish places a refusal of the whole load in the texts read so far, or
// attaches the source map to the loaded document when positions were
// asked for (a named file, fs.FS or reader, or LoadOptions.Filename).
func (ld *loader) finish(src []byte, doc occkit.Document, err error) (occkit.Document, error) {
	if err == nil && !ld.keep {
		return doc, nil
	}
	sources := ld.sourceMap(append(ld.sources, sourceText{name: ld.name, src: src})...)
	if err != nil {
		return doc, place(err, sources)
	}
	return doc.WithSourceMap(sources), nil
}
