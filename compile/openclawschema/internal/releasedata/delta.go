// Package releasedata stores the configuration contracts of several
// OpenClaw releases compactly: the newest release's files as they are, and
// each other release as a delta against them (the releases share most of
// their text). Package openclawschema decodes a release on first use;
// cmd/gendata (the generator) encodes them. Beside them, [NPMRecord] is
// what the npm registry publishes of the plugin packages the releases
// install (data/npm.json), which no release's package says.
//
// # Delta format
//
// A delta rebuilds a target text from a base text. It is the header
// "occkit-delta/1\n", the target's length and its SHA-256, then
// operations until the target is complete, all lengths and offsets as
// unsigned varints (encoding/binary):
//
//	n<<1 | 0, then n bytes     insert the n bytes
//	n<<1 | 1, then offset      copy n bytes of the base from offset
//
// [Apply] checks every bound and the digest, so a damaged delta is an
// error, never a wrong text.
package releasedata

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const header = "occkit-delta/1\n"

// maxTarget bounds the target a delta may declare, before anything is
// allocated for it.
const maxTarget = 64 << 20

// minMatch is the shortest run of the base a copy refers to: shorter runs
// cost about as much as a copy operation saves.
const minMatch = 24

// Delta encodes target against base. It is deterministic: the same texts
// give the same delta. The search is greedy: at each position of the
// target, the longest run of the base that starts with the next minMatch
// bytes (among the first candidates in base order) is copied.
func Delta(base, target []byte) []byte {
	index := map[string][]int32{}
	const maxCandidates = 64
	for i := 0; i+minMatch <= len(base); i++ {
		k := string(base[i : i+minMatch])
		if c := index[k]; len(c) < maxCandidates {
			index[k] = append(c, int32(i))
		}
	}
	out := []byte(header)
	out = binary.AppendUvarint(out, uint64(len(target)))
	sum := sha256.Sum256(target)
	out = append(out, sum[:]...)
	lit := 0 // start of the pending insert
	flush := func(end int) {
		if end > lit {
			out = binary.AppendUvarint(out, uint64(end-lit)<<1)
			out = append(out, target[lit:end]...)
		}
	}
	for i := 0; i < len(target); {
		best, bestLen := -1, 0
		if i+minMatch <= len(target) {
			for _, c := range index[string(target[i:i+minMatch])] {
				n := minMatch
				for int(c)+n < len(base) && i+n < len(target) && base[int(c)+n] == target[i+n] {
					n++
				}
				if n > bestLen {
					best, bestLen = int(c), n
				}
			}
		}
		if best < 0 {
			i++
			continue
		}
		flush(i)
		out = binary.AppendUvarint(out, uint64(bestLen)<<1|1)
		out = binary.AppendUvarint(out, uint64(best))
		i += bestLen
		lit = i
	}
	flush(len(target))
	return out
}

// Apply rebuilds the target text of delta from base.
func Apply(base, delta []byte) ([]byte, error) {
	if !bytes.HasPrefix(delta, []byte(header)) {
		return nil, errors.New("releasedata: not a delta")
	}
	d := delta[len(header):]
	size, n := binary.Uvarint(d)
	if n <= 0 || size > maxTarget || len(d)-n < sha256.Size {
		return nil, errors.New("releasedata: damaged delta header")
	}
	d = d[n:]
	want := d[:sha256.Size]
	d = d[sha256.Size:]
	out := make([]byte, 0, size)
	for len(d) > 0 {
		op, n := binary.Uvarint(d)
		if n <= 0 {
			return nil, errors.New("releasedata: damaged operation")
		}
		d = d[n:]
		length := op >> 1
		if length == 0 || length > size-uint64(len(out)) {
			return nil, fmt.Errorf("releasedata: operation of %d bytes beyond the target", length)
		}
		if op&1 == 0 {
			if length > uint64(len(d)) {
				return nil, errors.New("releasedata: insert beyond the delta")
			}
			out = append(out, d[:length]...)
			d = d[length:]
			continue
		}
		off, n := binary.Uvarint(d)
		if n <= 0 || off > uint64(len(base)) || length > uint64(len(base))-off {
			return nil, errors.New("releasedata: copy beyond the base")
		}
		d = d[n:]
		out = append(out, base[off:off+length]...)
	}
	if uint64(len(out)) != size {
		return nil, fmt.Errorf("releasedata: rebuilt %d bytes, want %d", len(out), size)
	}
	if sum := sha256.Sum256(out); !bytes.Equal(sum[:], want) {
		return nil, errors.New("releasedata: the rebuilt text does not match its digest")
	}
	return out, nil
}

// Files is the files of one release's contract by name.
type Files map[string][]byte

// Bundle joins files into one text, in the order of names: for each file
// a line "name length" and its bytes. A delta between two bundles covers
// every file of the release at once.
func Bundle(files Files, names []string) []byte {
	var b []byte
	for _, n := range names {
		b = fmt.Appendf(b, "%s %d\n", n, len(files[n]))
		b = append(b, files[n]...)
	}
	return b
}

// Split is the inverse of Bundle.
func Split(b []byte) (Files, error) {
	files := Files{}
	for len(b) > 0 {
		line, rest, ok := bytes.Cut(b, []byte("\n"))
		if !ok {
			return nil, errors.New("releasedata: damaged bundle")
		}
		name, size, ok := strings.Cut(string(line), " ")
		n, err := strconv.Atoi(size)
		if !ok || name == "" || err != nil || n < 0 || n > len(rest) {
			return nil, errors.New("releasedata: damaged bundle entry")
		}
		files[name] = rest[:n:n]
		b = rest[n:]
	}
	return files, nil
}

// Names are the files of a release's contract, in bundle order.
var Names = []string{"version.txt", "sensitive.json", "plugins.json", "schema.json"}

// Compare orders OpenClaw release versions (year.month.patch, each a
// decimal number) numerically: -1, 0 or +1. A version of another form
// sorts before every well-formed one, then by its text.
func Compare(a, b string) int {
	pa, oka := parts(a)
	pb, okb := parts(b)
	switch {
	case oka && okb:
		for i := range pa {
			if pa[i] != pb[i] {
				if pa[i] < pb[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	case oka != okb:
		if oka {
			return 1
		}
		return -1
	}
	return bytes.Compare([]byte(a), []byte(b))
}

func parts(v string) ([3]int, bool) {
	var p [3]int
	fields := bytes.Split([]byte(v), []byte("."))
	if len(fields) != 3 {
		return p, false
	}
	for i, f := range fields {
		if len(f) == 0 || len(f) > 6 || f[0] == '0' && len(f) > 1 {
			return p, false
		}
		for _, c := range f {
			if c < '0' || c > '9' {
				return p, false
			}
			p[i] = p[i]*10 + int(c-'0')
		}
	}
	return p, true
}
