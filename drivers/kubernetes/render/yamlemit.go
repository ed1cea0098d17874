package render

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The YAML writer. [Objects.Each] writes each object's YAML straight
// from its apply body, byte for byte what sigs.k8s.io/yaml.JSONToYAML
// writes for it (go-yaml v2's encoder: keys in its order, its choice of
// plain, single- and double-quoted scalars, lines folded at the first
// lone space past column 80), without JSONToYAML's detour through a YAML
// parser and reflection. It covers what rendered objects hold; a value
// outside that (a string with a line break, a control, a tab, an astral
// character or a byte order mark, one that needs a double-quoted scalar
// with escapes or folding, a key longer than 128 bytes, a number that is
// not an integer) makes [Objects.Each] write the object through
// JSONToYAML instead, so the output never depends on which writer ran.
// TestYAMLWriterMatchesJSONToYAML checks both against each other on
// arbitrary objects.

// yamlWidth is go-yaml's line width: a scalar past this column is folded
// at its next lone space.
const yamlWidth = 80

// yamlWriter appends one YAML document. ok turns false at the first
// value the writer does not cover; the output is then incomplete and is
// dropped.
type yamlWriter struct {
	out    []byte
	column int // in characters, as go-yaml counts
	ok     bool
}

// appendYAML appends the YAML document of the JSON object v (decoded by
// encoding/json: map[string]any, []any, string, float64, bool; no null)
// and reports whether the writer covers every value of it.
func appendYAML(dst []byte, v map[string]any) ([]byte, bool) {
	w := yamlWriter{out: dst, ok: true}
	if len(v) == 0 {
		w.raw("{}")
	} else {
		w.mapping(v, 0, false)
	}
	w.newline()
	return w.out, w.ok
}

func (w *yamlWriter) raw(s string) {
	w.out = append(w.out, s...)
	w.column += utf8.RuneCountInString(s)
}

func (w *yamlWriter) newline() {
	w.out = append(w.out, '\n')
	w.column = 0
}

func (w *yamlWriter) indent(n int) {
	for i := 0; i < n; i++ {
		w.out = append(w.out, ' ')
	}
	w.column = n
}

// mapping writes the members of a non-empty mapping at indent. inline:
// the first key goes where the writer stands (after a sequence's "- ").
func (w *yamlWriter) mapping(m map[string]any, indent int, inline bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, yamlKeyCompare)
	for i, k := range keys {
		if !w.ok {
			return
		}
		if i > 0 || !inline {
			if i > 0 || len(w.out) > 0 && w.out[len(w.out)-1] != '\n' {
				w.newline()
			}
			w.indent(indent)
		}
		if len(k) > 128 { // a complex key
			w.ok = false
			return
		}
		w.scalar(k, indent, true)
		w.raw(":")
		w.value(m[k], indent, true)
	}
}

// value writes v after a mapping key (inMap) or a sequence's "-", whose
// block sits at indent.
func (w *yamlWriter) value(v any, indent int, inMap bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.raw(" {}")
			return
		}
		if inMap {
			w.mapping(x, indent+2, false)
			return
		}
		w.raw(" ")
		w.mapping(x, indent+2, true)
	case []any:
		if len(x) == 0 {
			w.raw(" []")
			return
		}
		// A sequence under a key is not indented (go-yaml's indentless
		// sequence); one inside a sequence starts on its "-" line.
		at := indent
		if !inMap {
			at = indent + 2
		}
		for i, e := range x {
			if !w.ok {
				return
			}
			if i > 0 || inMap {
				w.newline()
				w.indent(at)
			} else {
				w.raw(" ")
			}
			w.raw("-")
			w.value(e, at, false)
		}
	case string:
		w.raw(" ")
		w.scalar(x, indent+2, false)
	case bool:
		if x {
			w.raw(" true")
		} else {
			w.raw(" false")
		}
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			w.ok = false
			return
		}
		w.raw(" " + strconv.FormatInt(int64(x), 10))
	default:
		w.ok = false
	}
}

// scalar writes the string s in the style go-yaml chooses: plain when
// it reads back as a string and may stand plain, else single-quoted,
// else double-quoted. A key is never folded; a value's continuation
// lines sit at indent.
func (w *yamlWriter) scalar(s string, indent int, key bool) {
	a, ok := analyzeScalar(s)
	if !ok || s == "<<" { // YAML 1.1's merge key, which go-yaml treats apart
		w.ok = false
		return
	}
	switch {
	case !yamlResolvesToString(s):
		// Quoted so that it reads back as a string: only text that needs
		// neither escapes nor folding is covered.
		if !a.doubleQuotedVerbatim {
			w.ok = false
			return
		}
		w.raw(`"` + s + `"`)
	case a.plainAllowed && !(key && s == ""):
		w.folded(s, indent, !key, false)
	default:
		w.raw("'")
		w.folded(s, indent, !key, true)
		w.raw("'")
	}
}

// folded writes s, plain or single-quoted (quote doubled), breaking the
// line at a lone space once past yamlWidth when breaks are allowed.
func (w *yamlWriter) folded(s string, indent int, breaks, quoted bool) {
	spaces := false
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' {
			if breaks && !spaces && w.column > yamlWidth && (!quoted || i > 0 && i < len(s)-1) && (i+1 >= len(s) || s[i+1] != ' ') {
				w.newline()
				w.indent(indent)
			} else {
				w.out = append(w.out, ' ')
				w.column++
			}
			i++
			spaces = true
			continue
		}
		spaces = false
		if c < utf8.RuneSelf {
			if quoted && c == '\'' {
				w.out = append(w.out, '\'', '\'')
				w.column += 2
				i++
				continue
			}
			// A run of other ASCII characters goes in one append.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && s[j] != ' ' && s[j] != '\'' {
				j++
			}
			w.out = append(w.out, s[i:j]...)
			w.column += j - i
			i = j
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		w.out = append(w.out, s[i:i+n]...)
		w.column++
		i += n
	}
}

// scalarAnalysis is what go-yaml's emitter finds in a scalar before it
// picks a style, for the text the writer covers.
type scalarAnalysis struct {
	plainAllowed bool // in block context
	// doubleQuotedVerbatim: a double-quoted scalar is the text in quotes,
	// with no escape and nothing to fold.
	doubleQuotedVerbatim bool
}

// analyzeScalar analyzes s; ok is false when s holds a character the
// writer does not cover (anything but printable ASCII and the printable
// characters of the Basic Multilingual Plane other than the byte order
// mark and the line separators), where go-yaml would escape or break.
func analyzeScalar(s string) (a scalarAnalysis, ok bool) {
	if s == "" {
		return scalarAnalysis{plainAllowed: true, doubleQuotedVerbatim: true}, true
	}
	blockIndicators := strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...")
	spaceAtEnds := s[0] == ' ' || s[len(s)-1] == ' '
	verbatim := true
	precededByWhitespace := true
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
			if r < 0xa0 || r > 0xfffd || r >= 0xd800 && r <= 0xdfff || r == 0xfeff || r == 0x2028 || r == 0x2029 {
				return a, false
			}
			verbatim = false
		} else if r < 0x20 || r == 0x7f {
			return a, false
		}
		followedByWhitespace := i+n >= len(s) || s[i+n] == ' ' || s[i+n] == '\t'
		if i == 0 {
			switch r {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch r {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		switch r {
		case ' ', '"', '\\':
			verbatim = false
		}
		precededByWhitespace = r == ' '
		i += n
	}
	return scalarAnalysis{plainAllowed: !spaceAtEnds && !blockIndicators, doubleQuotedVerbatim: verbatim}, true
}

// yamlFloat is go-yaml's float syntax.
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yamlBase60 is YAML 1.1's base-60 float syntax, which go-yaml quotes.
var yamlBase60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// yamlWords are the plain words go-yaml reads as something other than a
// string: YAML 1.1 booleans, null, infinities and not-a-number, merge.
var yamlWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF " +
		"~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<") {
		yamlWords[w] = true
	}
}

// yamlResolvesToString reports whether go-yaml reads s written plain as
// a string (and does not take it for a base-60 float), so that it may be
// written plain.
func yamlResolvesToString(s string) bool {
	if s == "" || yamlWords[s] {
		return false
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return false
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if yamlTimestamp(s) {
			return false
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return false
		}
		if yamlFloat.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return false
			}
		}
		if b, ok := strings.CutPrefix(plain, "0b"); ok {
			if _, err := strconv.ParseInt(b, 2, 64); err == nil {
				return false
			}
			if _, err := strconv.ParseUint(b, 2, 64); err == nil {
				return false
			}
		} else if b, ok := strings.CutPrefix(plain, "-0b"); ok {
			if _, err := strconv.ParseInt("-"+b, 2, 64); err == nil {
				return false
			}
		}
	}
	c := s[0]
	return !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 || !yamlBase60.MatchString(s)
}

// yamlTimestamp reports whether go-yaml reads s as a timestamp: four
// digits, a dash, then one of its layouts.
func yamlTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// yamlKeyCompare orders mapping keys as go-yaml's encoder does: rune by
// rune, a letter after any other character, and runs of digits by their
// value.
func yamlKeyCompare(a, b string) int {
	if yamlKeyLess(a, b) {
		return -1
	}
	if yamlKeyLess(b, a) {
		return 1
	}
	return 0
}

func yamlKeyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}
