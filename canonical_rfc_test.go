package occkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/occkit/occkit/internal/tiers"
)

// TestCanonicalRFC8785Examples: the worked examples of RFC 8785, section
// 3.2.2 (values) and section 3.2.3 (sorting by UTF-16 code units).
func TestCanonicalRFC8785Examples(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			"section 3.2.2",
			`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			"section 3.2.3",
			`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\"," +
				"\"€\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseDocument([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Canonical(d)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCanonicalOneDigestPerMeaning: the spellings the adversarial review
// listed share a digest, and the documents it found colliding do not load.
func TestCanonicalOneDigestPerMeaning(t *testing.T) {
	same := [][]string{
		{`{"n":16}`, `{"n":16.0}`, `{"n":1.6e1}`, `{"n":1.6E1}`, `{"n":160e-1}`, `{ "n" : 16 }`},
		{`{"n":1e6}`, `{"n":1000000}`, `{"n":1000000.000}`},
		{`{"n":-0}`, `{"n":0}`, `{"n":-0.0}`, `{"n":0e5}`},
		{`{"a":"é","b":1}`, `{"b":1,"a":"\u00e9"}`, `{"b":1.0,"a":"\u00E9"}`},
		{`{"s":"\ud83d\ude00"}`, "{\"s\":\"\U0001F600\"}", `{"s":"\uD83D\uDE00"}`},
	}
	for _, group := range same {
		want := CanonicalDigest(MustParseDocument(group[0]))
		for _, s := range group[1:] {
			if got := CanonicalDigest(MustParseDocument(s)); got != want {
				t.Errorf("%s and %s have different digests", group[0], s)
			}
		}
	}
	different := []string{`{"a":"\ufffd"}`, `{"a":16.000000000000004}`, `{"a":"16"}`, `{"a":[16]}`, `{"a":16}`}
	seen := map[string]string{}
	for _, s := range different {
		dg := CanonicalDigest(MustParseDocument(s))
		if prev, ok := seen[dg]; ok {
			t.Errorf("%s and %s share a digest", prev, s)
		}
		seen[dg] = s
	}
	for _, s := range []string{`{"a":"\ud800"}`, `{"a":"\udfff"}`, "{\"a\":\"\xff\"}", `{"a":1e309}`, `{"\ud800":1}`} {
		if _, err := ParseDocument([]byte(s)); err == nil {
			t.Errorf("%s: accepted, but it has no canonical form", s)
		}
	}
}

// nodeJCS is an independent RFC 8785 implementation in JavaScript, the
// language whose number formatting the RFC adopts: JSON.stringify for
// numbers and strings, keys sorted by the default (UTF-16) sort.
const nodeJCS = `
const canon = (v) => {
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  if (v !== null && typeof v === 'object')
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
  return JSON.stringify(v);
};
const docs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(docs.map((d) => canon(JSON.parse(d)))));
`

// TestCanonicalAgreesWithNode is the differential test against node (the
// real tier tiers.NodeCanonical). It skips when node is missing, unless
// OCCKIT_REQUIRE_INTEGRATION=1.
func TestCanonicalAgreesWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		tiers.NodeCanonical.Skip(t, "node is not installed (run .ci/setup)")
	}
	run := tiers.NodeCanonical.Start(t)
	r := rand.New(rand.NewSource(1))
	var docs []string
	for i := 0; i < 4000; i++ {
		docs = append(docs, genDiffDoc(r, 0))
	}
	in, _ := json.Marshal(docs)
	cmd := exec.Command(node, "-e", nodeJCS)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(docs) {
		t.Fatalf("node output: %v", err)
	}
	bad := 0
	for i, src := range docs {
		d, err := ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := string(Canonical(d)); got != want[i] {
			if bad++; bad <= 10 {
				t.Errorf("%s\n  occkit %s\n  node   %s", src, got, want[i])
			}
		}
	}
	run.Done(len(docs))
	t.Logf("%d documents compared with node's JSON.stringify, %d differ", len(docs), bad)
}

// genDiffDoc draws a document rich in what canonicalization changes:
// number spellings across the whole double range, keys that sort
// differently by bytes and by UTF-16, and escapes.
func genDiffDoc(r *rand.Rand, depth int) string {
	switch k := r.Intn(6); {
	case depth > 3 || k == 0:
		return genDiffNumber(r)
	case k == 1:
		return genDiffString(r)
	case k == 2:
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = genDiffDoc(r, depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := r.Intn(6)
		seen := map[string]bool{}
		var parts []string
		for i := 0; i < n; i++ {
			k := genDiffString(r)
			var dec string
			_ = json.Unmarshal([]byte(k), &dec)
			if seen[dec] {
				continue
			}
			seen[dec] = true
			parts = append(parts, k+":"+genDiffDoc(r, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func genDiffNumber(r *rand.Rand) string {
	var f float64
	switch r.Intn(4) {
	case 0:
		f = math.Float64frombits(r.Uint64())
	case 1:
		f = float64(r.Int63n(1<<53)) * math.Pow(10, float64(r.Intn(60)-30))
	case 2:
		f = float64(r.Intn(2000) - 1000)
	default:
		f = r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		f = 1
	}
	switch r.Intn(4) {
	case 0:
		return strconv.FormatFloat(f, 'e', -1, 64)
	case 1:
		return strconv.FormatFloat(f, 'E', 17+r.Intn(5), 64)
	case 2:
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var diffRunes = []rune{'a', 'B', '1', '"', '\\', '/', '\n', 0x1f, 0x7f, 0x80, 'é', '€', 0xe000, 0xfb33, 0xffff, 0x10000, 0x1f600, 0x10ffff, 0x2028}

func genDiffString(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('"')
	for n := r.Intn(4); n > 0; n-- {
		c := diffRunes[r.Intn(len(diffRunes))]
		if r.Intn(3) == 0 || c < 0x20 || c == '"' || c == '\\' {
			// Escaped, as a surrogate pair above U+FFFF.
			if c >= 0x10000 {
				c -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04X`, 0xd800+(c>>10), 0xdc00+(c&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, c)
			}
			continue
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}
