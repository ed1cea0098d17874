package releasedata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// NPMRecord is what the npm registry publishes of the plugin packages it
// names (data/npm.json): the facts a release's package does not hold but
// its plugin installs depend on. It is measured, not derived: the
// generator asks the registry (`npm view`) and writes it with
// [NPMRecord.Marshal].
type NPMRecord struct {
	// Registry is the registry the record was taken from.
	Registry string `json:"registry"`
	// Packages are the published stable versions of each recorded
	// package, oldest first.
	Packages map[string][]NPMVersion `json:"packages"`
}

// NPMVersion is one published version of a package.
type NPMVersion struct {
	Version string `json:"version"`
	// OpenClaw is the oldest OpenClaw release the version accepts (its
	// peer dependency ">=OpenClaw").
	OpenClaw string `json:"openclaw"`
}

// ParseNPMRecord reads data/npm.json.
func ParseNPMRecord(b []byte) (NPMRecord, error) {
	var r NPMRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return NPMRecord{}, fmt.Errorf("releasedata: the npm record: %w", err)
	}
	return r, nil
}

// Resolve is the version of pkg an OpenClaw release installs from the
// registry, and whether the record names pkg. A release asks first for
// its own version of an official, version-bound package; when the
// registry does not publish that one it takes the newest published
// version whose peer dependency accepts the release (measured:
// openclaw@2026.8.2's own installer prints "using newest compatible
// @openclaw/discord@2026.7.35"). "" with true: the registry publishes no
// version the release accepts.
func (r NPMRecord) Resolve(pkg, release string) (string, bool) {
	vs, ok := r.Packages[pkg]
	if !ok {
		return "", false
	}
	best := ""
	for _, v := range vs {
		if v.Version == release {
			return release, true
		}
		if Compare(v.OpenClaw, release) <= 0 && (best == "" || Compare(v.Version, best) > 0) {
			best = v.Version
		}
	}
	return best, true
}

// Marshal writes the record as data/npm.json holds it: packages sorted by
// name, versions oldest first, one version a line.
func (r NPMRecord) Marshal() []byte {
	var b bytes.Buffer
	reg, _ := json.Marshal(r.Registry)
	fmt.Fprintf(&b, "{\n\"registry\": %s,\n\"packages\": {", reg)
	names := make([]string, 0, len(r.Packages))
	for n := range r.Packages {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(n)
		fmt.Fprintf(&b, "\n%s: [", name)
		vs := slices.Clone(r.Packages[n])
		slices.SortFunc(vs, func(a, b NPMVersion) int { return Compare(a.Version, b.Version) })
		for j, v := range vs {
			if j > 0 {
				b.WriteByte(',')
			}
			line, _ := json.Marshal(v)
			fmt.Fprintf(&b, "\n  %s", line)
		}
		b.WriteString("\n]")
	}
	b.WriteString("\n}\n}\n")
	return b.Bytes()
}

// peerRange is the only peer dependency form the record takes: a lower
// bound on a release.
var peerRange = regexp.MustCompile(`^>=\s*([0-9]+\.[0-9]+\.[0-9]+)$`)

// ParseNPMView reads what `npm view <package>@">=0.0.0" version
// peerDependencies --json` prints (an object for one version, an array
// for several) into a package's versions, oldest first. A version whose
// peer dependency on openclaw is not ">=<release>" is an error: the
// record would have to guess which releases it accepts.
func ParseNPMView(b []byte) ([]NPMVersion, error) {
	type view struct {
		Version string            `json:"version"`
		Peer    map[string]string `json:"peerDependencies"`
	}
	var views []view
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var v view
		if err := json.Unmarshal(t, &v); err != nil {
			return nil, err
		}
		views = []view{v}
	} else if err := json.Unmarshal(t, &views); err != nil {
		return nil, err
	}
	var out []NPMVersion
	for _, v := range views {
		m := peerRange.FindStringSubmatch(strings.TrimSpace(v.Peer["openclaw"]))
		if _, ok := parts(v.Version); !ok || m == nil {
			return nil, fmt.Errorf("releasedata: version %q with peer openclaw %q: not a release with a >=release peer dependency", v.Version, v.Peer["openclaw"])
		}
		out = append(out, NPMVersion{Version: v.Version, OpenClaw: m[1]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("releasedata: npm view printed no version")
	}
	slices.SortFunc(out, func(a, b NPMVersion) int { return Compare(a.Version, b.Version) })
	return out, nil
}
