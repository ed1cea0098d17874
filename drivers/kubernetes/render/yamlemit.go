package render

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The YAML writer. [Objects.Each] writes each object's YAML straight
// from its apply body, byte for byte what sigs.k8s.io/yaml.JSONToYAML
// writes for it (go-yaml v2's encoder: keys in its order, its choice of
// plain, single- and double-quoted scalars, its escapes, lines folded at
// the first lone space past column 80), without JSONToYAML's detour
// through a YAML parser and reflection. It covers what rendered objects
// hold, a document with an emoji, a tab or a control character in a
// string included; a value outside that (a string with '\n', U+2028 or
// U+2029, which go-yaml writes as a block or with a written break, a
// key with any line break, a leading byte order mark, a key longer than
// 128 bytes, a number that is not an integer, a null inside a list, a
// key given twice) makes [Objects.Each] write the object with go-yaml's
// encoder as JSONToYAML does (appendSigsYAML), so the output never
// depends on which writer ran.
// TestYAMLWriterMatchesJSONToYAML checks both against each other on
// arbitrary objects, TestYAMLMatchesSigsYAML on arbitrary typed objects.
//
// The typed writer (yamltyped.go) writes a rendered object from its
// fields through the streaming methods ([yamlWriter.key], …). Where it
// does not read the object, the apply body is read from the object's
// encoding/json text into a [yamlTree]: one array of nodes, each
// container's members contiguous and already in go-yaml's key order, the
// strings pointing into the JSON text where they hold no escape. It replaces a decode into
// map[string]any (an allocation per value and per member, and a key
// slice per mapping to sort) with two growing arrays (issue 29).

// yamlWidth is go-yaml's line width: a scalar past this column is folded
// at its next lone space.
const yamlWidth = 80

// Kinds of a [yamlNode]: the JSON value it holds.
const (
	nodeObject = '{'
	nodeArray  = '['
	nodeString = '"'
	nodeNumber = '0'
	nodeTrue   = 't'
	nodeFalse  = 'f'
	nodeNull   = 'n'
)

// yamlNode is one JSON value of a [yamlTree], and its key when it is an
// object member.
type yamlNode struct {
	key string
	// text is a string's value or a number's literal.
	text string
	// first and n are a container's members: tree.nodes[first:first+n].
	first, n int32
	kind     byte
}

// yamlTree is an apply body read from encoding/json text. The strings of
// its nodes may point into src, which must not change while the tree is
// in use.
type yamlTree struct {
	src   []byte
	pos   int
	nodes []yamlNode
	// open holds the members of the containers being read; a container's
	// members move to nodes, contiguous, when it closes.
	open []yamlNode
	// json holds the encoding/json text of the object being read, enc
	// writes it: one buffer from one object to the next.
	json bytes.Buffer
	enc  *json.Encoder
}

// marshal is json.Marshal(v) into t's buffer, valid until the next call.
func (t *yamlTree) marshal(v any) ([]byte, error) {
	if t.enc == nil {
		// Room for a rendered Deployment's text: the buffer grows
		// rarely.
		t.json.Grow(4096)
		t.enc = json.NewEncoder(&t.json)
	}
	t.json.Reset()
	// Encode writes what Marshal returns (HTML escaped), then a newline.
	if err := t.enc.Encode(v); err != nil {
		return nil, err
	}
	b := t.json.Bytes()
	return b[:len(b)-1], nil
}

// readApplyBody reads the JSON text of an object (encoding/json's output,
// without whitespace) as its apply body: without its top-level status
// and without null members anywhere. ok is false when the text is not
// such an object, or when an object holds a key twice.
func (t *yamlTree) readApplyBody(src []byte) (yamlNode, bool) {
	root, ok := t.read(src)
	if !ok {
		return yamlNode{}, false
	}
	members := t.nodes[root.first : root.first+root.n]
	if i := slices.IndexFunc(members, func(m yamlNode) bool { return m.key == "status" }); i >= 0 {
		// Members are contiguous: the last ones move up over status.
		copy(members[i:], members[i+1:])
		root.n--
	}
	return root, true
}

// read reads the JSON text of an object without whitespace, dropping its
// null members and those of every object inside it.
func (t *yamlTree) read(src []byte) (yamlNode, bool) {
	t.src, t.pos = src, 0
	if t.nodes == nil {
		// Room for a rendered Deployment's members (some 180 values,
		// some 40 open at once): the arrays grow rarely.
		t.nodes, t.open = make([]yamlNode, 0, 192), make([]yamlNode, 0, 48)
	}
	root, ok := t.value()
	if !ok || root.kind != nodeObject || t.pos != len(src) {
		return yamlNode{}, false
	}
	return root, true
}

// value reads the JSON value at t.pos.
func (t *yamlTree) value() (yamlNode, bool) {
	if t.pos >= len(t.src) {
		return yamlNode{}, false
	}
	switch c := t.src[t.pos]; c {
	case '{', '[':
		t.pos++
		return t.container(c)
	case '"':
		s, ok := t.string()
		return yamlNode{kind: nodeString, text: s}, ok
	case 't':
		return yamlNode{kind: nodeTrue}, t.literal("true")
	case 'f':
		return yamlNode{kind: nodeFalse}, t.literal("false")
	case 'n':
		return yamlNode{kind: nodeNull}, t.literal("null")
	}
	start := t.pos
	for t.pos < len(t.src) && strings.IndexByte("+-.0123456789eE", t.src[t.pos]) >= 0 {
		t.pos++
	}
	return yamlNode{kind: nodeNumber, text: t.text(start, t.pos)}, t.pos > start
}

// container reads the members of an object or the elements of an array
// after its opening bracket; an object drops its null members and sorts
// the rest in go-yaml's key order.
func (t *yamlTree) container(open byte) (yamlNode, bool) {
	kind, closing := byte(nodeArray), byte(']')
	if open == '{' {
		kind, closing = nodeObject, '}'
	}
	base := len(t.open)
	defer func() { t.open = t.open[:base] }()
	if t.pos < len(t.src) && t.src[t.pos] == closing {
		t.pos++
		return yamlNode{kind: kind, first: int32(len(t.nodes))}, true
	}
	for {
		var key string
		if kind == nodeObject {
			k, ok := t.string()
			if !ok || !t.literal(":") {
				return yamlNode{}, false
			}
			key = k
		}
		v, ok := t.value()
		if !ok {
			return yamlNode{}, false
		}
		if kind == nodeArray || v.kind != nodeNull {
			v.key = key
			t.open = append(t.open, v)
		}
		if t.pos >= len(t.src) {
			return yamlNode{}, false
		}
		c := t.src[t.pos]
		t.pos++
		if c == closing {
			break
		}
		if c != ',' {
			return yamlNode{}, false
		}
	}
	first := len(t.nodes)
	t.nodes = append(t.nodes, t.open[base:]...)
	n := len(t.nodes) - first
	if kind == nodeObject && !sortMembers(t.nodes[first:]) {
		return yamlNode{}, false
	}
	return yamlNode{kind: kind, first: int32(first), n: int32(n)}, true
}

// sortMembers puts an object's members in go-yaml's key order and
// reports whether their keys are distinct.
func sortMembers(m []yamlNode) bool {
	slices.SortFunc(m, func(a, b yamlNode) int { return yamlKeyCompare(a.key, b.key) })
	for i := 1; i < len(m); i++ {
		if m[i].key == m[i-1].key {
			return false
		}
	}
	return true
}

// string reads the JSON string at t.pos.
func (t *yamlTree) string() (string, bool) {
	if t.pos >= len(t.src) || t.src[t.pos] != '"' {
		return "", false
	}
	start := t.pos + 1
	for i := start; i < len(t.src); i++ {
		switch t.src[i] {
		case '"':
			t.pos = i + 1
			return t.text(start, i), true
		case '\\':
			// Escapes are rare in rendered objects: encoding/json reads
			// the whole string.
			end := i
			for end < len(t.src) && t.src[end] != '"' {
				if t.src[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(t.src) {
				return "", false
			}
			var s string
			if json.Unmarshal(t.src[start-1:end+1], &s) != nil {
				return "", false
			}
			t.pos = end + 1
			return s, true
		}
	}
	return "", false
}

// text is src[start:end] as a string that shares src's bytes.
func (t *yamlTree) text(start, end int) string {
	if start == end {
		return ""
	}
	return unsafe.String(&t.src[start], end-start)
}

// literal consumes s at t.pos.
func (t *yamlTree) literal(s string) bool {
	if end := t.pos + len(s); end > len(t.src) || string(t.src[t.pos:end]) != s {
		return false
	}
	t.pos += len(s)
	return true
}

// object appends an object of the given members to the tree, in go-yaml's
// key order; ok is false when a key is given twice.
func (t *yamlTree) object(members ...yamlNode) (yamlNode, bool) {
	first := len(t.nodes)
	t.nodes = append(t.nodes, members...)
	return yamlNode{kind: nodeObject, first: int32(first), n: int32(len(members))}, sortMembers(t.nodes[first:])
}

// members are a container's members.
func (t *yamlTree) members(c yamlNode) []yamlNode { return t.nodes[c.first : c.first+c.n] }

// yamlWriter appends one YAML document. ok turns false at the first
// value the writer does not cover; the output is then incomplete and is
// dropped.
type yamlWriter struct {
	tree   *yamlTree
	out    []byte
	column int // in characters, as go-yaml counts
	ok     bool
	// levels[:depth] are the mappings and sequences the streaming
	// methods (key, beginMap, …) are in, the document's mapping first.
	// An array, not a slice, so that a writer in a call's frame stays
	// there (a slice of its own array would move it to the heap): the
	// typed writer's objects are at most 10 deep, a container's
	// secretKeyRef.
	levels [16]level
	depth  int
}

// level is a mapping or a sequence being written by the streaming
// methods, which write what [yamlWriter.mapping] and [yamlWriter.value]
// write for a tree, member by member.
type level struct {
	indent int // a mapping's keys' column, a sequence's dashes'
	n      int // members written
	// inline: a mapping that is a sequence's item, its first key after
	// the "-".
	inline, seq bool
}

// key writes the key of the next member of the innermost mapping.
func (w *yamlWriter) key(k string) {
	indent := w.member()
	if len(k) > 128 { // a complex key
		w.ok = false
		return
	}
	w.scalar(k, indent, true)
	w.raw(":")
}

// field writes the key of the next member of the innermost mapping
// where the key is the JSON name of a field the typed writer reads: a
// word go-yaml writes plain as it is ([wordScalar], TestFieldNames), so
// it goes out without being looked at.
func (w *yamlWriter) field(k string) {
	w.member()
	w.put(k)
	w.putByte(':')
	w.column += len(k) + 1
}

// member starts the next member of the innermost mapping (on its own
// line, or after its sequence's "-" when it is the first) and returns
// the mapping's indent.
func (w *yamlWriter) member() int {
	l := &w.levels[w.depth-1]
	if l.n == 0 && l.inline {
		w.raw(" ")
	} else {
		if len(w.out) > 0 && w.out[len(w.out)-1] != '\n' {
			w.newline()
		}
		w.indent(l.indent)
	}
	l.n++
	return l.indent
}

// stringValue writes a string after a key or a "-".
func (w *yamlWriter) stringValue(s string) {
	w.raw(" ")
	w.scalar(s, w.levels[w.depth-1].indent+2, false)
}

func (w *yamlWriter) boolValue(b bool) {
	if b {
		w.raw(" true")
	} else {
		w.raw(" false")
	}
}

// beginMap begins a mapping after a key or a "-"; [yamlWriter.end] ends
// it.
func (w *yamlWriter) beginMap() {
	p := w.levels[w.depth-1]
	w.levels[w.depth] = level{indent: p.indent + 2, inline: p.seq}
	w.depth++
}

// beginSeq begins a sequence after a key (not indented: go-yaml's
// indentless sequence); [yamlWriter.end] ends it.
func (w *yamlWriter) beginSeq() {
	p := w.levels[w.depth-1]
	if p.seq { // a sequence in a sequence, which no typed object holds
		w.ok = false
	}
	w.levels[w.depth] = level{indent: p.indent, seq: true}
	w.depth++
}

// item writes the "-" of the innermost sequence's next item.
func (w *yamlWriter) item() {
	l := &w.levels[w.depth-1]
	w.newline()
	w.indent(l.indent)
	w.raw("-")
	l.n++
}

// end ends the innermost mapping or sequence: an empty one is {} or [].
func (w *yamlWriter) end() {
	w.depth--
	l := w.levels[w.depth]
	if l.n == 0 {
		if l.seq {
			w.raw(" []")
		} else {
			w.raw(" {}")
		}
	}
}

// appendYAML appends the YAML document of the object root of t and
// reports whether the writer covers every value of it.
func appendYAML(dst []byte, t *yamlTree, root yamlNode) ([]byte, bool) {
	w := yamlWriter{tree: t, out: dst, ok: true}
	if root.n == 0 {
		w.raw("{}")
	} else {
		w.mapping(root, 0, false)
	}
	w.newline()
	return w.out, w.ok
}

// raw writes s, which is ASCII: a character a byte.
func (w *yamlWriter) raw(s string) {
	w.put(s)
	w.column += len(s)
}

// put appends s to the output, leaving the column to the caller (see
// putText).
func (w *yamlWriter) put(s string) { putText(w, s) }

// putBytes is [yamlWriter.put] of b.
func (w *yamlWriter) putBytes(b []byte) { putText(w, b) }

// putText appends s to w's output. Where the output has room
// (Objects.YAML makes room for the whole stream), only its length
// changes: `w.out = w.out[:n]` stores no pointer, where
// `w.out = append(w.out, …)` through the writer's pointer stores one,
// with a write barrier whenever the collector is marking.
func putText[T string | []byte](w *yamlWriter, s T) {
	n := len(w.out)
	if cap(w.out)-n < len(s) {
		w.out = append(w.out, s...)
		return
	}
	w.out = w.out[:n+len(s)]
	copy(w.out[n:], s)
}

// putByte is [yamlWriter.put] of one byte.
func (w *yamlWriter) putByte(c byte) {
	n := len(w.out)
	if n == cap(w.out) {
		w.out = append(w.out, c)
		return
	}
	w.out = w.out[:n+1]
	w.out[n] = c
}

func (w *yamlWriter) newline() {
	w.putByte('\n')
	w.column = 0
}

// spaces are the indents of all but an unusually deep tree.
const spaces = "                                                                "

func (w *yamlWriter) indent(n int) {
	w.column = n
	for ; n > len(spaces); n -= len(spaces) {
		w.put(spaces)
	}
	w.put(spaces[:n])
}

// mapping writes the members of a non-empty object at indent. inline:
// the first key goes where the writer stands (after a sequence's "- ").
func (w *yamlWriter) mapping(m yamlNode, indent int, inline bool) {
	for i, k := range w.tree.members(m) {
		if !w.ok {
			return
		}
		if i > 0 || !inline {
			if i > 0 || len(w.out) > 0 && w.out[len(w.out)-1] != '\n' {
				w.newline()
			}
			w.indent(indent)
		}
		if len(k.key) > 128 { // a complex key
			w.ok = false
			return
		}
		w.scalar(k.key, indent, true)
		w.raw(":")
		w.value(k, indent, true)
	}
}

// value writes v after a mapping key (inMap) or a sequence's "-", whose
// block sits at indent.
func (w *yamlWriter) value(v yamlNode, indent int, inMap bool) {
	switch v.kind {
	case nodeObject:
		if v.n == 0 {
			w.raw(" {}")
			return
		}
		if inMap {
			w.mapping(v, indent+2, false)
			return
		}
		w.raw(" ")
		w.mapping(v, indent+2, true)
	case nodeArray:
		if v.n == 0 {
			w.raw(" []")
			return
		}
		// A sequence under a key is not indented (go-yaml's indentless
		// sequence); one inside a sequence starts on its "-" line.
		at := indent
		if !inMap {
			at = indent + 2
		}
		for i, e := range w.tree.members(v) {
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
	case nodeString:
		w.raw(" ")
		w.scalar(v.text, indent+2, false)
	case nodeTrue:
		w.raw(" true")
	case nodeFalse:
		w.raw(" false")
	case nodeNumber:
		// As encoding/json decodes a number into any: a float64.
		x, err := strconv.ParseFloat(v.text, 64)
		if err != nil || x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			w.ok = false
			return
		}
		w.integer(int64(x))
	default:
		w.ok = false
	}
}

// integer writes x, which the apply body holds as a float64: exactly
// when it is below 2^53 in magnitude.
func (w *yamlWriter) integer(x int64) {
	if x >= 1<<53 || x <= -1<<53 {
		w.ok = false
		return
	}
	var digits [24]byte
	d := strconv.AppendInt(append(digits[:0], ' '), x, 10)
	w.putBytes(d)
	w.column += len(d)
}

// scalar writes the string s in the style go-yaml chooses: plain when
// it reads back as a string and may stand plain, else single-quoted,
// else double-quoted (with escapes). A key is never folded; a value's
// continuation lines sit at indent.
func (w *yamlWriter) scalar(s string, indent int, key bool) {
	if wordScalar(s) {
		// Most keys and names: plain, nothing to fold.
		w.raw(s)
		return
	}
	a, ok := analyzeScalar(s)
	if !ok || s == "<<" || key && a.breaks { // "<<": YAML 1.1's merge key, which go-yaml treats apart
		// A key with a line break is not a simple key: go-yaml writes
		// it as a complex one ("? ").
		w.ok = false
		return
	}
	switch {
	case a.special || !yamlResolvesToString(s):
		// Quoted so that it reads back as a string, or holding a
		// character only an escape writes.
		w.doubleQuoted(s, indent, !key)
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
			w.space(breaks && !spaces && w.column > yamlWidth && (!quoted || i > 0 && i < len(s)-1) && (i+1 >= len(s) || s[i+1] != ' '), indent)
			i++
			spaces = true
			continue
		}
		spaces = false
		if c < utf8.RuneSelf {
			if quoted && c == '\'' {
				w.put("''")
				w.column += 2
				i++
				continue
			}
			// A run of other ASCII characters goes in one append.
			j := i + 1
			for j+8 <= len(s) && !foldStops(word(s, j)) {
				j += 8
			}
			for j < len(s) && !foldStop[s[j]] {
				j++
			}
			w.put(s[i:j])
			w.column += j - i
			i = j
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		w.put(s[i : i+n])
		w.column++
		i += n
	}
}

// space writes a space, or, where the scalar folds, breaks the line
// there instead: the next line starts at indent.
func (w *yamlWriter) space(fold bool, indent int) {
	if fold {
		w.newline()
		w.indent(indent)
		return
	}
	w.putByte(' ')
	w.column++
}

// doubleQuoted writes s double-quoted as go-yaml's emitter writes it
// (yaml_emitter_write_double_quoted_scalar): a character outside YAML's
// printable set, '"' and '\\' as an escape, the others as they are;
// when breaks are allowed, the line breaks at a space once past
// yamlWidth, unless the space follows another space, or is the first or
// last character, and a space that follows the break is escaped (`\ `)
// so that it is not read as indentation. [analyzeScalar] has excluded
// the line breaks it would write as escapes only in a block of its own
// choosing ('\n', U+2028, U+2029) and a leading byte order mark (after
// which go-yaml escapes every character).
func (w *yamlWriter) doubleQuoted(s string, indent int, breaks bool) {
	w.putByte('"')
	w.column++
	spaces := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			fold := breaks && !spaces && w.column > yamlWidth && i > 0 && i < len(s)-1
			w.space(fold, indent)
			if fold && s[i+1] == ' ' {
				w.putByte('\\')
				w.column++
			}
			i++
			spaces = true
			continue
		case dqVerbatim[c]:
			// A run of printable ASCII that needs no escape, in one
			// append.
			j := i + 1
			for j < len(s) && dqVerbatim[s[j]] {
				j++
			}
			w.put(s[i:j])
			w.column += j - i
			i = j
		case c < utf8.RuneSelf:
			w.escape(rune(c))
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if yamlPrintable(r) {
				w.put(s[i : i+n])
				w.column++
			} else {
				w.escape(r)
			}
			i += n
		}
		spaces = false
	}
	w.putByte('"')
	w.column++
}

// escape writes r as a double-quoted scalar's escape, as go-yaml writes
// it: a short escape where YAML has one, else \xXX, \uXXXX or
// \UXXXXXXXX in upper-case hexadecimal.
func (w *yamlWriter) escape(r rune) {
	n := len(w.out)
	switch {
	case r == '"' || r == '\\':
		w.out = append(w.out, '\\', byte(r))
	case r < 0x20 && controlEscapes[r] != 0:
		w.out = append(w.out, '\\', controlEscapes[r])
	case r == 0x85:
		w.out = append(w.out, `\N`...)
	default:
		digits, letter := 8, byte('U')
		switch {
		case r <= 0xff:
			digits, letter = 2, 'x'
		case r <= 0xffff:
			digits, letter = 4, 'u'
		}
		w.out = append(w.out, '\\', letter)
		for k := (digits - 1) * 4; k >= 0; k -= 4 {
			w.out = append(w.out, "0123456789ABCDEF"[r>>k&0xf])
		}
	}
	w.column += len(w.out) - n
}

// controlEscapes are the letters of YAML's short escapes of the C0
// controls; a control without one is written \xXX.
var controlEscapes = [0x20]byte{0: '0', 0x07: 'a', 0x08: 'b', '\t': 't', '\n': 'n', 0x0b: 'v', 0x0c: 'f', '\r': 'r', 0x1b: 'e'}

// dqVerbatim marks the ASCII characters a double-quoted scalar holds as
// they are: the printable ones but space (where a line may break), '"'
// and '\\'.
var dqVerbatim = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// yamlPrintable reports whether YAML's printable set (go-yaml's
// is_printable) holds the non-ASCII character r: U+00A0 to U+FFFD but
// the surrogates and the byte order mark. U+0085 and the C1 controls,
// U+FEFF, U+FFFE, U+FFFF and every character past the Basic Multilingual
// Plane are escaped.
func yamlPrintable(r rune) bool {
	return r >= 0xa0 && r <= 0xfffd && (r < 0xd800 || r > 0xdfff) && r != 0xfeff
}

// scalarAnalysis is what go-yaml's emitter finds in a scalar before it
// picks a style (yaml_emitter_analyze_scalar), for the text the writer
// covers.
type scalarAnalysis struct {
	plainAllowed bool // in block context
	// special: s holds a character outside YAML's printable set (a
	// control, DEL, a C1 control, U+FEFF, U+FFFE, U+FFFF, a character
	// past the Basic Multilingual Plane), which only a double-quoted
	// scalar writes, as an escape.
	special bool
	// breaks: s holds '\r' or U+0085, line breaks a double-quoted value
	// escapes but that make a key complex.
	breaks bool
}

// analyzeScalar analyzes s; ok is false when s holds what the writer
// does not cover: a byte that is not UTF-8 (go-yaml writes such a string
// as !!binary), '\n', U+2028 or U+2029 (for which go-yaml picks a
// literal block or writes a single-quoted line break), or a leading byte
// order mark.
func analyzeScalar(s string) (a scalarAnalysis, ok bool) {
	if s == "" {
		return scalarAnalysis{plainAllowed: true}, true
	}
	if strings.HasPrefix(s, "\ufeff") {
		return a, false
	}
	blockIndicators := strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...")
	spaceAtEnds := s[0] == ' ' || s[len(s)-1] == ' '
	precededByWhitespace := true
	for i := 0; i < len(s); {
		if blockIndicators {
			// Not plain: all that is left to find in the rest is a
			// character that is escaped or not covered.
			rest, ok := scanSpecial(s[i:])
			rest.special = rest.special || a.special
			rest.breaks = rest.breaks || a.breaks
			return rest, ok
		}
		if i > 0 && plainASCII[s[i]] {
			// A run of characters that change nothing but what precedes
			// the next one: most of a document.
			for i++; i < len(s) && plainASCII[s[i]]; i++ {
			}
			precededByWhitespace = false
			continue
		}
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
			if n == 1 || r == 0x2028 || r == 0x2029 {
				// n == 1: not UTF-8, which a typed object's string may
				// be and the JSON text's never is.
				return a, false
			}
			if !yamlPrintable(r) {
				a.special = true
				a.breaks = a.breaks || r == 0x85
			}
		} else if r < 0x20 || r == 0x7f {
			if r == '\n' {
				return a, false
			}
			a.special = true
			a.breaks = a.breaks || r == '\r'
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
		// Where s holds a special character, whitespace other than a
		// space decides nothing: the scalar is double-quoted whatever
		// the indicators.
		precededByWhitespace = r == ' '
		i += n
	}
	a.plainAllowed = !spaceAtEnds && !blockIndicators && !a.special
	return a, true
}

// scanSpecial is what [analyzeScalar] finds in s once the indicators no
// longer matter: whether s holds a special character or a line break,
// and whether the writer covers it at all.
func scanSpecial(s string) (a scalarAnalysis, ok bool) {
	for i := 0; i < len(s); {
		if i+8 <= len(s) && printable(word(s, i)) {
			i += 8
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case c == '\n':
				return a, false
			case c < 0x20 || c == 0x7f:
				a.special = true
				a.breaks = a.breaks || c == '\r'
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 || r == 0x2028 || r == 0x2029 {
			return a, false
		}
		if !yamlPrintable(r) {
			a.special = true
			a.breaks = a.breaks || r == 0x85
		}
		i += n
	}
	return a, true
}

// wordScalar reports whether s is a word go-yaml writes plain as it is:
// an ASCII letter, then letters, digits and . / _ -, and none of the
// words that read back as something else ([yamlWords]). Such a word has
// no indicator, no space to fold at and no character to escape, and
// resolves to a string.
func wordScalar(s string) bool {
	if s == "" || !asciiLetter(s[0]) || len(s) <= 5 && yamlWords[s] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !wordByte[s[i]] {
			return false
		}
	}
	return true
}

// wordByte marks the characters of a [wordScalar] past its first.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = asciiLetter(byte(c)) || c >= '0' && c <= '9' || strings.IndexByte("./_-", byte(c)) >= 0
	}
	return t
}()

// The long scalars (a ConfigMap's document) are scanned eight bytes at
// a time: a word of eight bytes of s, each test of it exact for whether
// any of its bytes is one the byte-wise loop stops at.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// word is s[i:i+8] as a little-endian integer.
func word(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:i+8]), 8))
}

// swarZero reports whether a byte of w is zero.
func swarZero(w uint64) bool { return (w-swarOnes)&^w&swarHigh != 0 }

// printable reports whether every byte of w is printable ASCII (0x20 to
// 0x7e): none below 0x20, none above 0x7e.
func printable(w uint64) bool {
	return ((w-swarOnes*0x20)&^w|(w+swarOnes|w))&swarHigh == 0
}

// digitsOrHigh reports whether a byte of w is a decimal digit or not
// ASCII ([digitOrHigh]): a high bit, or, of the low seven bits, a byte
// above '0'-1 and below '9'+1 (the test for a byte between two values of
// Anderson's bit hacks, exact for bytes below 0x80).
func digitsOrHigh(w uint64) bool {
	low := w &^ swarHigh
	between := (swarOnes*(127+'9'+1) - low) &^ w & (low + swarOnes*(127-('0'-1))) & swarHigh
	return w&swarHigh != 0 || between != 0
}

// foldStops reports whether a byte of w is one [foldStop] marks.
func foldStops(w uint64) bool {
	return w&swarHigh != 0 || swarZero(w^swarOnes*' ') || swarZero(w^swarOnes*'\'')
}

// foldStop marks where [yamlWriter.folded]'s runs of ASCII stop: a
// space, a single quote, a byte of a non-ASCII character.
var foldStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= utf8.RuneSelf || c == ' ' || c == '\''
	}
	return t
}()

// plainASCII marks the printable ASCII characters that, past a scalar's
// first character, bear on none of [analyzeScalar]'s findings but the
// whitespace before the next: all but space, '"', '\\', ':' and '#'.
var plainASCII = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = !strings.ContainsRune(`"\:#`, c)
	}
	return t
}()

// floatSyntax reports whether s has go-yaml's float syntax,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, without a
// regular expression: a digest or a hash label starting with a digit
// asks it (TestFloatSyntax holds it to the expression).
func floatSyntax(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// dotFloatBytes reports whether s, which starts with a dot, may be a
// float strconv.ParseFloat reads: a digit, and no byte but digits,
// underscores (ParseFloat takes them between digits), dots, exponent
// letters and signs. Text it refuses ParseFloat refuses.
func dotFloatBytes(s string) bool {
	digit := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c != '_' && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-':
			return false
		}
	}
	return digit
}

// yamlBase60 is YAML 1.1's base-60 float syntax, which go-yaml quotes.
var yamlBase60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// yamlWords are the plain words go-yaml reads as something other than a
// string: YAML 1.1 booleans, null, infinities and not-a-number, merge.
// None is longer than five bytes.
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
	if s == "" || len(s) <= 5 && yamlWords[s] {
		return false
	}
	switch c := s[0]; {
	case c == '.':
		// Text ParseFloat cannot read ("." itself, a word after a dot)
		// is refused without the error it allocates to say so.
		if dotFloatBytes(s) {
			if _, err := strconv.ParseFloat(s, 64); err == nil {
				return false
			}
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if yamlTimestamp(s) {
			return false
		}
		plain := strings.ReplaceAll(s, "_", "")
		if intSyntax(plain) {
			if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
				return false
			}
			if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
				return false
			}
		}
		if floatSyntax(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return false
			}
		}
		if b, ok := strings.CutPrefix(plain, "0b"); ok {
			if binarySyntax(b) {
				if _, err := strconv.ParseInt(b, 2, 64); err == nil {
					return false
				}
				if _, err := strconv.ParseUint(b, 2, 64); err == nil {
					return false
				}
			}
		} else if b, ok := strings.CutPrefix(plain, "-0b"); ok {
			if b != "" && b[0] != '+' && b[0] != '-' && binarySyntax(b) {
				if _, err := strconv.ParseInt("-"+b, 2, 64); err == nil {
					return false
				}
			}
		}
	}
	c := s[0]
	return !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 || !yamlBase60.MatchString(s)
}

// intSyntax reports whether s may be an integer strconv.ParseInt or
// ParseUint reads with base 0: a sign, then a 0x, 0o or 0b prefix and
// digits of its base, or a 0 and octal digits, or decimal digits,
// underscores anywhere past the sign. Text it refuses both refuse,
// without the error they allocate to say so (a hash label that starts
// with a digit is the common case, "0b93da7d4af4" one of them).
func intSyntax(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	digits := &decimalByte
	if s[0] == '0' {
		// strconv's prefixes: a letter of either case after the 0, and
		// a digit at least after that; else the 0 is octal's.
		switch prefix := s[1%len(s)] | 0x20; {
		case len(s) >= 3 && prefix == 'x':
			s, digits = s[2:], &hexByte
		case len(s) >= 3 && prefix == 'o':
			s, digits = s[2:], &octalByte
		case len(s) >= 3 && prefix == 'b':
			s, digits = s[2:], &binaryByte
		default:
			s, digits = s[1:], &octalByte
		}
	}
	for i := 0; i < len(s); i++ {
		if !digits[s[i]] {
			return false
		}
	}
	return true
}

// decimalByte, hexByte, octalByte and binaryByte mark the digits of
// [intSyntax]'s integers, underscores included.
var decimalByte, hexByte, octalByte, binaryByte = func() (dec, hex, oct, bin [256]bool) {
	for c := range dec {
		dec[c] = c >= '0' && c <= '9' || c == '_'
		hex[c] = dec[c] || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		oct[c] = c >= '0' && c <= '7' || c == '_'
		bin[c] = c == '0' || c == '1' || c == '_'
	}
	return dec, hex, oct, bin
}()

// binarySyntax reports whether s may be an integer strconv.ParseInt or
// ParseUint reads in base 2: a sign, then binary digits (no underscore:
// the base is given). Text it refuses both refuse, without the error
// they allocate to say so.
func binarySyntax(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '0' && s[i] != '1' {
			return false
		}
	}
	return true
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
// value. [yamlKeyLess] decides at the first character where two keys
// differ, or by length when one is the other's prefix, one way or the
// other: of two distinct keys, exactly one is less, so one call tells.
func yamlKeyCompare(a, b string) int {
	switch {
	case a == b:
		return 0
	case yamlKeyLess(a, b):
		return -1
	}
	return 1
}

func yamlKeyLess(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i < len(a) && i < len(b) && asciiLetter(a[i]) && asciiLetter(b[i]) {
		// The first difference is two letters, each a whole character.
		return a[i] < b[i]
	}
	if isASCII(a) && isASCII(b) {
		// Byte by byte is rune by rune: no rune slices to make.
		return keyLess(unsafe.Slice(unsafe.StringData(a), len(a)), unsafe.Slice(unsafe.StringData(b), len(b)))
	}
	return keyLess([]rune(a), []rune(b))
}

func asciiLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// keyLess is [yamlKeyLess] over the characters of two keys.
func keyLess[C byte | rune](ar, br []C) bool {
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(rune(ar[i])), unicode.IsLetter(rune(br[i]))
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(rune(ar[j])); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(rune(ar[ai])); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(rune(br[bi])); bi++ {
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
