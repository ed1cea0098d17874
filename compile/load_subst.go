package compile

import (
	"errors"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

type refKind int

const (
	refNone   refKind = iota // not a reference: left as written
	refEnv                   // ${NAME}
	refSecret                // ${pass:…} or ${gopass:…}
)

// varNameLen is the length of the longest prefix of s that can be read as
// a variable name; it stops at the first byte that cannot, so a caller
// that knows what follows pays only for the name.
func varNameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}

// substitute returns the normalized JSON src with ${NAME} replaced in
// every string value (keys are never substituted) using lookup (DOC-4).
//
// It is one pass that copies src to the output, decoding only the strings
// holding a '$'. Every limit is checked as the output grows, before the
// bytes that would break it are written (DOC-2): a string may not grow
// past MaxStringBytes, and the whole document not past MaxBytes, however
// many references a string holds or however large a variable is. So the
// pass allocates at most a small multiple of len(src) + MaxBytes.
func substitute(src []byte, lookup func(string) (string, bool), l Limits) ([]byte, error) {
	var (
		out    []byte // nil until the first string changes
		copied int    // src[:copied] is in out
	)
	// The pass keeps no state per level: in normalized (compact) JSON a
	// string followed by ':' is a key, and a path is found by a second
	// scan, only for an error.
	for i := 0; i < len(src); i++ {
		if src[i] == '"' {
			start := i
			dollar := false
			for i++; src[i] != '"'; i++ {
				switch src[i] {
				case '\\':
					i++
				case '$':
					dollar = true
				}
			}
			if !dollar || i+1 < len(src) && src[i+1] == ':' {
				continue
			}
			lit := src[start : i+1]
			// Room left for growth: the document may reach MaxBytes.
			room := l.MaxBytes - len(src) - (len(out) - copied)
			repl, err := substituteLiteral(lit, room, l, lookup, func() occkit.Path { return occkit.PathAt(src, start) })
			if err != nil {
				return nil, err
			}
			if repl == nil {
				continue
			}
			if out == nil {
				out = make([]byte, 0, len(src)+len(repl)-len(lit))
			}
			out = append(out, src[copied:start]...)
			out = append(out, repl...)
			copied = i + 1
			if len(out)+len(src)-copied > l.MaxBytes {
				return nil, substitutionTooLarge(l)
			}
		}
	}
	if out == nil {
		return src, nil
	}
	return append(out, src[copied:]...), nil
}

// errLdSubstLimit: a substituted string would exceed its limit.
var errLdSubstLimit = errors.New("substitution exceeds its limit")

func substitutionTooLarge(l Limits) error {
	return occkit.Invalid("DOC-2", occkit.Root(), "the document after ${VAR} substitution exceeds the limit of %d bytes", l.MaxBytes)
}

// substituteLiteral substitutes inside one JSON string literal. It returns
// nil when nothing changes, and refuses before writing past room bytes of
// growth or a decoded string longer than MaxStringBytes.
func substituteLiteral(lit []byte, room int, l Limits, lookup func(string) (string, bool), at func() occkit.Path) ([]byte, error) {
	s, err := json5.Unquote(lit)
	if err != nil {
		return nil, occkit.Invalid("DOC-4", at(), "the string cannot be decoded")
	}
	// The encoded output is never shorter than the decoded one, so
	// bounding decoded growth against room bounds what is allocated.
	limit := min(l.MaxStringBytes, len(lit)+room)
	out, changed, err := substituteString(s, limit, lookup)
	var e *occkit.Error
	switch {
	case err == nil:
	case errors.Is(err, errLdSubstLimit) && limit == l.MaxStringBytes:
		return nil, occkit.Invalid("DOC-2", at(), "a string after ${VAR} substitution is longer than the limit of %d bytes", l.MaxStringBytes)
	case errors.Is(err, errLdSubstLimit):
		return nil, substitutionTooLarge(l)
	case errors.As(err, &e):
		return nil, occkit.New(e.Code, e.Rule, at(), "%s", e.Detail)
	default:
		return nil, err
	}
	if !changed {
		return nil, nil
	}
	return json5.AppendString(nil, out), nil
}

// substituteString applies OpenClaw's substitution to one string: ${NAME}
// becomes the variable's value (missing or empty is an error naming the
// variable), $${NAME} becomes the literal ${NAME}, and anything else,
// ${lower} included, stays as written. Secret-store references
// (${pass:…}, ${gopass:…}) are refused: occkit runs no password store.
// The result may not exceed limit bytes: that is checked before each
// write, so nothing longer is ever built. The errors carry the root path;
// the caller puts them at the string.
func substituteString(s string, limit int, lookup func(string) (string, bool)) (string, bool, error) {
	var sc refScanner
	return sc.substitute(s, limit, lookup)
}

// refScanner substitutes one string in time linear in its length (the
// package doc's "Bounded work"). OpenClaw looks for the closing brace of
// every "${" from scratch, which costs the rest of the string each time
// ("${" repeated without a "}" is quadratic); the scanner remembers the
// first "}" at or after the last place it looked, and since every search
// starts at or after the previous one, the closing braces are found in
// one pass. What lies between is read only as far as a name can go, and
// a name that is read is skipped over. read counts the bytes examined
// beyond the one pass, for the cost test.
type refScanner struct {
	s        string
	searched bool
	close    int // the first '}' at or after the last search's start (-1: none)
	read     int
}

// closeAfter returns the index of the first '}' at or after i, or -1.
// Calls must not decrease i: then a brace found earlier is still the
// first one after i unless i has passed it, and each search starts past
// the brace the previous one found.
func (sc *refScanner) closeAfter(i int) int {
	if sc.searched && (sc.close < 0 || sc.close >= i) {
		return sc.close
	}
	sc.searched = true
	j := strings.IndexByte(sc.s[i:], '}')
	if j < 0 {
		sc.read += len(sc.s) - i
		sc.close = -1
	} else {
		sc.read += j + 1
		sc.close = i + j
	}
	return sc.close
}

// refAt classifies the reference whose name would start at i (just after
// "${"), returning its kind and the index of its closing brace.
func (sc *refScanner) refAt(i int) (refKind, int) {
	end := sc.closeAfter(i)
	if end < 0 {
		return refNone, -1
	}
	n := varNameLen(sc.s[i:end])
	sc.read += min(n+1, end-i)
	if n > 0 && n == end-i {
		return refEnv, end
	}
	if strings.HasPrefix(sc.s[i:end], "pass:") || strings.HasPrefix(sc.s[i:end], "gopass:") {
		return refSecret, end
	}
	return refNone, end
}

func (sc *refScanner) substitute(s string, limit int, lookup func(string) (string, bool)) (string, bool, error) {
	*sc = refScanner{s: s}
	var b strings.Builder
	b.Grow(min(len(s), limit))
	changed := false
	write := func(parts ...string) error {
		n := b.Len()
		for _, p := range parts {
			n += len(p)
		}
		if n > limit {
			return errLdSubstLimit
		}
		if n > b.Cap() {
			// Double, rather than let WriteString grow by a quarter
			// at a time, which would copy a long result many times.
			b.Grow(max(n, 2*b.Cap()) - b.Len())
		}
		for _, p := range parts {
			b.WriteString(p)
		}
		return nil
	}
	lit := 0 // s[lit:i] is literal text not yet written
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		if strings.HasPrefix(s[i:], "$${") {
			if kind, end := sc.refAt(i + 3); kind != refNone {
				if err := write(s[lit:i], "${", s[i+3:end], "}"); err != nil {
					return "", false, err
				}
				i = end
				lit, changed = i+1, true
				continue
			}
		}
		if strings.HasPrefix(s[i:], "${") {
			kind, end := sc.refAt(i + 2)
			switch kind {
			case refEnv:
				ref := s[i+2 : end]
				v, ok := lookup(ref)
				if !ok || v == "" {
					return "", false, occkit.Invalid("DOC-4", occkit.Root(), "variable %s is not set", ref)
				}
				if err := write(s[lit:i], v); err != nil {
					return "", false, err
				}
				i = end
				lit, changed = i+1, true
				continue
			case refSecret:
				return "", false, occkit.Invalid("DOC-4", occkit.Root(), "secret-store references (pass:, gopass:) are not supported")
			}
		}
	}
	if !changed {
		return s, false, nil
	}
	if err := write(s[lit:]); err != nil {
		return "", false, err
	}
	return b.String(), true, nil
}
