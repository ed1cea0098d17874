package openclawschema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A pattern is an ECMAScript regular expression from the schema, run on
// Go's RE2 engine. RE2 has no lookahead, and a few escapes mean other
// things in the two dialects, so a pattern is translated once, when the
// schema is compiled:
//
//   - \s and \S are JavaScript's whitespace (Unicode spaces, the line
//     terminators and U+FEFF), not RE2's ASCII set; "." excludes the four
//     JavaScript line terminators; \0 is NUL; \d and \w stay ASCII in both;
//   - negative lookaheads are honoured when they stand together at one
//     place of a pattern anchored with "^", after a prefix of bounded
//     length (as the schema puts them: right after "^", after a scheme, at
//     the end): the string is tried split after each possible prefix
//     match; any other lookahead, a lookbehind, a backreference or a named
//     group makes the schema fail to compile (fail closed).
//
// Lengths count code points, as a pattern with the u flag does; the
// schema's non-u patterns only count ASCII classes, where the two agree.
type pattern struct {
	// re alone decides a pattern without lookahead; runs decides it
	// first when the pattern is a sequence of ASCII classes (byteRuns).
	re   *regexp.Regexp
	runs byteRuns
	// A pattern "^p(?!a)(?!b)r" holds when, for some split of the string
	// after at most maxPrefix bytes, the head matches prefix ("^p$"), the
	// tail matches rest ("^r") and no lookahead ("^a", "^b") matches the
	// tail.
	prefix, rest *regexp.Regexp
	not          []*regexp.Regexp
	maxPrefix    int
}

func (p *pattern) match(s string) bool {
	if p.runs != nil {
		if matched, ok := p.runs.match(s); ok {
			return matched
		}
	}
	if p.re != nil {
		return p.re.MatchString(s)
	}
split:
	for e := 0; e <= len(s) && e <= p.maxPrefix; e++ {
		if e < len(s) && !utf8.RuneStart(s[e]) {
			continue
		}
		if !p.prefix.MatchString(s[:e]) || !p.rest.MatchString(s[e:]) {
			continue
		}
		for _, n := range p.not {
			if n.MatchString(s[e:]) {
				continue split
			}
		}
		return true
	}
	return false
}

// jsSpace is JavaScript's \s as the body of an RE2 class.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// jsNonSpace is JavaScript's \S as the body of an RE2 class: the
// complement of jsSpace.
const jsNonSpace = `\x00-\x08\x0e-\x1f\x21-\x{9f}\x{a1}-\x{167f}\x{1681}-\x{1fff}\x{200b}-\x{2027}\x{202a}-\x{202e}\x{2030}-\x{205e}\x{2060}-\x{2fff}\x{3001}-\x{fefe}\x{ff00}-\x{10ffff}`

// jsDot is JavaScript's "." outside the s flag.
const jsDot = `[^\n\r\x{2028}\x{2029}]`

// lookahead is a top-level negative lookahead found while translating.
type lookahead struct {
	start, end int // its place in the source
	body       string
}

// compilePattern translates src (see [pattern]).
func compilePattern(src string) (*pattern, error) {
	var out strings.Builder
	var looks []lookahead
	depth := 0
	inClass := false
	// outPos maps each source offset where a top-level token starts to
	// the translated offset, for splitting around lookaheads.
	outAt := map[int]int{}
	for i := 0; i < len(src); {
		if !inClass && depth == 0 {
			outAt[i] = out.Len()
		}
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return nil, fmt.Errorf("pattern ends in a backslash")
			}
			n, err := translateEscape(src[i:], inClass, &out)
			if err != nil {
				return nil, err
			}
			i += n
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '[' {
				// JavaScript takes a "[" in a class literally.
				out.WriteString(`\[`)
				i++
				continue
			}
		case c == '[':
			inClass = true
			out.WriteByte(c)
			i++
			if i < len(src) && src[i] == '^' {
				out.WriteByte('^')
				i++
			}
			if i < len(src) && src[i] == ']' {
				return nil, fmt.Errorf("empty character class")
			}
			continue
		case c == '.':
			out.WriteString(jsDot)
			i++
			continue
		case c == '(':
			if strings.HasPrefix(src[i:], "(?!") || strings.HasPrefix(src[i:], "(?=") {
				if depth != 0 || src[i+2] == '=' {
					return nil, fmt.Errorf("unsupported lookahead")
				}
				end, err := groupEnd(src, i)
				if err != nil {
					return nil, err
				}
				body, err := compileBody(src[i+3 : end])
				if err != nil {
					return nil, err
				}
				looks = append(looks, lookahead{start: i, end: end + 1, body: body})
				outAt[end+1] = out.Len()
				i = end + 1
				continue
			}
			if strings.HasPrefix(src[i:], "(?") && !strings.HasPrefix(src[i:], "(?:") {
				return nil, fmt.Errorf("unsupported group")
			}
			depth++
		case c == ')':
			depth--
		}
		out.WriteByte(c)
		i++
	}
	if inClass || depth != 0 {
		return nil, fmt.Errorf("unbalanced pattern")
	}
	text := out.String()
	if len(looks) == 0 {
		re, err := regexp.Compile(text)
		if err != nil {
			return nil, err
		}
		return &pattern{re: re, runs: newByteRuns(text)}, nil
	}
	// One run of lookaheads, in a pattern anchored at the start, after a
	// prefix of bounded length.
	if !strings.HasPrefix(src, "^") {
		return nil, fmt.Errorf("a lookahead needs a pattern anchored with ^")
	}
	for i := 1; i < len(looks); i++ {
		if looks[i].start != looks[i-1].end {
			return nil, fmt.Errorf("lookaheads at more than one position")
		}
	}
	cut := outAt[looks[0].start]
	head, tail := text[1:cut], text[cut:]
	max, err := maxLength(head)
	if err != nil {
		return nil, err
	}
	p := &pattern{maxPrefix: max}
	if p.prefix, err = regexp.Compile(`^(?:` + head + `)$`); err != nil {
		return nil, err
	}
	if p.rest, err = regexp.Compile(`^(?:` + tail + `)`); err != nil {
		return nil, err
	}
	for _, l := range looks {
		n, err := regexp.Compile(`^(?:` + l.body + `)`)
		if err != nil {
			return nil, err
		}
		p.not = append(p.not, n)
	}
	return p, nil
}

// compileBody translates a lookahead's body, which must hold no
// lookahead of its own.
func compileBody(src string) (string, error) {
	p, err := compilePattern(src)
	if err != nil {
		return "", err
	}
	if p.re == nil {
		return "", fmt.Errorf("nested lookahead")
	}
	return p.re.String(), nil
}

// groupEnd is the offset of the ")" closing the group opened at src[i].
func groupEnd(src string, i int) (int, error) {
	depth := 0
	inClass := false
	for j := i; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return j, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced group")
}

// translateEscape writes the RE2 form of the escape at the start of s
// and returns how many source bytes it used.
func translateEscape(s string, inClass bool, out *strings.Builder) (int, error) {
	c := s[1]
	switch c {
	case 's':
		if inClass {
			out.WriteString(jsSpace)
		} else {
			out.WriteString("[" + jsSpace + "]")
		}
		return 2, nil
	case 'S':
		if inClass {
			out.WriteString(jsNonSpace)
		} else {
			out.WriteString("[^" + jsSpace + "]")
		}
		return 2, nil
	case 'd', 'D', 'w', 'W', 'b', 'B', 't', 'n', 'r', 'f', 'v':
		if inClass && (c == 'b' || c == 'B') {
			return 0, fmt.Errorf(`\b inside a class`)
		}
		out.WriteString(s[:2])
		return 2, nil
	case '0':
		if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
			return 0, fmt.Errorf("octal escape")
		}
		out.WriteString(`\x00`)
		return 2, nil
	case 'p', 'P':
		end := strings.IndexByte(s, '}')
		if len(s) < 4 || s[2] != '{' || end < 0 {
			return 0, fmt.Errorf("malformed property escape")
		}
		out.WriteString(s[:end+1])
		return end + 1, nil
	case 'x':
		if len(s) < 4 {
			return 0, fmt.Errorf("malformed hex escape")
		}
		out.WriteString(`\x{` + s[2:4] + `}`)
		return 4, nil
	case 'u':
		if len(s) < 6 || s[2] == '{' {
			return 0, fmt.Errorf("unsupported unicode escape")
		}
		out.WriteString(`\x{` + s[2:6] + `}`)
		return 6, nil
	}
	if c >= '1' && c <= '9' {
		return 0, fmt.Errorf("backreference")
	}
	if c < utf8.RuneSelf && !isWord(c) {
		// An escaped punctuation character is itself in both dialects.
		out.WriteString(s[:2])
		return 2, nil
	}
	return 0, fmt.Errorf("unsupported escape \\%c", c)
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// maxLength is the most bytes a match of the RE2 pattern re can span, or
// an error when it is unbounded.
func maxLength(re string) (int, error) {
	t, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return 0, err
	}
	n, ok := maxLen(t.Simplify())
	if !ok {
		return 0, fmt.Errorf("a trailing lookahead needs a prefix of bounded length")
	}
	return n, nil
}

func maxLen(t *syntax.Regexp) (int, bool) {
	switch t.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, true
	case syntax.OpLiteral:
		n := 0
		for _, r := range t.Rune {
			n += utf8.RuneLen(r)
		}
		return n, true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax, true
	case syntax.OpCapture:
		return maxLen(t.Sub[0])
	case syntax.OpConcat:
		sum := 0
		for _, s := range t.Sub {
			n, ok := maxLen(s)
			if !ok {
				return 0, false
			}
			sum += n
		}
		return sum, true
	case syntax.OpAlternate:
		best := 0
		for _, s := range t.Sub {
			n, ok := maxLen(s)
			if !ok {
				return 0, false
			}
			best = max(best, n)
		}
		return best, true
	case syntax.OpQuest:
		return maxLen(t.Sub[0])
	case syntax.OpRepeat:
		if t.Max < 0 {
			return 0, false
		}
		n, ok := maxLen(t.Sub[0])
		return n * t.Max, ok
	}
	return 0, false
}
