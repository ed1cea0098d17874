package modelcatalog

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/occkit/occkit"
)

//go:generate sh -c "for d in $HOME/.cache/occkit/openclaw-*; do $OCCKIT_OPENCLAW_DIR/node/bin/node gen.mjs $d data; done"

//go:embed data/*.txt
var data embed.FS

// Catalog is the built-in model catalog of one OpenClaw release. It is
// immutable and safe for concurrent use.
type Catalog struct {
	release   string
	providers map[string]*provider
	// names are the providers, sorted; withModels those with a catalog.
	names, withModels []string
}

type provider struct {
	// ids are the catalog's model IDs, sorted; aliases map an alias to
	// the ID OpenClaw normalizes it to.
	ids     []string
	aliases map[string]string
}

// catalogs parses each carried release's file on first use.
var catalogs = loaders()

func loaders() map[string]func() (*Catalog, error) {
	entries, _ := data.ReadDir("data")
	out := make(map[string]func() (*Catalog, error), len(entries))
	for _, e := range entries {
		release := strings.TrimSuffix(e.Name(), ".txt")
		out[release] = sync.OnceValues(func() (*Catalog, error) {
			b, err := data.ReadFile("data/" + e.Name())
			if err != nil {
				return nil, err
			}
			return parse(release, b)
		})
	}
	return out
}

// Releases lists the releases whose catalog the package carries, oldest
// first.
func Releases() []string {
	out := make([]string, 0, len(catalogs))
	for r := range catalogs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return releaseLess(out[i], out[j]) })
	return out
}

// releaseLess orders OpenClaw versions (year.month.patch) numerically.
func releaseLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if len(pa[i]) != len(pb[i]) {
			return len(pa[i]) < len(pb[i])
		}
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

// For returns the catalog of release, parsed on first use; ok is false for
// a release the package does not carry.
func For(release string) (*Catalog, bool) {
	load, ok := catalogs[release]
	if !ok {
		return nil, false
	}
	c, err := load()
	if err != nil {
		// The files are generated, embedded and parsed by the package's
		// tests: a file that does not parse is a build defect.
		panic(fmt.Sprintf("modelcatalog: %s: %v", release, err))
	}
	return c, true
}

func parse(release string, b []byte) (*Catalog, error) {
	c := &Catalog{release: release, providers: map[string]*provider{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if _, dup := c.providers[f[0]]; dup {
			return nil, fmt.Errorf("provider %s listed twice", f[0])
		}
		p := &provider{}
		for _, tok := range f[1:] {
			if alias, target, ok := strings.Cut(tok, "="); ok {
				if p.aliases == nil {
					p.aliases = map[string]string{}
				}
				p.aliases[alias] = target
				continue
			}
			p.ids = append(p.ids, tok)
		}
		for _, target := range p.aliases {
			if !slices.Contains(p.ids, target) {
				p.ids = append(p.ids, target)
			}
		}
		sort.Strings(p.ids)
		c.providers[f[0]] = p
		c.names = append(c.names, f[0])
		if len(p.ids) > 0 {
			c.withModels = append(c.withModels, f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(c.names) == 0 {
		return nil, fmt.Errorf("no providers")
	}
	sort.Strings(c.names)
	sort.Strings(c.withModels)
	return c, nil
}

// Release is the OpenClaw release the catalog is of.
func (c *Catalog) Release() string { return c.release }

// Providers lists the providers the release's bundled plugins declare,
// sorted.
func (c *Catalog) Providers() []string { return slices.Clone(c.names) }

// Provider reports whether the release declares provider p.
func (c *Catalog) Provider(p string) bool {
	_, ok := c.providers[p]
	return ok
}

// Models lists the model IDs of provider p's built-in catalog (aliases
// resolved), sorted; none for a provider whose models are discovered at
// run time.
func (c *Catalog) Models(p string) []string {
	if pr, ok := c.providers[p]; ok {
		return slices.Clone(pr.ids)
	}
	return nil
}

// Model reports whether provider p's built-in catalog names id, or an
// alias of one; ok is false when p has no catalog to judge by (an unknown
// provider, or one whose models are discovered at run time).
func (c *Catalog) Model(p, id string) (known, ok bool) {
	pr, found := c.providers[p]
	if !found || len(pr.ids) == 0 {
		return false, false
	}
	if _, alias := pr.aliases[id]; alias {
		return true, true
	}
	_, known = slices.BinarySearch(pr.ids, id)
	return known, true
}

// SuggestProvider is the provider with a built-in catalog that p is a typo
// of ([occkit.Suggest]), or "".
func (c *Catalog) SuggestProvider(p string) string { return occkit.Suggest(p, c.withModels) }

// SuggestModel is the ID of provider p's catalog that id is a typo of
// ([occkit.Suggest]), or "".
func (c *Catalog) SuggestModel(p, id string) string {
	pr, ok := c.providers[p]
	if !ok {
		return ""
	}
	return occkit.Suggest(id, pr.ids)
}
