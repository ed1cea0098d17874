package celrules

import (
	"bytes"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// The limits of a rule file, each checked before the work it bounds.
const (
	// MaxFileBytes is the largest rule file.
	MaxFileBytes = 1 << 20
	// MaxRules is the most rules one file or one Compile may hold.
	MaxRules = 1000
	// MaxExpressionBytes is the longest expression.
	MaxExpressionBytes = 16 << 10
)

// Spec is one rule as written: its name, the CEL expression that must
// hold for a deployment to be admitted, the message of its refusal and
// the path its refusal points at.
type Spec struct {
	// Name is "namespace/name" (admission.CheckRuleName).
	Name string
	// Expression is a CEL expression of type bool over the variables of
	// the package doc; true admits.
	Expression string
	// Message is the refusal's message when Expression is false.
	Message string
	// Path is the setting the refusal points at, a dot path
	// ("agents.defaults.model") or a JSON pointer; "" is the root.
	Path string

	// place maps a position inside Expression (line from 1, column
	// from 0, in characters) to where it is written in the rule file;
	// nil when the Spec was not read from one.
	place func(line, col int) occkit.Position
	// at is where each member is written, for refusals of the file.
	at map[string]occkit.Position
}

// position is where member of s is written, or the zero Position.
func (s Spec) position(member string) occkit.Position { return s.at[member] }

// Load reads the rule file at path ([Parse]) and compiles its rules
// ([Compile]).
func Load(path string, opts Options) ([]admission.Rule, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, err
	}
	specs, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	return Compile(specs, opts)
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, occkit.Wrap(err, occkit.CodeInvalidRequest, "", occkit.Root(), "the rule file %q cannot be read", path)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, occkit.Wrap(err, occkit.CodeInvalidRequest, "", occkit.Root(), "the rule file %q cannot be read", path)
	}
	if len(b) > MaxFileBytes {
		return nil, occkit.Invalid("", occkit.Root(), "the rule file %q is larger than %d bytes", path, MaxFileBytes)
	}
	return b, nil
}

// members are the keys of one rule, in the order the doc lists them.
var members = []string{"name", "expression", "message", "path"}

// Parse reads a rule file (YAML, or JSON, which YAML reads too) named
// name, for positions:
//
//	rules:
//	  - name: company/at-most-three-fallbacks
//	    expression: size(fallbacks) <= 3
//	    message: at most three fallbacks
//	    path: agents.defaults.model.fallbacks
//
// Every problem comes back at once, each a 400 at its path in the file
// (rules[0].expresion) with its file:line:col; an unknown key is refused
// with the nearest known one. Anchors and aliases are refused: a rule file
// is read as written.
func Parse(name string, src []byte) ([]Spec, error) {
	if len(src) > MaxFileBytes {
		return nil, occkit.Invalid("", occkit.Root(), "the rule file is larger than %d bytes", MaxFileBytes)
	}
	p := &parser{name: name, src: src}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, p.fail(occkit.Root(), nil, "the rule file is empty: it must hold a rules list")
		}
		// yaml.v3 errors name a line and describe the syntax, never
		// a value of the file.
		return nil, p.fail(occkit.Root(), nil, "the rule file is not YAML or JSON: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, p.fail(occkit.Root(), nil, "the rule file holds more than one document")
	}
	if len(doc.Content) != 1 {
		return nil, p.fail(occkit.Root(), nil, "the rule file must hold a rules list")
	}
	if a := findAlias(&doc); a != nil {
		return nil, p.fail(occkit.Root(), a, "anchors and aliases are not allowed in a rule file")
	}
	specs := p.file(doc.Content[0])
	return specs, occkit.Join(p.errs...)
}

type parser struct {
	name string
	src  []byte
	errs []error
}

func (p *parser) pos(n *yaml.Node) occkit.Position {
	if n == nil || n.Line == 0 {
		return occkit.Position{File: p.name}
	}
	return occkit.Position{File: p.name, Line: n.Line, Column: n.Column}
}

func (p *parser) fail(at occkit.Path, n *yaml.Node, format string, args ...any) error {
	e := occkit.Invalid("", at, format, args...)
	e.Position = p.pos(n)
	p.errs = append(p.errs, e)
	return e
}

func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c); a != nil {
			return a
		}
	}
	return nil
}

// mapping walks the members of the mapping n at path at, refusing keys
// that are not strings, repeated or not in known, and returns each known
// member's key and value nodes.
func (p *parser) mapping(n *yaml.Node, at occkit.Path, known []string) map[string][2]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.fail(at, n, "%s must be a mapping", where(at))
		return nil
	}
	out := map[string][2]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			p.fail(at, k, "%s: a key must be a string", where(at))
			continue
		}
		if _, dup := out[k.Value]; dup {
			p.fail(at.Key(k.Value), k, "%s is written twice", at.Key(k.Value))
			continue
		}
		if !contains(known, k.Value) {
			p.fail(at.Key(k.Value), k, "%s is not a key of %s; the keys are %s%s", at.Key(k.Value), where(at),
				strings.Join(known, ", "), occkit.DidYouMean(k.Value, known))
			continue
		}
		out[k.Value] = [2]*yaml.Node{k, v}
	}
	return out
}

func where(at occkit.Path) string {
	if at.IsRoot() {
		return "the rule file"
	}
	return at.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) file(root *yaml.Node) []Spec {
	top := p.mapping(root, occkit.Root(), []string{"rules"})
	if top == nil {
		return nil
	}
	kv, ok := top["rules"]
	if !ok {
		if len(p.errs) == 0 { // else a misspelt key was refused
			p.fail(occkit.Root(), root, "the rule file must hold a rules list")
		}
		return nil
	}
	list := kv[1]
	at := occkit.NewPath("rules")
	if list.Kind != yaml.SequenceNode {
		p.fail(at, list, "rules must be a list")
		return nil
	}
	if len(list.Content) > MaxRules {
		p.fail(at, list, "rules holds more than %d rules", MaxRules)
		return nil
	}
	specs := make([]Spec, 0, len(list.Content))
	for i, item := range list.Content {
		before := len(p.errs)
		ms := p.mapping(item, at.Index(i), members)
		if ms == nil {
			continue
		}
		s := Spec{at: map[string]occkit.Position{"": p.pos(item)}}
		for _, m := range members {
			kv, ok := ms[m]
			if !ok {
				if m != "path" && len(p.errs) == before { // else a misspelt key was refused
					p.fail(at.Index(i), item, "%s lacks %s", at.Index(i), m)
				}
				continue
			}
			v := kv[1]
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
				p.fail(at.Index(i).Key(m), v, "%s must be a string", at.Index(i).Key(m))
				continue
			}
			s.at[m] = p.pos(v)
			switch m {
			case "name":
				s.Name = v.Value
			case "expression":
				s.Expression = v.Value
				s.place = p.placer(v)
			case "message":
				s.Message = v.Value
			case "path":
				s.Path = v.Value
			}
		}
		specs = append(specs, s)
	}
	return specs
}

// placer maps positions inside the expression scalar n to the file: a
// literal block scalar (|) keeps its lines, so its line l is the l-th
// line after the indicator at the block's indentation; a single-line
// plain or quoted scalar written without escapes keeps its characters.
// Anywhere else (folded, escaped, multi-line flow scalars) the position
// is the scalar's own start.
func (p *parser) placer(n *yaml.Node) func(line, col int) occkit.Position {
	start := p.pos(n)
	lines := bytes.Split(p.src, []byte("\n"))
	lineAt := func(l int) []byte {
		if l < 1 || l > len(lines) {
			return nil
		}
		return bytes.TrimSuffix(lines[l-1], []byte("\r"))
	}
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		first := n.Line + 1
		for l := first; l <= len(lines); l++ {
			if t := lineAt(l); len(bytes.TrimSpace(t)) > 0 {
				indent := len(t) - len(bytes.TrimLeft(t, " "))
				return func(line, col int) occkit.Position {
					return occkit.Position{File: p.name, Line: first + line - 1, Column: indent + col + 1}
				}
			}
		}
	case !strings.Contains(n.Value, "\n") && n.Style&(yaml.FoldedStyle) == 0:
		col := n.Column
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			col++
		}
		if written := lineAt(n.Line); written != nil && runeSuffixHasPrefix(written, col-1, n.Value) {
			return func(line, c int) occkit.Position {
				if line != 1 {
					return start
				}
				return occkit.Position{File: p.name, Line: n.Line, Column: col + c}
			}
		}
	}
	return func(int, int) occkit.Position { return start }
}

// runeSuffixHasPrefix reports whether line, from its skip-th character on,
// starts with s.
func runeSuffixHasPrefix(line []byte, skip int, s string) bool {
	for i := 0; i < skip; i++ {
		if len(line) == 0 {
			return false
		}
		_, size := utf8.DecodeRune(line)
		line = line[size:]
	}
	return bytes.HasPrefix(line, []byte(s))
}
