package compile

import (
	"bytes"
	"hash/maphash"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/json5"
)

// sourceIndex is what placing refusals in one source text needs, read
// from the text in one pass the first time something in it is placed:
// where each key and element is written, where each line starts, and
// which bytes the author view masks. Placing a refusal then costs a few
// lookups and the excerpt it prints, whatever the length of its line or
// the number of refusals: O(input) once, O(excerpt) each.
//
// It is compact, as a refusal of a document at the size limit builds
// one: 24 bytes a key or element, a 4-byte table slot for each, 4 bytes
// a line and one mask a masked value or comment (see the package doc,
// "Bounded work").
type sourceIndex struct {
	lines []int32 // byte offset where each line starts
	nodes []node  // nodes[0] is the top-level value, when rooted
	// slots is an open-addressing table of node ids + 1 by parent and key
	// or index, at most half full.
	slots  []int32
	rooted bool
	masks  []mask // sorted, disjoint
	// known is where the text stops being JSON5 the parser read: past
	// it (a syntax refusal's line) nothing tells a key from a value, so
	// every run of text but blanks and punctuation is masked.
	known int
	src   []byte
}

// node is one written key or array element, or the top-level value:
// where it sits (its parent's id and its key, src[a:b] as written, or its
// index a with b -1), and the offset and column reported for it.
type node struct {
	parent, a, b int32
	off, col     int32
	h            uint32 // the hash of its name
}

// mask replaces src[start:end] with repl in the author view.
type mask struct {
	start, end int32
	repl       string
}

// masked is what a masked string, value or comment prints as.
const masked = "***"

// maxIndexDepth is the deepest nesting the index follows. Deeper values
// (only a caller raising Limits.MaxDepth past it writes them) are all
// masked, and a refusal inside them is placed at their ancestor at this
// depth.
const maxIndexDepth = 256

var nodeSeed = maphash.MakeSeed()

// indexSource reads src, whose values sit at under in the loaded
// document, nested at most maxDepth deep (the loader's limit), against
// the sensitive path patterns sens. A text too large for 32-bit offsets
// gets an empty index: nothing in it is placed.
func indexSource(src []byte, under occkit.Path, sens []sensitive.Pattern, maxDepth int) *sourceIndex {
	x := &sourceIndex{lines: []int32{0}, src: src}
	if len(src) >= math.MaxInt32 {
		return x
	}
	b := indexer{x: x, src: src, line: 1, col: 1}
	b.root = b.frameAt(under, sens)
	_, err := json5.Transcode(src, json5.Options{MaxDepth: maxDepth, OnToken: func(t json5.Token) {
		b.token(t)
		x.known = t.End
	}})
	if err == nil {
		x.known = len(src)
	}
	b.advance(len(src))
	return x
}

// tailPunct reports the bytes a masked tail shows: blanks, line breaks
// and JSON punctuation.
func tailPunct(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '{', '}', '[', ']', ',', ':':
		return true
	}
	return false
}

// frame is one open container while indexing.
type frame struct {
	node   int32 // -1 when the locator cannot reach it (below a duplicate key)
	next   int32 // the next element's index
	depth  int32 // elements from the document root to this container
	array  bool
	secret bool
	// flag: the previous element (arrays) was a credential-like command
	// line flag ("--api-key"), so the next one is its value.
	flag bool
	cur  sensitive.Cursor
	// The member whose value comes next (objects).
	key     string
	keyNode int32
}

type indexer struct {
	x     *sourceIndex
	src   []byte
	root  frame
	stack []frame
	// over counts the containers open past maxIndexDepth.
	over int
	// advance's cursor: the byte, line and column reached.
	pos, line, col int
}

// frameAt is the frame of the value at p, for a text included there.
func (b *indexer) frameAt(p occkit.Path, sens []sensitive.Pattern) frame {
	f := frame{cur: sensitive.Start(sens)}
	for i := 0; i < p.Len(); i++ {
		k, _, isIdx := p.Elem(i)
		if isIdx {
			f.cur = f.cur.Index()
			continue
		}
		f.secret = f.secret || secretKey(k, int32(i))
		f.cur = f.cur.Key(k)
	}
	f.depth = int32(p.Len())
	f.secret = f.secret || f.cur.Matched()
	return f
}

// secretKey reports whether the member k, depth elements below the
// document root, holds credentials: a credential-like name (headers
// included), or the top-level env block, whose variables the document
// references as ${VAR} (the package doc, "Credential policy").
func secretKey(k string, depth int32) bool {
	return CredentialKey(k) || depth == 0 && k == "env"
}

// advance moves the line and column cursor to byte offset to, recording
// line starts, with [lineCol]'s rules: "\n", "\r" and "\r\n" end lines,
// columns count code points.
func (b *indexer) advance(to int) {
	for b.pos < to && b.pos < len(b.src) {
		c := b.src[b.pos]
		switch {
		case c == '\n' || c == '\r':
			b.pos++
			if c == '\r' && b.pos < len(b.src) && b.src[b.pos] == '\n' {
				b.pos++
			}
			b.line, b.col = b.line+1, 1
			b.x.lines = append(roomFor(b.x.lines), int32(b.pos))
		case c < utf8.RuneSelf:
			b.pos++
			b.col++
		default:
			_, n := utf8.DecodeRune(b.src[b.pos:])
			b.pos += n
			b.col++
		}
	}
}

// addNode records n, named by key or its index, at offset off unless
// its parent is unreachable or already has it (a duplicate key: the
// locator, as [Locate], finds the first), and returns its id or -1.
func (b *indexer) addNode(n node, key string, off int) int32 {
	if n.parent < 0 {
		return -1
	}
	x := b.x
	if 2*(len(x.nodes)+1) > len(x.slots) {
		x.grow()
	}
	n.h = uint32(hashNode(n.parent, key, n.a, n.b < 0))
	m := uint32(len(x.slots) - 1)
	i := n.h & m
	for ; x.slots[i] != 0; i = (i + 1) & m {
		if x.same(x.slots[i]-1, n.h, n.parent, key, n.a, n.b < 0) {
			return -1
		}
	}
	b.advance(off)
	n.off, n.col = int32(off), int32(b.col)
	x.nodes = append(roomFor(x.nodes), n)
	x.slots[i] = int32(len(x.nodes))
	return int32(len(x.nodes) - 1)
}

// roomFor is s with room for one more element, doubling when full: append
// grows a large slice by a quarter, which allocates five times its final
// size along the way.
func roomFor[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return append(make([]T, 0, 2*cap(s)+16), s...)
}

// grow doubles the table and re-inserts every node but the root.
func (x *sourceIndex) grow() {
	x.slots = make([]int32, max(64, 2*len(x.slots)))
	m := uint32(len(x.slots) - 1)
	for id, n := range x.nodes {
		if id == 0 && x.rooted {
			continue
		}
		i := n.h & m
		for x.slots[i] != 0 {
			i = (i + 1) & m
		}
		x.slots[i] = int32(id + 1)
	}
}

// hashNode hashes a child's name: its parent and key, or index.
func hashNode(parent int32, key string, index int32, isIndex bool) uint64 {
	p := mix(uint64(uint32(parent)) + 1<<40)
	if isIndex {
		return mix(p ^ uint64(uint32(index)))
	}
	return maphash.String(nodeSeed, key) ^ p
}

// mix is a 64-bit finalizer (splitmix64's).
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// same reports whether node id, of hash h, is the child of parent named
// by key or index.
func (x *sourceIndex) same(id int32, h uint32, parent int32, key string, index int32, isIndex bool) bool {
	n := x.nodes[id]
	if n.h != h || n.parent != parent || (n.b < 0) != isIndex {
		return false
	}
	if isIndex {
		return n.a == index
	}
	return x.keyIs(n, key)
}

// keyIs reports whether node n's key, as written, decodes to key.
func (x *sourceIndex) keyIs(n node, key string) bool {
	raw := x.src[n.a:n.b]
	body := raw
	if len(raw) >= 2 && (raw[0] == '"' || raw[0] == '\'') {
		body = raw[1 : len(raw)-1]
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == key
	}
	return decodeKey(raw) == key
}

// decodeKey is the value of a key as written: a quoted string or an
// identifier, whose \uXXXX escapes it decodes as [Locate] does.
func decodeKey(raw []byte) string {
	lit := raw
	if len(raw) == 0 || raw[0] != '"' && raw[0] != '\'' {
		lit = append(append([]byte{'"'}, raw...), '"')
	}
	k, err := json5.Unquote(lit)
	if err != nil {
		return string(raw)
	}
	return k
}

// value is the frame a value starting at off takes: the next element
// of an array, the pending member of an object, or the top-level value.
func (b *indexer) value(off int) frame {
	if len(b.stack) == 0 {
		if !b.x.rooted {
			b.advance(off)
			b.x.nodes = append(b.x.nodes, node{parent: -1, b: -1, off: int32(off), col: int32(b.col)})
			b.x.rooted = true
		}
		return b.root
	}
	top := &b.stack[len(b.stack)-1]
	if top.array {
		cur := top.cur.Index()
		f := frame{
			node:   b.addNode(node{parent: top.node, a: top.next, b: -1}, "", off),
			depth:  top.depth + 1,
			secret: top.secret || cur.Matched(),
			cur:    cur,
		}
		top.next++
		return f
	}
	cur := top.cur.Key(top.key)
	return frame{
		node:   top.keyNode,
		depth:  top.depth + 1,
		secret: top.secret || secretKey(top.key, top.depth) || cur.Matched(),
		cur:    cur,
	}
}

// token takes in one piece of the text.
func (b *indexer) token(t json5.Token) {
	if b.over > 0 {
		// Past maxIndexDepth: nothing is placed, every value masked.
		switch t.Kind {
		case json5.TokenOpen:
			b.over++
		case json5.TokenClose:
			b.over--
		case json5.TokenString, json5.TokenLiteral, json5.TokenComment:
			b.mask(t.Start, t.End)
		}
		return
	}
	switch t.Kind {
	case json5.TokenOpen:
		if len(b.stack) == maxIndexDepth {
			b.over = 1
			return
		}
		f := b.value(t.Start)
		f.array = b.src[t.Start] == '['
		b.stack = append(b.stack, f)
	case json5.TokenClose:
		b.stack = b.stack[:len(b.stack)-1]
		b.afterValue(false)
	case json5.TokenKey:
		top := &b.stack[len(b.stack)-1]
		top.key = string(t.Value)
		top.keyNode = b.addNode(node{parent: top.node, a: int32(t.Start), b: int32(t.End)}, top.key, t.Start)
	case json5.TokenString, json5.TokenLiteral:
		var top *frame
		if len(b.stack) > 0 {
			top = &b.stack[len(b.stack)-1]
		}
		inArray := top != nil && top.array
		flagValue := inArray && top.flag
		key := ""
		if top != nil && !top.array {
			key = top.key
		}
		f := b.value(t.Start)
		secret := f.secret || flagValue
		if t.Kind == json5.TokenString {
			b.maskString(t, secret, key)
		} else if c := b.src[t.Start]; secret && c != 't' && c != 'f' && c != 'n' {
			b.mask(t.Start, t.End)
		}
		b.afterValue(inArray && t.Kind == json5.TokenString && credentialFlag(string(t.Value)))
	case json5.TokenComment:
		// A comment is not part of the document but may hold anything, a
		// credential commented out included: its body is masked.
		end := t.End
		if b.src[t.Start+1] == '*' {
			end -= 2
		}
		b.mask(t.Start+2, end)
	}
}

// mask masks src[start:end] when it is not empty.
func (b *indexer) mask(start, end int) {
	b.maskAs(start, end, masked)
}

func (b *indexer) maskAs(start, end int, repl string) {
	if end > start {
		b.x.masks = append(roomFor(b.x.masks), mask{start: int32(start), end: int32(end), repl: repl})
	}
}

// afterValue notes, in an enclosing array, whether the value just read
// was a credential flag.
func (b *indexer) afterValue(isFlag bool) {
	if n := len(b.stack); n > 0 && b.stack[n-1].array {
		b.stack[n-1].flag = isFlag
	}
}

// maskString masks the body of a string value (between its quotes) that
// the credential policy would strip: all of it under a credential path,
// after a credential flag or when it holds a credential itself; all but
// the origin of a URL.
func (b *indexer) maskString(t json5.Token, secret bool, key string) {
	start, end := t.Start+1, t.End-1
	if end <= start {
		return
	}
	v := string(t.Value)
	switch {
	case secret || secretText(v):
		b.mask(start, end)
	case urlLike(key, v):
		if o := Origin(v); o != v {
			b.maskAs(start, end, originMask(o))
		}
	}
}

// urlLike reports a string the credential policy reads as a URL (scrub
// in render.go): one holding "://", or one under a URL-like key holding
// user info, a query or a fragment (the scheme-less svc:KEY@host/v1).
func urlLike(key, v string) bool {
	// The key is normalized (an allocation) only for a string that could
	// be a URL.
	return strings.Contains(v, "://") ||
		(strings.IndexByte(v, '@') >= 0 || strings.IndexByte(v, '?') >= 0 || strings.IndexByte(v, '#') >= 0) && urlKey(key)
}

// maxOriginRunes bounds the origin a masked URL keeps in the author
// view, so that one value cannot fill the excerpt.
const maxOriginRunes = 40

// originMask is how a URL reduced to origin o prints: the origin, then
// the mask for what was dropped.
func originMask(o string) string {
	if o == "" || utf8.RuneCountInString(o) > maxOriginRunes {
		return masked
	}
	return o + "/" + masked
}

// secretText reports a string that carries a credential whatever its
// key: an HTTP authorization ("Bearer …", "Basic …"), or a setting
// written as one string, "--api-key=…", "API_KEY=…" or "X-Api-Key: …",
// whose name is credential-like.
func secretText(v string) bool {
	lower := strings.ToLower(v)
	for _, scheme := range []string{"bearer ", "basic "} {
		if i := strings.Index(lower, scheme); i >= 0 && tokenLike(strings.TrimLeft(v[i+len(scheme):], " ")) {
			return true
		}
	}
	i := strings.IndexAny(v, "=:")
	if i <= 0 || strings.TrimSpace(v[i+1:]) == "" {
		return false
	}
	return credentialFlag("-" + strings.TrimLeft(v[:i], "-"))
}

// tokenLike reports a word of at least eight characters from the
// alphabet of bearer tokens and base64.
func tokenLike(s string) bool {
	n := 0
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' || strings.IndexByte("-._~+/=", s[n]) >= 0) {
		n++
	}
	return n >= 8
}

// credentialFlag reports a command-line flag with a credential-like
// name ("--api-key", "-token"): the next argument is its value. The name
// holds letters, digits, '-', '_' and '.' only.
func credentialFlag(v string) bool {
	name := strings.TrimLeft(v, "-")
	if len(name) == len(v) || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return CredentialKey(name)
}

// locate finds the deepest element of p from index from on written in
// the text, as [locateFrom] does: the node and how many elements were
// found.
func (x *sourceIndex) locate(p occkit.Path, from int) (id, found int, ok bool) {
	if !x.rooted {
		return 0, 0, false
	}
	for d := from; d < p.Len() && len(x.slots) > 0; d++ {
		key, index, isIdx := p.Elem(d)
		if isIdx && index > math.MaxInt32 {
			break
		}
		h := uint32(hashNode(int32(id), key, int32(index), isIdx))
		m := uint32(len(x.slots) - 1)
		next := -1
		for i := h & m; x.slots[i] != 0; i = (i + 1) & m {
			if x.same(x.slots[i]-1, h, int32(id), key, int32(index), isIdx) {
				next = int(x.slots[i] - 1)
				break
			}
		}
		if next < 0 {
			break
		}
		id = next
		found++
	}
	return id, found, true
}

// line is the line (from 1) holding byte offset off.
func (x *sourceIndex) line(off int) int {
	return sort.Search(len(x.lines), func(i int) bool { return int(x.lines[i]) > off })
}

// lineBounds is where line (from 1) starts and ends, its terminator
// excluded.
func (x *sourceIndex) lineBounds(line int) (start, end int) {
	line = min(max(line, 1), len(x.lines))
	start, end = int(x.lines[line-1]), len(x.src)
	if line < len(x.lines) {
		end = int(x.lines[line]) - 1
		if end > start && x.src[end] == '\n' && x.src[end-1] == '\r' {
			end--
		}
	}
	return start, end
}

// offset is the byte offset of line and column (from 1), or the line's
// end when the line is shorter.
func (x *sourceIndex) offset(line, col int) int {
	off, end := x.lineBounds(line)
	for c := 1; c < col && off < end; c++ {
		_, n := utf8.DecodeRune(x.src[off:end])
		off += n
	}
	return off
}

// maskAt is the index of the first mask that ends after off.
func (x *sourceIndex) maskAt(off int) int {
	return sort.Search(len(x.masks), func(i int) bool { return int(x.masks[i].end) > off })
}

// excerpt is the author view of line (from 1) around byte offset off:
// the line with its masks applied, cut to at most snippetRunes
// characters around off (with "…" where it was cut), and the column of
// off in it, from 1. It reads only the characters it prints: each is
// one piece, as is each mask, which is kept or cut whole.
func (x *sourceIndex) excerpt(line, off int) (string, int) {
	start, end := x.lineBounds(line)
	off = min(max(off, start), end)
	// The caret goes to the start of the mask it falls in.
	if i := x.maskAt(off); off >= x.known {
		for off > max(x.known, start) && off < end && !tailPunct(x.src[off-1]) && !tailPunct(x.src[off]) {
			off--
		}
	} else if i < len(x.masks) && int(x.masks[i].start) < off {
		off = max(int(x.masks[i].start), start)
	}
	from, nb, allBefore := x.walkBefore(start, off, snippetRunes)
	to, na, allAfter := x.walkAfter(off, end, snippetRunes)
	if !allBefore || !allAfter || nb+na > snippetRunes {
		// As many characters before the column as half the excerpt
		// holds, then the rest after it.
		from, nb, allBefore = x.walkBefore(start, off, snippetRunes/2)
		to, _, allAfter = x.walkAfter(off, end, snippetRunes-nb)
	}
	var b strings.Builder
	col := nb + 1
	if !allBefore {
		b.WriteString("…")
		col++
	}
	for i := x.maskAt(from); from < to; {
		next, _, repl := x.pieceAfter(from, to, &i)
		if repl != "" {
			b.WriteString(repl)
		} else {
			b.Write(x.src[from:next])
		}
		from = next
	}
	if !allAfter {
		b.WriteString("…")
	}
	return b.String(), col
}

// walkAfter takes pieces forward from off to end while they hold at
// most limit characters, the first piece always: where it stopped, the
// characters taken, and whether it reached end.
func (x *sourceIndex) walkAfter(off, end, limit int) (to, n int, all bool) {
	for i := x.maskAt(off); off < end; {
		next, r, _ := x.pieceAfter(off, end, &i)
		if n > 0 && n+r > limit {
			return off, n, false
		}
		n += r
		off = next
	}
	return off, n, true
}

// walkBefore is walkAfter backward from off to start, without the
// first piece's exception.
func (x *sourceIndex) walkBefore(start, off, limit int) (from, n int, all bool) {
	i := sort.Search(len(x.masks), func(i int) bool { return int(x.masks[i].start) >= off }) - 1
	for off > start {
		prev, r := x.pieceBefore(start, off, &i)
		if n+r > limit {
			return off, n, false
		}
		n += r
		off = prev
	}
	return off, n, true
}

// pieceAfter is the piece at off, before end: where it ends, its
// characters, and its replacement when it is masked. *i is the first
// mask ending after off, and moves past the masks read.
func (x *sourceIndex) pieceAfter(off, end int, i *int) (next, runes int, repl string) {
	if off >= x.known && !tailPunct(x.src[off]) {
		for next = off; next < end && !tailPunct(x.src[next]); next++ {
		}
		return next, len(masked), masked
	}
	if *i < len(x.masks) && int(x.masks[*i].start) <= off {
		m := x.masks[*i]
		*i++
		return min(int(m.end), end), utf8.RuneCountInString(m.repl), m.repl
	}
	_, size := utf8.DecodeRune(x.src[off:end])
	return off + size, 1, ""
}

// pieceBefore is the piece that ends at off, after start: where it
// starts and its characters. *i is the last mask starting before off.
func (x *sourceIndex) pieceBefore(start, off int, i *int) (prev, runes int) {
	if off > x.known && !tailPunct(x.src[off-1]) {
		for prev = off; prev > max(x.known, start) && !tailPunct(x.src[prev-1]); prev-- {
		}
		return prev, len(masked)
	}
	if *i >= 0 && int(x.masks[*i].end) >= off {
		m := x.masks[*i]
		*i--
		return max(int(m.start), start), utf8.RuneCountInString(m.repl)
	}
	_, size := utf8.DecodeLastRune(x.src[start:off])
	return off - size, 1
}
