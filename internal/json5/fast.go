package json5

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// The fast path. Most documents are strict JSON, and most of a strict
// JSON document is already its own output: only white space between
// tokens goes, and (with CanonicalNumbers) the occasional number or
// string is rewritten. parser.fast reads such text with a loop of its
// own and writes it as spans of the source: the text between two runs of
// white space or rewritten pieces is written with one copy, or, while the
// output is still the source's own prefix (parser.alias: compact text,
// nothing rewritten yet), with none.
//
// It keeps the parser's state exactly as the general loop keeps it (the
// stack, the duplicate-detection sets, the key count and the output), and
// it stops, before the piece, at anything it does not read the general
// loop's way: JSON5 forms, comments and other white space, a key with an
// escape, any limit reached, any error. The general loop then takes one
// step from the same state, so that what it writes and what it refuses
// (kind, position, path and message) are its own.

// strStop marks the bytes that end the plain run of a double-quoted
// string: its quote, a backslash and the control characters.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// plainEnd returns the offset of the first byte at or after j that ends
// the plain run of a double-quoted string, or len(s). It tests eight
// bytes at a time: a byte of x is flagged in m when it is a quote or a backslash
// (a zero byte of x^q or x^b) or below 0x20; a borrow can flag a byte
// above a flagged one, never below, so the lowest flag is exact.
func plainEnd(s []byte, j int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; j+8 <= len(s); j += 8 {
		x := binary.LittleEndian.Uint64(s[j:])
		q, b := x^(lo*'"'), x^(lo*'\\')
		if m := ((q-lo)&^q | (b-lo)&^b | (x-lo*0x20)&^x) & hi; m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
	}
	for j < len(s) && !strStop[s[j]] {
		j++
	}
	return j
}

// valueStart marks the bytes that start a value parser.fast reads.
var valueStart = func() (t [256]bool) {
	for _, c := range []byte("{[\"-0123456789tfn") {
		t[c] = true
	}
	return t
}()

// hasWord reports whether s holds w at r.
func hasWord(s []byte, r int, w string) bool {
	return len(s)-r >= len(w) && string(s[r:r+len(w)]) == w
}

// finiteLiteral reports whether the JSON number lit is finite as a
// double. Only an exponent or more than 308 integer digits can take it
// past float64, as the general loop knows.
func finiteLiteral(lit []byte) bool {
	digits := 0
	for _, c := range lit {
		switch {
		case c == 'e' || c == 'E':
			_, err := strconv.ParseFloat(string(lit), 64)
			return err == nil
		case c == '.':
			digits = -1 << 30
		case isDigit(c):
			digits++
		}
	}
	if digits > 308 {
		_, err := strconv.ParseFloat(string(lit), 64)
		return err == nil
	}
	return true
}

// isJSONSpace reports JSON's own white space.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// spans is the output of parser.fast: out, and the pending span
// src[ps:r] read and not yet written. While alias holds, out is the
// source's own prefix (src[:len(out):len(out)]), written without a copy;
// it is copied (own) before anything else is written after it.
type spans struct {
	src   []byte
	out   []byte
	ps    int
	alias bool
}

// flush writes the pending span up to r.
func (w *spans) flush(r int) {
	if w.alias && len(w.out) == w.ps {
		w.out = w.src[:r:r]
	} else {
		w.own()
		w.out = append(w.out, w.src[w.ps:r]...)
	}
	w.ps = r
}

// own copies an aliased output into a buffer of its own, sized for the
// whole document as the general loop's is.
func (w *spans) own() {
	if w.alias {
		w.out = append(make([]byte, 0, len(w.src)), w.out...)
		w.alias = false
	}
}

// put writes piece, the canonical form of the source text src[r:end],
// at r, and starts the pending span at end. A piece that is the text
// itself stays in the pending span.
func (w *spans) put(r, end int, piece []byte) {
	if string(piece) == string(w.src[r:end]) {
		return
	}
	w.flush(r)
	w.own()
	w.out = append(w.out, piece...)
	w.ps = end
}

// fast reads plain JSON from p.pos in state st, as the general loop in
// run would, and returns the state to go on in: stDone when the document
// ended, or the state of the piece at p.pos it left to the general loop.
func (p *parser) fast(st int) int {
	s := p.src
	r := p.pos
	w := spans{src: s, out: p.out, ps: r, alias: p.alias}
	// afterComma: the last token was a comma (set in stKey and
	// stElemOrRB only).
	afterComma := len(w.out) > 0 && w.out[len(w.out)-1] == ','
	canonical, dups := p.opts.CanonicalNumbers, p.opts.RejectDuplicateKeys
	maxStr := p.opts.MaxStringBytes
	for {
		if r < len(s) && isJSONSpace(s[r]) {
			w.flush(r)
			for r++; r < len(s) && isJSONSpace(s[r]); r++ {
			}
			w.ps = r
		}
		if r >= len(s) {
			if st == stAfter && len(p.stack) == 0 {
				w.flush(r)
				p.out, p.pos, p.alias = w.out, r, w.alias
				return stDone
			}
			break
		}
		c := s[r]
		if st == stKey && c == '}' || st == stElemOrRB && c == ']' {
			// An empty container, or a trailing comma, which only the
			// general loop drops.
			if afterComma {
				goto stop
			}
			r++
			p.pop()
			st = stAfter
			continue
		}
		switch st {
		case stKey:
			if c != '"' {
				goto stop
			}
			j := plainEnd(s, r+1)
			if j >= len(s) || s[j] != '"' || maxStr > 0 && j-r-1 > maxStr {
				goto stop
			}
			end := j + 1
			k := end
			for k < len(s) && isJSONSpace(s[k]) {
				k++
			}
			if k >= len(s) || s[k] != ':' {
				goto stop
			}
			if p.opts.MaxKeys > 0 && p.keys >= p.opts.MaxKeys {
				goto stop
			}
			if dups && p.seen(&p.stack[len(p.stack)-1], keyRef{^r, end}) {
				goto stop
			}
			p.keys++
			if k > end {
				w.flush(end)
				w.ps = k
			}
			r = k + 1
			st = stValue
		case stElemOrRB:
			// Only where a value starts: before a comment, the general
			// loop would still take a ']' after it.
			if !valueStart[c] {
				goto stop
			}
			st = stValue
		case stAfter:
			if len(p.stack) == 0 {
				goto stop
			}
			arr := p.stack[len(p.stack)-1].array
			switch {
			case c == ',':
				r++
				afterComma = true
				if arr {
					st = stElemOrRB
				} else {
					st = stKey
				}
			case c == ']' && arr, c == '}' && !arr:
				r++
				p.pop()
			default:
				goto stop
			}
		case stValue:
			switch {
			case c == '{' || c == '[':
				if len(p.stack) >= p.opts.MaxDepth {
					goto stop
				}
				r++
				p.push(c == '[')
				st, afterComma = stKey, false
				if c == '[' {
					st = stElemOrRB
				}
				continue
			case c == '"':
				j := plainEnd(s, r+1)
				if j < len(s) && s[j] == '"' {
					if maxStr > 0 && j-r-1 > maxStr {
						goto stop
					}
					r = j + 1
					break
				}
				// An escape or a control character: the value is
				// decoded and written canonically, which is often the
				// literal itself (\n, \", \\).
				p.pos = r
				v, _, err := p.str()
				if err != nil || p.opts.RejectLoneSurrogates && HasLoneSurrogate(v) {
					goto stop
				}
				p.scratch = appendBytesString(p.scratch[:0], v)
				w.put(r, p.pos, p.scratch)
				r = p.pos
			case c == '-' || c >= '0' && c <= '9':
				end, ok := jsonNumber(s, r)
				if !ok {
					goto stop
				}
				lit := s[r:end]
				if canonical {
					if !IsCanonicalNumber(lit) {
						if p.scratch, ok = AppendCanonicalNumber(p.scratch[:0], lit); !ok {
							goto stop
						}
						w.put(r, end, p.scratch)
					}
				} else if !finiteLiteral(lit) {
					goto stop
				}
				r = end
			case c == 't' && hasWord(s, r, "true"), c == 'n' && hasWord(s, r, "null"):
				r += 4
			case c == 'f' && hasWord(s, r, "false"):
				r += 5
			default:
				goto stop
			}
			st, afterComma = stAfter, false
		}
	}
stop:
	// The general loop writes to an output of its own.
	w.flush(r)
	w.own()
	p.out, p.pos, p.alias = w.out, r, false
	return st
}

// jsonNumber reads the strict JSON number at s[r:] and returns its end.
// It reports false for anything else, which the general loop reads: a
// JSON5 form (a hexadecimal number, a leading or trailing point, a '+'),
// a leading zero, an empty fraction or exponent.
func jsonNumber(s []byte, r int) (int, bool) {
	k := r
	if s[k] == '-' {
		k++
	}
	if k >= len(s) || !isDigit(s[k]) {
		return 0, false
	}
	if s[k] == '0' {
		k++
		if k < len(s) && (isDigit(s[k]) || s[k] == 'x' || s[k] == 'X') {
			return 0, false
		}
	} else {
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	if k < len(s) && s[k] == '.' {
		k++
		if k >= len(s) || !isDigit(s[k]) {
			return 0, false
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	if k < len(s) && (s[k] == 'e' || s[k] == 'E') {
		k++
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k >= len(s) || !isDigit(s[k]) {
			return 0, false
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	return k, true
}
