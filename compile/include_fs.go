package compile

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/occkit/occkit"
)

// loadFS is [includer.load] for a document read from an fs.FS: the same
// depth, count, size, cycle and root rules (DOC-2, DOC-4), with
// slash-separated paths resolved inside the file system. An absolute
// path, or one that climbs above the file system's top, is refused; the
// file system's own notion of links decides what a name opens.
func (in *includer) loadFS(ld *loader, rel string, site occkit.Path, at *location, dir string, chain []string, depth int) (*treeNode, error) {
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, `\`) {
		return nil, occkit.Invalid("DOC-4", site, "$include in a file system must be a relative slash-separated path")
	}
	p := path.Join(dir, rel)
	if !fs.ValidPath(p) {
		return nil, occkit.Invalid("DOC-4", site, "$include resolves outside the allowed include roots")
	}
	if !fsInside(p, in.roots) {
		return nil, occkit.Invalid("DOC-4", site, "$include resolves outside the allowed include roots")
	}
	if err := in.admit(site, p, chain); err != nil {
		return nil, err
	}
	data, fail := fsReadFile(in.fsys, p, in.limits.MaxBytes-in.read)
	if fail.reason == reasonTooLarge && in.read > 0 {
		if st, err := fs.Stat(in.fsys, p); err == nil && st.Size() <= int64(in.limits.MaxBytes) {
			return nil, occkit.Invalid("DOC-2", site, "the included files together are larger than the limit of %d bytes", in.limits.MaxBytes)
		}
	}
	return in.descend(ld, data, fail.pathless(), site, at, rel, p, p, path.Dir(p), chain, depth)
}

// fsInside reports whether the slash path p is one of roots or below one;
// the root "." holds everything.
func fsInside(p string, roots []string) bool {
	for _, r := range roots {
		if r == "." || p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// fsReadFile reads the regular file name of fsys, at most max bytes,
// checking the size the file reports before reading and the bytes read
// after.
func fsReadFile(fsys fs.FS, name string, max int) ([]byte, readFailure) {
	f, err := fsys.Open(name)
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
	return readBounded(f, fi.Size(), max)
}

// LoadFS is [Load] for the file name inside fsys (an embed.FS, an
// fstest.MapFS, os.DirFS, …): name and every $include are slash-separated
// paths of fsys ([fs.ValidPath]), relative includes resolve against the
// including file's directory, and the file system is the outer boundary:
// an include that would leave it is refused. [LoadOptions.IncludeRoots],
// if given, are directories inside fsys that includes must stay within
// (default: all of fsys); [LoadOptions.BaseDir] is ignored. The limits,
// include depth, include count and cycle rules are those of [LoadFile].
// Whether a name that is a symbolic link is followed is fsys's own
// business (os.DirFS follows links, so give it a tree you trust or wrap
// it).
func LoadFS(fsys fs.FS, name string, opts LoadOptions) (occkit.Document, error) {
	if fsys == nil || !fs.ValidPath(name) || name == "." {
		return occkit.Document{}, occkit.Invalid("DOC-1", occkit.Root(), "the configuration file name must be a valid path inside the file system")
	}
	roots := make([]string, 0, len(opts.IncludeRoots))
	for _, r := range opts.IncludeRoots {
		r = path.Clean(r)
		if !fs.ValidPath(r) {
			return occkit.Document{}, occkit.Invalid("DOC-4", occkit.Root(), "an include root must be a valid path inside the file system")
		}
		roots = append(roots, r)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	ld := newLoader(opts) // the limits, lookup and sensitive paths every loader reads
	l := ld.limits
	ld.inc = &includer{limits: l, roots: roots, fsys: fsys}
	data, fail := fsReadFile(fsys, name, l.MaxBytes)
	if fail.reason != "" {
		return occkit.Document{}, fileError(occkit.Root(), "DOC-1", "the configuration file", fail, l)
	}
	ld.name, ld.keep = name, true
	return ld.load(data, path.Dir(name), []string{name})
}

// LoadReader is [Load] for a document read from r. It reads at most
// [Limits.MaxBytes] plus one byte, so an endless or oversized stream is
// refused (DOC-2) without being read to its end. A read error is
// reported as such, wrapped; $include follows [Load]'s rules.
func LoadReader(r io.Reader, opts LoadOptions) (occkit.Document, error) {
	max := opts.Limits.withDefaults().MaxBytes
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return occkit.Document{}, occkit.Wrap(err, occkit.CodeInvalidRequest, "DOC-1", occkit.Root(), "the configuration cannot be read")
	}
	if len(data) > max {
		return occkit.Document{}, occkit.Invalid("DOC-2", occkit.Root(), "the document size exceeds the limit of %d bytes", max)
	}
	return loadBytes(data, opts, true)
}
