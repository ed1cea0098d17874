package compile

import (
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
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
// that is admitted pays one small allocation for it.
type sourceMap struct {
	// files in precedence order: a file after the files it includes, and
	// later includes after earlier ones, as the merge lets the including
	// object's own keys win over what it includes and a later include win
	// over an earlier one.
	files []sourceText
}

// Position places p in the text that writes the most of it; of texts
// writing equally much, the one whose value wins the merge.
func (m *sourceMap) Position(p occkit.Path) (occkit.Position, bool) {
	if p.IsRoot() {
		return occkit.Position{}, false
	}
	best, bestDepth, bestOff := -1, 0, 0
	for i, f := range m.files {
		if !hasPrefix(p, f.at) {
			continue
		}
		off, found, ok := locateFrom(f.src, p, f.at.Len())
		if !ok {
			continue
		}
		if d := f.at.Len() + found; best < 0 || d >= bestDepth {
			best, bestDepth, bestOff = i, d, off
		}
	}
	if best < 0 || bestDepth == 0 {
		return occkit.Position{}, false
	}
	return positionAt(m.files[best].name, m.files[best].src, bestOff, p), true
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

// positionAt is the position of byte offset off of src, with the line's
// text for a snippet: every string value of a credential-like key masked
// (all of them when p itself passes through such a key), then, for a long
// line, an excerpt around the column.
func positionAt(name string, src []byte, off int, p occkit.Path) occkit.Position {
	line, col, start := lineCol(src, off)
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	maskAll := false
	for i := 0; i < p.Len(); i++ {
		if k, _, isIdx := p.Elem(i); !isIdx && CredentialKey(k) {
			maskAll = true
			break
		}
	}
	text, caret := maskLine(src[start:end], maskAll, off-start)
	textCol := utf8.RuneCountInString(text[:caret]) + 1
	// Keep at most snippetRunes characters around the column.
	if utf8.RuneCountInString(text) > snippetRunes {
		runes := []rune(text)
		from := max(0, textCol-1-snippetRunes/2)
		to := min(len(runes), from+snippetRunes)
		excerpt := string(runes[from:to])
		textCol -= from
		if from > 0 {
			excerpt = "…" + excerpt
			textCol++
		}
		if to < len(runes) {
			excerpt += "…"
		}
		text = excerpt
	}
	return occkit.Position{File: name, Line: line, Column: col, Text: text, TextColumn: textCol}
}

// maskLine replaces the contents of every quoted string value on a line
// that belongs to a credential-like key (its value, or anything inside an
// object or array that is its value), or of every string when all is set,
// with "***", so a snippet never prints a credential written inline. Keys
// stay. caret is a byte offset in line; the result's caret is where that
// byte went in the masked text (the start of a masked string). Comments
// are copied as they are.
func maskLine(line []byte, all bool, caret int) (string, int) {
	var b strings.Builder
	newCaret := -1
	depth, maskFrom := 0, -1 // maskFrom: the depth of the credential's container
	pending := false         // the last key was credential-like, its value not seen yet
	for i := 0; i < len(line); {
		if newCaret < 0 && i >= caret {
			newCaret = b.Len()
		}
		c := line[i]
		switch {
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			b.Write(line[i:])
			i = len(line)
			continue
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			j := i + 2
			for j+1 < len(line) && !(line[j] == '*' && line[j+1] == '/') {
				j++
			}
			j = min(j+2, len(line))
			b.Write(line[i:j])
			i = j
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			lit := line[i:j]
			switch {
			case colonAfter(line, j):
				k, err := json5.Unquote(lit)
				if err != nil {
					k = string(lit)
				}
				pending = CredentialKey(k)
				b.Write(lit)
			case all || pending || maskFrom >= 0 && depth > maskFrom:
				b.WriteByte(c)
				b.WriteString("***")
				b.WriteByte(c)
				pending = false
			default:
				b.Write(lit)
			}
			i = j
			continue
		case c == '{' || c == '[':
			if pending && maskFrom < 0 {
				maskFrom = depth
			}
			pending = false
			depth++
		case c == '}' || c == ']':
			depth--
			if maskFrom >= 0 && depth <= maskFrom {
				maskFrom = -1
			}
		case c == ',':
			pending = false
		case identByte(c):
			j := i
			for j < len(line) && identByte(line[j]) {
				j++
			}
			if colonAfter(line, j) {
				pending = CredentialKey(string(line[i:j]))
			}
			b.Write(line[i:j])
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	if newCaret < 0 {
		newCaret = b.Len()
	}
	return b.String(), newCaret
}

// colonAfter reports whether the next byte of line from j on, past
// blanks, is ':' (what was just read is a key).
func colonAfter(line []byte, j int) bool {
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	return j < len(line) && line[j] == ':'
}

// identByte reports whether c can be part of a bare JSON5 key (ASCII;
// other characters are copied one byte at a time).
func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '-'
}

// place gives err's structured errors that have no position one from
// sources (errors are fresh from this load, so they are set in place). A
// refusal caused by a SyntaxPosition is placed there in top, the text the
// failing parse read, whose paths are relative to its own root.
func place(err error, sources *sourceMap, top sourceText) error {
	for _, e := range occkit.Errors(err) {
		if e.Position.IsValid() {
			continue
		}
		var sp *SyntaxPosition
		if errors.As(e.Err, &sp) && sp.Line > 0 {
			off := lineColOffset(top.src, sp.Line, sp.Column)
			e.Position = positionAt(top.name, top.src, off, occkit.Root())
			continue
		}
		if sources == nil {
			sources = &sourceMap{files: []sourceText{top}}
		}
		if pos, ok := sources.Position(e.Path); ok {
			e.Position = pos
		}
	}
	return err
}

// lineColOffset is the byte offset of line and column (from 1) in src.
func lineColOffset(src []byte, line, col int) int {
	l, c := 1, 1
	for j := 0; j < len(src); {
		if l == line && c == col {
			return j
		}
		r, n := utf8.DecodeRune(src[j:])
		switch {
		case r == '\n':
			if l == line {
				return j
			}
			l, c = l+1, 1
		case r == '\r':
			if l == line {
				return j
			}
			if j+1 < len(src) && src[j+1] == '\n' {
				n++
			}
			l, c = l+1, 1
		default:
			c++
		}
		j += n
	}
	return len(src)
}

// displayName is how a file at the host path p is named in positions:
// relative to the directory the top-level file was named in, as the
// caller wrote that name, or p itself when it lies elsewhere. Inside an
// fs.FS, p is already the name.
func (ld *loader) displayName(p string) string {
	if ld.inc.fsys != nil || ld.baseDir == "" {
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

// finish places a refusal of the whole load in the texts read so far, or
// attaches the source map to the loaded document when positions were
// asked for (a named file, fs.FS or reader, or LoadOptions.Filename).
func (ld *loader) finish(src []byte, doc occkit.Document, err error) (occkit.Document, error) {
	if err == nil && !ld.keep {
		return doc, nil
	}
	top := sourceText{name: ld.name, src: src}
	sources := &sourceMap{files: append(ld.sources, top)}
	if err != nil {
		return doc, place(err, sources, top)
	}
	return doc.WithSourceMap(sources), nil
}
