package json5

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxDepth bounds nesting when [Options.MaxDepth] is zero.
const DefaultMaxDepth = 1000

// maxHexDigits is the longest hexadecimal literal (significant digits)
// that is still finite as a double: 16^256 = 2^1024.
const maxHexDigits = 256

// Options tune [Transcode]. The zero value transcodes with nesting bounded
// by [DefaultMaxDepth] and no other limit.
type Options struct {
	// MaxDepth is the deepest nesting allowed: the top-level value has depth
	// 1 and each object or array inside another adds 1. Zero means
	// DefaultMaxDepth.
	MaxDepth int
	// MaxStringBytes, when positive, bounds the decoded length in bytes of
	// every string value and key.
	MaxStringBytes int
	// MaxKeys, when positive, bounds the total number of object members in
	// the document.
	MaxKeys int
	// RejectDuplicateKeys refuses an object that names the same key twice
	// (compared after decoding, so "a" and 'a' and a collide).
	RejectDuplicateKeys bool
	// CanonicalNumbers writes every number in its RFC 8785 form
	// ([AppendNumber]: 16.0, 1.6e1 and 0x10 all become 16), so that two
	// spellings of one value give the same bytes. Without it decimal
	// numbers are kept as written and hexadecimal ones become their exact
	// decimal integer.
	CanonicalNumbers bool
	// RejectLoneSurrogates refuses a string or key holding a \u escape of
	// a UTF-16 surrogate that is not half of a pair: it has no UTF-8 form,
	// so it could only be replaced (making two different texts one
	// value) or kept as an escape no canonical form allows.
	RejectLoneSurrogates bool
	// OnToken, when set, is told of every piece of text the parser reads,
	// in order, as it reads it: containers opening and closing, keys,
	// scalars and comments. When parsing fails, the pieces told so far
	// are the ones read before the failure; the failing piece is not told.
	OnToken func(Token)
}

// TokenKind classifies a [Token].
type TokenKind uint8

// The kinds of [Token].
const (
	// TokenOpen is '{' or '['.
	TokenOpen TokenKind = iota + 1
	// TokenClose is '}' or ']'.
	TokenClose
	// TokenKey is an object key, quoted or an identifier.
	TokenKey
	// TokenString is a string value.
	TokenString
	// TokenLiteral is a number, true, false or null.
	TokenLiteral
	// TokenComment is a // or /* */ comment, from its first slash to its
	// end (a line comment ends before its line terminator).
	TokenComment
)

// Token is one piece of the text, src[Start:End]. Value is the decoded
// key or string of a TokenKey or TokenString (nil otherwise); it is only
// valid during the call.
type Token struct {
	Kind       TokenKind
	Start, End int
	Value      []byte
}

// tell reports a token to Options.OnToken.
func (p *parser) tell(k TokenKind, start int, value []byte) {
	if p.opts.OnToken != nil {
		p.opts.OnToken(Token{Kind: k, Start: start, End: p.pos, Value: value})
	}
}

// Kind classifies an [Error].
type Kind int

// The kinds of error Transcode reports.
const (
	// KindSyntax: the text is not JSON5.
	KindSyntax Kind = iota + 1
	// KindEncoding: the text is not valid UTF-8.
	KindEncoding
	// KindNonFinite: Infinity or NaN, which JSON cannot hold.
	KindNonFinite
	// KindNumber: a number too large to be finite (a decimal literal beyond
	// float64 or a hexadecimal one of more than 256 significant digits).
	KindNumber
	// KindDepth: nesting deeper than Options.MaxDepth.
	KindDepth
	// KindString: a string longer than Options.MaxStringBytes.
	KindString
	// KindKeys: more object members than Options.MaxKeys.
	KindKeys
	// KindDuplicateKey: an object names a key twice.
	KindDuplicateKey
	// KindSurrogate: a string holds a lone UTF-16 surrogate (only with
	// Options.RejectLoneSurrogates).
	KindSurrogate
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindSyntax:
		return "syntax"
	case KindEncoding:
		return "encoding"
	case KindNonFinite:
		return "non-finite number"
	case KindNumber:
		return "number out of range"
	case KindDepth:
		return "depth"
	case KindString:
		return "string length"
	case KindKeys:
		return "key count"
	case KindDuplicateKey:
		return "duplicate key"
	case KindSurrogate:
		return "lone surrogate"
	}
	return "unknown"
}

// PathElem is one step of an [Error]'s location: an object key (decoded)
// or an array index.
type PathElem struct {
	Key     string
	Index   int
	IsIndex bool
}

// Error is a transcoding failure. Msg comes from a fixed vocabulary and
// never quotes the document.
type Error struct {
	Kind Kind
	// Line and Column are 1-based; Column counts code points.
	Line, Column int
	// Offset is the byte offset of the failure.
	Offset int
	// Path is the location the parser had reached: the enclosing keys and
	// indexes, ending with the offending member or element when known.
	Path []PathElem
	Msg  string
}

// Error renders "json5: line L, column C: msg".
func (e *Error) Error() string {
	return fmt.Sprintf("json5: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Normalized is compact JSON that [Normalize] wrote: valid, no object
// naming a key twice, every string valid UTF-8 without a lone surrogate,
// every number finite and in its RFC 8785 form, at most [MaxNormalizedDepth]
// levels deep. Only
// this package makes one, so holding one proves all of that without
// reading the bytes again. The zero Normalized holds no bytes.
//
// It also knows where the members of its root object are
// ([Normalized.Members]), written down as the bytes were written, so
// that a reader of the root's members does not have to find them.
type Normalized struct {
	b    []byte
	root members
}

// Bytes returns the JSON. The caller must not modify it.
func (n Normalized) Bytes() []byte { return n.b }

// Members returns where the members of the root object are in the
// bytes, in document order; none when the root is not an object. The
// caller must not modify it.
func (n *Normalized) Members() []Member { return n.root.list() }

// Member is where one member of the root object is in a [Normalized]'s
// bytes: the opening quote of its key, the start of its value and the
// offset just past the value.
type Member struct{ Key, Value, End int }

// inlineMembers is how many root members the parser (and a Normalized)
// keep in an array of their own: a Configuration's root has a handful.
const inlineMembers = 8

// members are the places of the root object's members in the output,
// recorded as it is written: the first in an array of their own, all of
// them on the heap once there are more. A root that is not an object
// records none.
type members struct {
	n    int
	fix  [inlineMembers]Member
	more []Member // all n, once n > inlineMembers
}

// add records the next member, its key written at key and its value
// starting at value (its end is set when the value ends: last).
func (m *members) add(key, value int) {
	if m.n < inlineMembers {
		m.fix[m.n] = Member{Key: key, Value: value}
		m.n++
		return
	}
	if m.more == nil {
		m.more = append(make([]Member, 0, 4*inlineMembers), m.fix[:]...)
	}
	m.more = append(m.more, Member{Key: key, Value: value})
	m.n++
}

// last is the member recorded last.
func (m *members) last() *Member {
	if m.more != nil {
		return &m.more[m.n-1]
	}
	return &m.fix[m.n-1]
}

// list is every member recorded.
func (m *members) list() []Member {
	if m.more != nil {
		return m.more
	}
	return m.fix[:m.n]
}

// MaxNormalizedDepth caps the nesting [Normalize] accepts whatever
// Options.MaxDepth asks: encoding/json's bound, which occkit keeps for
// every Document.
const MaxNormalizedDepth = 10_000

// Normalize is [Transcode] with RejectDuplicateKeys, CanonicalNumbers and
// RejectLoneSurrogates forced on and MaxDepth at most [MaxNormalizedDepth]:
// its output is a [Normalized].
func Normalize(src []byte, opts Options) (Normalized, error) {
	opts.RejectDuplicateKeys, opts.CanonicalNumbers, opts.RejectLoneSurrogates = true, true, true
	if opts.MaxDepth > MaxNormalizedDepth {
		opts.MaxDepth = MaxNormalizedDepth
	}
	var n Normalized
	b, err := transcode(src, opts, &n.root)
	if err != nil {
		return Normalized{}, err
	}
	n.b = b
	return n, nil
}

// Transcode parses JSON5 src and returns it as compact JSON.
func Transcode(src []byte, opts Options) ([]byte, error) { return transcode(src, opts, nil) }

// transcode is Transcode; when root is not nil, it is given the places
// of the root object's members in the output.
func transcode(src []byte, opts Options, root *members) ([]byte, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	p := &parser{reader: reader{src: src, opts: opts}}
	if opts.OnToken == nil {
		// The fast path writes the source's prefix as it is without a
		// copy, and copies it once when it must write something else
		// ([parser.alias]).
		p.out, p.alias = src[:0:0], true
	} else {
		p.out = make([]byte, 0, len(src))
	}
	if !utf8.Valid(src) {
		for i := 0; i < len(src); {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				p.pos = i
				break
			}
			i += size
		}
		return nil, p.fail(KindEncoding, "invalid UTF-8")
	}
	if err := p.run(); err != nil {
		return nil, err
	}
	if root != nil {
		// Offsets in the output, which a clone of the source's prefix
		// keeps.
		*root = p.root
	}
	if p.alias {
		// The output is the whole source, which the caller keeps.
		return bytes.Clone(p.out), nil
	}
	return p.out, nil
}

// Unquote decodes one JSON or JSON5 string literal (with its quotes) into
// its value. Lone surrogates are kept as their 3-byte generalized UTF-8
// form, which [AppendString] writes back as \u escapes.
func Unquote(lit []byte) (string, error) {
	b, err := AppendUnquote(nil, lit)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendUnquote appends the value of the string literal lit, as
// [Unquote] decodes it, to dst and returns the extended buffer. No value
// is longer than its literal: when dst has room for len(lit) more bytes,
// it allocates nothing.
func AppendUnquote(dst, lit []byte) ([]byte, error) {
	if len(lit) == 0 || lit[0] != '"' && lit[0] != '\'' {
		return dst, &Error{Kind: KindSyntax, Line: 1, Column: 1, Msg: "expected a string"}
	}
	dst = slices.Grow(dst, len(lit))
	// The reader decodes an escaped literal into its buffer: dst's room.
	p := reader{src: lit, buf: dst[len(dst):]}
	s, _, err := p.str()
	if err != nil {
		return dst, err
	}
	if p.pos != len(lit) {
		return dst, p.fail(KindSyntax, "unexpected text after string")
	}
	return append(dst, s...), nil
}

// frame is one open container. It holds only what duplicate detection
// needs: the path of an error is read back from the output written so far
// ([PathAt]), so that nesting costs a few words per level, whatever the
// depth limit.
type frame struct {
	base int // object: where its keys start in parser.arena
	// table is 1 + the index in parser.tables of the table of an object
	// with many keys, or 0; the frame holds no pointer, so that pushing
	// one costs no write barrier.
	table int32
	array bool
	// bloom has the [keyBit] of each of the object's keys set while
	// they are in the arena (table 0): a key whose bit is not set is
	// none of them, told without comparing it with each.
	bloom uint64
}

// keyBit is the bit of the written key k (quotes included) in an
// object's frame.bloom: from its length and its first and last eight
// bytes (a configuration's keys of one length differ mostly near their
// end: model-12 and model-14). Equal keys have equal bits. A key shorter
// than eight bytes is read as the little-endian number of its bytes: with
// one load and a mask when the slice's capacity holds eight bytes (a key
// in the source, which the fast path reads, nearly always does), else
// byte by byte.
func keyBit(k []byte) uint64 {
	var x uint64
	switch n := len(k); {
	case n >= 8:
		x = binary.LittleEndian.Uint64(k) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(k[n-8:]), 29)
	case cap(k) >= 8:
		x = binary.LittleEndian.Uint64(k[:8]) & (1<<(8*n) - 1)
	default:
		for i, c := range k {
			x |= uint64(c) << (8 * i)
		}
	}
	return 1 << ((x ^ uint64(len(k))) * 0x9e3779b97f4a7c15 >> 58)
}

// keyRef is one key as written to parser.out, the quoted JSON string:
// out[start:end], or, for a key the fast path ([parser.fast]) read as
// it is written, src[^start:end] (start negative). Written keys compare
// as their values do (the writer is a function of the value, and
// one-to-one), so duplicate detection reads the text instead of keeping
// each key as a string of its own.
type keyRef struct{ start, end int }

// len is the length of k's bytes.
func (k keyRef) len() int { return k.end - (k.start ^ k.start>>63) }

// key returns the bytes of k.
func (p *parser) key(k keyRef) []byte {
	if k.start < 0 {
		return p.src[^k.start:k.end]
	}
	return p.out[k.start:k.end]
}

// keySlot is one slot of an object's key table, an open-addressing hash
// table at most three quarters full: 24 bits of a key's hash above where it starts
// (keyRef.start, as 2·offset, +1 in the source; 0, where no key starts,
// marks an empty slot). Its end is found by reading it, which only an
// equal hash asks for, so the keys of an object with many are kept
// nowhere else. Growing the table rehashes from the slots alone; it
// doubles as it grows, so it allocates about twice its final size, which
// is 11 to 22 bytes a key (at least 64 slots). Offsets take 39 bits: a source of 2^37 bytes or
// more (whose output may be three times as long) makes no tables.
type keySlot uint64

// maxTableSource is the longest source whose keys fit a keySlot.
const maxTableSource = 1 << 37

func makeSlot(h uint32, start int) keySlot {
	loc := uint64(start) << 1
	if start < 0 {
		loc = uint64(^start)<<1 | 1
	}
	return keySlot(uint64(h>>8)<<40 | loc)
}

// start returns the key's keyRef.start.
func (e keySlot) start() int {
	loc := uint64(e) & (1<<40 - 1)
	if loc&1 != 0 {
		return ^int(loc >> 1)
	}
	return int(loc >> 1)
}

// tag is the slot's part of the key's hash h: h>>8.
func (e keySlot) tag() uint32 { return uint32(e >> 40) }

// keyTable is the key table of an open object with many keys: its
// slots, and how many are taken. The slots of one table at a time may be
// the parser's own (inline, slots nil): an object of up to 48 keys, a
// typical model catalog, is then checked without allocating.
type keyTable struct {
	slots  []keySlot
	n      int
	inline bool
}

// keyAt returns the key that starts at start (as keyRef.start). A key
// in the source is plain; one in the output may hold \" escapes.
func (p *parser) keyAt(start int) []byte {
	if start < 0 {
		b := p.src[^start:]
		return b[:bytes.IndexByte(b[1:], '"')+2]
	}
	b := p.out[start:]
	i := 1
	for b[i] != '"' {
		if b[i] == '\\' {
			i++
		}
		i++
	}
	return b[:i+1]
}

// keySeed seeds the hash of every key table.
var keySeed = maphash.MakeSeed()

// The parser keeps the first open frames, the first keys of its arena
// and the first key tables in arrays of its own, and only what a deeper
// or wider document needs beyond them on the heap: a typical
// Configuration is parsed without allocating for them. The arrays are
// reached by index, never through a slice stored in the parser (which
// would point into the parser itself and move it to the heap).
const (
	inlineFrames = 16
	inlineKeys   = 64
	inlineTables = 4
	inlineSlots  = 64
)

// reader is what reading one string literal needs (parser.str), and
// all that [Unquote] makes: the parser's nesting state stays out of it.
type reader struct {
	src  []byte
	pos  int
	out  []byte
	opts Options
	buf  []byte
	// trying: the fast path is reading a piece that, if it fails, the
	// general loop reads again; fail then returns errTrying without
	// placing the error.
	trying bool
}

type parser struct {
	reader
	// depth is the number of open containers: their frames are
	// stack0[:depth], then stack (parser.frameAt).
	depth  int
	stack0 [inlineFrames]frame
	stack  []frame
	keys   int
	// The arena holds the keys of the open objects, each object's keys
	// contiguous from its frame's base (inner objects close before outer
	// ones add keys); an object with many also has a table. It is
	// nkeys long: arena0 first, then arena (parser.keysFrom).
	nkeys  int
	arena0 [inlineKeys]keyRef
	arena  []keyRef
	// The tables are the key tables of the open objects with many keys,
	// innermost last, ntables of them: tables0 first, then tables
	// (parser.tableAt); spare is the table of the last one closed, kept
	// for the next.
	ntables int
	tables0 [inlineTables]keyTable
	tables  []keyTable
	spare   []keySlot
	// slots0 are the slots of the open table that is inline, if any
	// (slots0Busy); a table outgrowing them moves to the heap and frees
	// them.
	slots0     [inlineSlots]keySlot
	slots0Busy bool
	// alias reports that out is the source's own prefix,
	// src[:len(out):len(out)], which the fast path extends without a
	// copy; the general loop never writes to it (parser.fast copies it
	// before it returns to the general loop).
	alias bool
	// scratch holds a rewritten piece for the fast path.
	scratch []byte
	// root records where the root object's members are written: a key
	// when it is written at depth 1, its value's end when the ',' or '}'
	// after it is read there (the general loop and the fast path each
	// record what they read).
	root members
}

// depthAt is the largest number of containers open at once in
// compact[:at]: PathAt's stack never grows past it.
func depthAt(compact []byte, at int) int {
	depth, most := 0, 0
	for i := 0; i < at && i < len(compact); i++ {
		switch compact[i] {
		case '"':
			for i++; i < len(compact) && compact[i] != '"'; i++ {
				if compact[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return most
}

// PathAt returns the location of the value or key starting at byte offset
// at of compact JSON (such as Transcode's output, or any prefix of it);
// for a key, the location of its object. It scans compact[:at] once and
// allocates only for the containers open at that point.
func PathAt(compact []byte, at int) []PathElem {
	// A refusal at the depth limit asks for the path of a document nested
	// as deep as the limit allows, so the stack is sized exactly by a
	// first, allocation-free pass and its frames are kept small: the
	// path costs memory proportional to its depth, not a growth series.
	type open struct {
		index      int32
		keyS, keyE int32 // the member's key, quoted; keyE 0 while none
		array      bool
	}
	if len(compact) > math.MaxInt32 {
		return nil
	}
	stack := make([]open, 0, depthAt(compact, at))
	expectKey := false
	for i := 0; i < at && i < len(compact); i++ {
		switch c := compact[i]; c {
		case '"':
			start := i
			for i++; i < len(compact) && compact[i] != '"'; i++ {
				if compact[i] == '\\' {
					i++
				}
			}
			if expectKey {
				stack[len(stack)-1].keyS, stack[len(stack)-1].keyE = int32(start), int32(min(i+1, len(compact)))
				expectKey = false
			}
		case '{', '[':
			stack = append(stack, open{array: c == '['})
			expectKey = c == '{'
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case ',':
			if len(stack) == 0 {
				continue
			}
			if top := &stack[len(stack)-1]; top.array {
				top.index++
			} else {
				top.keyE = 0
				expectKey = true
			}
		}
	}
	var out []PathElem
	if len(stack) > 0 {
		out = make([]PathElem, 0, len(stack))
	}
	for k, f := range stack {
		switch {
		case f.array:
			out = append(out, PathElem{Index: int(f.index), IsIndex: true})
		case f.keyE == 0 || expectKey && k == len(stack)-1:
			// An object whose member's key is not read yet.
		default:
			key, err := Unquote(compact[f.keyS:f.keyE])
			if err != nil {
				key = string(compact[f.keyS:f.keyE])
			}
			out = append(out, PathElem{Key: key})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// errTrying is what fail returns while parser.trying.
var errTrying = &Error{Kind: KindSyntax, Msg: "invalid text"}

// failAt is fail at the member key of the innermost object.
func (p *parser) failAt(k Kind, msg, key string) *Error {
	e := p.fail(k, msg)
	if e == errTrying {
		return e
	}
	e.Path = append(e.Path, PathElem{Key: key})
	return e
}

func (p *reader) fail(k Kind, msg string) *Error {
	if p.trying {
		return errTrying
	}
	line, col := 1, 1
	end := p.pos
	if end > len(p.src) {
		end = len(p.src)
	}
	for i := 0; i < end; {
		c := p.src[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
		case c == '\r':
			if i+1 < end && p.src[i+1] == '\n' {
				i++
				continue
			}
			line, col = line+1, 1
			i++
		case c < utf8.RuneSelf:
			col++
			i++
		default:
			_, size := utf8.DecodeRune(p.src[i:])
			col++
			i += size
		}
	}
	return &Error{Kind: k, Line: line, Column: col, Offset: p.pos, Path: PathAt(p.out, len(p.out)), Msg: msg}
}

// The states of the parse.
const (
	stValue    = iota // a value is expected
	stAfter           // a value just ended
	stKey             // an object key (or '}' when allowClose)
	stElemOrRB        // an array element or ']'
	stDone            // the document ended (parser.fast only)
)

// run is the whole parse: a loop over states with an explicit stack.
// Without OnToken, each turn first lets [parser.fast] read what is plain
// JSON, and takes one step of the general grammar where it stops.
func (p *parser) run() error {
	state := stValue
	for {
		if p.opts.OnToken == nil {
			if state = p.fast(state); state == stDone {
				return nil
			}
		}
		if err := p.skip(); err != nil {
			return err
		}
		switch state {
		case stValue:
			if p.pos >= len(p.src) {
				return p.fail(KindSyntax, "unexpected end of input")
			}
			switch p.src[p.pos] {
			case '{', '[':
				if p.depth >= p.opts.MaxDepth {
					return p.fail(KindDepth, "nesting too deep")
				}
				arr := p.src[p.pos] == '['
				p.out = append(p.out, p.src[p.pos])
				p.pos++
				p.tell(TokenOpen, p.pos-1, nil)
				p.push(arr)
				if arr {
					state = stElemOrRB
				} else {
					state = stKey
				}
				continue
			}
			if err := p.scalar(); err != nil {
				return err
			}
			state = stAfter
		case stElemOrRB:
			if p.pos < len(p.src) && p.src[p.pos] == ']' {
				p.close(']')
				state = stAfter
				continue
			}
			state = stValue
		case stKey:
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				p.close('}')
				state = stAfter
				continue
			}
			if err := p.member(); err != nil {
				return err
			}
			state = stValue
		case stAfter:
			if p.depth == 0 {
				if p.pos < len(p.src) {
					return p.fail(KindSyntax, "unexpected text after the document")
				}
				return nil
			}
			top := p.top()
			if p.pos >= len(p.src) {
				return p.fail(KindSyntax, "unexpected end of input")
			}
			c := p.src[p.pos]
			switch {
			case c == ',':
				if p.depth == 1 && !top.array {
					p.root.last().End = len(p.out)
				}
				p.pos++
				p.out = append(p.out, ',')
				if top.array {
					state = stElemOrRB
				} else {
					state = stKey
				}
			case c == ']' && top.array, c == '}' && !top.array:
				if p.depth == 1 && c == '}' {
					p.root.last().End = len(p.out)
				}
				p.close(c)
			default:
				if top.array {
					return p.fail(KindSyntax, "expected ',' or ']'")
				}
				return p.fail(KindSyntax, "expected ',' or '}'")
			}
		}
	}
}

// push opens a container.
func (p *parser) push(arr bool) {
	putAt(p.stack0[:], &p.stack, p.depth, frame{array: arr, base: p.nkeys}, 8)
	p.depth++
}

// putAt stores v as element n of the sequence fix (an array of the
// parser's own), then *more. It doubles more's capacity (plus extra) as
// it grows: append's gentler growth of large slices would allocate
// several times the final size.
func putAt[T any](fix []T, more *[]T, n int, v T, extra int) {
	if n < len(fix) {
		fix[n] = v
		return
	}
	i := n - len(fix)
	if i == cap(*more) {
		*more = append(make([]T, 0, 2*cap(*more)+extra), (*more)[:i]...)
	}
	*more = append((*more)[:i], v)
}

// frameAt returns the frame of the i-th open container (0 outermost).
func (p *parser) frameAt(i int) *frame {
	if i < inlineFrames {
		return &p.stack0[i]
	}
	return &p.stack[i-inlineFrames]
}

// top returns the innermost open container's frame.
func (p *parser) top() *frame { return p.frameAt(p.depth - 1) }

// tableAt returns the i-th open key table (0 outermost).
func (p *parser) tableAt(i int) *keyTable {
	if i < inlineTables {
		return &p.tables0[i]
	}
	return &p.tables[i-inlineTables]
}

// pushTable opens t as the innermost key table and returns its number
// (1 + its index, as frame.table holds it).
func (p *parser) pushTable(t keyTable) int32 {
	putAt(p.tables0[:], &p.tables, p.ntables, t, 0)
	p.ntables++
	return int32(p.ntables)
}

// keysFrom returns the arena from base on, in its two parts.
func (p *parser) keysFrom(base int) (a, b []keyRef) {
	a = p.arena0[min(base, inlineKeys):min(p.nkeys, inlineKeys)]
	if p.nkeys > inlineKeys {
		b = p.arena[max(base-inlineKeys, 0) : p.nkeys-inlineKeys]
	}
	return a, b
}

// pop ends the innermost container.
func (p *parser) pop() {
	top := p.top()
	if top.table != 0 {
		p.ntables--
		t := p.tableAt(p.ntables)
		if t.inline {
			p.slots0Busy = false
		} else {
			p.spare = t.slots
		}
		*t = keyTable{}
	}
	p.nkeys = top.base
	p.depth--
}

// popPlain is [parser.pop] for a container without a key table (an
// array, or an object of at most sixteen keys), small enough to be
// inlined; it reports false, doing nothing, for one with a table.
func (p *parser) popPlain() bool {
	top := p.top()
	if top.table != 0 {
		return false
	}
	p.nkeys = top.base
	p.depth--
	return true
}

// close ends the innermost container, dropping a trailing comma from the
// output.
func (p *parser) close(c byte) {
	if n := len(p.out); n > 0 && p.out[n-1] == ',' {
		p.out = p.out[:n-1]
	}
	p.out = append(p.out, c)
	p.pos++
	p.tell(TokenClose, p.pos-1, nil)
	p.pop()
}

// member reads a key and its colon.
func (p *parser) member() error {
	top := p.top()
	var key []byte
	var plain bool
	var err error
	start := p.pos
	if p.pos >= len(p.src) {
		return p.fail(KindSyntax, "unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '"' || c == '\'':
		key, plain, err = p.str()
	default:
		key, err = p.ident()
	}
	if err != nil {
		return err
	}
	p.tell(TokenKey, start, key)
	if p.opts.RejectLoneSurrogates && !plain && HasLoneSurrogate(key) {
		p.pos = start
		return p.fail(KindSurrogate, "lone UTF-16 surrogate in a key")
	}
	p.keys++
	if p.opts.MaxKeys > 0 && p.keys > p.opts.MaxKeys {
		p.pos = start
		return p.failAt(KindKeys, "too many object keys", string(key))
	}
	ks := len(p.out)
	if plain {
		p.out = append(p.out, p.src[start:p.pos]...)
	} else {
		p.out = appendBytesString(p.out, key)
	}
	if p.opts.RejectDuplicateKeys && p.seen(top, keyRef{ks, len(p.out)}) {
		p.out = p.out[:ks]
		p.pos = start
		return p.failAt(KindDuplicateKey, "duplicate object key", string(key))
	}
	if err := p.skip(); err != nil {
		return err
	}
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return p.fail(KindSyntax, "expected ':' after object key")
	}
	p.pos++
	p.out = append(p.out, ':')
	if p.depth == 1 {
		p.root.add(ks, len(p.out))
	}
	return nil
}

// seen records the key k, just read, in f and reports whether it was
// already there. An object's first keys are kept in the arena and
// compared one by one; from the seventeenth on, they are found through
// a table, which then holds them all.
func (p *parser) seen(f *frame, k keyRef) bool {
	key := p.key(k)
	if f.table == 0 {
		a, b := p.keysFrom(f.base)
		if bit := keyBit(key); f.bloom&bit != 0 {
			for _, x := range a {
				if x.len() == len(key) && bytes.Equal(p.key(x), key) {
					return true
				}
			}
			for _, x := range b {
				if x.len() == len(key) && bytes.Equal(p.key(x), key) {
					return true
				}
			}
		} else {
			f.bloom |= bit
		}
		if len(a)+len(b) < 16 || len(p.src) >= maxTableSource {
			p.addKey(k)
			return false
		}
		t := keyTable{slots: p.spare}
		p.spare = nil
		if t.slots == nil && !p.slots0Busy {
			t.inline, p.slots0Busy = true, true
			clear(p.slots0[:])
		} else {
			clear(t.slots)
		}
		for _, x := range a {
			p.place(&t, hashKey(p.key(x)), x.start)
		}
		for _, x := range b {
			p.place(&t, hashKey(p.key(x)), x.start)
		}
		p.nkeys = f.base
		f.table = p.pushTable(t)
	}
	tag := hashKey(key) >> 8
	t := p.tableAt(int(f.table) - 1)
	slots := p.slotsOf(t)
	mask := uint32(len(slots) - 1)
	i := tag & mask
	for ; slots[i] != 0; i = (i + 1) & mask {
		if e := slots[i]; e.tag() == tag && bytes.Equal(p.keyAt(e.start()), key) {
			return true
		}
	}
	if t.full(len(slots)) {
		p.place(t, tag<<8, k.start)
		return false
	}
	// The search ended at the slot the key takes.
	slots[i] = makeSlot(tag<<8, k.start)
	t.n++
	return false
}

// addKey appends k to the arena, doubling its heap part as it grows.
func (p *parser) addKey(k keyRef) {
	putAt(p.arena0[:], &p.arena, p.nkeys, k, 16)
	p.nkeys++
}

func hashKey(key []byte) uint32 { return uint32(maphash.Bytes(keySeed, key)) }

// full reports that one more key would fill t, of size slots, past
// three quarters.
func (t *keyTable) full(size int) bool { return 4*(t.n+1) > 3*size }

// slotsOf returns the slots of t: the parser's own when t is inline.
func (p *parser) slotsOf(t *keyTable) []keySlot {
	if t.inline {
		return p.slots0[:]
	}
	return t.slots
}

// place puts the key that starts at start, of hash h, in t, growing it
// first when it would be more than three quarters full (linear probing
// stays short at that load, and the table takes a third less than at
// half). A table grows onto the heap, freeing the parser's slots.
func (p *parser) place(t *keyTable, h uint32, start int) {
	slots := p.slotsOf(t)
	if t.full(len(slots)) {
		grown := make([]keySlot, max(inlineSlots, 2*len(slots)))
		mask := uint32(len(grown) - 1)
		for _, e := range slots {
			if e != 0 {
				j := e.tag() & mask
				for grown[j] != 0 {
					j = (j + 1) & mask
				}
				grown[j] = e
			}
		}
		if t.inline {
			t.inline, p.slots0Busy = false, false
		}
		t.slots, slots = grown, grown
	}
	e := makeSlot(h, start)
	mask := uint32(len(slots) - 1)
	j := e.tag() & mask
	for slots[j] != 0 {
		j = (j + 1) & mask
	}
	slots[j] = e
	t.n++
}

// skip passes white space and comments.
func (p *parser) skip() error {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.pos++
			continue
		case '/':
			if p.pos+1 < len(p.src) && p.src[p.pos+1] == '/' {
				start := p.pos
				p.pos += 2
				for p.pos < len(p.src) {
					if c := p.src[p.pos]; c == '\n' || c == '\r' {
						break
					}
					if r, size := utf8.DecodeRune(p.src[p.pos:]); r == 0x2028 || r == 0x2029 {
						break
					} else {
						p.pos += size
					}
				}
				p.tell(TokenComment, start, nil)
				continue
			}
			if p.pos+1 < len(p.src) && p.src[p.pos+1] == '*' {
				start := p.pos
				p.pos += 2
				for {
					if p.pos+1 >= len(p.src) {
						p.pos = start
						return p.fail(KindSyntax, "unterminated comment")
					}
					if p.src[p.pos] == '*' && p.src[p.pos+1] == '/' {
						p.pos += 2
						p.tell(TokenComment, start, nil)
						break
					}
					p.pos++
				}
				continue
			}
			return p.fail(KindSyntax, "invalid character")
		}
		if c < utf8.RuneSelf {
			return nil
		}
		r, size := utf8.DecodeRune(p.src[p.pos:])
		if !isSpace(r) {
			return nil
		}
		p.pos += size
	}
	return nil
}

func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x2028, 0x2029, 0xFEFF:
		return true
	}
	return r > 0x7f && unicode.Is(unicode.Zs, r)
}

// scalar writes one string, number or literal.
func (p *parser) scalar() error {
	c := p.src[p.pos]
	switch {
	case c == '"' || c == '\'':
		start := p.pos
		s, plain, err := p.str()
		if err != nil {
			return err
		}
		p.tell(TokenString, start, s)
		if plain {
			p.out = append(p.out, p.src[start:p.pos]...)
			return nil
		}
		if p.opts.RejectLoneSurrogates && HasLoneSurrogate(s) {
			p.pos = start
			return p.fail(KindSurrogate, "lone UTF-16 surrogate in a string")
		}
		p.out = appendBytesString(p.out, s)
		return nil
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		start := p.pos
		if err := p.number(); err != nil {
			return err
		}
		p.tell(TokenLiteral, start, nil)
		return nil
	case c == 'I':
		if p.word("Infinity") {
			return p.fail(KindNonFinite, "Infinity cannot be represented in JSON")
		}
	case c == 'N':
		if p.word("NaN") {
			return p.fail(KindNonFinite, "NaN cannot be represented in JSON")
		}
	case c == 'n' || c == 't' || c == 'f':
		for _, w := range []string{"null", "true", "false"} {
			if p.word(w) {
				p.out = append(p.out, w...)
				p.pos += len(w)
				p.tell(TokenLiteral, p.pos-len(w), nil)
				return nil
			}
		}
	}
	return p.fail(KindSyntax, "invalid value")
}

func (p *parser) word(w string) bool {
	return len(p.src)-p.pos >= len(w) && string(p.src[p.pos:p.pos+len(w)]) == w
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *parser) number() error {
	start := p.pos
	neg := false
	if c := p.src[p.pos]; c == '+' || c == '-' {
		neg = c == '-'
		p.pos++
		if p.pos >= len(p.src) {
			return p.fail(KindSyntax, "invalid number")
		}
		switch p.src[p.pos] {
		case 'I':
			if p.word("Infinity") {
				p.pos = start
				return p.fail(KindNonFinite, "Infinity cannot be represented in JSON")
			}
			return p.fail(KindSyntax, "invalid number")
		case 'N':
			if p.word("NaN") {
				p.pos = start
				return p.fail(KindNonFinite, "NaN cannot be represented in JSON")
			}
			return p.fail(KindSyntax, "invalid number")
		}
	}
	s := p.src
	if p.pos+1 < len(s) && s[p.pos] == '0' && (s[p.pos+1] == 'x' || s[p.pos+1] == 'X') {
		p.pos += 2
		hs := p.pos
		for p.pos < len(s) && isHex(s[p.pos]) {
			p.pos++
		}
		if p.pos == hs {
			return p.fail(KindSyntax, "invalid hexadecimal number")
		}
		if p.opts.CanonicalNumbers {
			digits := s[hs:p.pos]
			for len(digits) > 1 && digits[0] == '0' {
				digits = digits[1:]
			}
			f, ok := 0.0, len(digits) <= maxHexDigits
			if ok {
				f, ok = hexFloat(digits)
			}
			if !ok {
				p.pos = start
				return p.fail(KindNumber, "hexadecimal number too large")
			}
			if neg {
				f = -f
			}
			p.out = AppendNumber(p.out, f)
			return nil
		}
		if !p.hex(neg, s[hs:p.pos]) {
			p.pos = start
			return p.fail(KindNumber, "hexadecimal number too large")
		}
		return nil
	}
	intStart := p.pos
	for p.pos < len(s) && isDigit(s[p.pos]) {
		p.pos++
	}
	intDigits := s[intStart:p.pos]
	if len(intDigits) > 1 && intDigits[0] == '0' {
		p.pos = intStart + 1
		return p.fail(KindSyntax, "invalid number: leading zero")
	}
	var frac []byte
	if p.pos < len(s) && s[p.pos] == '.' {
		p.pos++
		fs := p.pos
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
		frac = s[fs:p.pos]
	}
	if len(intDigits) == 0 && len(frac) == 0 {
		return p.fail(KindSyntax, "invalid number")
	}
	var exp []byte
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E') {
		es := p.pos
		p.pos++
		if p.pos < len(s) && (s[p.pos] == '+' || s[p.pos] == '-') {
			p.pos++
		}
		ds := p.pos
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
		if p.pos == ds {
			return p.fail(KindSyntax, "invalid number: empty exponent")
		}
		exp = s[es:p.pos]
	}
	// A decimal literal beyond float64, like a long hexadecimal one, is
	// Infinity to JavaScript (and an error to encoding/json): refuse it
	// rather than store a number two readers see differently. Only an
	// exponent or more than 308 integer digits can overflow.
	if p.opts.CanonicalNumbers {
		out, ok := AppendCanonicalNumber(p.out, s[start:p.pos])
		if !ok {
			p.pos = start
			return p.fail(KindNumber, "number too large to be finite")
		}
		p.out = out
		return nil
	}
	if exp != nil || len(intDigits) > 308 {
		if _, err := strconv.ParseFloat(string(s[start:p.pos]), 64); err != nil {
			p.pos = start
			return p.fail(KindNumber, "number too large to be finite")
		}
	}
	if neg {
		p.out = append(p.out, '-')
	}
	if len(intDigits) == 0 {
		p.out = append(p.out, '0')
	} else {
		p.out = append(p.out, intDigits...)
	}
	if len(frac) > 0 {
		p.out = append(p.out, '.')
		p.out = append(p.out, frac...)
	}
	p.out = append(p.out, exp...)
	return nil
}

// hex writes a hexadecimal literal as its exact decimal integer; it
// reports false when the literal is too large to be finite.
func (p *parser) hex(neg bool, digits []byte) bool {
	i := 0
	for i < len(digits)-1 && digits[i] == '0' {
		i++
	}
	digits = digits[i:]
	if len(digits) > maxHexDigits {
		return false
	}
	if len(digits) <= 15 {
		if neg && !(len(digits) == 1 && digits[0] == '0') {
			p.out = append(p.out, '-')
		}
		v, _ := strconv.ParseUint(string(digits), 16, 64)
		p.out = strconv.AppendUint(p.out, v, 10)
		return true
	}
	var b big.Int
	b.SetString(string(digits), 16)
	// A literal of maxHexDigits digits may still round up to Infinity as
	// a double (from 2^1024 - 2^970 on), as the same decimal would: refuse
	// it before writing anything.
	if len(digits) == maxHexDigits {
		if f, _ := new(big.Float).SetInt(&b).Float64(); math.IsInf(f, 0) {
			return false
		}
	}
	if neg && !(len(digits) == 1 && digits[0] == '0') {
		p.out = append(p.out, '-')
	}
	p.out = b.Append(p.out, 10)
	return true
}

// str decodes the string literal at p.pos (generalized UTF-8) into p.buf.
// plain reports a double-quoted literal without an escape or a control
// character: its value is its own bytes (returned in place, not copied),
// and it is already the JSON string [AppendString] writes for that value
// (the source is valid UTF-8, so it holds no surrogate).
func (p *reader) str() (_ []byte, plain bool, _ error) {
	s := p.src
	q := s[p.pos]
	start := p.pos
	p.pos++
	j := p.pos
	for j < len(s) && s[j] != q && s[j] != '\\' && s[j] != '"' && s[j] >= 0x20 {
		j++
	}
	if j < len(s) && s[j] == q {
		if p.opts.MaxStringBytes > 0 && j-p.pos > p.opts.MaxStringBytes {
			p.pos = start
			return nil, false, p.fail(KindString, "string too long")
		}
		v := s[p.pos:j]
		p.pos = j + 1
		return v, q == '"', nil
	}
	v, err := p.strSlow(start)
	return v, false, err
}

// strSlow is str for a literal that holds an escape, a control character
// or a quote: p.pos is just past the opening quote at start.
func (p *reader) strSlow(start int) ([]byte, error) {
	s := p.src
	q := s[start]
	b := p.buf[:0]
	defer func() { p.buf = b[:0] }()
	// No escape decodes to more bytes than it is written with, so the
	// literal's length bounds the value's: growing once to it (or to the
	// string limit) avoids append's repeated copies of a long string.
	end := p.pos
	for end < len(s) && s[end] != q {
		if s[end] == '\\' {
			end++
		}
		end++
	}
	want := end - p.pos
	if p.opts.MaxStringBytes > 0 {
		want = min(want, p.opts.MaxStringBytes+4)
	}
	b = slices.Grow(b, want)
	for {
		if p.opts.MaxStringBytes > 0 && len(b) > p.opts.MaxStringBytes {
			p.pos = start
			return nil, p.fail(KindString, "string too long")
		}
		if p.pos >= len(s) {
			p.pos = start
			return nil, p.fail(KindSyntax, "unterminated string")
		}
		c := s[p.pos]
		switch {
		case c == q:
			p.pos++
			if p.opts.MaxStringBytes > 0 && len(b) > p.opts.MaxStringBytes {
				p.pos = start
				return nil, p.fail(KindString, "string too long")
			}
			return b, nil
		case c == '\\':
			var err error
			if b, err = p.escape(b); err != nil {
				return nil, err
			}
		case c == '\n' || c == '\r':
			return nil, p.fail(KindSyntax, "line break in string")
		default:
			// A run of bytes that are themselves, in one copy: as they
			// stand in the source (generalized UTF-8 is kept byte for
			// byte), up to the next quote, escape or line break.
			j := p.pos + 1
			for j < len(s) {
				if c := s[j]; c == q || c == '\\' || c == '\n' || c == '\r' {
					break
				}
				j++
			}
			b = append(b, s[p.pos:j]...)
			p.pos = j
		}
	}
}

// escape decodes the escape sequence at p.pos (the backslash) onto b.
func (p *reader) escape(b []byte) ([]byte, error) {
	s := p.src
	p.pos++
	if p.pos >= len(s) {
		return nil, p.fail(KindSyntax, "unterminated string")
	}
	c := s[p.pos]
	switch c {
	case 'b':
		b = append(b, '\b')
	case 'f':
		b = append(b, '\f')
	case 'n':
		b = append(b, '\n')
	case 'r':
		b = append(b, '\r')
	case 't':
		b = append(b, '\t')
	case 'v':
		b = append(b, '\v')
	case '0':
		if p.pos+1 < len(s) && isDigit(s[p.pos+1]) {
			p.pos++
			return nil, p.fail(KindSyntax, "invalid escape: octal")
		}
		b = append(b, 0)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return nil, p.fail(KindSyntax, "invalid escape: octal")
	case 'x':
		if p.pos+2 >= len(s) || !isHex(s[p.pos+1]) || !isHex(s[p.pos+2]) {
			return nil, p.fail(KindSyntax, "invalid \\x escape")
		}
		v, _ := strconv.ParseUint(string(s[p.pos+1:p.pos+3]), 16, 8)
		b = utf8.AppendRune(b, rune(v))
		p.pos += 2
	case 'u':
		u, ok := p.hex4(p.pos + 1)
		if !ok {
			return nil, p.fail(KindSyntax, "invalid \\u escape")
		}
		p.pos += 4
		b = appendUnit(b, u)
	case '\n':
	case '\r':
		if p.pos+1 < len(s) && s[p.pos+1] == '\n' {
			p.pos++
		}
	default:
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[p.pos:])
			p.pos += size
			if r != 0x2028 && r != 0x2029 {
				b = utf8.AppendRune(b, r)
			}
			return b, nil
		}
		b = append(b, c)
	}
	p.pos++
	return b, nil
}

func (p *reader) hex4(at int) (rune, bool) {
	if at+4 > len(p.src) {
		return 0, false
	}
	var v rune
	for _, c := range p.src[at : at+4] {
		if !isHex(c) {
			return 0, false
		}
		v <<= 4
		switch {
		case c <= '9':
			v |= rune(c - '0')
		case c >= 'a':
			v |= rune(c-'a') + 10
		default:
			v |= rune(c-'A') + 10
		}
	}
	return v, true
}

// appendUnit appends one UTF-16 code unit. Surrogates are written in their
// 3-byte generalized UTF-8 form; a low surrogate right after a high one
// joins it into the 4-byte form of the supplementary character, as the two
// code units join in a JavaScript string.
func appendUnit(b []byte, u rune) []byte {
	if u < 0xD800 || u > 0xDFFF {
		return utf8.AppendRune(b, u)
	}
	if u >= 0xDC00 {
		if n := len(b); n >= 3 && b[n-3] == 0xED && b[n-2] >= 0xA0 && b[n-2] <= 0xAF {
			hi := 0xD000 | rune(b[n-2]&0x3F)<<6 | rune(b[n-1]&0x3F)
			r := 0x10000 + (hi-0xD800)<<10 + (u - 0xDC00)
			return utf8.AppendRune(b[:n-3], r)
		}
	}
	return append(b, 0xED, byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
}

// ident reads an ES5 IdentifierName key.
func (p *parser) ident() ([]byte, error) {
	b := p.buf[:0]
	defer func() { p.buf = b[:0] }()
	first := true
	for p.pos < len(p.src) {
		if p.opts.MaxStringBytes > 0 && len(b) > p.opts.MaxStringBytes {
			return nil, p.fail(KindString, "string too long")
		}
		c := p.src[p.pos]
		var r rune
		size := 1
		escaped := false
		switch {
		case c == '\\':
			if p.pos+1 >= len(p.src) || p.src[p.pos+1] != 'u' {
				return nil, p.fail(KindSyntax, "invalid identifier escape")
			}
			u, ok := p.hex4(p.pos + 2)
			if !ok {
				return nil, p.fail(KindSyntax, "invalid \\u escape")
			}
			r, size, escaped = u, 6, true
		case c < utf8.RuneSelf:
			r = rune(c)
		default:
			r, size = utf8.DecodeRune(p.src[p.pos:])
		}
		ok := idStart(r)
		if !first {
			ok = ok || idPart(r)
		}
		if !ok {
			if escaped || first {
				return nil, p.fail(KindSyntax, "invalid identifier")
			}
			break
		}
		b = utf8.AppendRune(b, r)
		p.pos += size
		first = false
	}
	if first {
		return nil, p.fail(KindSyntax, "unexpected end of input")
	}
	if p.opts.MaxStringBytes > 0 && len(b) > p.opts.MaxStringBytes {
		return nil, p.fail(KindString, "string too long")
	}
	return b, nil
}

func idStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '$' || r == '_'
	}
	return (unicode.IsLetter(r) || unicode.In(r, unicode.Nl, unicode.Other_ID_Start)) && !patternChar(r)
}

// patternChar reports the Pattern_Syntax and Pattern_White_Space characters
// that Unicode excludes from identifiers.
func patternChar(r rune) bool {
	return unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

func idPart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return r == 0x200C || r == 0x200D ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) && !patternChar(r)
}

// AppendString appends s as a JSON string literal: '"' and '\' escaped,
// control characters as \b \f \n \r \t or \u00XX, a lone surrogate in
// generalized UTF-8 as \udXXX, everything else raw.
func AppendString(dst []byte, s string) []byte { return appendStr(dst, s) }

// appendBytesString is [AppendString] for a byte slice, without copying it
// into a string first.
func appendBytesString(dst, s []byte) []byte { return appendStr(dst, s) }

// HasLoneSurrogate reports whether the generalized UTF-8 s (as [Unquote]
// returns it) holds a surrogate code point: one that was not half of a pair.
func HasLoneSurrogate[T string | []byte](s T) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			return true
		}
	}
	return false
}

func appendStr[T string | []byte](dst []byte, s T) []byte {
	const hexd = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0xED {
			i++
			continue
		}
		if c == 0xED {
			if i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
				dst = append(dst, s[start:i]...)
				u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				dst = append(dst, '\\', 'u', hexd[u>>12], hexd[u>>8&0xF], hexd[u>>4&0xF], hexd[u&0xF])
				i += 3
				start = i
				continue
			}
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
