package compile

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// naiveSubstitute is OpenClaw's substituteString as it reads: at every
// '$', look for the next '}' from there and test the text between with
// the name pattern. It is the definition the linear scanner must agree
// with (quadratic on "${" without a closing brace, which is the point).
func naiveSubstitute(s string, lookup func(string) (string, bool)) (string, error) {
	name := regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)
	kind := func(ref string) refKind {
		if name.MatchString(ref) {
			return refEnv
		}
		if i := strings.IndexByte(ref, ':'); i > 0 && (ref[:i] == "pass" || ref[:i] == "gopass") {
			return refSecret
		}
		return refNone
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], "$${") {
			if end := strings.IndexByte(s[i+3:], '}'); end >= 0 && kind(s[i+3:i+3+end]) != refNone {
				b.WriteString("${" + s[i+3:i+3+end] + "}")
				i += 3 + end
				continue
			}
		}
		if strings.HasPrefix(s[i:], "${") {
			if end := strings.IndexByte(s[i+2:], '}'); end >= 0 {
				switch ref := s[i+2 : i+2+end]; kind(ref) {
				case refEnv:
					v, ok := lookup(ref)
					if !ok || v == "" {
						return "", errors.New("missing")
					}
					b.WriteString(v)
					i += 2 + end
					continue
				case refSecret:
					return "", errors.New("secret")
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

// adversarialRefs draws strings made of the pieces that make a reference
// scanner work: openings without a close, escapes, names cut short,
// secret prefixes, long runs of one piece.
func adversarialRefs(t *rapid.T) string {
	pieces := []string{"${", "$${", "$", "{", "}", "A", "a", "_", "9", ":", "pass:", "gopass:", "${A}", "$${A}", "${MISSING}", "${lower}", "é", "\n"}
	var b strings.Builder
	for n := rapid.IntRange(0, 12).Draw(t, "runs"); n > 0; n-- {
		p := rapid.SampledFrom(pieces).Draw(t, "piece")
		b.WriteString(strings.Repeat(p, rapid.IntRange(1, 3000).Draw(t, "repeat")))
	}
	return b.String()
}

// TestSubstituteLinear: DOC-2, DOC-4 — the scanner gives OpenClaw's
// answer and examines at most a constant number of bytes per input byte
// (counted by the scanner, never timed), on strings built to make a naive
// scanner quadratic.
func TestSubstituteLinear(t *testing.T) {
	lookup := func(name string) (string, bool) { return "v" + name, name != "MISSING" }
	rapid.Check(t, func(t *rapid.T) {
		s := adversarialRefs(t)
		var sc refScanner
		got, _, err := sc.substitute(s, 1<<40, lookup)
		want, werr := naiveSubstitute(s, lookup)
		if (err == nil) != (werr == nil) {
			t.Fatalf("scanner error %v, definition error %v", err, werr)
		}
		if err == nil && got != want {
			t.Fatalf("scanner %q, definition %q", got, want)
		}
		if sc.read > 3*len(s)+8 {
			t.Fatalf("examined %d bytes of a %d-byte string", sc.read, len(s))
		}
	})
}

// TestSubstituteBombs: DOC-2 — the inputs that were quadratic (issue 31:
// 500,000 "${" took seconds) examine a constant number of bytes per input
// byte, and loading them allocates within the package doc's bound.
func TestSubstituteBombs(t *testing.T) {
	lookup := func(string) (string, bool) { return "value", true }
	for _, tt := range []struct{ name, s string }{
		{"500,000 ${ without a close", strings.Repeat("${", 500_000)},
		{"500,000 ${ and one close at the end", strings.Repeat("${", 500_000) + "}"},
		{"500,000 $${ and one close at the end", strings.Repeat("$${", 500_000) + "}"},
		{"a long name cut by ${ repeatedly", strings.Repeat("${"+strings.Repeat("A", 50), 20_000) + "}"},
		{"secret prefixes without a close", strings.Repeat("${pass:", 200_000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var sc refScanner
			if _, _, err := sc.substitute(tt.s, 1<<40, lookup); err != nil {
				t.Fatal(err)
			}
			if sc.read > 3*len(tt.s)+8 {
				t.Errorf("examined %d bytes of a %d-byte string", sc.read, len(tt.s))
			}
			src := []byte(`{"a":"` + tt.s + `"}`)
			opts := LoadOptions{Lookup: lookup}
			var lerr error
			alloc, _ := allocated(func() { _, lerr = Load(src, opts) })
			if lerr != nil {
				var e *occkit.Error
				if !errors.As(lerr, &e) {
					t.Fatalf("unstructured error %v", lerr)
				}
			}
			if max := bound(src, opts); alloc > max {
				t.Errorf("allocated %d bytes, bound %d", alloc, max)
			}
		})
	}
}
