package occkit_test

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestParseDocumentDeepNesting: a run of '[' far deeper than any document
// must be refused as invalid JSON (DOC-1), not exhaust the stack; depth up
// to encoding/json's bound of 10,000 stays valid.
func TestParseDocumentDeepNesting(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"10,000 levels", nest(10_000), true},
		{"10,001 levels", nest(10_001), false},
		{"20 MB of [", strings.Repeat("[", 20<<20), false},
		{"20 MB of { \"a\":", strings.Repeat(`{"a":`, 4<<20), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := occkit.ParseDocument([]byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Fatalf("ParseDocument: %v", err)
				}
			} else {
				checkInvalid(t, err, "DOC-1", occkit.Root())
			}
			_, err = occkit.MustParseDocument(`{"a":1}`).SetRaw(occkit.NewPath("a"), []byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Fatalf("SetRaw: %v", err)
				}
			} else {
				checkInvalid(t, err, "", occkit.NewPath("a"))
			}
		})
	}
}

func checkInvalid(t *testing.T, err error, rule string, at occkit.Path) {
	t.Helper()
	if err := (occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: at.String(), Rule: rule}).Check(err); err != nil {
		t.Fatal(err)
	}
}

// TestParseDocumentCompactPath: compact input takes the path without the
// compactor and must agree with it: same bytes, same verdict.
func TestParseDocumentCompactPath(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,2.5e-3,true,null,"x\u00e9 \"q\" \\"],"b":{}}`, `"a b"`, `-0`, `[]`,
		`01`, `[1,]`, `{"a":}`, `"\x01"`, `nul`, `"unterminated`, `{"a":"\"}`, `[` + `"\\"` + `]`,
		strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000),
		strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001),
		`["` + strings.Repeat("[", 20_000) + `"]`,
	} {
		compact, errCompact := occkit.ParseDocument([]byte(" " + in)) // white space forces the compactor
		direct, errDirect := occkit.ParseDocument([]byte(in))
		if (errCompact == nil) != (errDirect == nil) || errDirect == nil && direct.String() != compact.String() {
			t.Errorf("%.40q: compactor %v %.40s, direct %v %.40s", in, errCompact, compact, errDirect, direct)
		}
	}
}
