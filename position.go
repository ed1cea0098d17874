package occkit

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/go-multierror"
)

// Position is where a refused setting is written in the text a document
// was loaded from, as go vet and cue vet report it: a file name, a line
// and a column counted from 1 (the column in characters). The zero value
// is "unknown".
type Position struct {
	// File names the text: the name given to compile.LoadFile or
	// compile.LoadFS (an included file by its path relative to where the
	// including file was named), compile.LoadOptions.Filename, or "" for
	// text without a name.
	File string
	// Line and Column count from 1; Line is 0 when the position is unknown.
	Line, Column int
	// Text is the source line, for [Error.Snippet]: the author view,
	// with whatever the render plan's credential policy would strip
	// masked as ***, by value and by where the value sits in the whole
	// text (compile's package doc, "Positions"); for a long line an
	// excerpt around the column. It is never part of [Error.Error], nor
	// of Position's JSON encoding. A [SourceMap] other than compile's
	// must mask it likewise.
	Text string `json:"-"`
	// TextColumn is the column of the position within Text, from 1; 0
	// means Column (Text is the whole line).
	TextColumn int `json:"-"`
}

// IsValid reports whether p names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String renders p as "file:line:col", "line:col" without a file name,
// the file name alone without a line, or "" when nothing is known.
func (p Position) String() string {
	file := Sanitize(p.File)
	if !p.IsValid() {
		return file
	}
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	if file == "" {
		return s
	}
	return file + ":" + s
}

// A SourceMap places the paths of a loaded document in the text they were
// read from, across included files. compile's loaders attach one to the
// documents they read from a file, an fs.FS or a reader; see
// [Document.Place]. It is asked only when something is refused, so a
// document that is admitted never pays for it.
type SourceMap interface {
	// Position is where the setting at p is written: the deepest element
	// of p written in the sources (a missing key is placed at the object
	// that lacks it). ok is false when p is the root or nothing of it is
	// written.
	Position(p Path) (pos Position, ok bool)
}

// WithSourceMap returns d carrying m; the bytes are shared, not copied.
// Documents built from d by [Document.Set], [Document.SetRaw] or
// [Document.Delete] carry no source map: their paths may no longer be
// written anywhere.
func (d Document) WithSourceMap(m SourceMap) Document {
	d.src = m
	return d
}

// SourceMap returns the source map d carries, or nil.
func (d Document) SourceMap() SourceMap { return d.src }

// Place returns err with a [Position] on each of its structured errors
// that has a path into d and none yet, taken from d's source map. Errors
// are copied, never changed in place; err is returned as it is when d has
// no source map or nothing could be placed. Call it on refusals about d
// (schema, resolution, admission): it does its work only then.
func (d Document) Place(err error) error {
	if err == nil || d.src == nil {
		return err
	}
	return placeWith(err, d.src)
}

func placeWith(err error, m SourceMap) error {
	var me *multierror.Error
	if errors.As(err, &me) {
		out := &multierror.Error{ErrorFormat: me.ErrorFormat}
		changed := false
		for _, inner := range me.Errors {
			p := placeWith(inner, m)
			changed = changed || p != inner
			out.Errors = append(out.Errors, p)
		}
		if !changed {
			return err
		}
		return out
	}
	e, ok := err.(*Error)
	if !ok || e.Position.IsValid() || e.Path.IsRoot() {
		return err
	}
	pos, ok := m.Position(e.Path)
	if !ok {
		return err
	}
	c := *e
	c.Position = pos
	return &c
}

// MaxSnippetRunes bounds the source line [Error.Snippet] prints; a longer
// line is cut around the column with "…".
const MaxSnippetRunes = 100

// Snippet is the source line of e's position with a caret under its
// column, in the style of go vet and cue:
//
//	4 |     defualts: {model: "openai/gpt-5"},
//	  |     ^
//
// It is "" when e has no position or no source text. Control characters
// print as '?'; a long line is cut around the column. The line is the
// author's own text, with what a credential could be masked (see
// [Position].Text): show it to whoever wrote the file, as a checker or
// CLI does, rather than to a third party.
func (e *Error) Snippet() string {
	p := e.Position
	if !p.IsValid() || p.Text == "" {
		return ""
	}
	runes := []rune(p.Text)
	col := p.Column - 1
	if p.TextColumn > 0 {
		col = p.TextColumn - 1
	}
	if col > len(runes) {
		col = len(runes)
	}
	if col < 0 {
		col = 0
	}
	start, end := 0, len(runes)
	prefix, suffix := "", ""
	if end > MaxSnippetRunes {
		start = max(0, col-MaxSnippetRunes/2)
		end = min(len(runes), start+MaxSnippetRunes)
		start = max(0, end-MaxSnippetRunes)
		if start > 0 {
			prefix = "…"
		}
		if end < len(runes) {
			suffix = "…"
		}
	}
	var line, caret strings.Builder
	line.WriteString(prefix)
	if prefix != "" {
		caret.WriteByte(' ')
	}
	for i := start; i < end; i++ {
		r := runes[i]
		switch {
		case r == '\t':
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			r = '?'
		default:
			if s := Sanitize(string(r)); s != string(r) {
				r = '?'
			}
		}
		line.WriteRune(r)
		if i < col {
			if r == '\t' {
				caret.WriteByte('\t')
			} else {
				caret.WriteByte(' ')
			}
		}
	}
	line.WriteString(suffix)
	caret.WriteByte('^')
	num := strconv.Itoa(p.Line)
	pad := strings.Repeat(" ", len(num))
	return fmt.Sprintf("%s | %s\n%s | %s", num, strings.TrimRight(line.String(), " \t"), pad, caret.String())
}

// Format prints e: %s, %v and %q print [Error.Error] (no position, no
// source text: safe for any audience); %+v prints the position first,
// "file:line:col: CODE path: message [RULE]", then the [Error.Snippet]
// on the lines below, as a command-line checker shows a refusal to the
// file's author.
func (e *Error) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('+'):
		if pos := e.Position.String(); pos != "" {
			io.WriteString(f, pos)
			io.WriteString(f, ": ")
		}
		io.WriteString(f, e.Error())
		if s := e.Snippet(); s != "" {
			io.WriteString(f, "\n")
			io.WriteString(f, s)
		}
	case verb == 'q':
		fmt.Fprintf(f, "%q", e.Error())
	default:
		io.WriteString(f, e.Error())
	}
}
