package occkit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestParseDocumentDuplicateKeys_DOC2: a Document never holds an object
// that names a key twice, however the key is spelled, because gjson reads
// the first and encoding/json (and the runtime's JSON.parse) the last.
func TestParseDocumentDuplicateKeys_DOC2(t *testing.T) {
	many := func(n int, dup bool) string {
		var b strings.Builder
		b.WriteString(`{"m":{`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		if dup {
			b.WriteString(`"k7":0`)
		} else {
			b.WriteString(`"last":0`)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	tests := []struct {
		name string
		in   string
		at   occkit.Path // nil-equivalent Root() with ok true means accepted
		ok   bool
	}{
		{"distinct keys", `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, occkit.Root(), true},
		{"same key in sibling objects", `[{"a":1},{"a":1}]`, occkit.Root(), true},
		{"same string as key and value", `{"a":"a","b":"a"}`, occkit.Root(), true},
		{"string after an empty object in an array", `{"a":[{},"a"]}`, occkit.Root(), true},
		{"empty objects then a key", `{"a":{},"b":[{},{}],"c":"a"}`, occkit.Root(), true},
		{"empty object then a repeated key", `{"a":{},"b":1,"a":2}`, occkit.NewPath("a"), false},
		{"top level", `{"a":1,"a":2}`, occkit.NewPath("a"), false},
		{"nested", `{"agents":{"defaults":{"model":"anthropic/a","model":"openai/b"}}}`, occkit.NewPath("agents", "defaults", "model"), false},
		{"inside an array", `{"x":[0,{"k":1,"k":1}]}`, occkit.NewPath("x").Index(1).Key("k"), false},
		{"escaped spelling", `{"a":1,"\u0061":2}`, occkit.NewPath("a"), false},
		{"after a closed child", `{"logging":{"level":"info"},"x":{},"logging":{}}`, occkit.NewPath("logging"), false},
		{"key with a quote", `{"a\"b":1,"a\u0022b":2}`, occkit.NewPath(`a"b`), false},
		{"large object distinct", many(100, false), occkit.Root(), true},
		{"large object", many(100, true), occkit.NewPath("m", "k7"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := occkit.ParseDocument([]byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Fatalf("ParseDocument: %v", err)
				}
			} else {
				checkInvalid(t, err, "DOC-2", tt.at)
			}
			_, err = occkit.MustParseDocument(`{"v":{}}`).SetRaw(occkit.NewPath("v"), []byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Fatalf("SetRaw: %v", err)
				}
			} else {
				want := occkit.NewPath("v")
				for i := 0; i < tt.at.Len(); i++ {
					if k, idx, isIdx := tt.at.Elem(i); isIdx {
						want = want.Index(idx)
					} else {
						want = want.Key(k)
					}
				}
				checkInvalid(t, err, "DOC-2", want)
			}
		})
	}
}
