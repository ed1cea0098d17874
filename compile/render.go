package compile

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// GatewayWorkspace is where a dedicated topology's gateway renders the main
// Agent's workspace (RES-12); the Harness executes in its own workspace.
const GatewayWorkspace = "/home/node/workspace"

// checkTopology checks that (h, m) is a topology the bundled runtimes have
// (RES-11, decided by [occkit.Topology.Check]); a refusal points at the
// document's root, since the topology is not a setting of it.
func checkTopology(h occkit.Harness, m occkit.Mode) error {
	err := occkit.Topology{Harness: h, Mode: m}.Check()
	if err == nil {
		// First of no error is nil, but sorts an empty list first: every
		// plan checks its topology twice.
		return nil
	}
	if oe := occkit.First(err); oe != nil {
		out := *oe
		out.Path = occkit.Root()
		return &out
	}
	return err
}

// GatewayDocument renders the gateway process's native document from an
// admitted document and the decided topology, before the plan adds the
// gateway section (CMP-4). Embedded OpenClaw is one process: its document
// is the admitted document itself. A dedicated gateway's view differs: the
// main Agent's workspace is [GatewayWorkspace] (RES-12; agents.entries.main
// when that entry exists, else agents.defaults), and nothing that can
// authenticate to a model provider survives (AUTH-6; the package doc,
// "Credential policy", lists what is removed). doc itself never changes.
// Use [BuildPlan] to render a revision: it adds the gateway section and
// the process environment.
func GatewayDocument(doc occkit.Document, h occkit.Harness, m occkit.Mode) (occkit.Document, error) {
	if err := checkTopology(h, m); err != nil {
		return occkit.Document{}, err
	}
	if m == occkit.ModeEmbedded {
		return doc, nil
	}
	if err := resolver.CheckShape(doc); err != nil {
		return occkit.Document{}, err
	}
	ws := occkit.NewPath("agents", "defaults", "workspace")
	if docjson.Get(doc, occkit.NewPath("agents", "entries", "main")).IsObject() {
		ws = occkit.NewPath("agents", "entries", "main", "workspace")
	}
	out, err := doc.Set(ws, GatewayWorkspace)
	if err != nil {
		return occkit.Document{}, err
	}
	return StripInference(out)
}

// HarnessDocument renders the native document of the dedicated OpenClaw
// Harness (the node host) from an admitted document (CMP-4). The Harness
// does the inference and keeps the model settings; it serves no channels
// and is no gateway, so `channels`, `gateway.auth`, `gateway.remote` and
// every other path OpenClaw marks sensitive outside `models` and `nodeHost`
// are removed, with the `env` variables those settings referenced (the
// package doc, "Credential policy"). Any other topology has no separate
// OpenClaw Harness document and is a 400.
func HarnessDocument(doc occkit.Document, h occkit.Harness, m occkit.Mode) (occkit.Document, error) {
	if err := checkTopology(h, m); err != nil {
		return occkit.Document{}, err
	}
	if h != occkit.HarnessOpenClaw || m != occkit.ModeDedicated {
		return occkit.Document{}, occkit.Invalid("RES-11", occkit.Root(),
			"only dedicated openclaw has a separate OpenClaw Harness document")
	}
	refs := map[string]bool{}
	doc, err := rewrite(doc, sensitive.Start(harnessDrop), false, refs)
	if err != nil {
		return occkit.Document{}, err
	}
	return dropEnv(doc, func(name string) bool { return refs[name] })
}

// The sensitive floors: OpenClaw's own sensitive paths, split by consumer.
var (
	allSensitive = sensitive.Patterns()
	// gatewayFloor: what a dedicated gateway must not hold (inference).
	gatewayFloor = filterPatterns(allSensitive, func(p sensitive.Pattern) bool { return p.HasPrefix("models") })
	// harnessFloor: what the node host must not hold (everything but
	// inference and its own node settings).
	harnessFloor = filterPatterns(allSensitive, func(p sensitive.Pattern) bool {
		return !p.HasPrefix("models") && !p.HasPrefix("nodeHost")
	})
	// harnessDrop: what the node host's document loses, its floor and the
	// gateway's own sections.
	harnessDrop = append(sensitive.ParseList([]string{"channels", "gateway.auth", "gateway.remote"}), harnessFloor...)
)

func filterPatterns(ps []sensitive.Pattern, keep func(sensitive.Pattern) bool) []sensitive.Pattern {
	var out []sensitive.Pattern
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// rewrite returns doc without the members and elements the cursor
// matches (collecting the variables they reference into refs) and, with
// scopes, with every model scope ([scopeAt]) scrubbed ([scrub]),
// in one pass over the document: deleting or rewriting each place in turn
// would cost the document's size for each.
func rewrite(doc occkit.Document, cur sensitive.Cursor, scopes bool, refs map[string]bool) (occkit.Document, error) {
	at := scopeRoot
	if !scopes {
		at = scopeNone
	}
	root := docjson.Root(doc)
	var b strings.Builder
	b.Grow(len(root.Raw))
	rewriteValue(&b, root, "", cur, at, refs)
	if b.Len() == len(root.Raw) && b.String() == root.Raw {
		return doc, nil
	}
	return doc.SetRaw(occkit.Root(), []byte(b.String()))
}

// scopeAt is where a walk stands on its way to the model scopes:
// models.providers.*, agents.defaults.models.* and
// agents.entries.*.models.*.
type scopeAt int

const (
	scopeNone scopeAt = iota // no scope below
	scopeRoot
	scopeModels   // models
	scopeAgents   // agents
	scopeDefaults // agents.defaults
	scopeEntries  // agents.entries
	scopeEntry    // agents.entries.*
	scopeParent   // models.providers, agents.defaults.models, agents.entries.*.models
	scopeInside   // a model scope: scrubbed
)

// next is where the member k of an object at s stands.
func (s scopeAt) next(k string) scopeAt {
	switch {
	case s == scopeRoot && k == "models":
		return scopeModels
	case s == scopeRoot && k == "agents":
		return scopeAgents
	case s == scopeModels && k == "providers", s == scopeDefaults && k == "models", s == scopeEntry && k == "models":
		return scopeParent
	case s == scopeAgents && k == "defaults":
		return scopeDefaults
	case s == scopeAgents && k == "entries":
		return scopeEntries
	case s == scopeEntries:
		return scopeEntry
	case s == scopeParent:
		return scopeInside
	}
	return scopeNone
}

// rewriteValue writes v, found under key, as [rewrite] does.
func rewriteValue(b *strings.Builder, v gjson.Result, key string, cur sensitive.Cursor, at scopeAt, refs map[string]bool) {
	switch {
	case at == scopeInside && (v.IsObject() || v.IsArray()):
		// A scope is scrubbed as a value under no key: its own key
		// names a provider or a model, not a setting.
		scrub(b, v, "", cur, refs)
	case !cur.Live() && (at == scopeNone || at == scopeInside):
		b.WriteString(v.Raw)
	case v.IsObject() || v.IsArray():
		filtered(b, v, cur, refs, nil, func(member bool, k string, c gjson.Result, kc sensitive.Cursor) {
			if member {
				rewriteValue(b, c, k, kc, at.next(k), refs)
			} else {
				rewriteValue(b, c, key, kc, scopeNone, refs)
			}
		})
	default:
		b.WriteString(v.Raw)
	}
}

// filtered writes the object or array v without each member or element
// that cur matches or drop (when not nil) names by its key and value,
// collecting the variables those reference into refs, and writes each
// other one's value with write (member: an object member under key k,
// else an array element), its cursor one step further down.
func filtered(b *strings.Builder, v gjson.Result, cur sensitive.Cursor, refs map[string]bool,
	drop func(k string, c gjson.Result) bool, write func(member bool, k string, c gjson.Result, kc sensitive.Cursor)) {
	member := v.IsObject()
	open, close := byte('['), byte(']')
	if member {
		open, close = '{', '}'
	}
	b.WriteByte(open)
	first := true
	v.ForEach(func(k, c gjson.Result) bool {
		name, kc := "", sensitive.Cursor{}
		if member {
			name = k.String()
			kc = cur.Key(name)
		} else {
			kc = cur.Index()
		}
		if kc.Matched() || member && drop != nil && drop(name, c) {
			collectRefs(c, refs)
			return true
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		if member {
			b.WriteString(k.Raw)
			b.WriteByte(':')
		}
		write(member, name, c, kc)
		return true
	})
	b.WriteByte(close)
}

// varRef finds ${NAME} references (OpenClaw's env substitution).
var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// collectRefs adds every variable a value references to refs.
func collectRefs(v gjson.Result, refs map[string]bool) {
	for _, m := range varRef.FindAllStringSubmatch(v.Raw, -1) {
		refs[m[1]] = true
	}
}

// dropEnv removes the variables of the document's `env` and `env.vars`
// blocks for which drop is true, rewriting the env block once.
func dropEnv(doc occkit.Document, drop func(string) bool) (occkit.Document, error) {
	env := docjson.Get(doc, envPath)
	if !env.IsObject() {
		return doc, nil
	}
	var b strings.Builder
	var filter func(v gjson.Result, vars bool)
	filter = func(v gjson.Result, top bool) {
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, c gjson.Result) bool {
			if drop(k.String()) {
				return true
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(k.Raw)
			b.WriteByte(':')
			if top && k.String() == "vars" && c.IsObject() {
				filter(c, false)
			} else {
				b.WriteString(c.Raw)
			}
			return true
		})
		b.WriteByte('}')
	}
	filter(env, true)
	if b.String() == env.Raw {
		return doc, nil
	}
	return doc.SetRaw(envPath, []byte(b.String()))
}

// StripInference removes from a document everything that can authenticate
// to a model provider (AUTH-6), structurally rather than by a list of
// header names:
//
//   - every `models.providers` entry and every agent `models` map entry
//     (agents.defaults.models, agents.entries.*.models) is rewritten at any
//     depth: `headers` objects and credential-like keys (names holding key,
//     token, secret, password, passphrase, auth, credential, cookie,
//     bearer, session, signature or cert, e.g. apiKey, x-api-key,
//     Authorization, request.auth, tls.key) are dropped, and so are how
//     a process would be started (command lines, argument arrays and
//     environment maps: command, args, env, extraArgs, …) and every
//     object describing a process to start (one with a command, such as
//     localService: the dedicated gateway never runs inference); every
//     URL-like string (one holding "://", or under a key naming a url,
//     endpoint, host or proxy, including the scheme-less
//     `svc:KEY@host/v1`) keeps only its scheme and host: user info, path,
//     query and fragment go;
//   - OpenClaw's own sensitive paths under `models` are removed as a floor;
//   - `env` / `env.vars` lose the model inference variables
//     ([InferenceEnv]), `<PROVIDER>_API_KEY` for every configured provider
//     and every variable the removed settings referenced as `${NAME}`.
//
// Everything else, unknown keys and key order included, is kept; doc
// itself never changes.
func StripInference(doc occkit.Document) (occkit.Document, error) {
	refs := map[string]bool{}
	doc, err := rewrite(doc, sensitive.Start(gatewayFloor), true, refs)
	if err != nil {
		return occkit.Document{}, err
	}
	// <PROVIDER>_API_KEY of every configured provider, in any case.
	providers := map[string]bool{}
	docjson.Get(doc, occkit.NewPath("models", "providers")).ForEach(func(k, _ gjson.Result) bool {
		providers[foldKey(envKeyName(k.String()))] = true
		return true
	})
	return dropEnv(doc, func(name string) bool {
		return inferenceEnv[name] || refs[name] || providers[foldKey(name)]
	})
}

// foldKey is s with every rune replaced by the least rune of its case
// folding orbit: foldKey(a) == foldKey(b) exactly when
// strings.EqualFold(a, b).
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

// envKeyName is the conventional key variable of a provider ID.
func envKeyName(provider string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(provider) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String() + "_API_KEY"
}

// credentialWords mark a key name (lower-cased, letters and digits only)
// as credential-bearing.
var credentialWords = []string{
	"key", "token", "secret", "passw", "passphrase", "auth", "credential", "cookie",
	"bearer", "session", "signature", "cert", "header",
}

// CredentialKey reports whether a settings key can hold a credential.
// Count keys such as maxTokens are not credentials.
func CredentialKey(k string) bool {
	n := normalizeKey(k)
	if n == "ca" || n == "pfx" {
		return true
	}
	if strings.HasSuffix(n, "tokens") && !strings.Contains(strings.TrimSuffix(n, "tokens"), "token") {
		return false
	}
	for _, w := range credentialWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func normalizeKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func urlKey(k string) bool {
	n := normalizeKey(k)
	for _, w := range []string{"url", "uri", "endpoint", "host", "proxy", "origin"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// launchKey reports whether a settings key holds how a process is
// started: its command line, arguments or environment (command, cmd,
// args, argv, arguments, env, environment, passEnv, and names ending in
// args or command such as extraArgs or setupCommand). Any of them can
// carry a credential as a plain element ("--api-key", "SECRET"), so they
// go whole, as headers do.
func launchKey(k string) bool {
	switch n := normalizeKey(k); n {
	case "command", "cmd", "args", "argv", "arguments", "env", "environment", "passenv":
		return true
	default:
		return strings.HasSuffix(n, "args") || strings.HasSuffix(n, "command")
	}
}

// launchSpec reports whether v describes a process to start: an object
// with a command, as OpenClaw writes localService, MCP servers and exec
// providers. Without its command such an object is invalid, so it goes
// whole rather than being left half-stripped.
func launchSpec(v gjson.Result) bool {
	return v.IsObject() && v.Get("command").Exists()
}

// scrub writes v without credentials and without what the cursor matches
// (OpenClaw's sensitive paths, the floor); key is the member name v sits
// under.
func scrub(b *strings.Builder, v gjson.Result, key string, cur sensitive.Cursor, refs map[string]bool) {
	switch {
	case v.IsObject() || v.IsArray():
		drop := func(k string, c gjson.Result) bool { return CredentialKey(k) || launchKey(k) || launchSpec(c) }
		filtered(b, v, cur, refs, drop, func(member bool, k string, c gjson.Result, kc sensitive.Cursor) {
			if !member {
				k = key
			}
			scrub(b, c, k, kc, refs)
		})
	case v.Type == gjson.String && (strings.Contains(v.Str, "://") || (urlKey(key) && strings.ContainsAny(v.Str, "@?#"))):
		o := Origin(v.Str)
		if o != v.Str {
			collectRefs(v, refs)
		}
		b.Write(gjson.AppendJSONString(nil, o))
	default:
		b.WriteString(v.Raw)
	}
}

// Origin reduces a URL-like string to its scheme and host ("https://host:443"),
// dropping user info, path, query and fragment: only what names the
// endpoint survives. A scheme-less form ("svc:KEY@host/v1") keeps its
// first segment as the scheme and its host.
func Origin(s string) string {
	scheme, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		scheme, rest = s[:i], s[i+3:]
	} else if i := strings.IndexByte(s, ':'); i >= 0 && strings.ContainsRune(s[i:], '@') {
		scheme, rest = s[:i], s[i+1:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	rest = strings.TrimSpace(rest)
	if !validScheme(scheme) {
		scheme = ""
	}
	if scheme == "" {
		return rest
	}
	return scheme + "://" + rest
}

func validScheme(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i, r := range s {
		ok := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && ((r >= '0' && r <= '9') || r == '+' || r == '-' || r == '.'))
		if !ok {
			return false
		}
	}
	return true
}
