package resolver

import (
	"strings"
	"unicode/utf8"

	"github.com/occkit/occkit"
)

// Ref is a parsed model reference `provider/id[@profile]` (REF-1..REF-5).
type Ref struct {
	// Provider is trimmed and lower-cased (REF-2).
	Provider string
	// ID is the model ID after the first slash, trimmed, case kept. It may
	// contain further slashes (REF-1).
	ID string
	// Profile is the auth-profile suffix, or "" (REF-5).
	Profile string
}

// String renders the ref as "provider/id", followed by "@profile" when a
// profile is set. A profile whose first segment reads as a model suffix
// (REF-5: "q4", "8bit", a date — reachable as "p/m@ q4", where the space
// keeps the `@` a profile separator) is written after "@ ", the form both
// ParseRef and OpenClaw read back as that profile, so the rendered ref
// always parses to r.
func (r Ref) String() string {
	s := r.Provider + "/" + r.ID
	if r.Profile != "" {
		seg, _, _ := strings.Cut(r.Profile, "@")
		if isModelSuffix(seg) {
			s += "@ " + r.Profile
		} else {
			s += "@" + r.Profile
		}
	}
	return s
}

// Key is the ref without its profile: "provider/id", the form model maps
// are keyed by.
func (r Ref) Key() string { return r.Provider + "/" + r.ID }

// TrimRef returns the ref s as written without the white space ParseRef
// ignores: around the whole ref (REF-2) and around the auth-profile `@`
// (REF-5). The provider keeps its case and the model part its spelling; a
// profile whose first segment reads as a model suffix keeps the "@ " that
// makes it a profile (see [Ref.String]), so TrimRef(s) parses as s does.
func TrimRef(s string) string {
	t := strings.TrimSpace(s)
	model, profile := splitProfile(t)
	if profile == "" {
		return t
	}
	if seg, _, _ := strings.Cut(profile, "@"); isModelSuffix(seg) {
		return model + "@ " + profile
	}
	return model + "@" + profile
}

// ParseRef parses a selected model ref strictly (REF-1..REF-5). It reports
// false when s is not a valid selected ref (REF-3): empty, without a `/`,
// starting or ending with `/`, or with an empty provider or ID after
// trimming.
func ParseRef(s string) (Ref, bool) {
	return parseRef(s, "", true)
}

// ParseRefLenient parses s like [ParseRef], except that a bare ID without
// any `/` gets defaultProvider (REF-5a). Empty input, "/", "p/" and "/m"
// stay invalid, as does a bare ID when defaultProvider is blank.
func ParseRefLenient(s, defaultProvider string) (Ref, bool) {
	return parseRef(s, defaultProvider, false)
}

func parseRef(s, defaultProvider string, strict bool) (Ref, bool) {
	if r, ok := plainRef(s); ok {
		return r, true
	}
	return readRef(s, defaultProvider, strict)
}

// readRef is [parseRef] of any s: trimmed, its profile split off, its
// provider lower-cased.
func readRef(s, defaultProvider string, strict bool) (Ref, bool) {
	model, profile := splitProfile(strings.TrimSpace(s))
	if model == "" {
		return Ref{}, false
	}
	slash := strings.IndexByte(model, '/')
	if slash < 0 {
		if strict {
			return Ref{}, false
		}
		p := strings.ToLower(strings.TrimSpace(defaultProvider))
		if p == "" || strings.Contains(p, "/") {
			return Ref{}, false
		}
		return Ref{Provider: p, ID: model, Profile: profile}, true
	}
	// REF-3: the string itself must neither start nor end with a slash.
	if strings.HasPrefix(model, "/") || strings.HasSuffix(model, "/") {
		return Ref{}, false
	}
	provider := strings.ToLower(strings.TrimSpace(model[:slash]))
	id := strings.TrimSpace(model[slash+1:])
	if provider == "" || id == "" {
		return Ref{}, false
	}
	return Ref{Provider: provider, ID: id, Profile: profile}, true
}

// plainRef parses s, in one pass over its bytes, when it is a ref as
// nearly every one is written: printable ASCII without a space or an `@`,
// a slash, but neither first nor last, and no upper-case letter before
// the first slash. Such a ref is its own trimmed form without a profile,
// its provider lower-case already: the provider and ID are the text
// around the first slash, as [parseRef] reads them. Any other s is not
// ok, and is left to parseRef's reading.
func plainRef(s string) (Ref, bool) {
	i := 0
	for i < len(s) && refBytes[s[i]] == refPlain {
		i++
	}
	if i == 0 || i == len(s) || refBytes[s[i]] != refSlash {
		return Ref{}, false
	}
	for j := i + 1; j < len(s); j++ {
		if refBytes[s[j]] == refOther {
			return Ref{}, false
		}
	}
	if s[len(s)-1] == '/' {
		return Ref{}, false
	}
	return Ref{Provider: s[:i], ID: s[i+1:]}, true
}

// trimSpace is [strings.TrimSpace], which returns at once an s that
// starts and ends with printable ASCII other than `@` (nearly every ref,
// row ID and key; see refBytes): such an s is its own trimmed form.
func trimSpace(s string) string {
	if s == "" || refBytes[s[0]]|refBytes[s[len(s)-1]] == refOther {
		return strings.TrimSpace(s)
	}
	return s
}

// The classes of the bytes of a ref for [plainRef]: a space, a control,
// a byte of a wider rune or an `@` (refOther) takes a ref off its path,
// and an upper-case letter does before the first slash.
const (
	refPlain uint8 = iota
	refSlash
	refUpper
	refOther
)

var refBytes = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c <= ' ' || c >= utf8.RuneSelf || c == '@':
			t[c] = refOther
		case c == '/':
			t[c] = refSlash
		case c >= 'A' && c <= 'Z':
			t[c] = refUpper
		}
	}
	return t
}()

// splitProfile splits a trailing `@profile` off s (REF-5). Every `@`
// after the last `/` counts, also one right after it: in "vllm/@cf" the
// profile is "cf" and the model "vllm/" (no ID, so the ref is invalid), as
// in OpenClaw. A bare ID starting with `@` has no profile at all. When what follows
// an `@` (up to the next `@`) is an 8-digit date or a quantization tag,
// that `@` belongs to the model ID and the next `@` is tried. A split that
// leaves an empty model or profile is no split.
func splitProfile(s string) (model, profile string) {
	for i := strings.LastIndexByte(s, '/') + 1; i < len(s); i++ {
		if s[i] != '@' {
			continue
		}
		if i == 0 {
			return s, "" // "@x", "@@x": a leading @ starts no profile
		}
		rest := s[i+1:]
		seg := rest
		if j := strings.IndexByte(rest, '@'); j >= 0 {
			seg = rest[:j]
		}
		if isModelSuffix(seg) {
			continue
		}
		m, p := strings.TrimSpace(s[:i]), strings.TrimSpace(rest)
		if m == "" || p == "" {
			return s, ""
		}
		return m, p
	}
	return s, ""
}

// isModelSuffix reports whether seg (the text after an `@`) names a model
// variant rather than an auth profile (REF-5): an 8-digit date (20251001) or
// a quantization tag: the GGUF families `q<N>` and `iq<N>` with
// `_`-separated alphanumeric parts (q4_k_m, q8_0, iq3_xxs) and bit widths
// `<N>bit` (8bit), case-insensitive. Nothing else is exempt: `@v2` or
// `@work` is a profile, as in OpenClaw's current parser.
func isModelSuffix(seg string) bool {
	seg = strings.ToLower(seg)
	switch {
	case len(seg) == 8 && allDigits(seg):
		return true
	case strings.HasPrefix(seg, "iq"):
		return isGGUF(seg[2:])
	case strings.HasPrefix(seg, "q"):
		return isGGUF(seg[1:])
	}
	n, ok := strings.CutSuffix(seg, "bit")
	return ok && allDigits(n)
}

// isGGUF matches `<N>(_<alnum>)*` (what follows `q` or `iq`).
func isGGUF(s string) bool {
	head, tail, _ := strings.Cut(s, "_")
	if !allDigits(head) {
		return false
	}
	if tail == "" {
		return !strings.HasSuffix(s, "_")
	}
	for _, part := range strings.Split(tail, "_") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MatchRow reports whether the catalog row ID rowID
// (`models.providers.<p>.models[i].id`) names ref (REF-4): rowID equals
// the full "provider/id" (provider part compared case-insensitively) or
// equals the ID after the first slash. The part after the last slash alone
// never matches, and the profile is ignored.
func MatchRow(ref Ref, rowID string) bool {
	row := trimSpace(rowID)
	if row == "" || ref.ID == "" {
		return false
	}
	if row == ref.ID {
		return true
	}
	p, id, ok := strings.Cut(row, "/")
	return ok && strings.EqualFold(trimSpace(p), ref.Provider) && trimSpace(id) == ref.ID
}

// RuntimeAuto is the normalized runtime ID meaning "choose automatically"
// (REF-6, SEL-3).
const RuntimeAuto = "auto"

// NormalizeRuntime trims and lower-cases a runtime ID and resolves its
// aliases (REF-6): `pi` → `openclaw`, `codex-app-server` → `codex`; "",
// `auto` and `default` → [RuntimeAuto].
func NormalizeRuntime(id string) string {
	switch s := strings.ToLower(strings.TrimSpace(id)); s {
	case "", RuntimeAuto, "default":
		return RuntimeAuto
	case "pi":
		return string(occkit.HarnessOpenClaw)
	case "codex-app-server":
		return string(occkit.HarnessCodex)
	default:
		return s
	}
}
