package json5

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit/internal/json5/internal/reference"
)

// The transcoder must write what the frozen one (package reference, the
// transcoder before its strict-JSON fast path) writes, and refuse what it
// refuses with the same error: kind, line, column, offset, path and
// message. These tests compare the two on generated documents (mostly
// strict JSON, compact or indented, with JSON5 forms, escapes, odd
// numbers, repeated keys, damage and tight limits mixed in) and on fuzzed
// bytes.

// outcome is what one transcoder made of one input.
type outcome struct {
	Out  string
	Err  *reference.Error
	Errs string // an error of neither type
}

func ours(src []byte, opts reference.Options, normalize bool) outcome {
	o := Options{MaxDepth: opts.MaxDepth, MaxStringBytes: opts.MaxStringBytes, MaxKeys: opts.MaxKeys,
		RejectDuplicateKeys: opts.RejectDuplicateKeys, CanonicalNumbers: opts.CanonicalNumbers,
		RejectLoneSurrogates: opts.RejectLoneSurrogates}
	var out []byte
	var err error
	if normalize {
		var n Normalized
		n, err = Normalize(src, o)
		out = n.Bytes()
	} else {
		out, err = Transcode(src, o)
	}
	var e *Error
	switch {
	case err == nil:
		return outcome{Out: string(out)}
	case errors.As(err, &e):
		path := make([]reference.PathElem, len(e.Path))
		for i, p := range e.Path {
			path[i] = reference.PathElem(p)
		}
		return outcome{Out: string(out), Err: &reference.Error{Kind: reference.Kind(e.Kind), Line: e.Line, Column: e.Column, Offset: e.Offset, Path: path, Msg: e.Msg}}
	}
	return outcome{Errs: err.Error()}
}

func theirs(src []byte, opts reference.Options, normalize bool) outcome {
	var out []byte
	var err error
	if normalize {
		var n reference.Normalized
		n, err = reference.Normalize(src, opts)
		out = n.Bytes()
	} else {
		out, err = reference.Transcode(src, opts)
	}
	var e *reference.Error
	switch {
	case err == nil:
		return outcome{Out: string(out)}
	case errors.As(err, &e):
		if len(e.Path) == 0 {
			e.Path = []reference.PathElem{}
		}
		return outcome{Out: string(out), Err: e}
	}
	return outcome{Errs: err.Error()}
}

// compareReference fails t when the two transcoders differ on src.
func compareReference(t interface{ Fatalf(string, ...any) }, src []byte, opts reference.Options, normalize bool) {
	want, got := theirs(src, opts, normalize), ours(src, opts, normalize)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Transcode(%q, %+v, normalize %v) differs from the reference (-want +got):\n%s", src, opts, normalize, diff)
	}
	if normalize {
		checkMembers(t, src, Options{MaxDepth: opts.MaxDepth, MaxStringBytes: opts.MaxStringBytes, MaxKeys: opts.MaxKeys})
	}
}

// docGen draws documents for the comparison.
type docGen struct {
	t      *rapid.T
	indent bool
	json5  bool // JSON5 forms and damage may appear
}

func (g docGen) pick(label string, xs ...string) string {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(g.t, label)]
}

func (g docGen) rare(label string) bool { return rapid.IntRange(0, 19).Draw(g.t, label) == 0 }

func (g docGen) ws(depth int) string {
	if g.json5 && g.rare("odd space") {
		return g.pick("space", "\v", "\f", "\u00a0", "\u2028", "\ufeff", "/* c */", "// c\n", "/* unterminated", "/", " \u3000 ")
	}
	if !g.indent {
		return ""
	}
	return "\n" + strings.Repeat("  ", depth)
}

var strPieces = []string{
	"a", "model", "anthropic/model-1", " ", "é", "😀", "\u2028", "日本", `\"`, `\\`, `\/`, `\n`, `\t`, `\b`, `\f`, `\r`,
	`\u0041`, `\u00e9`, `\u001f`, `\u0000`, `\ud83d\ude00`, `\uD83D\uDE00`, `\u2028`, "${VAR}", "$include", "'",
}

var strJSON5Pieces = []string{
	`\ud800`, `\udc00x`, `\x41`, `\0`, `\v`, `\a`, "\t", "\x01", "\\\n", "\n", `\u12`, `\x4`, `\01`, `\8`, `\`,
}

func (g docGen) str(label string) string {
	n := rapid.IntRange(0, 6).Draw(g.t, label+" pieces")
	var b strings.Builder
	q := "\""
	if g.json5 && g.rare(label+" single") {
		q = "'"
	}
	b.WriteString(q)
	for range n {
		if g.json5 && g.rare(label+" odd piece") {
			if g.rare(label + " invalid UTF-8") {
				b.WriteString(g.pick(label+" invalid", "\xff", "\xed\xa0\x80", "\xc3"))
				continue
			}
			b.WriteString(g.pick(label+" odd", strJSON5Pieces...))
			continue
		}
		b.WriteString(g.pick(label+" piece", strPieces...))
	}
	if !(g.json5 && g.rare(label+" unterminated")) {
		b.WriteString(q)
	}
	return b.String()
}

func (g docGen) number() string {
	if g.json5 && g.rare("odd number") {
		return g.pick("odd", ".5", "5.", "+1", "0x1F", "-0x10", "01", "-", "1.", "1e", "-.5", "Infinity", "-Infinity", "NaN", "+NaN", "0x",
			"0x"+strings.Repeat("F", 257), "1e999", "-1e999", "1"+strings.Repeat("0", 309))
	}
	if rapid.Bool().Draw(g.t, "listed number") {
		return g.pick("number", "0", "-0", "1", "-1", "123", "1024", "0.5", "-0.25", "1.50", "1.0", "1e5", "1E+5", "2.5e-3",
			"0.000001", "0.0000001", "1e21", "1e20", "123456789012345", "1234567890123456", "12345678901234567890",
			"0.1234567890123456", "1.7976931348623157e308", "5e-324", "1e-999",
			// Past float64 by their integer digits alone, a fraction
			// and an exponent after them or not.
			"1"+strings.Repeat("0", 309), strings.Repeat("9", 309)+".5", "-"+strings.Repeat("9", 309)+".5e-2",
			strings.Repeat("9", 308)+".5", "1"+strings.Repeat("0", 308)+"e-10")
	}
	return rapid.StringMatching(`-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?([eE][+-]?[0-9]{1,3})?`).Draw(g.t, "number")
}

var keyNames = []string{"a", "b", "ab", "id", "models", "anthropic/model-1", "é", "$include", "k"}

func (g docGen) key() string {
	if g.json5 && g.rare("odd key") {
		return g.pick("odd key", "a", "'a'", `\u0061`, "$a", "_b", "café", "1", "'x", `"a\u0062"`, `"\ud800"`, "ab")
	}
	if g.rare("escaped key") {
		return g.pick("escaped key", `"\u0061"`, `"a\u0062"`, `"\/"`, `"\n"`, `"a\"b"`, `"\\"`, `"\\\""`, `'a"b'`, `"\u0022"`)
	}
	if rapid.Bool().Draw(g.t, "numbered key") {
		return fmt.Sprintf(`"k%d"`, rapid.IntRange(0, 40).Draw(g.t, "key number"))
	}
	return `"` + g.pick("key", keyNames...) + `"`
}

func (g docGen) value(depth int) string {
	kind := rapid.IntRange(0, 9).Draw(g.t, "kind")
	if depth > 6 {
		kind = 9
	}
	sep := ","
	if g.json5 && g.rare("odd separator") {
		sep = g.pick("separator", "", ",,", ";", ":")
	}
	colon := ":"
	if g.indent {
		colon = ": "
	}
	switch kind {
	case 0, 1, 2:
		n := rapid.IntRange(0, 6).Draw(g.t, "members")
		if g.rare("many members") {
			n = rapid.IntRange(14, 45).Draw(g.t, "many")
		}
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(g.ws(depth+1) + g.key() + colon + g.value(depth+1))
		}
		if n > 0 && g.json5 && g.rare("trailing comma") {
			b.WriteString(",")
		}
		b.WriteString(g.ws(depth) + "}")
		return b.String()
	case 3, 4:
		n := rapid.IntRange(0, 6).Draw(g.t, "elements")
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(g.ws(depth+1) + g.value(depth+1))
		}
		if n > 0 && g.json5 && g.rare("trailing comma") {
			b.WriteString(",")
		}
		b.WriteString(g.ws(depth) + "]")
		return b.String()
	case 5, 6:
		return g.str("string")
	case 7, 8:
		return g.number()
	}
	if g.json5 && g.rare("odd literal") {
		return g.pick("odd literal", "nul", "True", "nullx", "undefined", "'", "}", "]")
	}
	return g.pick("literal", "true", "false", "null")
}

func (g docGen) doc() []byte {
	s := g.ws(0) + g.value(0) + g.ws(0)
	if g.json5 && g.rare("damage") && len(s) > 0 {
		i := rapid.IntRange(0, len(s)-1).Draw(g.t, "at")
		switch rapid.IntRange(0, 2).Draw(g.t, "damage kind") {
		case 0:
			s = s[:i]
		case 1:
			s = s[:i] + g.pick("insert", "{", "}", "[", "]", ",", ":", "\"", "\\", " ", "x", "\xff", "/") + s[i:]
		default:
			s = s[:i] + s[i+1:]
		}
	}
	return []byte(s)
}

func drawOptions(t *rapid.T) reference.Options {
	limit := func(label string, hi int) int {
		if rapid.IntRange(0, 3).Draw(t, label+" set") == 0 {
			return rapid.IntRange(1, hi).Draw(t, label)
		}
		return 0
	}
	return reference.Options{
		MaxDepth:             limit("MaxDepth", 8),
		MaxStringBytes:       limit("MaxStringBytes", 24),
		MaxKeys:              limit("MaxKeys", 40),
		RejectDuplicateKeys:  rapid.Bool().Draw(t, "RejectDuplicateKeys"),
		CanonicalNumbers:     rapid.Bool().Draw(t, "CanonicalNumbers"),
		RejectLoneSurrogates: rapid.Bool().Draw(t, "RejectLoneSurrogates"),
	}
}

func TestTranscodeMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := docGen{t: t, indent: rapid.Bool().Draw(t, "indent"), json5: rapid.Bool().Draw(t, "json5")}
		src := g.doc()
		compareReference(t, src, drawOptions(t), rapid.Bool().Draw(t, "normalize"))
	})
}

// TestTranscodeMatchesReferenceNumbers: numbers past float64 by their
// integer digits are refused alike whatever follows them, with and
// without canonical numbers (the fast path decides finiteness on its own
// when numbers are kept as written).
func TestTranscodeMatchesReferenceNumbers(t *testing.T) {
	for _, lit := range []string{
		"1" + strings.Repeat("0", 309), strings.Repeat("9", 309) + ".5", "-" + strings.Repeat("9", 309) + ".5",
		strings.Repeat("9", 309) + ".5e-2", strings.Repeat("9", 308) + ".5", "1" + strings.Repeat("0", 308) + "e-10",
		"1e309", "0." + strings.Repeat("9", 400),
	} {
		for _, normalize := range []bool{false, true} {
			compareReference(t, []byte("["+lit+"]"), reference.Options{}, normalize)
			compareReference(t, []byte(`{"a":`+lit+`}`), reference.Options{CanonicalNumbers: normalize}, false)
		}
	}
}

// TestTranscodeMatchesReferenceLarge compares large objects, where
// duplicate detection moves from a short list to a table.
func TestTranscodeMatchesReferenceLarge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "keys")
		dup := rapid.IntRange(-1, n-1).Draw(t, "duplicate of")
		var b bytes.Buffer
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			switch rapid.IntRange(0, 9).Draw(t, "spelling") {
			case 0: // escaped: read by the general loop, kept as written
				fmt.Fprintf(&b, `"mo\"del\\-%d":{"id":%d}`, i, i)
			case 1:
				fmt.Fprintf(&b, `'mo"del\\-%d':[%d]`, i, i)
			default:
				fmt.Fprintf(&b, `"model-%d":{"id":%d,"x":"%d"}`, i, i, i)
			}
		}
		if dup >= 0 {
			spelling := rapid.SampledFrom([]string{`"model-%d"`, `"mo\"del\\-%d"`, `'mo"del\\-%d'`, `"mo\u0022del\\-%d"`}).Draw(t, "dup spelling")
			fmt.Fprintf(&b, ","+spelling+":1", dup)
		}
		b.WriteString("}")
		compareReference(t, b.Bytes(), drawOptions(t), rapid.Bool().Draw(t, "normalize"))
	})
}

// TestTranscodeMatchesReferenceSiblingTables compares objects with many
// keys side by side and nested, so that the parser's own table slots are
// taken, outgrown, freed and taken again by a later object, and a table
// opened while they are taken uses the heap.
func TestTranscodeMatchesReferenceSiblingTables(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		var object func(depth int)
		object = func(depth int) {
			n := rapid.SampledFrom([]int{0, 3, 16, 17, 30, 48, 49, 70, 100}).Draw(t, "keys")
			dup := rapid.IntRange(-1, n+20).Draw(t, "duplicate of")
			b.WriteString("{")
			for i := range n {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"k-%d":`, i)
				if depth < 2 && rapid.IntRange(0, 15).Draw(t, "nest") == 0 {
					object(depth + 1)
				} else {
					fmt.Fprintf(&b, "%d", i)
				}
			}
			if dup >= 0 && dup < n {
				fmt.Fprintf(&b, `,"k-%d":1`, dup)
			}
			b.WriteString("}")
		}
		b.WriteString("[")
		for i := range rapid.IntRange(1, 5).Draw(t, "objects") {
			if i > 0 {
				b.WriteString(",")
			}
			object(0)
		}
		b.WriteString("]")
		opts := drawOptions(t)
		opts.RejectDuplicateKeys = true
		compareReference(t, b.Bytes(), opts, rapid.Bool().Draw(t, "normalize"))
	})
}

// FuzzTranscodeMatchesReference compares the transcoders on fuzzed bytes;
// the first byte picks the options.
func FuzzTranscodeMatchesReference(f *testing.F) {
	for _, s := range []string{
		"\x00" + `{"a":[1,2.5e-3,true,null,"x\n"],"b":{"c":"d"}}`,
		"\x3f" + `{"a": 1, "a": 2}`,
		"\x7f" + "{\n  \"k\": [0.50, 1e21, -0, \"\\u0041\"],\n  \"m\": {}\n}",
		"\x1e" + `{a: 1, 'b': [0x1F, .5, +1,], "c": "\x41\u00e9"} // x`,
		"\x0f" + `[[[[[[[[[1]]]]]]]]]`, "\xff" + `{"a":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	// FuzzTranscode's corpus, under three sets of options: none;
	// Normalize's; every flag and limit.
	for _, src := range fuzzCorpus(f, "FuzzTranscode") {
		for _, o := range []byte{0x00, 0x47, 0x3f} {
			f.Add(append([]byte{o}, src...))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		o, src := in[0], in[1:]
		opts := reference.Options{
			RejectDuplicateKeys: o&1 != 0, CanonicalNumbers: o&2 != 0, RejectLoneSurrogates: o&4 != 0,
		}
		if o&8 != 0 {
			opts.MaxDepth = 3
		}
		if o&16 != 0 {
			opts.MaxStringBytes = 5
		}
		if o&32 != 0 {
			opts.MaxKeys = 4
		}
		compareReference(t, src, opts, o&64 != 0)
	})
}

// fuzzCorpus reads the []byte inputs of the stored corpus of a fuzz
// target of this package (testdata/fuzz/NAME).
func fuzzCorpus(f *testing.F, name string) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", name, "*"))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			f.Fatalf("%s: not a one-input corpus file", file)
		}
		v, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		out = append(out, []byte(v))
	}
	if len(out) == 0 {
		f.Fatalf("no corpus for %s", name)
	}
	return out
}

// TestTranscodeMatchesReferenceKeyBloom compares objects of up to 16 keys,
// where an object's bloom (keyBit) decides whether a key is compared with
// the others: keys of one length whose first and last eight bytes are the
// same (one bit for all, so every key is compared), keys that differ
// there, short ones, each plain (read by the fast path) or escaped (by
// the general loop), with a duplicate drawn in either spelling.
func TestTranscodeMatchesReferenceKeyBloom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		form := rapid.SampledFrom([]string{"aaaaaaaa%02dzzzzzzzz", "model-%d", "%d", "anthropic/model-%d"}).Draw(t, "keys")
		n := rapid.IntRange(0, 16).Draw(t, "n")
		dup := rapid.IntRange(-1, n+2).Draw(t, "duplicate of")
		key := func(i int) string {
			k := fmt.Sprintf(form, i)
			if rapid.IntRange(0, 3).Draw(t, "escaped") == 0 {
				// Its first byte escaped: the general loop reads it.
				return fmt.Sprintf(`"\u%04x%s"`, k[0], k[1:])
			}
			return `"` + k + `"`
		}
		var b bytes.Buffer
		b.WriteString(`{"x":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%s:%d", key(i), i)
		}
		if dup >= 0 && dup < n {
			if n > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%s:1", key(dup))
		}
		b.WriteString("}}")
		compareReference(t, b.Bytes(), reference.Options{RejectDuplicateKeys: true}, rapid.Bool().Draw(t, "normalize"))
	})
}
