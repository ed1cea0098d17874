package adversarial_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

var bad = occkit.CodeInvalidRequest

// TestLoadRefuses_DOC1_DOC2: hostile documents are refused by compile.Load
// with a 400 that names the rule and the offending setting, and Load
// neither returns a document nor touches its input.
func TestLoadRefuses_DOC1_DOC2(t *testing.T) {
	manyKeys := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"m":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":0`, i)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	tests := []struct {
		name string
		src  string
		lim  compile.Limits
		want want
	}{
		// DOC-2: duplicate keys, however spelled.
		{"duplicate key", `{"a":1,"a":2}`, compile.Limits{}, want{400, bad, "a", "DOC-2"}},
		{"duplicate nested Agent", `{agents: {entries: {main: {}, 'main': {}}}}`, compile.Limits{}, want{400, bad, "agents.entries.main", "DOC-2"}},
		{"duplicate by escape", `{"logging":{},"\u006cogging":{"level":"debug"}}`, compile.Limits{}, want{400, bad, "logging", "DOC-2"}},
		{"duplicate __proto__", `{"__proto__":{},"__proto__":{}}`, compile.Limits{}, want{400, bad, "__proto__", "DOC-2"}},
		// DOC-2: nesting. The path names the container past the limit.
		{"65 levels", nest("[", "]", 65), compile.Limits{}, want{400, bad, indexPath(64), "DOC-2"}},
		{"65 levels of objects", objNest(65), compile.Limits{}, want{400, bad, strings.TrimSuffix(strings.Repeat("a.", 64), "."), "DOC-2"}},
		{"10,000 levels", nest("[", "]", 10_000), compile.Limits{}, want{400, bad, indexPath(64), "DOC-2"}},
		{"20 MB run of [", strings.Repeat("[", 20<<20), compile.Limits{}, want{400, bad, "", "DOC-2"}},
		{"20 MB run of [ under a 32 MB limit", strings.Repeat("[", 20<<20), compile.Limits{MaxBytes: 32 << 20}, want{400, bad, indexPath(64), "DOC-2"}},
		{"depth limit is capped at 10,000", strings.Repeat("[", 20<<20), compile.Limits{MaxBytes: 32 << 20, MaxDepth: 1 << 30}, want{400, bad, indexPath(compile.HardMaxDepth), "DOC-2"}},
		// DOC-2: sizes.
		{"string over the limit", `{"a":"` + strings.Repeat("x", compile.DefaultMaxStringBytes+1) + `"}`, compile.Limits{}, want{400, bad, "a", "DOC-2"}},
		{"escaped string over the limit", `{"a":"` + strings.Repeat(`\u0078`, 9) + `"}`, compile.Limits{MaxStringBytes: 8}, want{400, bad, "a", "DOC-2"}},
		{"key over the limit", `{"` + strings.Repeat("k", 9) + `":1}`, compile.Limits{MaxStringBytes: 8}, want{400, bad, "", "DOC-2"}},
		{"array over the size limit", `{"a":[` + strings.Repeat("0,", 1<<20) + `0]}`, compile.Limits{}, want{400, bad, "", "DOC-2"}},
		{"too many keys", manyKeys(compile.DefaultMaxKeys + 1), compile.Limits{}, want{400, bad, "m.k99999", "DOC-2"}},
		// DOC-1: encoding.
		{"invalid UTF-8 in a value", "{\"a\":\"\xff\xfe\"}", compile.Limits{}, want{400, bad, "", "DOC-1"}},
		{"invalid UTF-8 in a key", "{\"\xc0\xaf\":1}", compile.Limits{}, want{400, bad, "", "DOC-1"}},
		{"UTF-8 encoded surrogate", "{\"a\":\"\xed\xa0\x80\"}", compile.Limits{}, want{400, bad, "", "DOC-1"}},
		{"truncated UTF-8 sequence", "{\"a\":\"\xe2\x80\"}", compile.Limits{}, want{400, bad, "", "DOC-1"}},
		{"NUL byte", "{\"a\":1}\x00", compile.Limits{}, want{400, bad, "", "DOC-1"}},
		// DOC-1: numbers JSON cannot hold.
		{"NaN", `{"agents":{"defaults":{"maxConcurrent":NaN}}}`, compile.Limits{}, want{400, bad, "agents.defaults.maxConcurrent", "DOC-1"}},
		{"Infinity", `{"a":Infinity}`, compile.Limits{}, want{400, bad, "a", "DOC-1"}},
		{"-Infinity", `{"a":[-Infinity]}`, compile.Limits{}, want{400, bad, "a[0]", "DOC-1"}},
		{"1e999", `{"agents":{"defaults":{"maxConcurrent":1e999}}}`, compile.Limits{}, want{400, bad, "agents.defaults.maxConcurrent", "DOC-1"}},
		{"-1e999", `{"a":-1e999}`, compile.Limits{}, want{400, bad, "a", "DOC-1"}},
		{"hex beyond float64", `{a: 0x` + strings.Repeat("f", 300) + `}`, compile.Limits{}, want{400, bad, "a", "DOC-1"}},
		// DOC-4: $include without roots.
		{"include traversal without roots", `{"$include":"../../etc/passwd"}`, compile.Limits{}, want{400, bad, "$include", "DOC-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			before := bytes.Clone(src)
			doc, err := compile.Load(src, compile.LoadOptions{Limits: tt.lim})
			refused(t, err, tt.want)
			if !bytes.Equal(src, before) {
				t.Error("Load changed its input")
			}
			if !doc.Equal(occkit.Document{}) {
				t.Errorf("refusal returned a document %.80s", doc)
			}
			if got := occkit.First(err).HTTPStatus(); got != http.StatusBadRequest {
				t.Errorf("status %d", got)
			}
		})
	}
}

// TestLoadAccepts_DOC3: hostile-looking but valid input loads, byte for
// byte: prototype-named keys are ordinary keys (DOC-3), -0 and an
// underflowing exponent are finite numbers, and 64 levels is the limit,
// not past it.
func TestLoadAccepts_DOC3(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"__proto__ and constructor keys", `{"__proto__":{"polluted":true},"constructor":{"prototype":{}},"agents":{"entries":{}}}`,
			`{"__proto__":{"polluted":true},"constructor":{"prototype":{}},"agents":{"entries":{}}}`},
		{"JSON5 __proto__ key", `{__proto__: 1}`, `{"__proto__":1}`},
		{"-0 loads as 0 (RFC 8785 form)", `{"a":-0,"b":-0.0}`, `{"a":0,"b":0}`},
		{"underflow is finite: 0", `{"a":1e-999}`, `{"a":0}`},
		{"largest finite", `{"a":1.7976931348623157e308}`, `{"a":1.7976931348623157e+308}`},
		{"64 levels", `{"a":` + nest("[", "]", 63) + `}`, `{"a":` + nest("[", "]", 63) + `}`},
		{"64 levels of objects", objNest(64), objNest(64)},
		{"raw control character is JSON5 and gets escaped", "{\"a\":\"x\x1by\"}", `{"a":"x\u001by"}`},
		{"bidi and control escapes are data", `{"a":"\u202e\u2066\u001b"}`, "{\"a\":\"\u202e\u2066\\u001b\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := compile.Load([]byte(tt.src), compile.LoadOptions{})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if doc.String() != tt.want {
				t.Fatalf("Load = %.120s, want %.120s", doc, tt.want)
			}
		})
	}
}

// objNest is n nested objects, {"a":{"a":…1…}}.
func objNest(n int) string {
	return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
}
