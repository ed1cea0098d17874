package compile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// includeKey is the directive DOC-4 resolves, in any object at any depth
// (as OpenClaw does).
const includeKey = "$include"

// treeNode is an ordered JSON tree used only while includes are merged. It
// is expanded only where the merge needs it: a value with no $include
// inside stays one raw node holding its normalized JSON, however large,
// until a merge has to look into it (an object merged key by key), and
// then only one level. Arrays are lists of parts, each a raw run of
// elements or an expanded element, so concatenation never touches the
// elements. Every node appears once in a tree and a tree is never used
// again once merged, so merging and processing mutate nodes in place; the
// include pass allocates in proportion to the bytes read.
type treeNode struct {
	kind byte // '{', '[', 's' (a run of array elements) or 0 (raw JSON)
	// raw is the JSON of a raw node (any value) or the comma-separated
	// elements of a run; a substring of the parsed text.
	raw   string
	count int // a run: how many elements raw holds
	mems  []treeMember
	elems []*treeNode // an array's parts
	// index maps a key to its member, built when something is first
	// merged into the object.
	index map[string]int
}

type treeMember struct {
	key string // decoded
	val *treeNode
}

// includeMark is how a $include member looks in normalized JSON; a value
// whose text lacks it holds no directive.
const includeMark = `"$include":`

// holdsInclude is bytes.Contains(b, includeMark), which the loader asks
// of every document: it looks for the mark from its '$', rare in JSON,
// where a search from its quote would stop at every string.
func holdsInclude(b []byte) bool {
	for i := 1; i < len(b); {
		j := bytes.Index(b[i:], []byte(includeMark[1:]))
		if j < 0 {
			return false
		}
		if b[i+j-1] == '"' {
			return true
		}
		i += j + 1
	}
	return false
}

// parseTree builds the tree of normalized JSON (produced by the transcoder,
// so valid, depth-bounded and free of duplicate keys).
func parseTree(b []byte) *treeNode { return treeOf(gjson.Parse(string(b))) }

func treeOf(v gjson.Result) *treeNode {
	if !strings.Contains(v.Raw, includeMark) {
		return &treeNode{raw: v.Raw}
	}
	switch {
	case v.IsObject():
		return expandObject(v)
	case v.IsArray():
		n := &treeNode{kind: '['}
		var run []string
		flush := func() {
			if len(run) > 0 {
				n.elems = append(n.elems, &treeNode{kind: 's', raw: strings.Join(run, ","), count: len(run)})
				run = run[:0]
			}
		}
		v.ForEach(func(_, val gjson.Result) bool {
			if strings.Contains(val.Raw, includeMark) {
				flush()
				n.elems = append(n.elems, treeOf(val))
			} else {
				run = append(run, val.Raw)
			}
			return true
		})
		flush()
		return n
	}
	return &treeNode{raw: v.Raw}
}

// expandObject is an object node with its members' values built by
// treeOf (so raw where they hold no $include).
func expandObject(v gjson.Result) *treeNode {
	n := &treeNode{kind: '{'}
	v.ForEach(func(k, val gjson.Result) bool {
		key, err := json5.Unquote([]byte(k.Raw))
		if err != nil {
			key = k.String()
		}
		n.mems = append(n.mems, treeMember{key: key, val: treeOf(val)})
		return true
	})
	return n
}

func (n *treeNode) isString() bool { return n.kind == 0 && len(n.raw) > 0 && n.raw[0] == '"' }

// isObject and isArray tell the JSON type, expanded or raw.
func (n *treeNode) isObject() bool { return n.kind == '{' || n.kind == 0 && n.raw[0] == '{' }
func (n *treeNode) isArray() bool  { return n.kind == '[' || n.kind == 0 && n.raw[0] == '[' }

// asObject expands a raw object one level.
func (n *treeNode) asObject() *treeNode {
	if n.kind == '{' {
		return n
	}
	return expandObject(gjson.Parse(n.raw))
}

// asArray turns a raw array into an array of one run.
func (n *treeNode) asArray() *treeNode {
	if n.kind == '[' {
		return n
	}
	out := &treeNode{kind: '['}
	if body := n.raw[1 : len(n.raw)-1]; body != "" {
		count := 0
		gjson.Parse(n.raw).ForEach(func(_, _ gjson.Result) bool { count++; return true })
		out.elems = append(out.elems, &treeNode{kind: 's', raw: body, count: count})
	}
	return out
}

// elements lists an array's elements one node each (a directive's list
// of paths is short).
func (n *treeNode) elements() []*treeNode {
	var out []*treeNode
	each := func(raw string) {
		gjson.Parse(raw).ForEach(func(_, v gjson.Result) bool {
			out = append(out, &treeNode{raw: v.Raw})
			return true
		})
	}
	if n.kind == 0 {
		each(n.raw)
		return out
	}
	for _, e := range n.elems {
		if e.kind == 's' {
			each("[" + e.raw + "]")
		} else {
			out = append(out, e)
		}
	}
	return out
}

func (n *treeNode) appendJSON(b []byte) []byte {
	switch n.kind {
	case '{':
		b = append(b, '{')
		for i, m := range n.mems {
			if i > 0 {
				b = append(b, ',')
			}
			b = json5.AppendString(b, m.key)
			b = append(b, ':')
			b = m.val.appendJSON(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		first := true
		for _, e := range n.elems {
			if e.kind == 's' && e.count == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = e.appendJSON(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// mergeTrees is the DOC-4 deep merge: objects merge key by key (target order
// first, new keys appended), arrays concatenate (target first), and
// anything else is replaced by source. It returns the merged node, which
// reuses (and may modify) both inputs; the cost is proportional to the
// top-level size of source and of whatever objects both sides hold under
// one key.
func mergeTrees(target, source *treeNode) *treeNode {
	switch {
	case target.isArray() && source.isArray():
		t := target.asArray()
		t.elems = append(t.elems, source.asArray().elems...)
		return t
	case target.isObject() && source.isObject():
		t, src := target.asObject(), source.asObject()
		if t.index == nil {
			t.index = make(map[string]int, len(t.mems)+len(src.mems))
			for i, m := range t.mems {
				t.index[m.key] = i
			}
		}
		for _, m := range src.mems {
			if i, ok := t.index[m.key]; ok {
				t.mems[i].val = mergeTrees(t.mems[i].val, m.val)
				continue
			}
			t.index[m.key] = len(t.mems)
			t.mems = append(t.mems, m)
		}
		return t
	}
	return source
}

// location is where the walk is in the tree, built as it goes and turned
// into an occkit.Path only for an error: extending a Path copies it, which
// would cost depth² on a deep document.
type location struct {
	parent *location
	key    string
	index  int
	isIdx  bool
}

func (a *location) Key(k string) *location { return &location{parent: a, key: k} }
func (a *location) Index(i int) *location  { return &location{parent: a, index: i, isIdx: true} }

// path is the location as a Path; the nil *location is the root.
func (a *location) path() occkit.Path {
	var chain []*location
	for at := a; at != nil; at = at.parent {
		chain = append(chain, at)
	}
	var b occkit.PathBuilder
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i].isIdx {
			b.Index(chain[i].index)
		} else {
			b.Key(chain[i].key)
		}
	}
	return b.Path()
}

// includer resolves $include inside allowed roots.
type includer struct {
	roots     []string // absolute, cleaned
	realRoots []string // the same with symbolic links resolved
	limits    Limits
	// loads counts the files included so far and read the bytes they
	// hold; both are checked before a file is read (DOC-2, DOC-4).
	loads int
	read  int
	// fsys, when set, is where includes are read instead of the host file
	// system (LoadFS): paths are slash-separated and fs.ValidPath, roots
	// are directories inside fsys, and fsys itself is the outer boundary.
	fsys fs.FS
}

func newIncluder(roots []string, l Limits) *includer {
	in := &includer{limits: l}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		in.roots = append(in.roots, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			in.realRoots = append(in.realRoots, real)
		}
	}
	return in
}

// process resolves every $include under n, which sits at at in the
// resulting document; dir resolves relative paths and chain holds the
// real paths of the files being included (cycle detection). It reuses n.
func (in *includer) process(ld *loader, n *treeNode, at *location, dir string, chain []string, depth int) (*treeNode, error) {
	switch n.kind {
	case '[':
		index := 0
		for i, e := range n.elems {
			if e.kind == 's' {
				index += e.count
				continue
			}
			v, err := in.process(ld, e, at.Index(index), dir, chain, depth)
			if err != nil {
				return nil, err
			}
			n.elems[i] = v
			index++
		}
		return n, nil
	case '{':
	default:
		// Raw: no $include inside.
		return n, nil
	}
	var directive *treeNode
	kept := n.mems[:0]
	for _, m := range n.mems {
		if m.key == includeKey {
			directive = m.val
			continue
		}
		v, err := in.process(ld, m.val, at.Key(m.key), dir, chain, depth)
		if err != nil {
			return nil, err
		}
		kept = append(kept, treeMember{key: m.key, val: v})
	}
	n.mems = kept
	if directive == nil {
		return n, nil
	}
	site := at.Key(includeKey)
	if len(in.roots) == 0 {
		// The directive itself is refused, whatever it names (an empty
		// list included): without roots nothing may be included.
		return nil, occkit.Invalid("DOC-4", site.path(), "$include is not allowed here: this Configuration is read as a single file, so it cannot include others")
	}
	included, err := in.resolve(ld, directive, site, at, dir, chain, depth)
	if err != nil {
		return nil, err
	}
	if len(n.mems) == 0 {
		return included, nil
	}
	if !included.isObject() {
		return nil, occkit.Invalid("DOC-4", site.path(), "an object with keys beside $include can only include an object")
	}
	// The including document's own keys win over what it includes.
	return mergeTrees(included, n), nil
}

// resolve loads the value of one $include: a path, or an array of paths
// merged left to right.
func (in *includer) resolve(ld *loader, v *treeNode, site, at *location, dir string, chain []string, depth int) (*treeNode, error) {
	if v.isString() {
		return in.load(ld, v, site, at, dir, chain, depth)
	}
	if !v.isArray() {
		return nil, occkit.Invalid("DOC-4", site.path(), "$include must be a relative path or an array of them")
	}
	acc := &treeNode{kind: '{'}
	for i, e := range v.elements() {
		if !e.isString() {
			return nil, occkit.Invalid("DOC-4", site.Index(i).path(), "each $include entry must be a path string")
		}
		got, err := in.load(ld, e, site.Index(i), at, dir, chain, depth)
		if err != nil {
			return nil, err
		}
		acc = mergeTrees(acc, got)
	}
	return acc, nil
}

// load reads, parses and processes one included file. Error messages never
// quote the include path: it is a document value.
func (in *includer) load(ld *loader, v *treeNode, siteLoc, at *location, dir string, chain []string, depth int) (*treeNode, error) {
	site := siteLoc.path()
	if depth >= MaxIncludeDepth {
		return nil, occkit.Invalid("DOC-4", site, "includes nest deeper than the limit of %d", MaxIncludeDepth)
	}
	rel, err := json5.Unquote([]byte(v.raw))
	if err != nil || rel == "" || strings.ContainsRune(rel, 0) || !utf8.ValidString(rel) {
		return nil, occkit.Invalid("DOC-4", site, "$include must name a file")
	}
	if in.fsys != nil {
		return in.loadFS(ld, rel, site, at, dir, chain, depth)
	}
	p := filepath.Clean(rel)
	if !filepath.IsAbs(p) {
		if dir == "" {
			return nil, occkit.Invalid("DOC-4", site, "a relative $include needs a base directory")
		}
		p = filepath.Join(dir, p)
	}
	if !insideRoots(p, in.roots) {
		return nil, occkit.Invalid("DOC-4", site, "$include resolves outside the allowed include roots")
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, fileError(site, "DOC-4", "the included file "+includeName(rel), readFailure{reasonUnreadable, err}.pathless(), in.limits)
	}
	if !insideRoots(real, in.realRoots) {
		return nil, occkit.Invalid("DOC-4", site, "$include leaves the allowed include roots through a symbolic link")
	}
	if err := in.admit(site, real, chain); err != nil {
		return nil, err
	}
	// DOC-2: the included files together hold at most MaxBytes, checked
	// against the file's size before it is read, so that a fan-out of
	// large files costs no more than one document.
	data, fail := readRegularFile(real, min(in.limits.MaxBytes, in.limits.MaxBytes-in.read), true)
	if fail.reason == reasonTooLarge && in.read > 0 {
		if st, err := os.Stat(real); err == nil && st.Size() <= int64(in.limits.MaxBytes) {
			return nil, occkit.Invalid("DOC-2", site, "the included files together are larger than the limit of %d bytes", in.limits.MaxBytes)
		}
	}
	return in.descend(ld, data, fail.pathless(), site, at, rel, real, ld.displayName(p), filepath.Dir(p), chain, depth)
}

// includeName is an included file's name for a message, as the author
// wrote it in the $include (never the host path it resolved to): quoted, control characters
// replaced, cut at 96 characters (the message stays within its cap).
func includeName(name string) string {
	if r := []rune(name); len(r) > 96 {
		name = string(r[:95]) + "…"
	}
	return strconv.Quote(occkit.Sanitize(name))
}

// descend parses an included file's bytes (or reports why they could not
// be read, naming rel, the file as the $include wrote it: never a
// directory of the host) and resolves its own includes: key joins the chain, dir
// resolves its relative paths and name is the file in positions. What the
// file itself gets wrong is placed in it; the file joins the loader's
// sources once its own includes are resolved, after theirs.
func (in *includer) descend(ld *loader, data []byte, fail readFailure, site occkit.Path, at *location, rel, key, name, dir string, chain []string, depth int) (*treeNode, error) {
	if fail.reason != "" {
		return nil, fileError(site, "DOC-4", "the included file "+includeName(rel), fail, in.limits)
	}
	in.read += len(data)
	out, err := ld.parse(data)
	if err != nil {
		own := ld.sourceMap(sourceText{name: name, src: data})
		own.files[0].under = at.path()
		return nil, rebase(place(err, own), site)
	}
	next := append(append([]string(nil), chain...), key)
	here := sourceText{name: name, at: at.path(), src: data}
	n, err := in.process(ld, parseTree(out), at, dir, next, depth+1)
	if err != nil {
		return nil, place(err, ld.sourceMap(append(ld.sources, here)...))
	}
	ld.sources = append(ld.sources, here)
	return n, nil
}

// admit refuses a file already on the include chain (a cycle) and counts
// it against [MaxIncludeFiles].
func (in *includer) admit(site occkit.Path, key string, chain []string) error {
	for _, c := range chain {
		if c == key {
			return occkit.Invalid("DOC-4", site, "$include forms a cycle: the file includes itself")
		}
	}
	if in.loads++; in.loads > MaxIncludeFiles {
		return occkit.Invalid("DOC-4", site, "more than %d files are included", MaxIncludeFiles)
	}
	return nil
}

// rebase reports an included file's own error at the $include that
// named it, keeping the rule, naming the location inside the file and
// keeping its position there.
func rebase(err error, site occkit.Path) error {
	e := occkit.First(err)
	if e == nil {
		return err
	}
	where := ""
	if !e.Path.IsRoot() {
		where = " at " + e.Path.String()
	}
	r := occkit.New(e.Code, e.Rule, site, "in the included file%s: %s", where, e.Detail)
	r.Position = e.Position
	return r
}

// insideRoots reports whether p is one of roots or lies below one.
func insideRoots(p string, roots []string) bool {
	for _, r := range roots {
		rel, err := filepath.Rel(r, p)
		if err != nil || filepath.IsAbs(rel) {
			continue
		}
		if rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// readFailure is why a file could not be read: a reason naming no path
// (empty when the file was read) and the error behind it, if any, kept
// for errors.Is (fs.ErrNotExist, fs.ErrPermission, …).
type readFailure struct {
	reason string
	cause  error
}

// pathless drops the file name from the cause: an included file's path
// is a document value, which a refusal never carries. What the cause
// stands for (a *fs.PathError's own error) stays.
func (f readFailure) pathless() readFailure {
	var pe *fs.PathError
	if errors.As(f.cause, &pe) {
		f.cause = pe.Err
	}
	return f
}

// Reasons readRegularFile gives; they name no path.
const (
	reasonTooLarge   = "too large"
	reasonNotRegular = "it is not a regular file"
	reasonHardLink   = "it has more than one hard link"
	reasonChanged    = "it changed while being opened"
	reasonUnreadable = "it does not exist or is not accessible"
)

// readRegularFile reads the regular file at real (a path with no symbolic
// links, from filepath.EvalSymlinks) and at most max bytes of it. It opens
// without following a final symbolic link and without blocking on a FIFO,
// then checks that what it opened is still the file at real. With
// noHardLinks a file with several links is refused: a hard link can point
// outside the roots where no path check can see it.
func readRegularFile(real string, max int, noHardLinks bool) ([]byte, readFailure) {
	f, err := openNoFollow(real)
	if err != nil {
		return nil, readFailure{reasonUnreadable, err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, readFailure{reasonUnreadable, err}
	}
	if !fi.Mode().IsRegular() {
		return nil, readFailure{reason: reasonNotRegular}
	}
	if noHardLinks && hardLinks(fi) > 1 {
		return nil, readFailure{reason: reasonHardLink}
	}
	if again, err := filepath.EvalSymlinks(real); err != nil || again != real {
		return nil, readFailure{reasonChanged, err}
	}
	if st, err := os.Stat(real); err != nil || !os.SameFile(st, fi) {
		return nil, readFailure{reasonChanged, err}
	}
	return readBounded(f, fi.Size(), max)
}

// readBounded reads an opened regular file of the given size, at most
// max bytes: the size it reports is checked before reading and the bytes
// read after (a file may grow while it is read).
func readBounded(r io.Reader, size int64, max int) ([]byte, readFailure) {
	if max < 0 || size > int64(max) {
		return nil, readFailure{reason: reasonTooLarge}
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, readFailure{reasonUnreadable, err}
	}
	if len(data) > max {
		return nil, readFailure{reason: reasonTooLarge}
	}
	return data, readFailure{}
}
