package json5

import (
	"encoding/binary"
	"math"
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

// PlainEnd is the offset of the first byte at or after j that is a
// double quote, a backslash or a control character, or len(s): where the
// plain run of a JSON string's text from j ends. It reads eight bytes at
// a time ([stopMask]); a borrow can flag a byte above a flagged one,
// never below, so the lowest flag is exact.
//
// The loop is stopMask written out over stopWords, read into registers
// once: the compiler writes a constant of 64 bits into each step that
// uses it (five loads of an immediate a word), and the canonical writer
// calls PlainEnd for every string, besides the loader's fast path. Each
// word is read as s[j:j+8] below the last full one, which the compiler
// proves in bounds, rather than as s[j:] (two checks and a re-slice a
// word).
func PlainEnd(s []byte, j int) int {
	if j < 0 || j >= len(s) {
		return j
	}
	q, b, lo, sp, hi := stopWords.quote, stopWords.backslash, stopWords.lo, stopWords.space, stopWords.hi
	for n := len(s) - 8; j <= n; j += 8 {
		x := binary.LittleEndian.Uint64(s[j : j+8])
		if m := (((x ^ q) - lo) | ((x ^ b) - lo) | (x - sp)) &^ x & hi; m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
	}
	for j < len(s) && !strStop[s[j]] {
		j++
	}
	return j
}

// stopWords are the words [stopMask] compares a word of text with, as
// variables: see [PlainEnd].
var stopWords = struct{ quote, backslash, lo, space, hi uint64 }{
	quote: stopLo * '"', backslash: stopLo * '\\', lo: stopLo, space: stopLo * 0x20, hi: stopLo << 7,
}

// stopLo has the low bit of each byte set.
const stopLo = 0x0101010101010101

// stopMask flags (in its high bit) each byte of x that ends a plain run,
// exactly for the lowest one ([PlainEnd]). A byte is flagged when it is
// a quote or a backslash (a zero byte of x^q or x^b: its subtraction
// borrows) or below 0x20, and its own high bit is clear: the high bit of
// x^q and x^b is that of x, since '"' and '\\' have none, so one &^x
// serves the three tests.
func stopMask(x uint64) uint64 {
	const lo, hi = stopLo, stopLo << 7
	q, b := x^(lo*'"'), x^(lo*'\\')
	return ((q - lo) | (b - lo) | (x - lo*0x20)) &^ x & hi
}

// firstStop is [PlainEnd] over the first eight bytes from j, small
// enough to be inlined: most keys and many values of a configuration end
// within them ("id", "name", "openclaw"), which then cost no call. It
// returns where the run ends, or, when it goes on past them (or fewer
// than eight bytes are left), ^k for the k PlainEnd goes on from.
func firstStop(s []byte, j int) int {
	if len(s)-j < 8 {
		return ^j
	}
	if m := stopMask(binary.LittleEndian.Uint64(s[j : j+8])); m != 0 {
		return j + bits.TrailingZeros64(m)/8
	}
	return ^(j + 8)
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
// double. Only an exponent or more than 308 integer digits (whatever
// fraction follows them) can take it past float64, as the general loop
// knows.
func finiteLiteral(lit []byte) bool {
	digits, frac := 0, false
	for _, c := range lit {
		switch {
		case c == 'e' || c == 'E':
			_, err := strconv.ParseFloat(string(lit), 64)
			return err == nil
		case c == '.':
			frac = true
		case isDigit(c) && !frac:
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

// spans is the output of parser.fast: buf[:n], and the pending span
// src[ps:r] read and not yet written. While alias holds, buf is the
// source itself and the output its prefix, written without a copy; it
// is copied (own) before anything else is written after it. Writing
// moves n, and stores a pointer only when buf changes, so that it costs
// no write barrier while the collector runs.
type spans struct {
	src, buf []byte
	n, ps    int
	alias    bool
}

// spansOf takes over the parser's output.
func (p *parser) spansOf() spans {
	w := spans{src: p.src, n: len(p.out), ps: p.pos, alias: p.alias}
	if w.alias {
		w.buf = p.src
	} else {
		w.buf = p.out[:cap(p.out)]
	}
	return w
}

// output returns buf[:n] for the parser, without spare capacity while
// it is the source's prefix (nothing may append to that in place).
func (w *spans) output() []byte {
	if w.alias {
		return w.src[:w.n:w.n]
	}
	return w.buf[:w.n]
}

// flush writes the pending span up to r.
func (w *spans) flush(r int) {
	switch {
	case w.alias && w.n == w.ps:
		w.n = r
	case !w.alias && r-w.ps <= 32 && w.n+32 <= len(w.buf) && w.ps+32 <= len(w.src):
		// A short span (between two runs of white space in an
		// indented document): one 32-byte move, without a call; the
		// bytes past it are overwritten next.
		*(*[32]byte)(w.buf[w.n : w.n+32]) = *(*[32]byte)(w.src[w.ps : w.ps+32])
		w.n += r - w.ps
	default:
		w.write(w.src[w.ps:r])
	}
	w.ps = r
}

// write appends b after an owned copy of the output.
func (w *spans) write(b []byte) {
	if w.alias || len(w.buf)-w.n < len(b) {
		// Sized for the whole document, as the general loop's output
		// is, or doubled when that is too small.
		size := len(w.src)
		if !w.alias || w.n+len(b) > size {
			size = 2*len(w.buf) + len(b)
		}
		buf := make([]byte, size)
		copy(buf, w.buf[:w.n])
		w.buf, w.alias = buf, false
	}
	w.n += copy(w.buf[w.n:], b)
}

// own copies an aliased output into a buffer of its own.
func (w *spans) own() {
	if w.alias {
		w.write(nil)
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
	w.write(piece)
	w.ps = end
}

// space passes the run of JSON white space at r, which is not written,
// and returns its end.
func (w *spans) space(r int) int {
	w.flush(r)
	for r++; r < len(w.src) && isJSONSpace(w.src[r]); r++ {
	}
	w.ps = r
	return r
}

// fast reads plain JSON from p.pos in state st, as the general loop in
// run would, and returns the state to go on in: stDone when the document
// ended, or the state of the piece at p.pos it left to the general loop.
// Each state is a label; st names the one being read, for the stop.
func (p *parser) fast(st int) int {
	s := p.src
	r := p.pos
	w := p.spansOf()
	// afterComma: the last token was a comma, so a closing bracket would
	// be a trailing comma, which only the general loop drops (read in
	// key and elem, where it is exact).
	afterComma := len(p.out) > 0 && p.out[len(p.out)-1] == ','
	o := &p.opts
	var (
		c         byte
		j, end, k int
		ok, canon bool
		// num holds a number's canonical form without a buffer on the
		// heap: the longest (-0.00000 and 17 digits) is 25 bytes.
		num   [32]byte
		piece []byte
	)
	// The string and key limits, math.MaxInt when unlimited, so that
	// each is one comparison.
	maxStr, maxKeys := limitOf(o.MaxStringBytes), limitOf(o.MaxKeys)
	switch st {
	case stAfter:
		goto after
	case stKey:
		goto key
	case stElemOrRB:
		goto elem
	}

value:
	st = stValue
	if r >= len(s) {
		goto stop
	}
	if c = s[r]; c <= ' ' {
		if !isJSONSpace(c) {
			goto stop
		}
		if r = w.space(r); r >= len(s) {
			goto stop
		}
		c = s[r]
	}
	switch c {
	case '{', '[':
		if p.depth >= o.MaxDepth {
			goto stop
		}
		r++
		p.push(c == '[')
		afterComma = false
		if c == '[' {
			goto elem
		}
		goto key
	case '"':
		if j = firstStop(s, r+1); j < 0 {
			j = PlainEnd(s, ^j)
		}
		if j < len(s) && s[j] == '"' {
			if j-r-1 > maxStr {
				goto stop
			}
			r = j + 1
			goto after
		}
		// An escape or a control character: the value is decoded and
		// written canonically, which is often the literal itself (\n,
		// \", \\).
		p.pos, p.trying = r, true
		v, _, err := p.str()
		p.trying = false
		if err != nil || o.RejectLoneSurrogates && HasLoneSurrogate(v) {
			goto stop
		}
		p.scratch = appendBytesString(p.scratch[:0], v)
		w.put(r, p.pos, p.scratch)
		r = p.pos
		goto after
	case 't', 'n':
		if !hasWord(s, r, "true") && !hasWord(s, r, "null") {
			goto stop
		}
		r += 4
		goto after
	case 'f':
		if !hasWord(s, r, "false") {
			goto stop
		}
		r += 5
		goto after
	}
	if c != '-' && !isDigit(c) {
		goto stop
	}
	if end, canon, ok = jsonNumber(s, r); !ok {
		goto stop
	}
	if o.CanonicalNumbers {
		if !canon {
			if piece, ok = AppendCanonicalNumber(num[:0], s[r:end]); !ok {
				goto stop
			}
			w.put(r, end, piece)
		}
	} else if !canon && !finiteLiteral(s[r:end]) {
		goto stop
	}
	r = end

after:
	st = stAfter
	if r < len(s) && s[r] <= ' ' && isJSONSpace(s[r]) {
		r = w.space(r)
	}
	if p.depth == 0 {
		if r < len(s) {
			goto stop
		}
		w.flush(r)
		p.out, p.pos, p.alias = w.output(), r, w.alias
		return stDone
	}
	if r >= len(s) {
		goto stop
	}
	switch c = s[r]; c {
	case ',':
		afterComma = true
		if p.top().array {
			r++
			goto elem
		}
		if p.depth == 1 {
			p.root.last().End = w.n + r - w.ps
		}
		r++
		goto key
	case ']', '}':
		if p.top().array != (c == ']') {
			goto stop
		}
		if p.depth == 1 && c == '}' {
			p.root.last().End = w.n + r - w.ps
		}
		r++
		if !p.popPlain() {
			p.pop()
		}
		goto after
	}
	goto stop

key:
	st = stKey
	goto open
elem:
	st = stElemOrRB
open:
	// A member or element, or the end of an empty container.
	if r < len(s) && s[r] <= ' ' && isJSONSpace(s[r]) {
		r = w.space(r)
	}
	if r >= len(s) {
		goto stop
	}
	if c = s[r]; c == '}' && st == stKey || c == ']' && st == stElemOrRB {
		if afterComma {
			goto stop
		}
		r++
		if !p.popPlain() {
			p.pop()
		}
		goto after
	}
	if st == stElemOrRB {
		// Only where a value starts: before a comment, the general
		// loop would still take a ']' after it.
		if !valueStart[c] {
			goto stop
		}
		goto value
	}
	if c != '"' {
		goto stop
	}
	if j = firstStop(s, r+1); j < 0 {
		j = PlainEnd(s, ^j)
	}
	if j >= len(s) || s[j] != '"' || j-r-1 > maxStr {
		goto stop
	}
	end = j + 1
	if k = end; k < len(s) && s[k] != ':' {
		// White space before the colon (an indented document's
		// rare form): the colon is tested first.
		for ; k < len(s) && isJSONSpace(s[k]); k++ {
		}
	}
	if k >= len(s) || s[k] != ':' {
		goto stop
	}
	if p.keys >= maxKeys {
		goto stop
	}
	if o.RejectDuplicateKeys {
		// The first sixteen keys of an object while the arena's own
		// array holds them, compared here as parser.seen would (its
		// bloom first); the rest through it.
		f := p.top()
		if f.table == 0 && p.nkeys < inlineKeys && p.nkeys-f.base < 16 {
			// Compared with each only when the bloom says it may
			// be one of them.
			if bit := keyBit(s[r:end]); f.bloom&bit != 0 {
				for _, x := range p.arena0[f.base:p.nkeys] {
					if x.len() == end-r && string(p.key(x)) == string(s[r:end]) {
						goto stop
					}
				}
			} else {
				f.bloom |= bit
			}
			p.arena0[p.nkeys] = keyRef{^r, end}
			p.nkeys++
		} else if p.seen(f, keyRef{^r, end}) {
			goto stop
		}
	}
	p.keys++
	if p.depth == 1 {
		// The pending span src[w.ps:r] is written as it is: the key
		// lands at w.n + r - w.ps, its value after it and the colon.
		at := w.n + r - w.ps
		p.root.add(at, at+end-r+1)
	}
	if k > end {
		w.flush(end)
		w.ps = k
	}
	r = k + 1
	goto value

stop:
	// The general loop writes to an output of its own.
	w.flush(r)
	w.own()
	p.out, p.pos, p.alias = w.output(), r, false
	return st
}

// limitOf is the limit n, or math.MaxInt for none (n <= 0).
func limitOf(n int) int {
	if n <= 0 {
		return math.MaxInt
	}
	return n
}

// jsonNumber reads the strict JSON number at s[r:] and returns its end.
// It reports false for anything else, which the general loop reads: a
// JSON5 form (a hexadecimal number, a leading or trailing point, a '+'),
// a leading zero, an empty fraction or exponent. canon reports, as it
// reads, what [IsCanonicalNumber] reports of the number: that it is its
// own RFC 8785 form (so also finite).
func jsonNumber(s []byte, r int) (end int, canon, ok bool) {
	k := r
	if s[k] == '-' {
		k++
	}
	d := k
	if k >= len(s) || !isDigit(s[k]) {
		return 0, false, false
	}
	zero := s[k] == '0'
	if zero {
		k++
		if k < len(s) && (isDigit(s[k]) || s[k] == 'x' || s[k] == 'X') {
			return 0, false, false
		}
	} else {
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	// At most 15 significant digits (DBL_DIG), not -0.
	canon = k-d <= 15 && !(zero && d > r)
	if k < len(s) && s[k] == '.' {
		k++
		f := k
		if k >= len(s) || !isDigit(s[k]) {
			return 0, false, false
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		// A fraction not ending in 0; below 1, at most five zeros after
		// the point; the significant digits still at most 15.
		sig := f - 1 - d + k - f
		if zero {
			z := f
			for z < k && s[z] == '0' {
				z++
			}
			sig = k - z
			canon = z-f <= 5
		}
		canon = canon && s[k-1] != '0' && sig <= 15
	}
	if k < len(s) && (s[k] == 'e' || s[k] == 'E') {
		canon = false
		k++
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k >= len(s) || !isDigit(s[k]) {
			return 0, false, false
		}
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	return k, canon, true
}
