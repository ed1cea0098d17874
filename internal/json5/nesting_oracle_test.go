package json5

import (
	"bytes"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit/internal/json5/internal/reference"
)

// The parser keeps its first frames, keys and key tables in arrays of its
// own (inlineFrames, inlineKeys, inlineTables) and the rest on the heap.
// These oracles compare it with the frozen transcoder (package reference)
// on documents shaped to cross those bounds: deep chains of objects and
// arrays, each level with its own keys (many enough for a table at some
// levels), a repeated key placed anywhere, and damage after it.

// nestedDoc writes the document that shape describes: one level per
// byte, outermost first. A level's byte gives its key count (low five
// bits, times three past 16 for a table) and its kind (an array, an
// object, or an object whose keys are escaped or single-quoted). dup, when
// below the number of keys written, repeats that key (counted over the
// whole document) in the object that holds it, after its own keys; tail
// is appended after the document (damage or nothing).
func nestedDoc(shape []byte, dup int, tail string) []byte {
	var b bytes.Buffer
	keyNo := 0
	type open struct {
		array  bool
		dupKey string // the key to repeat when this level closes
	}
	var stack []open
	for level, c := range shape {
		n := int(c & 31)
		if n > 16 {
			n = 16 + 3*(n-16)
		}
		kind := c >> 5
		if kind == 0 {
			b.WriteString("[")
			for i := range n % 4 {
				fmt.Fprintf(&b, "%d,", i)
			}
			stack = append(stack, open{array: true})
			continue
		}
		b.WriteString("{")
		o := open{}
		for i := range n {
			var key string
			switch kind {
			case 1:
				key = fmt.Sprintf(`"l%d\"k%d"`, level, i)
			case 2:
				key = fmt.Sprintf(`'l%dk%d'`, level, i)
			default:
				key = fmt.Sprintf(`"l%dk%d"`, level, i)
			}
			if keyNo == dup {
				o.dupKey = fmt.Sprintf(`"l%dk%d"`, level, i)
				if kind == 1 {
					o.dupKey = fmt.Sprintf(`"l%d\u0022k%d"`, level, i)
				}
			}
			keyNo++
			fmt.Fprintf(&b, "%s:%d,", key, i)
		}
		b.WriteString(`"next":`)
		stack = append(stack, o)
	}
	b.WriteString("null")
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].array {
			b.WriteString("]")
			continue
		}
		if stack[i].dupKey != "" {
			b.WriteString("," + stack[i].dupKey + ":true")
		}
		b.WriteString(`,"after":{"x":1}}`)
	}
	b.WriteString(tail)
	return b.Bytes()
}

func TestTranscodeMatchesReferenceNested(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		levels := rapid.IntRange(0, 48).Draw(t, "levels")
		shape := make([]byte, levels)
		keys := 0
		for i := range shape {
			kind := rapid.IntRange(0, 7).Draw(t, "kind")
			n := rapid.IntRange(8, 16).Draw(t, "keys")
			if rapid.IntRange(0, 3).Draw(t, "table") == 0 {
				n = rapid.IntRange(17, 31).Draw(t, "many keys")
			}
			shape[i] = byte(kind<<5 | n)
			if kind != 0 {
				keys += 16 + 3*max(n-16, 0) - 16 + min(n, 16)
			}
		}
		dup := rapid.IntRange(-1, keys).Draw(t, "dup")
		tail := rapid.SampledFrom([]string{"", "", " ", "}", ",", "x"}).Draw(t, "tail")
		opts := drawOptions(t)
		if rapid.Bool().Draw(t, "deep limits") {
			opts.MaxDepth = rapid.IntRange(1, 60).Draw(t, "MaxDepth")
			opts.MaxKeys = rapid.IntRange(0, 500).Draw(t, "MaxKeys")
		}
		compareReference(t, nestedDoc(shape, dup, tail), opts, rapid.Bool().Draw(t, "normalize"))
	})
}

// FuzzNestingOracle compares the transcoders on nestedDoc's documents; o
// picks the options as in FuzzTranscodeMatchesReference, with the depth
// and key limits its own.
func FuzzNestingOracle(f *testing.F) {
	f.Add([]byte{0x70, 0x20, 0x00, 0x71, 0x45, 0x31, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x60}, 30, uint8(0x41), uint16(0), "")
	f.Add(bytes.Repeat([]byte{0x61}, 40), 300, uint8(0x41), uint16(0), "")
	f.Add(bytes.Repeat([]byte{0x7f, 0x00}, 20), 900, uint8(0x7f), uint16(30), "x")
	f.Add(bytes.Repeat([]byte{0x3f}, 10), 150, uint8(0x07), uint16(0), "")
	f.Fuzz(func(t *testing.T, shape []byte, dup int, o uint8, depth uint16, tail string) {
		if len(shape) > 200 || len(tail) > 16 {
			return
		}
		opts := reference.Options{
			RejectDuplicateKeys: o&1 != 0, CanonicalNumbers: o&2 != 0, RejectLoneSurrogates: o&4 != 0,
			MaxDepth: int(depth % 256),
		}
		if o&8 != 0 {
			opts.MaxKeys = int(o) * 3
		}
		if o&16 != 0 {
			opts.MaxStringBytes = 6
		}
		compareReference(t, nestedDoc(shape, dup, tail), opts, o&64 != 0)
	})
}
