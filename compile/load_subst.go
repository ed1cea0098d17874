package compile

import (
	"regexp"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// ldEnvName is the variable-name pattern OpenClaw substitutes: upper-case
// letters, digits and underscores, not starting with a digit.
var ldEnvName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

type ldRefKind int

const (
	ldRefNone   ldRefKind = iota // not a reference: left as written
	ldRefEnv                     // ${NAME}
	ldRefSecret                  // ${pass:…} or ${gopass:…}
)

// ldClassify tells what the text between "${" and "}" is.
func ldClassify(ref string) ldRefKind {
	if ldEnvName.MatchString(ref) {
		return ldRefEnv
	}
	if i := strings.IndexByte(ref, ':'); i > 0 && (ref[:i] == "pass" || ref[:i] == "gopass") {
		return ldRefSecret
	}
	return ldRefNone
}

// ldSubstitute replaces ${NAME} in every string value under n (keys are
// never substituted) using lookup (DOC-4).
func ldSubstitute(n *ldNode, at occkit.Path, lookup func(string) (string, bool)) error {
	switch n.kind {
	case '{':
		for _, m := range n.mems {
			if err := ldSubstitute(m.val, at.Key(m.key), lookup); err != nil {
				return err
			}
		}
	case '[':
		for i, e := range n.elems {
			if err := ldSubstitute(e, at.Index(i), lookup); err != nil {
				return err
			}
		}
	default:
		if !n.isString() || !strings.Contains(string(n.raw), "$") {
			return nil
		}
		s, err := json5.Unquote(n.raw)
		if err != nil {
			return occkit.Invalid("DOC-4", at, "the string cannot be decoded")
		}
		out, err := ldSubstString(s, at, lookup)
		if err != nil {
			return err
		}
		if out != s {
			n.raw = json5.AppendString(nil, out)
		}
	}
	return nil
}

// ldSubstString applies OpenClaw's substitution to one string: ${NAME}
// becomes the variable's value (missing or empty is an error naming the
// variable), $${NAME} becomes the literal ${NAME}, and anything else,
// ${lower} included, stays as written. Secret-store references
// (${pass:…}, ${gopass:…}) are refused: occkit runs no password store.
func ldSubstString(s string, at occkit.Path, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		if strings.HasPrefix(s[i:], "$${") {
			if end := strings.IndexByte(s[i+3:], '}'); end >= 0 {
				if ref := s[i+3 : i+3+end]; ldClassify(ref) != ldRefNone {
					b.WriteString("${")
					b.WriteString(ref)
					b.WriteByte('}')
					i += 3 + end
					continue
				}
			}
		}
		if strings.HasPrefix(s[i:], "${") {
			if end := strings.IndexByte(s[i+2:], '}'); end >= 0 {
				ref := s[i+2 : i+2+end]
				switch ldClassify(ref) {
				case ldRefEnv:
					v, ok := lookup(ref)
					if !ok || v == "" {
						return "", occkit.Invalid("DOC-4", at, "variable %s is not set", ref)
					}
					b.WriteString(v)
					i += 2 + end
					continue
				case ldRefSecret:
					return "", occkit.Invalid("DOC-4", at, "secret-store references (pass:, gopass:) are not supported")
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}
