package compile

import (
	"errors"
	"regexp"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// varName is the variable-name pattern OpenClaw substitutes: upper-case
// letters, digits and underscores, not starting with a digit.
var varName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

type refKind int

const (
	refNone   refKind = iota // not a reference: left as written
	refEnv                   // ${NAME}
	refSecret                // ${pass:…} or ${gopass:…}
)

// classifyRef tells what the text between "${" and "}" is.
func classifyRef(ref string) refKind {
	if varName.MatchString(ref) {
		return refEnv
	}
	if i := strings.IndexByte(ref, ':'); i > 0 && (ref[:i] == "pass" || ref[:i] == "gopass") {
		return refSecret
	}
	return refNone
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
			if end := strings.IndexByte(s[i+3:], '}'); end >= 0 {
				if ref := s[i+3 : i+3+end]; classifyRef(ref) != refNone {
					if err := write(s[lit:i], "${", ref, "}"); err != nil {
						return "", false, err
					}
					i += 3 + end
					lit, changed = i+1, true
					continue
				}
			}
		}
		if strings.HasPrefix(s[i:], "${") {
			if end := strings.IndexByte(s[i+2:], '}'); end >= 0 {
				ref := s[i+2 : i+2+end]
				switch classifyRef(ref) {
				case refEnv:
					v, ok := lookup(ref)
					if !ok || v == "" {
						return "", false, occkit.Invalid("DOC-4", occkit.Root(), "variable %s is not set", ref)
					}
					if err := write(s[lit:i], v); err != nil {
						return "", false, err
					}
					i += 2 + end
					lit, changed = i+1, true
					continue
				case refSecret:
					return "", false, occkit.Invalid("DOC-4", occkit.Root(), "secret-store references (pass:, gopass:) are not supported")
				}
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
