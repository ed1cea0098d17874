package compile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// includeKey is the directive DOC-4 resolves, in any object at any depth
// (as OpenClaw does).
const includeKey = "$include"

// ldNode is an ordered JSON tree used only while includes are merged and
// references substituted: objects keep their member order, scalars keep
// their normalized JSON bytes.
type ldNode struct {
	kind  byte // '{', '[' or 0 for a scalar
	raw   []byte
	mems  []ldMember
	elems []*ldNode
}

type ldMember struct {
	key string // decoded
	val *ldNode
}

// ldTree builds the tree of normalized JSON (produced by the transcoder,
// so valid, depth-bounded and free of duplicate keys).
func ldTree(b []byte) *ldNode { return ldTreeOf(gjson.ParseBytes(b)) }

func ldTreeOf(v gjson.Result) *ldNode {
	switch {
	case v.IsObject():
		n := &ldNode{kind: '{'}
		v.ForEach(func(k, val gjson.Result) bool {
			key, err := json5.Unquote([]byte(k.Raw))
			if err != nil {
				key = k.String()
			}
			n.mems = append(n.mems, ldMember{key: key, val: ldTreeOf(val)})
			return true
		})
		return n
	case v.IsArray():
		n := &ldNode{kind: '['}
		v.ForEach(func(_, val gjson.Result) bool {
			n.elems = append(n.elems, ldTreeOf(val))
			return true
		})
		return n
	}
	return &ldNode{raw: []byte(v.Raw)}
}

func (n *ldNode) isString() bool { return n.kind == 0 && len(n.raw) > 0 && n.raw[0] == '"' }

func (n *ldNode) appendJSON(b []byte) []byte {
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
		for i, e := range n.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendJSON(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// ldMerge is the DOC-4 deep merge: objects merge key by key (target order
// first, new keys appended), arrays concatenate (target first), and
// anything else is replaced by source. Neither input is modified.
func ldMerge(target, source *ldNode) *ldNode {
	switch {
	case target.kind == '[' && source.kind == '[':
		elems := make([]*ldNode, 0, len(target.elems)+len(source.elems))
		return &ldNode{kind: '[', elems: append(append(elems, target.elems...), source.elems...)}
	case target.kind == '{' && source.kind == '{':
		out := &ldNode{kind: '{', mems: append([]ldMember(nil), target.mems...)}
		at := make(map[string]int, len(out.mems))
		for i, m := range out.mems {
			at[m.key] = i
		}
		for _, m := range source.mems {
			if i, ok := at[m.key]; ok {
				out.mems[i].val = ldMerge(out.mems[i].val, m.val)
				continue
			}
			at[m.key] = len(out.mems)
			out.mems = append(out.mems, m)
		}
		return out
	}
	return source
}

// includer resolves $include inside allowed roots.
type includer struct {
	roots     []string // absolute, cleaned
	realRoots []string // the same with symbolic links resolved
	limits    Limits
	loads     int
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

// process resolves every $include under n, which sits at path at of the
// resulting document; dir resolves relative paths and chain holds the
// real paths of the files being included (cycle detection).
func (in *includer) process(ld *loader, n *ldNode, at occkit.Path, dir string, chain []string, depth int) (*ldNode, error) {
	switch n.kind {
	case '[':
		out := &ldNode{kind: '[', elems: make([]*ldNode, len(n.elems))}
		for i, e := range n.elems {
			v, err := in.process(ld, e, at.Index(i), dir, chain, depth)
			if err != nil {
				return nil, err
			}
			out.elems[i] = v
		}
		return out, nil
	case '{':
	default:
		return n, nil
	}
	inc := -1
	rest := &ldNode{kind: '{'}
	for i, m := range n.mems {
		if m.key == includeKey {
			inc = i
			continue
		}
		v, err := in.process(ld, m.val, at.Key(m.key), dir, chain, depth)
		if err != nil {
			return nil, err
		}
		rest.mems = append(rest.mems, ldMember{key: m.key, val: v})
	}
	if inc < 0 {
		return rest, nil
	}
	incAt := at.Key(includeKey)
	if len(in.roots) == 0 {
		// The directive itself is refused, whatever it names (an empty
		// list included): without roots nothing may be included.
		return nil, occkit.Invalid("DOC-4", incAt, "$include is not allowed: no include roots are configured")
	}
	included, err := in.resolve(ld, n.mems[inc].val, incAt, at, dir, chain, depth)
	if err != nil {
		return nil, err
	}
	if len(rest.mems) == 0 {
		return included, nil
	}
	if included.kind != '{' {
		return nil, occkit.Invalid("DOC-4", incAt, "an object with keys beside $include can only include an object")
	}
	// The including document's own keys win over what it includes.
	return ldMerge(included, rest), nil
}

// resolve loads the value of one $include: a path, or an array of paths
// merged left to right.
func (in *includer) resolve(ld *loader, v *ldNode, incAt, at occkit.Path, dir string, chain []string, depth int) (*ldNode, error) {
	if v.isString() {
		return in.load(ld, v, incAt, at, dir, chain, depth)
	}
	if v.kind != '[' {
		return nil, occkit.Invalid("DOC-4", incAt, "$include must be a relative path or an array of them")
	}
	acc := &ldNode{kind: '{'}
	for i, e := range v.elems {
		if !e.isString() {
			return nil, occkit.Invalid("DOC-4", incAt.Index(i), "each $include entry must be a path string")
		}
		got, err := in.load(ld, e, incAt.Index(i), at, dir, chain, depth)
		if err != nil {
			return nil, err
		}
		acc = ldMerge(acc, got)
	}
	return acc, nil
}

// load reads, parses and processes one included file. Error messages never
// quote the include path: it is a document value.
func (in *includer) load(ld *loader, v *ldNode, incAt, at occkit.Path, dir string, chain []string, depth int) (*ldNode, error) {
	if depth >= MaxIncludeDepth {
		return nil, occkit.Invalid("DOC-4", incAt, "includes nest deeper than the limit of %d", MaxIncludeDepth)
	}
	rel, err := json5.Unquote(v.raw)
	if err != nil || rel == "" || strings.ContainsRune(rel, 0) || !utf8.ValidString(rel) {
		return nil, occkit.Invalid("DOC-4", incAt, "$include must name a file")
	}
	p := filepath.Clean(rel)
	if !filepath.IsAbs(p) {
		if dir == "" {
			return nil, occkit.Invalid("DOC-4", incAt, "a relative $include needs a base directory")
		}
		p = filepath.Join(dir, p)
	}
	if !incInside(p, in.roots) {
		return nil, occkit.Invalid("DOC-4", incAt, "$include resolves outside the allowed include roots")
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, occkit.Invalid("DOC-4", incAt, "the included file cannot be read: it does not exist or is not accessible")
	}
	if !incInside(real, in.realRoots) {
		return nil, occkit.Invalid("DOC-4", incAt, "$include leaves the allowed include roots through a symbolic link")
	}
	for _, c := range chain {
		if c == real {
			return nil, occkit.Invalid("DOC-4", incAt, "$include forms a cycle: the file includes itself")
		}
	}
	if in.loads++; in.loads > MaxIncludeFiles {
		return nil, occkit.Invalid("DOC-4", incAt, "more than %d files are included", MaxIncludeFiles)
	}
	data, reason := incReadFile(real, in.limits.MaxBytes, true)
	if reason != "" {
		return nil, ldFileError(incAt, "DOC-4", "the included file", reason, in.limits)
	}
	out, err := ld.parse(data)
	if err != nil {
		return nil, ldRebase(err, incAt)
	}
	next := append(append([]string(nil), chain...), real)
	return in.process(ld, ldTree(out), at, filepath.Dir(p), next, depth+1)
}

// ldRebase reports an included file's own error at the $include that
// named it, keeping the rule and naming the location inside the file.
func ldRebase(err error, incAt occkit.Path) error {
	e := occkit.First(err)
	if e == nil {
		return err
	}
	where := ""
	if !e.Path.IsRoot() {
		where = " at " + e.Path.String()
	}
	return occkit.New(e.Code, e.Rule, incAt, "in the included file%s: %s", where, e.Detail)
}

// incInside reports whether p is one of roots or lies below one.
func incInside(p string, roots []string) bool {
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

// Reasons incReadFile gives; they name no path.
const (
	incTooLarge   = "too large"
	incNotRegular = "it is not a regular file"
	incHardLink   = "it has more than one hard link"
	incChanged    = "it changed while being opened"
	incUnreadable = "it does not exist or is not accessible"
)

// incReadFile reads the regular file at real (a path with no symbolic
// links, from filepath.EvalSymlinks) and at most max bytes of it. It opens
// without following a final symbolic link and without blocking on a FIFO,
// then checks that what it opened is still the file at real. With
// noHardLinks a file with several links is refused: a hard link can point
// outside the roots where no path check can see it.
func incReadFile(real string, max int, noHardLinks bool) ([]byte, string) {
	f, err := incOpen(real)
	if err != nil {
		return nil, incUnreadable
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, incUnreadable
	}
	if !fi.Mode().IsRegular() {
		return nil, incNotRegular
	}
	if noHardLinks && incLinks(fi) > 1 {
		return nil, incHardLink
	}
	if again, err := filepath.EvalSymlinks(real); err != nil || again != real {
		return nil, incChanged
	}
	if st, err := os.Stat(real); err != nil || !os.SameFile(st, fi) {
		return nil, incChanged
	}
	if fi.Size() > int64(max) {
		return nil, incTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, incUnreadable
	}
	if len(data) > max {
		return nil, incTooLarge
	}
	return data, ""
}
