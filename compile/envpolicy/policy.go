package envpolicy

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/occkit/occkit/compile/envpolicy/internal/delta"
)

//go:generate sh -c "d=$(mktemp -d) && $OCCKIT_OPENCLAW_DIR/node/bin/node gen.mjs $OCCKIT_OPENCLAW_DIR $d && go run ./internal/gendata -data data $d && rm -r $d"

// data holds the base release's file as gen.mjs wrote it
// (data/<release>.json, the newest carried release: the one the library
// pins) and every other carried release as a delta against it
// (data/releases/<release>.json, package internal/delta).
//
//go:embed data
var data embed.FS

// file is one release's data as gen.mjs writes it.
type file struct {
	Release string `json:"release"`
	HostEnv struct {
		BlockedKeys             []string `json:"blockedKeys"`
		BlockedPrefixes         []string `json:"blockedPrefixes"`
		BlockedOverrideKeys     []string `json:"blockedOverrideKeys"`
		BlockedOverridePrefixes []string `json:"blockedOverridePrefixes"`
		BlockedOverridePattern  string   `json:"blockedOverridePattern"`
	} `json:"hostEnv"`
	ConfigEnvBlocked []string `json:"configEnvBlocked"`
	WorkspaceDotenv  struct {
		ProviderAuthKeys []string `json:"providerAuthKeys"`
		Keys             []string `json:"keys"`
		Prefixes         []string `json:"prefixes"`
		Suffixes         []string `json:"suffixes"`
		TokenSequences   []string `json:"tokenSequences"`
	} `json:"workspaceDotenv"`
	ProviderAuthEnv  map[string][]string `json:"providerAuthEnv"`
	AWSSDKAuthEnv    []string            `json:"awsSdkAuthEnv"`
	NonSecretMarkers []string            `json:"nonSecretMarkers"`
}

// Policy is the environment-variable policy of one OpenClaw release. It is
// immutable and safe for concurrent use; a nil *Policy is the pinned
// release's ([Pinned]).
type Policy struct {
	release string

	hostKeys, overrideKeys         map[string]bool
	hostPrefixes, overridePrefixes []string
	overridePattern                *regexp.Regexp
	configBlocked                  map[string]bool

	dotenvKeys                     map[string]bool
	dotenvPrefixes, dotenvSuffixes []string
	dotenvSequences                [][]string
	inference                      map[string]bool
	inferencePrefixes              []string
	markers                        map[string]bool
}

// carried is the index of the embedded data, read on first use: the base
// release and, for every carried release, its policy loaded on first use.
var carried = sync.OnceValues(func() (index, error) {
	x := index{policies: map[string]func() (*Policy, error){}}
	top, err := fs.Glob(data, "data/*.json")
	if err != nil || len(top) != 1 {
		return x, fmt.Errorf("envpolicy: want one base release in data/, found %d", len(top))
	}
	x.base = strings.TrimSuffix(path.Base(top[0]), ".json")
	deltas, err := fs.Glob(data, "data/releases/*.json")
	if err != nil {
		return x, err
	}
	for _, f := range append(top, deltas...) {
		r := strings.TrimSuffix(path.Base(f), ".json")
		x.policies[r] = sync.OnceValues(func() (*Policy, error) { return load(x.base, r) })
	}
	return x, nil
})

// index is what the embedded data holds.
type index struct {
	base     string
	policies map[string]func() (*Policy, error)
}

// Pinned is the policy of the OpenClaw release the library pins: the
// newest it carries, whose data the others are stored against.
func Pinned() *Policy {
	x, err := carried()
	var p *Policy
	if err == nil {
		p, err = x.policies[x.base]()
	}
	if err != nil {
		// The data is embedded and checked by the package's tests.
		panic("envpolicy: the pinned release's data does not load: " + err.Error())
	}
	return p
}

// or is p, or the pinned release's policy for a nil p: the zero
// [compile.SecretPolicy] and a nil *Policy read as the pinned release.
func (p *Policy) or() *Policy {
	if p == nil {
		return Pinned()
	}
	return p
}

// Releases lists the releases whose policy the library carries, sorted.
func Releases() []string {
	x, _ := carried()
	out := make([]string, 0, len(x.policies))
	for r := range x.policies {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// For returns the policy of an OpenClaw release the library carries,
// loading it on first use; ok is false for any other release.
func For(release string) (*Policy, bool) {
	x, _ := carried()
	f, ok := x.policies[release]
	if !ok {
		return nil, false
	}
	p, err := f()
	return p, err == nil
}

// load reads and parses a release's data.
func load(base, release string) (*Policy, error) {
	b, err := dataOf(base, release)
	if err != nil {
		return nil, err
	}
	p, err := parse(b)
	if err != nil {
		return nil, err
	}
	if p.release != release {
		return nil, fmt.Errorf("envpolicy: the data of %s is release %s", release, p.release)
	}
	return p, nil
}

// dataOf is a release's data as JSON: the base release's file as it is,
// or another release's delta applied to it.
func dataOf(base, release string) ([]byte, error) {
	b, err := data.ReadFile("data/" + base + ".json")
	if err != nil || release == base {
		return b, err
	}
	f := "data/releases/" + release + ".json"
	raw, err := data.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var d delta.Delta
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("envpolicy: %s: %w", f, err)
	}
	return d.Apply(b)
}

func set(xs ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, l := range xs {
		for _, x := range l {
			m[strings.ToUpper(x)] = true
		}
	}
	return m
}

func parse(b []byte) (*Policy, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(f.HostEnv.BlockedOverridePattern)
	if err != nil {
		return nil, err
	}
	p := &Policy{
		release:          f.Release,
		hostKeys:         set(f.HostEnv.BlockedKeys),
		overrideKeys:     set(f.HostEnv.BlockedOverrideKeys),
		hostPrefixes:     f.HostEnv.BlockedPrefixes,
		overridePrefixes: f.HostEnv.BlockedOverridePrefixes,
		overridePattern:  re,
		configBlocked:    set(f.ConfigEnvBlocked),
		dotenvKeys:       set(f.WorkspaceDotenv.Keys),
		dotenvPrefixes:   f.WorkspaceDotenv.Prefixes,
		dotenvSuffixes:   f.WorkspaceDotenv.Suffixes,
		markers:          map[string]bool{},
	}
	for _, s := range f.WorkspaceDotenv.TokenSequences {
		p.dotenvSequences = append(p.dotenvSequences, strings.Split(s, "_"))
	}
	for _, m := range f.NonSecretMarkers {
		p.markers[m] = true
	}
	inf := set(f.WorkspaceDotenv.ProviderAuthKeys, f.AWSSDKAuthEnv, specInference)
	for _, names := range f.ProviderAuthEnv {
		for _, n := range names {
			inf[strings.ToUpper(n)] = true
		}
	}
	// OpenClaw's key rotation reads <BASE>_API_KEYS and every
	// <BASE>_API_KEY_* beside <BASE>_API_KEY (live-auth-keys.ts).
	for n := range inf {
		if strings.HasSuffix(n, "_API_KEY") {
			p.inferencePrefixes = append(p.inferencePrefixes, n+"_")
			inf[n+"S"] = true
		}
	}
	sort.Strings(p.inferencePrefixes)
	p.inference = inf
	return p, nil
}

// specInference are the inference variables the SPEC names (AUTH-2).
var specInference = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CODEX_ACCESS_TOKEN"}

// Release is the OpenClaw release the policy was generated from.
func (p *Policy) Release() string { return p.or().release }

// Inference reports whether name carries a model inference credential
// in this release (compared without regard to case): a provider's
// credential variable, a rotation list or numbered key of one, or an AWS
// SDK credential OpenClaw takes as model auth.
func (p *Policy) Inference(name string) bool {
	p = p.or()
	u := strings.ToUpper(name)
	if p.inference[u] {
		return true
	}
	for _, pre := range p.inferencePrefixes {
		if strings.HasPrefix(u, pre) {
			return true
		}
	}
	return false
}

// InferenceNames lists the exact inference variable names, sorted (the
// numbered <BASE>_API_KEY_* forms are matched by [Policy.Inference] only).
func (p *Policy) InferenceNames() []string {
	p = p.or()
	out := make([]string, 0, len(p.inference))
	for k := range p.inference {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// NonSecretMarker reports whether v is a value OpenClaw reads as "no
// credential here" where one could be (ollama-local, secretref-managed,
// oauth:<provider>, …): a public constant, not secret bytes.
func (p *Policy) NonSecretMarker(v string) bool {
	p = p.or()
	v = strings.TrimSpace(v)
	if p.markers[v] {
		return true
	}
	id, ok := strings.CutPrefix(v, "oauth:")
	return ok && id != "" && strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789._-") == ""
}

// ConfigEnvApplies reports whether OpenClaw applies an env.vars entry of
// this name to its own environment: it is a portable name
// ([A-Za-z_][A-Za-z0-9_]*) that neither its host policy nor its config
// policy blocks (isBlockedConfigEnvVar).
func (p *Policy) ConfigEnvApplies(name string) bool {
	p = p.or()
	if !portable(name) {
		return false
	}
	u := strings.ToUpper(name)
	return !p.configBlocked[u] && !p.host(u) && !p.override(u)
}

func portable(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func hasAnyPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// host: OpenClaw never passes the name to a process it starts.
func (p *Policy) host(u string) bool {
	return p.hostKeys[u] || hasAnyPrefix(u, p.hostPrefixes)
}

// override: OpenClaw refuses the name as an override of a process it
// starts.
func (p *Policy) override(u string) bool {
	return p.overrideKeys[u] || hasAnyPrefix(u, p.overridePrefixes) || p.overridePattern.MatchString(u)
}

// dotenv: OpenClaw refuses to take the name from an untrusted workspace
// .env (its provider credential list aside, which [Policy.Inference]
// covers).
func (p *Policy) dotenv(u string) bool {
	if p.dotenvKeys[u] && !p.inference[u] || hasAnyPrefix(u, p.dotenvPrefixes) {
		return true
	}
	for _, s := range p.dotenvSuffixes {
		if strings.HasSuffix(u, s) {
			return true
		}
	}
	tokens := strings.FieldsFunc(u, func(r rune) bool { return r == '_' })
	for _, seq := range p.dotenvSequences {
		for i := 0; i+len(seq) <= len(tokens); i++ {
			match := true
			for j, t := range seq {
				if tokens[i+j] != t {
					match = false
					break
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}
