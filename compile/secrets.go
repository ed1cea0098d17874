package compile

import (
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/envpolicy"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// RuleSecretBytes is the rule of a literal credential refusal: ADM-7
// freezes references, never Secret bytes (see the package doc, "Secrets
// in a revision").
const RuleSecretBytes = "ADM-7"

// SecretPolicy is what one OpenClaw release says about credentials: the
// configuration paths it marks sensitive and its environment-variable
// policy. Make one with [SecretPolicyFor].
type SecretPolicy struct {
	Sensitive []sensitive.Pattern
	Env       *envpolicy.Policy
	// match is Sensitive compiled, when SecretPolicyFor made the policy.
	match *sensitive.Set
}

// eachSensitive is [sensitive.Set.EachKnown] with the policy's patterns:
// every sensitive path of doc and its value, in one pass that passes over
// the known values in one step each.
func (p SecretPolicy) eachSensitive(doc occkit.Document, known []sensitive.Span, fn func(at occkit.Path, v gjson.Result)) {
	set := p.match
	if set == nil {
		set = sensitive.Compile(p.Sensitive)
	}
	set.EachKnown(doc, known, func(at occkit.Path, raw string) { fn(at, gjson.Parse(raw)) })
}

// SecretPolicyFor returns the policy of an OpenClaw release: its own data
// when the library carries it, else the pinned release's (a floor for a
// release a caller validates with its own schema).
func SecretPolicyFor(release string) SecretPolicy {
	if r, pol := pinnedSecrets(); release == r {
		return pol
	}
	return secretPolicyFor(release)
}

// pinnedSecrets is the pinned release and its policy, made once: the
// policy every plan of a revision that runs it asks for (the policy's
// data is shared, so it is the one secretPolicyFor makes each time, but
// looking it up reads three maps of releases and the release's name).
var pinnedSecrets = sync.OnceValues(func() (string, SecretPolicy) {
	r := openclawschema.Release()
	return r, secretPolicyFor(r)
})

func secretPolicyFor(release string) SecretPolicy {
	pol, ok := envpolicy.For(release)
	if !ok {
		pol = envpolicy.Pinned()
	}
	return SecretPolicy{Sensitive: sensitive.For(release), Env: pol, match: sensitive.SetFor(release)}
}

// scope is one subtree the render strips credentials from (a model
// scope: a models.providers entry or an agent models map entry): the
// entry key under its map's path, and its value when a test lists it.
type scope struct {
	parent occkit.Path
	key    string
	v      gjson.Result
}

// placeKind is what a credential place holds.
type placeKind int

const (
	placeValue placeKind = iota // the whole value is a credential
	placeURL                    // a URL whose user info and credential query parameters are
)

// secretPlaces calls visit once for every place of doc that may hold a
// credential: each path pol marks sensitive and, in the subtrees the
// render strips, each header value, each value under a key that names a
// credential ([credentialName]) and each URL-like string.
func secretPlaces(doc occkit.Document, pol SecretPolicy, visit func(at occkit.Path, v gjson.Result, kind placeKind)) {
	scanPlaces(doc, pol, visit, nil)
}

// scanPlaces is [secretPlaces], and, when settings is not nil, reads into
// it the document's model settings as [findPlaces] does.
func scanPlaces(doc occkit.Document, pol SecretPolicy, visit func(at occkit.Path, v gjson.Result, kind placeKind), settings *modelSettings) {
	for _, p := range findPlaces(doc, pol, settings, nil) {
		visit(p.at, p.v, p.kind)
	}
}

// findPlaces returns the places [secretPlaces] visits, in its order, and,
// when settings is not nil, reads into it the document's model settings
// ([readModelSettings]) in the same walk: the runtime ids of the models
// maps and catalogs the walk reads for their places, and those of the
// shapes it does not enter (a map or a catalog that is an array,
// agents.entries as an array, agents.list), and the providers of each
// agent scope's model refs, appended to those settings holds. The places of the providers'
// scopes, which come first of the walk's, are appended to first (the
// caller's room for a few).
func findPlaces(doc occkit.Document, pol SecretPolicy, settings *modelSettings, first []secretPlace) []secretPlace {
	// The scopes of eachModelScope, read in one pass over the document
	// (each map by the walker, everything else skipped), and visited in
	// eachModelScope's order: the providers, the defaults' models, then
	// each entry's (the walker's lists).
	const providers, defaults, entries = 0, 1, 2
	root := doc.String()
	// The walk goes a few steps down a scope and knows a few large
	// values: it holds as many itself, on this stack.
	w := placeWalker{runtimes: settings != nil}
	w.lists[providers] = first
	// rt collects the runtime ids, of the whole document's text.
	rt := &w.rt
	rt.text = root
	if settings != nil {
		rt.out = settings.runtimes
	}
	// skip passes over the value at root[at] and returns the offset
	// after it; the sensitive paths' walk, which meets most of the values
	// this walk passes over (an agent scope's model, which lists its
	// fallbacks, a large one), passes over it in one step.
	skip := func(at int) int { return w.know(at, jsonwalk.Skip(root, at)) }
	// members walks the members of the value at root[at] with fn and
	// returns the offset after the value, which need not be an object.
	members := func(at int, fn func(key string, at int) int) int {
		if end := jsonwalk.Members(root, at, func(lit string, escaped bool, at int) int {
			return fn(decode(lit, escaped), at)
		}); end >= 0 {
			return w.know(at, end)
		}
		return skip(at)
	}
	// scopes walks the models map (or, catalog, models.providers) at at,
	// at path, for its places; one that is no object holds none, and
	// its runtime ids are read on their own.
	scopes := func(at int, path occkit.Path, into int, catalog bool) int {
		if settings != nil && (at >= len(root) || root[at] != '{') {
			if catalog {
				return rt.providers(at)
			}
			return rt.each(at, rt.entry)
		}
		w.into, w.catalog = into, catalog
		return w.scopes(path, root, at)
	}
	// agentScope reads the agent scope at at: the places of its models
	// map (at path, into the list into) when path is not nil, else only
	// its runtime ids; and its model.
	agentScope := func(at int, path func() occkit.Path, into int) int {
		return members(at, func(k string, at int) int {
			switch {
			case k == "models" && path != nil:
				return scopes(at, path(), into, false)
			case k == "models" && settings != nil:
				return rt.each(at, rt.entry)
			case k == "model" && settings != nil:
				// Its refs' providers are read where it would be skipped.
				return w.know(at, modelProviders(root, at, func(p string) {
					settings.providers = addProvider(settings.providers, p)
				}))
			}
			return skip(at)
		})
	}
	// element reads an agent scope that holds no places: an element of
	// agents.entries as an array or of agents.list.
	element := func(at int) int { return agentScope(at, nil, 0) }
	read := members(0, func(k string, at int) int {
		switch k {
		case "gateway", "env", "plugins", "channels":
			// The scan's check and its plan read them: they are read
			// here in passing.
			if settings != nil {
				if v := &settings.root[rootMemberOf(k)]; v.End == 0 {
					end := skip(at)
					*v = sensitive.Span{Start: at, End: end}
					return end
				}
			}
		case "models":
			return members(at, func(k string, at int) int {
				if k != "providers" {
					return skip(at)
				}
				return scopes(at, providersPath, providers, true)
			})
		case "agents":
			return members(at, func(k string, at int) int {
				switch k {
				case "defaults":
					return agentScope(at, func() occkit.Path { return defaultsModelsPath }, defaults)
				case "entries":
					if settings != nil && at < len(root) && root[at] == '[' {
						return rt.each(at, element)
					}
					return members(at, func(k string, at int) int {
						return agentScope(at, func() occkit.Path { return occkit.NewPath("agents", "entries", k, "models") }, entries)
					})
				case "list":
					if settings != nil && at < len(root) && root[at] == '[' {
						return rt.each(at, element)
					}
				}
				return skip(at)
			})
		}
		return skip(at)
	})
	if settings != nil {
		settings.runtimes = rt.out
		settings.rootRead = read >= 0 && len(root) > 0 && root[0] == '{'
	}
	// The sensitive paths come first, found by a walk that passes over
	// each large value the walk above read in one step, then the
	// scopes'; a path is visited once.
	known := w.known.All()
	slices.SortFunc(known, func(a, b sensitive.Span) int { return a.Start - b.Start })
	var out []secretPlace
	pol.eachSensitive(doc, known, func(at occkit.Path, v gjson.Result) { out = append(out, secretPlace{at, v, placeValue}) })
	some := len(out) > 0
	for _, list := range w.lists {
		if out == nil {
			out = list
		} else {
			out = append(out, list...)
		}
	}
	if !some {
		// The walk visits a path of a scope once, and the paths of two
		// scopes differ: only a sensitive path may be visited again.
		return out
	}
	return firstPlaces(out)
}

// firstPlaces keeps the first place of each path, in order, in places'
// own array.
func firstPlaces(places []secretPlace) []secretPlace {
	n := 0
	if len(places) <= 16 {
		// A few: each compared with those kept.
	next:
		for _, p := range places {
			for _, q := range places[:n] {
				if q.at.Equal(p.at) {
					continue next
				}
			}
			places[n] = p
			n++
		}
		return places[:n]
	}
	seen := make(map[string]bool, len(places))
	for _, p := range places {
		if k := p.at.String(); !seen[k] {
			seen[k] = true
			places[n] = p
			n++
		}
	}
	return places[:n]
}

var (
	defaultsModelsPath = occkit.NewPath("agents", "defaults", "models")
	envPath            = occkit.NewPath("env")
)

// credentialName reports whether a settings key names a credential value
// (apiKey, x-api-key, token, clientSecret, password, tls.cert, …): its
// letters and digits end with a credential word. It is narrower than
// [CredentialKey], which the render strips by: that one also matches keys
// that only mention a credential (auth: "api-key", authHeader, headerName,
// maxTokensField, tokenMode), which are settings, not secrets.
func credentialName(k string) bool {
	return mayNameCredential(k) && credentialTail(k)
}

// mayNameCredential reports whether k may name a credential
// ([credentialName]). Most keys end with two ASCII letters, which are
// the last two bytes of the normal form, and no credential word ends
// with most pairs: a key ending so is told from them by one look-up,
// without a call (the walk asks of every key).
func mayNameCredential(k string) bool {
	n := len(k)
	if n < 2 {
		return true
	}
	x := uint(k[n-2])<<8 | uint(k[n-1])
	return credentialPairs[x>>6]&(1<<(x&63)) != 0
}

// credentialPairs is the set of the last two bytes of a key (bit
// b0<<8|b1) with which [credentialTail] must read the key: all but the
// pairs of ASCII letters that, lower-cased, no credential word ends
// with ([credentialEndings]).
var credentialPairs = func() (t [1 << 16 / 64]uint64) {
	for i := range t {
		t[i] = ^uint64(0)
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for _, c0 := range []byte(letters) {
		for _, c1 := range []byte(letters) {
			if credentialEndings[c1|0x20]&(1<<(c0|0x20-'a')) == 0 {
				x := uint(c0)<<8 | uint(c1)
				t[x>>6] &^= 1 << (x & 63)
			}
		}
	}
	return t
}()

// credentialTail is [credentialName] of any key.
func credentialTail(k string) bool {
	if hit, ok := plainCredentialTail(k); ok {
		return hit
	}
	// A key is nearly always ASCII: its normal form's last bytes are read
	// from its end, as many as the longest credential word needs and then
	// some (a normal form that long is neither "ca" nor "pfx"). A byte of
	// a wider rune, which may lower to an ASCII letter, takes the whole
	// normal form.
	var tail [16]byte
	n := len(tail)
	for i := len(k) - 1; i >= 0 && n > 0; i-- {
		c := k[i]
		switch {
		case c >= utf8.RuneSelf:
			var buf [64]byte
			return credentialWord(appendNormalKey(buf[:0], k))
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			continue
		}
		n--
		tail[n] = c
		// A normal form of one byte is no credential word, and one whose
		// last two bytes no credential word ends with is none.
		switch n {
		case len(tail) - 1:
			if credentialEndings[c] == 0 {
				return false
			}
		case len(tail) - 2:
			if c < 'a' || c > 'z' || credentialEndings[tail[n+1]]&(1<<(c-'a')) == 0 {
				return false
			}
		}
	}
	return credentialWord(tail[n:])
}

// credentialEndings is, by the last byte of a normal form, the set of
// the bytes before it (bit c-'a' for the letter c) with which a
// credential word ends: most keys are told from their last two bytes.
var credentialEndings = func() (t [256]uint32) {
	for _, w := range append([]string{"ca", "pfx"}, credentialSuffixWords...) {
		t[w[len(w)-1]] |= 1 << (w[len(w)-2] - 'a')
	}
	return t
}()

// plainCredentialTail is [credentialTail] of a key whose last bytes, as
// many as it compares with a credential word, are ASCII letters and
// digits, and so the last bytes of its normal form (ok). The last two
// name the one word that can end the key ([credentialSuffix]), which is
// compared from the key's end, without writing the normal form, up to
// the first byte that differs ("temperature" is told from "signature"
// by its sixth byte from the end). A normal form is no longer than its
// key, so a key shorter than the word does not end with it. The short
// words, which the whole normal form must be, are left to
// credentialTail.
func plainCredentialTail(k string) (hit, ok bool) {
	if len(k) < 2 {
		return false, false
	}
	c1, ok1 := lowerAlnum(k[len(k)-1])
	c0, ok0 := lowerAlnum(k[len(k)-2])
	if !ok0 || !ok1 || c1 == 'a' || c1 == 'x' {
		return false, false
	}
	w := credentialSuffix(c0, c1)
	if w == "" || len(k) < len(w) {
		return false, true
	}
	// The word's bytes are lower-case letters, which a byte is, or is
	// the upper case of, when it is so or-ed with 0x20: the comparison
	// asks no more of a byte that matches.
	t := k[len(k)-len(w):]
	for i := len(w) - 3; i >= 0; i-- {
		if t[i]|('a'-'A') == w[i] {
			continue
		}
		_, ok := lowerAlnum(t[i])
		return false, ok
	}
	return true, true
}

// lowerAlnum is the ASCII letter or digit c lower-cased (ok), as it
// stands in a normal form.
func lowerAlnum(c byte) (byte, bool) {
	switch {
	case c >= 'A' && c <= 'Z':
		return c + 'a' - 'A', true
	case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		return c, true
	}
	return c, false
}

// credentialSuffixWords are the credential words a normal form may end
// with ("ca" and "pfx" it must be whole): no two end with the same two
// letters, so that those name the one a key is compared with.
var credentialSuffixWords = []string{"key", "keys", "secrets", "credentials", "token", "authorization", "secret", "cert",
	"password", "passwd", "passphrase", "cookie", "signature", "certificate", "credential", "bearer"}

// credentialSuffixIndex is, by the last two letters of a normal form,
// one more than the index of the credential word ending with them in
// credentialSuffixWords (0: none).
var credentialSuffixIndex = func() (t [26 * 26]uint8) {
	for i, w := range credentialSuffixWords {
		x := &t[int(w[len(w)-2]-'a')*26+int(w[len(w)-1]-'a')]
		if *x != 0 {
			panic("compile: two credential words end with " + w[len(w)-2:])
		}
		*x = uint8(i + 1)
	}
	return t
}()

// credentialSuffix is the credential word a normal form ending with the
// bytes c0 and c1 may end with, or "" when none does.
func credentialSuffix(c0, c1 byte) string {
	if c0 < 'a' || c0 > 'z' || c1 < 'a' || c1 > 'z' {
		return ""
	}
	if i := credentialSuffixIndex[int(c0-'a')*26+int(c1-'a')]; i > 0 {
		return credentialSuffixWords[i-1]
	}
	return ""
}

// credentialWord reports whether the normal form of a key (or its last
// 16 bytes, when it is longer) ends with a credential word or is one of
// the short ones.
func credentialWord(n []byte) bool {
	switch {
	case len(n) < 2:
		return false
	case string(n) == "ca", string(n) == "pfx":
		return true
	}
	w := credentialSuffix(n[len(n)-2], n[len(n)-1])
	return w != "" && len(n) >= len(w) && string(n[len(n)-len(w):]) == w
}

// appendNormalKey appends k as [normalizeKey] writes it (lower-cased,
// letters and digits only) to dst: the walk asks it of every key, so it
// allocates nothing for a key of up to cap(dst) bytes.
func appendNormalKey(dst []byte, k string) []byte {
	for _, r := range k {
		if r >= 0x80 {
			r = unicode.ToLower(r)
		} else if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			dst = append(dst, byte(r))
		}
	}
	return dst
}

// headersKey reports whether k, of fewer than 32 bytes, is normalized
// "headers" (a byte adds at most one to the normal form, so a shorter key
// is not). The walk asks of the key of every object it meets: a key
// that starts with an ASCII letter or digit other than h (nearly every
// key) is told here, inlined, by one look-up, without a call.
func headersKey(k string) bool {
	return len(k) >= len("headers") && len(k) < 32 && headersStart[k[0]] && normalHeadersKey(k)
}

// headersStart are the bytes a key may start with when it is normalized
// "headers": all but the ASCII letters and digits other than h, which
// start its normal form.
var headersStart = func() (t [256]bool) {
	for c := range t {
		l := byte(c) | ('a' - 'A')
		t[c] = l == 'h' || !(l >= 'a' && l <= 'z' || c >= '0' && c <= '9')
	}
	return t
}()

// normalHeadersKey is [headersKey] of a key of its length.
func normalHeadersKey(k string) bool {
	// An ASCII byte is its own normal form or drops out of it, so the
	// first letter or digit before any wider rune starts the normal form.
	for i := 0; i < len(k) && k[i] < utf8.RuneSelf; i++ {
		if c := k[i] | ('a' - 'A'); c >= 'a' && c <= 'z' || k[i] >= '0' && k[i] <= '9' {
			if c != 'h' {
				return false
			}
			break
		}
	}
	// A rune adds at most one byte to the normal form.
	var buf [16]byte
	return string(appendNormalKey(buf[:0], k)) == "headers"
}

// refName reports whether s is a name OpenClaw substitutes in ${…}:
// [A-Z_][A-Z0-9_]*.
func refName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// wholeRef returns the variable a whole (trimmed) string refers to, as
// OpenClaw reads a credential field: "${NAME}" (substituted at load) or
// the SecretRef shorthand "$NAME" (NAME: [A-Z][A-Z0-9_]{0,127}).
func wholeRef(s string) (string, bool) {
	if name, ok := strings.CutPrefix(s, "${"); ok {
		name, ok = strings.CutSuffix(name, "}")
		if ok && refName(name) {
			return name, true
		}
		return "", false
	}
	if name, ok := strings.CutPrefix(s, "$"); ok && name != "" && len(name) <= 128 && name[0] != '_' && refName(name) {
		return name, true
	}
	return "", false
}

// authSchemes are the HTTP authorization scheme words a header value may
// put before its reference ("Bearer ${TOKEN}"): public words, not bytes
// of the credential.
var authSchemes = map[string]bool{"bearer": true, "basic": true, "bot": true, "token": true}

// secretRef reports whether v is a SecretRef object as OpenClaw reads one
// (coerceSecretRef): source env, file, exec or store, a string id and a
// string provider (or none, the legacy form), and no other key; for an
// env source it returns the variable.
func secretRef(v gjson.Result) (env string, ok bool) {
	if !v.IsObject() {
		return "", false
	}
	n, good := 0, true
	v.ForEach(func(k, c gjson.Result) bool {
		n++
		switch k.String() {
		case "source", "id", "provider":
			good = good && c.Type == gjson.String
		default:
			good = false
		}
		return good
	})
	src, id := v.Get("source").Str, v.Get("id").Str
	if !good || n < 2 || strings.TrimSpace(id) == "" || n == 2 && v.Get("provider").Exists() {
		return "", false
	}
	switch src {
	case "env":
		return strings.TrimSpace(id), true
	case "file", "exec", "store":
		return "", true
	}
	return "", false
}

// literalString reports whether s, found where a credential belongs,
// holds bytes of one: anything but blank text, a reference ([wholeRef],
// optionally after an authorization scheme word) or a value OpenClaw
// reads as "no credential here" ([envpolicy.Policy.NonSecretMarker]).
func literalString(s string, pol *envpolicy.Policy) bool {
	t := strings.TrimSpace(s)
	if t == "" || pol.NonSecretMarker(t) {
		return false
	}
	if _, ok := wholeRef(t); ok {
		return false
	}
	if scheme, rest, ok := strings.Cut(t, " "); ok && authSchemes[strings.ToLower(scheme)] {
		if _, ok := wholeRef(strings.TrimSpace(rest)); ok {
			return false
		}
	}
	return true
}

// literalAt returns the first path at or below at where v holds credential
// bytes: a string that [literalString] refuses or a number, anywhere in v
// unless v is a SecretRef, or else v itself when it is an object with
// members that is no SecretRef (its keys are text the author wrote at a
// credential place). Booleans, null and empty containers carry none.
func literalAt(v gjson.Result, at occkit.Path, pol *envpolicy.Policy) (occkit.Path, bool) {
	switch {
	case v.Type == gjson.String:
		return at, literalString(v.Str, pol)
	case v.Type == gjson.Number:
		return at, true
	case v.IsObject():
		if _, ok := secretRef(v); ok {
			return occkit.Path{}, false
		}
		var found occkit.Path
		hit, members := false, false
		v.ForEach(func(k, c gjson.Result) bool {
			members = true
			found, hit = literalAt(c, at.Key(k.String()), pol)
			return !hit
		})
		if !hit && members {
			// An object that is no SecretRef is a literal even when its
			// values carry no bytes: its keys do ({"xoxb-…": true}). It
			// is refused at its own path, which names none of them.
			return at, true
		}
		return found, hit
	case v.IsArray():
		for i, c := range v.Array() {
			if p, hit := literalAt(c, at.Index(i), pol); hit {
				return p, true
			}
		}
	}
	return occkit.Path{}, false
}

// urlLiteral reports whether a URL-like string holds credential bytes: a
// password (user:password@) or a user info without a password
// (TOKEN@host, the scheme-less svc:KEY@host) that is not a reference, or
// a query or fragment parameter whose name names a credential
// ([credentialName], sig, auth, code) with a value that is not one.
func urlLiteral(s string) bool {
	rest := s
	if i := strings.Index(s, "://"); i >= 0 {
		rest = s[i+3:]
	} else if i := strings.IndexByte(s, ':'); i >= 0 && strings.ContainsRune(s[i:], '@') {
		rest = s[i+1:]
	}
	// A URL parser (WHATWG, Node's) reads any run of slashes and
	// backslashes after a special scheme, and a scheme-relative "//", as
	// the start of the authority: https:/u:pw@host has a password.
	rest = strings.TrimLeft(rest, `/\`)
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		// user:password names a user and holds a password; a user info
		// without a colon, or with an empty password (TOKEN:@host, sent
		// as Basic TOKEN:), may be a token by itself.
		info := authority[:i]
		if user, password, ok := strings.Cut(info, ":"); ok {
			info = password
			if password == "" {
				info = user
			}
		}
		if _, ok := wholeRef(info); !ok && info != "" {
			return true
		}
	}
	params := ""
	if i := strings.IndexAny(tail, "?#"); i >= 0 {
		params = tail[i+1:]
	}
	if params == "" {
		return false // most URLs: no parameters to split
	}
	for _, kv := range strings.FieldsFunc(params, func(r rune) bool { return r == '&' || r == '#' || r == '?' || r == ';' }) {
		name, value, _ := strings.Cut(kv, "=")
		// A server reads %6Bey as key.
		if u, err := url.QueryUnescape(name); err == nil {
			name = u
		}
		var buf [64]byte
		n := string(appendNormalKey(buf[:0], name))
		if !credentialName(name) && n != "sig" && n != "auth" && n != "code" && n != "" {
			continue
		}
		if n == "" {
			// A bare ?VALUE names nothing: the whole part may be one.
			value = name
		}
		if _, ok := wholeRef(value); !ok && value != "" {
			return true
		}
	}
	return false
}

// CheckSecretLiterals refuses credential bytes in an admitted document
// (ADM-7: a revision freezes references, never Secret bytes): a literal
// at a path pol marks sensitive; in the subtrees the render strips, a
// literal header value, a literal under a key that names a credential,
// and a URL with literal user info or a credential query parameter; and
// an env.vars entry holding a literal value whose name is a credential's
// (a provider's key variable, a name ending in KEY, TOKEN, SECRET,
// PASSWORD, …) or that one of those places references. Each refusal is
// 400 INVALID_REQUEST with rule [RuleSecretBytes] at the value's path and
// says what to write instead; none repeats the value. The package doc,
// "Secrets in a revision", says what a reference is.
func CheckSecretLiterals(doc occkit.Document, pol SecretPolicy) error {
	return ScanSecrets(doc, pol).CheckLiterals()
}

// SecretScan is what occkit reads of one document's credentials under
// one release's policy ([SecretPolicy]), found in one walk: every place
// that may hold a credential and every variable the document references.
// [SecretScan.CheckLiterals] is [CheckSecretLiterals] of the document,
// and a [PlanInput] carrying the scan of its document plans without
// walking it again. A scan is immutable and holds views of the
// document's bytes; nothing outlives the document it was made from.
type SecretScan struct {
	doc    occkit.Document
	pol    SecretPolicy
	places []secretPlace
	refs   []envRef
	// literals is CheckLiterals' answer, decided once.
	literals error
	// settings are doc's model settings, read in the walk that finds
	// the places.
	settings modelSettings
	// plugins is [RequiredPlugins] of doc for pluginsRelease, worked out
	// by the first plan that asks (admission's check, then each render
	// of the revision, read it).
	pluginsOnce    sync.Once
	pluginsRelease string
	plugins        []Plugin
	// first holds the first place, runtime id and model provider the
	// walk finds, the arrays of places and settings until they grow:
	// most documents hold one of each (a provider's baseUrl, the runtime
	// its entries select, the provider of the defaults' model refs),
	// which then cost the scan no allocation of their own.
	first struct {
		places    [1]secretPlace
		runtimes  [1]string
		providers [1]string
	}
}

// secretPlace is one place [secretPlaces] visits.
type secretPlace struct {
	at   occkit.Path
	v    gjson.Result
	kind placeKind
}

// ScanSecrets scans doc under pol.
func ScanSecrets(doc occkit.Document, pol SecretPolicy) *SecretScan {
	s := &SecretScan{doc: doc, pol: pol}
	s.settings = modelSettings{runtimes: s.first.runtimes[:0], providers: s.first.providers[:0]}
	s.places = findPlaces(doc, pol, &s.settings, s.first.places[:0])
	s.refs = documentRefs(doc, s.places)
	s.literals = s.checkLiterals()
	return s
}

// of reports whether s is the scan of doc under pol: the same bytes
// (the same Document compares in constant time) and the same shared
// policy data.
func (s *SecretScan) of(doc occkit.Document, pol SecretPolicy) bool {
	return s != nil && s.pol.match != nil && s.pol.match == pol.match && s.pol.Env == pol.Env && s.doc.Equal(doc)
}

// scanOf is s when it is the scan of doc under pol, else a new scan.
func (s *SecretScan) scanOf(doc occkit.Document, pol SecretPolicy) *SecretScan {
	if s.of(doc, pol) {
		return s
	}
	return ScanSecrets(doc, pol)
}

// The root members a scan's walk reads in passing, for its literal check
// (env), its plugins (plugins, channels) and its plans (gateway,
// plugins): [SecretScan.rootMember].
const (
	rootGateway = iota
	rootEnv
	rootPlugins
	rootChannels
	rootMembers
)

// rootMemberPaths are the paths of the root members a scan reads.
var rootMemberPaths = [rootMembers]occkit.Path{gatewayPath, envPath, pluginsPath, channelsPath}

// rootMemberOf is the index of the root member named k (one of those a
// scan reads).
func rootMemberOf(k string) int {
	switch k {
	case "gateway":
		return rootGateway
	case "env":
		return rootEnv
	case "plugins":
		return rootPlugins
	}
	return rootChannels
}

// rootMember is the member i (rootGateway, rootEnv or rootPlugins) of
// doc's root, as docjson.Get reads it: the scan's, which its walk read,
// when doc is the scanned document.
func (s *SecretScan) rootMember(doc occkit.Document, i int) gjson.Result {
	if s == nil || !s.settings.rootRead || !s.doc.Equal(doc) {
		return docjson.Get(doc, rootMemberPaths[i])
	}
	m := s.settings.root[i]
	if m.End == 0 {
		return gjson.Result{}
	}
	r := gjson.Parse(doc.String()[m.Start:m.End])
	r.Index = m.Start
	return r
}

// requiredPlugins is [RequiredPlugins] of the scanned document for
// release, worked out once per scan and release: a plan asking for
// another release than the first works it out again. The slice may be
// the scan's: the caller reads it and never writes it (a plan copies
// it, [planner.gateway]).
func (s *SecretScan) requiredPlugins(release string) []Plugin {
	s.pluginsOnce.Do(func() {
		s.pluginsRelease, s.plugins = release, s.pluginsFor(release)
	})
	if release != s.pluginsRelease {
		return s.pluginsFor(release)
	}
	return s.plugins
}

// pluginsFor is [RequiredPlugins] of the scanned document for release,
// from the model settings the scan read.
func (s *SecretScan) pluginsFor(release string) []Plugin {
	return pluginsOf(s.rootMember(s.doc, rootPlugins), s.rootMember(s.doc, rootChannels), release,
		func() modelSettings { return s.settings })
}

// CheckLiterals is [CheckSecretLiterals] of the scanned document.
func (s *SecretScan) CheckLiterals() error { return s.literals }

func (s *SecretScan) checkLiterals() error {
	doc, pol := s.doc, s.pol
	var errs []error
	referenced := map[string]bool{}
	for _, pl := range s.places {
		at, v := pl.at, pl.v
		collectPlaceRefs(v, referenced)
		switch pl.kind {
		case placeURL:
			if urlLiteral(v.Str) {
				errs = append(errs, occkit.Invalid(RuleSecretBytes, at,
					"the URL holds a literal credential in its user info or query: a revision holds references, never secret bytes; write each as ${NAME} with a secretBinding NAME"))
			}
		default:
			if p, hit := literalAt(v, at, pol.Env); hit {
				errs = append(errs, literalError(p, pol))
			}
		}
	}
	// The providers' key variables are read when an env literal asks.
	var providers map[string]bool
	providerKey := func(u string) bool {
		if providers == nil {
			providers = map[string]bool{}
			providerKeyNames(doc, providers)
		}
		return providers[u]
	}
	envEntries(s.rootMember(doc, rootEnv), func(at occkit.Path, name string, v gjson.Result) {
		u := strings.ToUpper(name)
		if v.Type != gjson.String || !literalString(v.Str, pol.Env) {
			return
		}
		if referenced[name] || credentialEnvName(u) || pol.Env.Inference(u) || providerKey(u) {
			errs = append(errs, occkit.Invalid(RuleSecretBytes, at,
				"the env section holds a literal credential: a revision holds references, never secret bytes; bind the variable with a secretBinding of the same name instead of defining it here"))
		}
	})
	if len(errs) == 0 {
		return nil // as Join of none, without its sort
	}
	return occkit.Join(errs...)
}

// providerKeyNames adds to out the [envKeyName] of every models.providers
// key, read in one pass over the providers (their values skipped), as a
// gjson ForEach reads them: an array's keys are its indexes, and a scalar
// is one value under the key "".
func providerKeyNames(doc occkit.Document, out map[string]bool) {
	raw := docjson.Get(doc, occkit.NewPath("models")).Raw
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	found := false
	jsonwalk.Members(raw, 0, func(lit string, escaped bool, at int) int {
		if found || (jsonwalk.JS{}).Decode(lit, escaped) != "providers" {
			return jsonwalk.Skip(raw, at)
		}
		found = true
		switch raw[at] {
		case '{':
			return jsonwalk.Members(raw, at, func(lit string, escaped bool, at int) int {
				out[envKeyName(jsonwalk.JS{}.Decode(lit, escaped))] = true
				return jsonwalk.Skip(raw, at)
			})
		case '[':
			return jsonwalk.Elements(raw, at, func(i, at int) int {
				out[envKeyName(strconv.Itoa(i))] = true
				return jsonwalk.Skip(raw, at)
			})
		}
		out[envKeyName("")] = true
		return jsonwalk.Skip(raw, at)
	})
}

// envEntries calls fn for every variable a document's env section
// (section, the root's env member) defines, as OpenClaw collects them
// (collectConfigEnvVarsByTarget): each member of env.vars, and each
// member of env itself but shellEnv and vars (which OpenClaw's schema
// refuses, and applies nonetheless). name is the member's key, trimmed.
func envEntries(section gjson.Result, fn func(at occkit.Path, name string, v gjson.Result)) {
	env := envPath
	section.ForEach(func(k, v gjson.Result) bool {
		switch k.String() {
		case "shellEnv":
		case "vars":
			v.ForEach(func(kk, vv gjson.Result) bool {
				fn(env.Key("vars").Key(kk.String()), strings.TrimSpace(kk.String()), vv)
				return true
			})
		default:
			fn(env.Key(k.String()), strings.TrimSpace(k.String()), v)
		}
		return true
	})
}

func literalError(at occkit.Path, pol SecretPolicy) error {
	return occkit.Invalid(RuleSecretBytes, at,
		"a literal credential (OpenClaw %s): a revision holds references, never secret bytes; write \"${NAME}\" with a secretBinding NAME, or a SecretRef {source: \"env\", provider: \"default\", id: \"NAME\"}",
		pol.Env.Release())
}

// credentialEnvName reports whether an upper-case variable name is a
// credential's: one of its _-separated words is KEY, KEYS, APIKEY, TOKEN,
// SECRET, SECRETS, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL(S), COOKIE,
// BEARER or PAT (MAX_TOKENS or KEYBOARD_LAYOUT are not).
func credentialEnvName(u string) bool {
	for _, w := range strings.Split(u, "_") {
		switch w {
		case "KEY", "KEYS", "APIKEY", "TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD",
			"PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "COOKIE", "BEARER", "PAT":
			return true
		}
	}
	return false
}

// collectPlaceRefs adds to refs the variables a credential place refers
// to: ${NAME} anywhere in its strings, the $NAME shorthand of a whole
// string and the id of an env SecretRef.
func collectPlaceRefs(v gjson.Result, refs map[string]bool) {
	switch {
	case v.Type == gjson.String:
		if name, ok := wholeRef(strings.TrimSpace(v.Str)); ok {
			refs[name] = true
		}
		for _, name := range appendVarRefs(nil, v.Str) {
			refs[name] = true
		}
	case v.IsObject():
		if name, ok := secretRef(v); ok {
			if name != "" {
				refs[name] = true
			}
			return
		}
		v.ForEach(func(_, c gjson.Result) bool {
			collectPlaceRefs(c, refs)
			return true
		})
	case v.IsArray():
		v.ForEach(func(_, c gjson.Result) bool {
			collectPlaceRefs(c, refs)
			return true
		})
	}
}

// appendVarRefs appends the ${NAME} references of one string, as
// OpenClaw's substitution reads it: $${NAME} is an escaped literal, and
// ${text} whose text is not a name is no reference. One pass: the first
// '}' after a "${" is remembered, so a run of unclosed "${" costs no
// rescan.
func appendVarRefs(dst []string, s string) []string {
	end := -1 // the first '}' at or after the last start searched
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		var start int
		escaped := false
		switch {
		case s[i+1] == '{':
			start = i + 2
		case s[i+1] == '$' && i+2 < len(s) && s[i+2] == '{':
			start, escaped = i+3, true
		default:
			continue
		}
		if end < start {
			j := strings.IndexByte(s[start:], '}')
			if j < 0 {
				return dst
			}
			end = start + j
		}
		if !refName(s[start:end]) {
			continue
		}
		if !escaped {
			dst = append(dst, s[start:end])
		}
		i = end
	}
	return dst
}

// envRef is one variable reference of a document: its name and where
// the string or object that makes it starts in the document's bytes
// (its path is found only for a refusal), or its path.
type envRef struct {
	name string
	off  int
	at   occkit.Path
}

// documentRefs returns every variable doc references, as OpenClaw would
// ask its environment for them: ${NAME} in any string value (never in a
// key), an env SecretRef's id anywhere, and the $NAME shorthand at a
// credential place. One pass over the bytes finds the first two. None
// is needed when the bytes hold no '$', no \u and no "env": only a \u
// escape can write a '$' or a letter, so without one no string holds a
// ${NAME} and no SecretRef's source is "env" (compile.Load's documents
// hold a \u only for a control character).
func documentRefs(doc occkit.Document, places []secretPlace) []envRef {
	src := doc.String()
	var out []envRef
	switch {
	case strings.Contains(src, `\u`) || holdsEnvLiteral(src):
		out = stringRefs(src)
	case strings.IndexByte(src, '$') < 0:
	case strings.IndexByte(src, '\\') >= 0:
		out = stringRefs(src) // an escaped quote: dollarRefs counts quotes
	default:
		out = dollarRefs(src)
	}
	return appendShorthandRefs(out, places)
}

// holdsEnvLiteral reports whether src holds the bytes "env" (quotes
// included), which an env SecretRef's source is when src holds no '\\'.
// It searches the 'v', which few keys and values of a configuration hold,
// many bytes a step, where a search for the quote would stop at every
// string.
func holdsEnvLiteral(src string) bool {
	const lit = `"env"`
	for i := 0; ; {
		j := strings.IndexByte(src[i:], 'v')
		if j < 0 {
			return false
		}
		v := i + j // src[v] is lit[3]
		if v >= 3 && v+2 <= len(src) && src[v-3:v+2] == lit {
			return true
		}
		i = v + 1
	}
}

// dollarRefs is [stringRefs] of a src without a '\\' and without
// "env": no env SecretRef, and every string its bytes, so that a quote
// opens or closes one and a string holds a ${NAME} only when its bytes
// hold a '$'. It goes from '$' to '$', counting the quotes before each.
func dollarRefs(src string) []envRef {
	var out []envRef
	var names []string
	// quotes is the number of quotes in src[:from].
	quotes, from := 0, 0
	for {
		d := strings.IndexByte(src[from:], '$')
		if d < 0 {
			return out
		}
		d += from
		quotes += strings.Count(src[from:d], `"`)
		from = d + 1
		if quotes%2 == 0 {
			// Outside a string: no JSON text holds one there.
			continue
		}
		start := strings.LastIndexByte(src[:d], '"')
		end := len(src)
		if e := strings.IndexByte(src[d:], '"'); e >= 0 {
			end = d + e + 1
		}
		quotes += strings.Count(src[from:end], `"`)
		from = end
		if end < len(src) && src[end] == ':' {
			continue // a key
		}
		names = appendVarRefs(names[:0], gjson.Parse(src[start:end]).Str)
		for _, n := range names {
			out = append(out, envRef{name: n, off: start})
		}
	}
}

// stringRefs is the pass of [documentRefs] over the bytes of src: the
// ${NAME} references of its string values and the ids of its env
// SecretRefs, each at the offset of the string or key that makes it.
func stringRefs(src string) []envRef {
	var out []envRef
	var names []string
	// The objects open at i: where each starts and where its "source":
	// "env" key is (-1: none), so that an env SecretRef is read when it
	// closes, without a search from the root.
	type open struct{ start, source int }
	var objects []open
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			objects = append(objects, open{i, -1})
			continue
		case '}':
			if len(objects) == 0 {
				continue
			}
			o := objects[len(objects)-1]
			objects = objects[:len(objects)-1]
			// Its path (that of the key's object) is found only for a
			// refusal.
			if o.source >= 0 {
				if name, ok := secretRef(gjson.Parse(src[o.start : i+1])); ok && name != "" {
					out = append(out, envRef{name: name, off: o.source})
				}
			}
			continue
		case '"':
		default:
			continue
		}
		// A string is skipped by jsonwalk's scanner, which searches its
		// closing quote with IndexByte (many bytes a step).
		start := i
		end, escaped := jsonwalk.StringEnd(src, start)
		i = end - 1
		if isKey := i+1 < len(src) && src[i+1] == ':'; isKey {
			if len(objects) > 0 && i+2 < len(src) && src[i+2] == '"' && jsonStringIs(src[start:i+1], escaped, "source") {
				if vend, vescaped := jsonwalk.StringEnd(src, i+2); jsonStringIs(src[i+2:vend], vescaped, "env") {
					objects[len(objects)-1].source = start
				}
			}
			continue
		}
		// OpenClaw reads the decoded string: a '$' is there when the
		// literal holds one or an escape writes one (\u0024); a literal
		// with neither is not decoded (an allocation).
		if strings.IndexByte(src[start:i], '$') < 0 && (!escaped || !escapesASCII(src[start:i], "$")) {
			continue
		}
		s := gjson.Parse(src[start : i+1]).Str
		names = appendVarRefs(names[:0], s)
		for _, n := range names {
			out = append(out, envRef{name: n, off: start})
		}
	}
	return out
}

// appendShorthandRefs appends the $NAME shorthand references of the
// places holding a whole string that is one.
func appendShorthandRefs(out []envRef, places []secretPlace) []envRef {
	for _, pl := range places {
		if pl.kind != placeValue || pl.v.Type != gjson.String {
			continue
		}
		t := strings.TrimSpace(pl.v.Str)
		if name, ok := wholeRef(t); ok && !strings.HasPrefix(t, "${") {
			out = append(out, envRef{name: name, off: -1, at: pl.at})
		}
	}
	return out
}

// jsonStringIs reports whether the JSON string literal lit (quotes
// included), which holds an escape when escaped says so (as
// [jsonwalk.StringEnd] tells), decodes to s.
func jsonStringIs(lit string, escaped bool, s string) bool {
	if !escaped {
		return len(lit) == len(s)+2 && lit[1:len(lit)-1] == s
	}
	return gjson.Parse(lit).Str == s
}

// path is where r is made in doc.
func (r envRef) path(doc occkit.Document) occkit.Path {
	if r.off < 0 {
		return r.at
	}
	return occkit.PathAt([]byte(doc.String()), r.off)
}

// DefinedEnv returns the variables a document defines for itself, sorted:
// the env.vars entries (and the env members beside vars and shellEnv)
// that OpenClaw applies to its own environment before it substitutes
// ${NAME} (config-env-vars.ts): a portable name (trimmed of JavaScript
// white space), that the release's policy lets a configuration set
// ([envpolicy.Policy.ConfigEnvApplies]), holding a non-blank string
// without a reference of its own; ZAI_API_KEY too when Z_AI_API_KEY is
// defined, as OpenClaw fills the canonical spelling. These are the
// definitions [Load] applies (the package doc, "Variables the document
// defines").
func DefinedEnv(doc occkit.Document, pol SecretPolicy) []string {
	return definedNames(documentEnv(docjson.Get(doc, occkit.NewPath("env")), pol.Env.ConfigEnvApplies))
}

// ReferencedEnv returns the variables doc references, sorted and without
// repeats, in every form OpenClaw reads from its environment: ${NAME} in
// a string value, an env SecretRef's id, and the $NAME shorthand at a
// credential place of pol. A control plane offers secretBindings for the
// names the gateway's document ([GatewayDocument]) references: the render
// refuses a binding for any other name ([CheckSecretBindings]).
func ReferencedEnv(doc occkit.Document, pol SecretPolicy) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range ScanSecrets(doc, pol).refs {
		if !seen[r.name] {
			seen[r.name] = true
			out = append(out, r.name)
		}
	}
	sort.Strings(out)
	return out
}
