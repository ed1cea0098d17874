package openclawschema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/occkit/occkit/compile/openclawschema/internal/releasedata"
)

// data holds the carried releases: the newest one's files in data/ as
// gen.mjs wrote them, every other one as a delta against them in
// data/releases (see doc.go, "The data"). Nothing is decoded before a
// release is asked for.
//
//go:embed data/version.txt data/sensitive.json data/plugins.json data/schema.json data/releases data/npm.json
var data embed.FS

// npmRecord is what the npm registry publishes of the plugin packages
// data/npm.json names (releasedata.NPMRecord), read on first use.
var npmRecord = sync.OnceValues(func() (releasedata.NPMRecord, error) {
	b, err := data.ReadFile("data/npm.json")
	if err != nil {
		return releasedata.NPMRecord{}, err
	}
	return releasedata.ParseNPMRecord(b)
})

// Contract is one OpenClaw release's configuration contract as the
// library carries it: its schema, its sensitive paths, the refinements
// the check mirrors for it, the channel ids it accepts and its plugins.
// Get one with [ContractFor]; it is decoded on first use, once, and is
// immutable and safe for concurrent use.
type Contract struct {
	version string
	files   releasedata.Files
	plugins pluginsFile
	// skip are the classes of refinements that do not hold for this
	// release (refinementsAbsent).
	skip map[string]bool
	// skipped[i] is whether refinements[i] is of a class in skip: refine
	// asks it of each refinement it runs, a map lookup less each.
	skipped []bool
	// roots[i] has keyBit set of the first key of each of refinements[i]'s
	// Paths: the root's sections it reads (see refineIn).
	roots    []uint64
	channels map[string]bool // channels this release validates by name
	known    map[string]bool // plugin ids of its manifest registry
	aliases  map[string]string
	npm      releasedata.NPMRecord
	// bundled, official and external are the plugin lists, built once at
	// decode; the methods that list them hand out copies.
	bundled, official, external []Plugin
	// installed is the plugin [Contract.InstalledPlugin] finds for an
	// id, and byChannel the one [Contract.ChannelPlugin] finds for a
	// channel: the first in the lists' order, indexed once at decode.
	// Their Channels are the lists', handed out read-only.
	installed, byChannel map[string]Plugin

	validator func() (*Validator, error)
}

// Plugin is one plugin of an OpenClaw release.
type Plugin struct {
	// ID is the plugin id, as plugins.entries names it.
	ID string
	// Kind is what a plugin the release does not ship provides:
	// "channel", "provider" or "plugin"; "" for a bundled one.
	Kind string
	// Channels are the channel ids the plugin provides.
	Channels []string
	// Package is the npm package of a plugin the release does not ship
	// ("@openclaw/discord"); "" for a bundled one.
	Package string
	// External reports a third-party plugin of the release's catalog
	// (source "external"), not an official one.
	External bool
	// Version is the package version the release installs. An official
	// plugin is version-bound to the release: the release's own version,
	// unless the npm registry does not publish that one (data/npm.json
	// records what it publishes of the packages it names), in which case
	// the newest published version that accepts the release, as OpenClaw's
	// own installer resolves it ("" when none does); an external plugin is
	// the version the release's catalog pins. "" for a bundled one.
	Version string
}

// Spec is the npm spec the release installs the plugin from
// ("@openclaw/discord@2026.9.6"), or "" for a bundled plugin and for one
// the npm registry publishes no version of that the release accepts.
func (p Plugin) Spec() string {
	if p.Package == "" || p.Version == "" {
		return ""
	}
	return p.Package + "@" + p.Version
}

// pluginsFile is plugins.json (gen.mjs).
type pluginsFile struct {
	Channels []string `json:"channels"`
	Bundled  []struct {
		ID       string   `json:"id"`
		Channels []string `json:"channels"`
	} `json:"bundled"`
	Aliases  [][2]string `json:"aliases"`
	Official []struct {
		ID       string   `json:"id"`
		Package  string   `json:"package"`
		Kind     string   `json:"kind"`
		Channels []string `json:"channels"`
	} `json:"official"`
	External []struct {
		ID       string   `json:"id"`
		Package  string   `json:"package"`
		Version  string   `json:"version"`
		Kind     string   `json:"kind"`
		Channels []string `json:"channels"`
	} `json:"external"`
}

// catalog is the carried releases by version, each decoded on first use.
var catalog = sync.OnceValue(func() map[string]func() (*Contract, error) {
	out := map[string]func() (*Contract, error){}
	base := strings.TrimSpace(readData("version.txt"))
	out[base] = sync.OnceValues(func() (*Contract, error) { return decode(base, baseFiles()) })
	entries, _ := fs.ReadDir(data, "data/releases")
	for _, e := range entries {
		v, ok := strings.CutSuffix(e.Name(), ".delta")
		if !ok {
			continue
		}
		out[v] = sync.OnceValues(func() (*Contract, error) {
			delta, err := data.ReadFile(path.Join("data/releases", e.Name()))
			if err != nil {
				return nil, err
			}
			b, err := releasedata.Apply(releasedata.Bundle(baseFiles(), releasedata.Names), delta)
			if err != nil {
				return nil, err
			}
			files, err := releasedata.Split(b)
			if err != nil {
				return nil, err
			}
			return decode(v, files)
		})
	}
	return out
})

func readData(name string) string {
	b, _ := data.ReadFile("data/" + name)
	return string(b)
}

// baseFiles are the newest release's files, as embedded.
func baseFiles() releasedata.Files {
	files := releasedata.Files{}
	for _, n := range releasedata.Names {
		files[n] = []byte(readData(n))
	}
	return files
}

// decodes counts the releases decoded in this process (the laziness
// test reads it).
var decodes atomic.Int32

// decode reads a release's files into its Contract.
func decode(version string, files releasedata.Files) (*Contract, error) {
	decodes.Add(1)
	if got := strings.TrimSpace(string(files["version.txt"])); got != version {
		return nil, fmt.Errorf("openclawschema: the data of %s holds release %s", version, got)
	}
	c := &Contract{version: version, files: files, channels: map[string]bool{}, known: map[string]bool{}, aliases: map[string]string{}}
	var err error
	if c.npm, err = npmRecord(); err != nil {
		return nil, fmt.Errorf("openclawschema: %w", err)
	}
	if err := json.Unmarshal(files["plugins.json"], &c.plugins); err != nil {
		return nil, fmt.Errorf("openclawschema: plugins of %s: %w", version, err)
	}
	var sensitive []string
	if err := json.Unmarshal(files["sensitive.json"], &sensitive); err != nil {
		return nil, fmt.Errorf("openclawschema: sensitive paths of %s: %w", version, err)
	}
	for _, id := range c.plugins.Channels {
		c.channels[id] = true
	}
	for _, p := range c.plugins.Bundled {
		c.known[p.ID] = true
		for _, ch := range p.Channels {
			c.channels[ch] = true
		}
	}
	for _, a := range c.plugins.Aliases {
		c.aliases[a[0]] = a[1]
		c.aliases[a[1]] = a[1]
	}
	c.skip = map[string]bool{}
	for _, class := range refinementsAbsent[version] {
		c.skip[class] = true
	}
	c.skipped = make([]bool, len(refinements))
	c.roots = make([]uint64, len(refinements))
	for i, ref := range refinements {
		c.skipped[i] = c.skip[ref.Class]
		c.roots[i] = rootsOf(ref.Paths)
	}
	c.buildPlugins()
	c.validator = sync.OnceValues(func() (*Validator, error) { return compileContract(c) })
	return c, nil
}

// Releases lists the OpenClaw releases whose contract the library
// carries, newest first.
func Releases() []string {
	var out []string
	for v := range catalog() {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b string) int { return releasedata.Compare(b, a) })
	return out
}

// Release is the newest carried release, the one [New], [Schema],
// [Sensitive] and [Refinements] describe and CI runs by default.
func Release() string { return strings.TrimSpace(readData("version.txt")) }

// UnknownReleaseError is the error of [ContractFor] and [ForRelease] for
// a version the library does not carry.
type UnknownReleaseError struct {
	Version string
}

// Error names the version and the carried releases.
func (e *UnknownReleaseError) Error() string {
	return fmt.Sprintf("openclawschema: the library carries no contract of OpenClaw %q (carried: %s)", e.Version, strings.Join(Releases(), ", "))
}

// ContractFor returns the contract of a carried release (see [Releases]),
// decoding it on the first call for that release; a version the library
// does not carry is an [*UnknownReleaseError].
func ContractFor(version string) (*Contract, error) {
	load, ok := catalog()[version]
	if !ok {
		return nil, &UnknownReleaseError{Version: version}
	}
	return load()
}

// ForRelease returns the compiled check of a carried release's contract
// (its schema, its refinements and its channel ids), compiled once per
// process on first use and shared.
func ForRelease(version string) (*Validator, error) {
	c, err := ContractFor(version)
	if err != nil {
		return nil, err
	}
	return c.Validator()
}

// Version is the release.
func (c *Contract) Version() string { return c.version }

// Validator returns the compiled check of the contract, compiled once.
func (c *Contract) Validator() (*Validator, error) { return c.validator() }

// Schema returns a copy of the release's draft-07 schema, as gen.mjs
// wrote it from the release's package.
func (c *Contract) Schema() []byte { return bytes.Clone(c.files["schema.json"]) }

// Sensitive returns the configuration paths the release's hints mark
// sensitive, sorted, in OpenClaw's notation: dot paths where "*" stands
// for any key of a map and "[]" for any element of an array (for example
// "models.providers.*.apiKey").
func (c *Contract) Sensitive() []string {
	var out []string
	// decode checked that the file parses.
	_ = json.Unmarshal(c.files["sensitive.json"], &out)
	return out
}

// Refinements lists the refinements the check mirrors for this release,
// in the order they run.
func (c *Contract) Refinements() []Refinement {
	var out []Refinement
	for _, list := range [][]Refinement{refinements, shapeRefinements} {
		for _, r := range list {
			if !c.skip[r.Class] {
				out = append(out, r)
			}
		}
	}
	return out
}

// Channels lists the channel ids the release accepts under channels
// without a plugin the document declares: the channels it validates by
// name (bundled or official) and those of the plugins it ships, sorted.
// "defaults" and "modelByChannel" are settings of channels, not channels.
func (c *Contract) Channels() []string {
	out := make([]string, 0, len(c.channels))
	for id := range c.channels {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// BundledPlugins lists the plugins the release's package ships, sorted
// by id.
func (c *Contract) BundledPlugins() []Plugin { return clonePlugins(c.bundled) }

// clonePlugins copies a Contract's plugin list for a caller.
func clonePlugins(ps []Plugin) []Plugin {
	out := slices.Clone(ps)
	for i := range out {
		out[i].Channels = slices.Clone(out[i].Channels)
	}
	return out
}

// buildPlugins fills the Contract's plugin lists from its data, and
// indexes them. Each list of Channels is clipped to its length: one
// handed out read-only ([Contract.InstalledPlugin]) that a caller
// appends to is copied, not written.
func (c *Contract) buildPlugins() {
	for _, p := range c.plugins.Bundled {
		c.bundled = append(c.bundled, Plugin{ID: p.ID, Channels: slices.Clip(slices.Clone(p.Channels))})
	}
	for _, p := range c.plugins.Official {
		v, recorded := c.npm.Resolve(p.Package, c.version)
		if !recorded {
			// Version-bound, and the record names no exception.
			v = c.version
		}
		c.official = append(c.official, Plugin{ID: p.ID, Kind: p.Kind, Channels: slices.Clip(slices.Clone(p.Channels)), Package: p.Package, Version: v})
	}
	for _, p := range c.plugins.External {
		c.external = append(c.external, Plugin{ID: p.ID, Kind: p.Kind, Channels: slices.Clip(slices.Clone(p.Channels)), Package: p.Package, External: true, Version: p.Version})
	}
	c.installed, c.byChannel = map[string]Plugin{}, map[string]Plugin{}
	first := func(m map[string]Plugin, k string, p Plugin) {
		if _, ok := m[k]; !ok {
			m[k] = p
		}
	}
	for i, list := range [][]Plugin{c.bundled, c.official, c.external} {
		for _, p := range list {
			if i > 0 {
				// Official and external plugins are installed.
				first(c.installed, p.ID, p)
			}
			for _, ch := range p.Channels {
				first(c.byChannel, ch, p)
			}
		}
	}
}

// OfficialPlugins lists the official plugins the release does not ship:
// the gateway installs one from npm ([Plugin.Spec], version-bound to the
// release) when the configuration needs it (a channel it provides, a
// Harness such as codex), at start, unless it is already installed. A
// render that must not fetch at start provides these. Sorted by id.
func (c *Contract) OfficialPlugins() []Plugin { return clonePlugins(c.official) }

// ExternalPlugins lists the third-party plugins of the release's catalog
// (source "external", such as the Weixin channel): the gateway installs
// one, at the version the catalog pins, like an official one. Sorted by
// id.
func (c *Contract) ExternalPlugins() []Plugin { return clonePlugins(c.external) }

// OfficialPlugin is the official plugin with the id that the release
// does not ship, if there is one.
func (c *Contract) OfficialPlugin(id string) (Plugin, bool) {
	for _, p := range c.official {
		if p.ID == id {
			p.Channels = slices.Clone(p.Channels)
			return p, true
		}
	}
	return Plugin{}, false
}

// InstalledPlugin is the plugin the release installs from npm for a
// plugin id (compared as OpenClaw's normalizePluginId compares ids): an
// official or an external one; false for a bundled or unknown id. Its
// Channels are the caller's own copy.
func (c *Contract) InstalledPlugin(id string) (Plugin, bool) {
	p, ok := c.installed[c.PluginID(id)]
	p.Channels = slices.Clone(p.Channels)
	return p, ok
}

// PluginID is a plugin id as OpenClaw's normalizePluginId reads it:
// trimmed, lower-cased and mapped through the release's built-in aliases.
func (c *Contract) PluginID(id string) string { return c.normalizePluginID(id) }

// ChannelPlugin is the plugin that provides a channel id in this
// release: a bundled one, or an official or external one it installs;
// false when no plugin of the release provides it. Its Channels are the
// caller's own copy.
func (c *Contract) ChannelPlugin(channel string) (Plugin, bool) {
	p, ok := c.byChannel[channel]
	p.Channels = slices.Clone(p.Channels)
	return p, ok
}

// rootsOf is the keyBit of the first key of each of paths (a
// refinement's Paths): the root's sections it reads. A refinement with
// no Paths, or one whose path starts at a wildcard, may read any
// section, and has every bit, so that refineIn never passes it over.
func rootsOf(paths []string) uint64 {
	var roots uint64
	for _, p := range paths {
		first := p[:strings.IndexAny(p+".", ".[")]
		if first == "" || first == "*" {
			return ^uint64(0)
		}
		roots |= keyBit(first)
	}
	if len(paths) == 0 {
		return ^uint64(0)
	}
	return roots
}
