package json5

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit/internal/tiers"
)

// The differential test runs the npm json5@2.2.3 package (the parser
// OpenClaw uses) as the oracle. It installs the package into the git-ignored
// .cache/node folder at the repository root when missing and skips only
// when node itself is absent (the real tier tiers.NodeJSON5: a failure
// under OCCKIT_REQUIRE_INTEGRATION=1).

var diffSeed = flag.Int64("json5.seed", 1, "seed of the generated differential corpus")

const oracleVersion = "2.2.3"

// oracleScript reads [[input, ours|null], ...] on stdin and prints, per
// pair, how json5 parsed the input and what our output means to
// JSON.parse. Both sides are re-serialized by JSON.stringify, so JavaScript
// object semantics (insertion order, integer keys first) apply equally.
const oracleScript = `
const JSON5 = require(process.env.OCCKIT_JSON5_PKG);
const pairs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const nonFinite = (v) => {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (v && typeof v === 'object') return Object.values(v).some(nonFinite);
  return false;
};
const out = pairs.map(([src, ours]) => {
  const r = {ok: false, nonFinite: false, js: null, ours: null, oursInvalid: false};
  try {
    const v = JSON5.parse(src);
    r.ok = true;
    r.nonFinite = nonFinite(v);
    r.js = JSON.stringify(v);
  } catch (e) {}
  if (ours !== null) {
    try { r.ours = JSON.stringify(JSON.parse(ours)); } catch (e) { r.oursInvalid = true; }
  }
  return r;
});
process.stdout.write(JSON.stringify(out));
`

type oracleResult struct {
	OK          bool    `json:"ok"`
	NonFinite   bool    `json:"nonFinite"`
	JS          *string `json:"js"`
	Ours        *string `json:"ours"`
	OursInvalid bool    `json:"oursInvalid"`
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// oracle returns the path of the installed json5 package.
func oracle(t *testing.T) (node, pkg string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tiers.NodeJSON5.Skip(t, "node is not installed (run .ci/setup)")
	}
	prefix := filepath.Join(repoRoot(t), ".cache", "node")
	pkg = filepath.Join(prefix, "node_modules", "json5")
	manifest, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	var m struct{ Version string }
	if err != nil || json.Unmarshal(manifest, &m) != nil || m.Version != oracleVersion {
		if err := os.MkdirAll(prefix, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, "json5@"+oracleVersion)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install json5@%s: %v\n%s", oracleVersion, err, out)
		}
	}
	return node, pkg
}

// runOracle asks node about every input in one process.
func runOracle(t *testing.T, inputs []string, ours []*string) []oracleResult {
	t.Helper()
	node, pkg := oracle(t)
	pairs := make([][2]any, len(inputs))
	for i := range inputs {
		pairs[i] = [2]any{inputs[i], ours[i]}
	}
	stdin, err := json.Marshal(pairs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", oracleScript)
	cmd.Env = append(os.Environ(), "OCCKIT_JSON5_PKG="+pkg)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var res []oracleResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(inputs) {
		t.Fatalf("oracle output: %v (%d results for %d inputs)", err, len(res), len(inputs))
	}
	return res
}

// handCorpus holds inputs chosen to exercise every corner of the grammar.
var handCorpus = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `"x"`, `'x'`, ``, ` `, `// only a comment`,
	`{a:1}`, `{$:1}`, `{_:1}`, `{$_a1: 1}`, `{a$b: 1}`, `{ünïcödé: 1}`, `{日本: 1}`, `{Ωμέγα: 1}`,
	`{\u0061: 1}`, `{a\u0062: 1}`, `{\u0024: 1}`, `{\u005f: 1}`, `{\u0031: 1}`, `{a\u0020b: 1}`,
	`{\x61: 1}`, `{a-b: 1}`, `{1: 1}`, `{-a: 1}`, `{a b: 1}`, `{'a b': 1}`, `{"": 1}`, `{'': 1}`,
	`{null: 1, true: 2, false: 3, Infinity: 4, NaN: 5, undefined: 6}`,
	`{a: 1,}`, `{a: 1,,}`, `{,}`, `[,]`, `[1,]`, `[1,,]`, `[,1]`, `{a: 1 b: 2}`, `[1 2]`,
	`[0x0, 0xA, 0Xa, -0x1, +0x1, 0x]`, `0x1g`, `0xFFFFFFFFFFFFFFFF`, `0x20000000000001`, `-0x8000000000000000`,
	`[.5, 5., +.5, -.5, +5., 0.5e1, .5e-1, 5.e+1]`, `.`, `-.`, `.e1`, `+`, `-`, `1e`, `1e+`, `1.5e5.5`,
	`01`, `-01`, `00`, `0.`, `-0.0`, `1E5`, `1e400`, `-1e-400`, `123456789012345678901234567890`,
	`Infinity`, `-Infinity`, `+Infinity`, `NaN`, `-NaN`, `+NaN`, `[Infinity]`, `{a: NaN}`, `Infinit`, `NaNx`, `infinity`,
	`'\x41'`, `'\x4'`, `'\xg1'`, `'\0'`, `'\00'`, `'\01'`, `'\1'`, `'\9'`, `'\v'`, `'\a\c\d\e'`, `'\''`, `"\'"`, `'\"'`,
	`'\u00'`, `'\u00e9'`, `'\uD83D\uDE00'`, `'\uD83D'`, `'\uDE00'`, `'\uDE00\uD83D'`, `'\uD83D\\\n\uDE00'`,
	"'a\\\nb'", "'a\\\r\nb'", "'a\\\rb'", "'a\\\u2028b'", "'a\\\u2029b'", "'a\nb'", "'a\rb'", "'a\u2028b'", "'a\u2029b'",
	"'tab\there'", "'\x01\x1f'", "'\u007f'", `'unterminated`, `"mixed'`, `'a"b'`, `"a'b"`,
	"\ufeff{}", "{\ufeff}", "[\u00a0\u1680\u2000\u200a\u202f\u205f\u3000\u2028\u2029\ufeff1]", "[\v\f1]",
	"/* a */ 1 /* b */", "/* unterminated", "1 //", "[1 // c\n]", "[1 // c\u2028]", "/ 1", "1 /", "/*/ 1", "/**/1",
	`{a: {b: {c: [1, {d: 'e'}]}}}`, `[[[]]]`, `[[[[[[[[[[]]]]]]]]]]`, `{a: 1, a: 2}`, `{"1": 1, b: 2, "0": 3}`,
	`{__proto__: 1}`, `{"__proto__": {"x": 1}}`, `1 2`, `[1] x`, `{} {}`, `nul`, `tru`, `nulll`, `truefalse`,
	`[null,true,false]`, `{"a":"\/"}`, `"\b\f\n\r\t\\"`, `{a: 'x'}// trailing`, `{a//c
:1}`,
}

// generator builds random JSON5 documents from every feature of the
// grammar, and mutations of them that are usually invalid.
type generator struct{ r *rand.Rand }

var (
	genLetters = []string{"a", "Z", "$", "_", "é", "ß", "Ω", "日", "д", "ℵ", "ǅ"}
	genParts   = []string{"0", "9", "\u0301", "\u200c", "\u200d", "‿"}
	genSpaces  = []string{" ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000", "\u2003"}
	genChars   = []string{"a", "é", "日", "😀", "\"", "'", "\\\\", "\\n", "\\t", "\\v", "\\0", "\\x41", "\\u00e9",
		"\\uD83D\\uDE00", "\\uDC00", "\\\n", "\\\r\n", "\\\u2028", "\\q", "\\/", "\u2028", "\t", " ", "{", "]", "//", "/*"}
)

func (g generator) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

func (g generator) ws() string {
	var b strings.Builder
	for g.r.Intn(3) == 0 {
		switch g.r.Intn(5) {
		case 0:
			b.WriteString("// c\n")
		case 1:
			b.WriteString("/* c */")
		default:
			b.WriteString(g.pick(genSpaces))
		}
	}
	return b.String()
}

func (g generator) str() string {
	q := "\""
	if g.r.Intn(2) == 0 {
		q = "'"
	}
	var b strings.Builder
	b.WriteString(q)
	for i := g.r.Intn(6); i > 0; i-- {
		c := g.pick(genChars)
		if c == q {
			c = "\\" + q
		}
		b.WriteString(c)
	}
	b.WriteString(q)
	return b.String()
}

func (g generator) key() string {
	if g.r.Intn(3) == 0 {
		return g.str()
	}
	var b strings.Builder
	if g.r.Intn(6) == 0 {
		b.WriteString(`\u0061`)
	} else {
		b.WriteString(g.pick(genLetters))
	}
	for i := g.r.Intn(4); i > 0; i-- {
		if g.r.Intn(2) == 0 {
			b.WriteString(g.pick(genParts))
		} else {
			b.WriteString(g.pick(genLetters))
		}
	}
	return b.String()
}

func (g generator) number() string {
	sign := []string{"", "", "-", "+"}[g.r.Intn(4)]
	switch g.r.Intn(6) {
	case 0:
		return sign + fmt.Sprintf("0x%X", g.r.Int63n(1<<40))
	case 1:
		return sign + "." + fmt.Sprint(g.r.Intn(1000))
	case 2:
		return sign + fmt.Sprint(g.r.Intn(1000)) + "."
	case 3:
		return sign + fmt.Sprintf("%d.%de%d", g.r.Intn(100), g.r.Intn(100), g.r.Intn(40)-20)
	case 4:
		return sign + "0"
	}
	return sign + fmt.Sprint(g.r.Int63n(1<<53))
}

func (g generator) value(depth int) string {
	n := 9
	if depth > 4 {
		n = 6
	}
	switch g.r.Intn(n) {
	case 0:
		return g.str()
	case 1:
		return g.number()
	case 2:
		return []string{"null", "true", "false"}[g.r.Intn(3)]
	case 3, 4, 5:
		return g.str()
	case 6, 7:
		var b strings.Builder
		b.WriteString("{")
		for i := g.r.Intn(5); i > 0; i-- {
			b.WriteString(g.ws() + g.key() + g.ws() + ":" + g.ws() + g.value(depth+1) + g.ws())
			if i > 1 || g.r.Intn(2) == 0 {
				b.WriteString(",")
			}
		}
		b.WriteString(g.ws() + "}")
		return b.String()
	}
	var b strings.Builder
	b.WriteString("[")
	for i := g.r.Intn(5); i > 0; i-- {
		b.WriteString(g.ws() + g.value(depth+1) + g.ws())
		if i > 1 || g.r.Intn(2) == 0 {
			b.WriteString(",")
		}
	}
	b.WriteString(g.ws() + "]")
	return b.String()
}

func (g generator) doc() string { return g.ws() + g.value(0) + g.ws() }

func (g generator) mutate(s string) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return s
	}
	i := g.r.Intn(len(rs))
	switch g.r.Intn(3) {
	case 0:
		return string(rs[:i]) + string(rs[i+1:])
	case 1:
		return string(rs[:i]) + g.pick([]string{",", ":", "'", "\"", "\\", "/", "{", "]", "x", "0", ".", "+", "\n"}) + string(rs[i:])
	}
	return string(rs[:i])
}

func TestDifferentialAgainstNodeJSON5(t *testing.T) {
	if len(handCorpus) < 60 {
		t.Fatalf("hand corpus has %d inputs, want >= 60", len(handCorpus))
	}
	g := generator{rand.New(rand.NewSource(*diffSeed))}
	inputs := append([]string(nil), handCorpus...)
	const generated = 600
	for i := 0; i < generated; i++ {
		d := g.doc()
		inputs = append(inputs, d)
		if i%2 == 0 {
			inputs = append(inputs, g.mutate(d))
		}
	}
	ours := make([]*string, len(inputs))
	errs := make([]error, len(inputs))
	for i, in := range inputs {
		out, err := Transcode([]byte(in), Options{})
		errs[i] = err
		if err == nil {
			s := string(out)
			ours[i] = &s
		}
	}
	res := runOracle(t, inputs, ours)
	run := tiers.NodeJSON5.Start(t)
	accepted := 0
	for i, r := range res {
		in, err := inputs[i], errs[i]
		var e *Error
		errors.As(err, &e)
		switch {
		case err == nil && r.OursInvalid:
			t.Errorf("%q: our output %q is not JSON to node", in, *ours[i])
		case err == nil && !r.OK:
			t.Errorf("%q: we accept (%s), json5 refuses", in, *ours[i])
		case err == nil && (r.JS == nil || r.Ours == nil || *r.JS != *r.Ours):
			t.Errorf("%q: value differs: json5 %v, ours %v", in, deref(r.JS), deref(r.Ours))
		case err != nil && e != nil && (e.Kind == KindNonFinite || e.Kind == KindNumber):
			// Both refusing is agreement too (NaNx is a syntax error to json5).
			if r.OK && !r.NonFinite {
				t.Errorf("%q: we refuse a non-finite number (%v), json5: ok=%v nonFinite=%v", in, err, r.OK, r.NonFinite)
			}
		case err != nil && r.OK:
			t.Errorf("%q: we refuse (%v), json5 accepts %v", in, err, deref(r.JS))
		}
		if err == nil {
			accepted++
		}
	}
	run.Done(len(res))
	t.Logf("%d inputs (%d hand-written, %d generated), %d accepted", len(inputs), len(handCorpus), len(inputs)-len(handCorpus), accepted)
	if accepted < generated/2 {
		t.Errorf("only %d inputs accepted: the generator makes too few valid documents", accepted)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
