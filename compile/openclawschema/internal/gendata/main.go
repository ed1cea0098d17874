// Command gendata writes the release data package openclawschema embeds
// (see its doc.go, "The data"): the newest release's files as they are in
// data/, and every other carried release as a delta against them in
// data/releases/<version>.delta (package releasedata).
//
//	go run ./internal/gendata -data data [DIR...]
//
// Each DIR is what gen.mjs wrote for one release; it is added, or
// replaces the carried release of the same version. The releases already
// carried are rebuilt from data/ itself, so adding a release needs only
// that release's package installed. -drop VERSION removes a release.
//
//	go run ./internal/gendata -data data -npm [PACKAGE...]
//
// refreshes data/npm.json instead (releasedata.NPMRecord): it asks the npm
// registry (`npm view`, with the npm on PATH or -npmbin) for the published
// versions of every package the record names and of each PACKAGE given,
// and their peer dependency on openclaw.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/occkit/occkit/compile/openclawschema/internal/releasedata"
)

func main() {
	data := flag.String("data", "data", "the data directory")
	drop := flag.String("drop", "", "a release to stop carrying")
	npm := flag.Bool("npm", false, "refresh data/npm.json from the npm registry (arguments: packages to add)")
	npmBin := flag.String("npmbin", "npm", "the npm command -npm runs")
	flag.Parse()
	if *npm {
		err := refreshNPM(filepath.Join(*data, "npm.json"), flag.Args(), func(pkg string) ([]byte, error) {
			return exec.Command(*npmBin, "view", pkg+"@>=0.0.0", "version", "peerDependencies", "--json").Output()
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "gendata:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*data, flag.Args(), *drop); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

func run(data string, dirs []string, drop string) error {
	releases, err := load(data)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		files, err := readFiles(d)
		if err != nil {
			return err
		}
		releases[version(files)] = files
	}
	delete(releases, drop)
	if len(releases) == 0 {
		return fmt.Errorf("no release to write")
	}
	versions := make([]string, 0, len(releases))
	for v := range releases {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, func(a, b string) int { return releasedata.Compare(b, a) })
	base := releases[versions[0]]
	baseBundle := releasedata.Bundle(base, releasedata.Names)
	for _, n := range releasedata.Names {
		if err := os.WriteFile(filepath.Join(data, n), base[n], 0o644); err != nil {
			return err
		}
	}
	dir := filepath.Join(data, "releases")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, v := range versions[1:] {
		target := releasedata.Bundle(releases[v], releasedata.Names)
		delta := releasedata.Delta(baseBundle, target)
		if back, err := releasedata.Apply(baseBundle, delta); err != nil || !bytes.Equal(back, target) {
			return fmt.Errorf("the delta of %s does not rebuild it: %v", v, err)
		}
		if err := os.WriteFile(filepath.Join(dir, v+".delta"), delta, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d bytes as a %d-byte delta\n", v, len(target), len(delta))
	}
	fmt.Printf("%s: the base, %d bytes\n", versions[0], len(baseBundle))
	return nil
}

// load rebuilds the releases data/ carries today.
func load(data string) (map[string]releasedata.Files, error) {
	out := map[string]releasedata.Files{}
	base, err := readFiles(data)
	if os.IsNotExist(err) {
		// Data written before the per-release files existed: start over
		// from the directories given.
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out[version(base)] = base
	baseBundle := releasedata.Bundle(base, releasedata.Names)
	deltas, err := filepath.Glob(filepath.Join(data, "releases", "*.delta"))
	if err != nil {
		return nil, err
	}
	for _, f := range deltas {
		d, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		b, err := releasedata.Apply(baseBundle, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		files, err := releasedata.Split(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if v := version(files); v+".delta" != filepath.Base(f) {
			return nil, fmt.Errorf("%s holds release %s", f, v)
		}
		out[version(files)] = files
	}
	return out, nil
}

func readFiles(dir string) (releasedata.Files, error) {
	files := releasedata.Files{}
	for _, n := range releasedata.Names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		files[n] = b
	}
	if version(files) == "" {
		return nil, fmt.Errorf("%s: no version", dir)
	}
	return files, nil
}

func version(f releasedata.Files) string { return strings.TrimSpace(string(f["version.txt"])) }

// refreshNPM rewrites the npm record at file with what view (`npm view`)
// says of every package it names and of add. Nothing is written unless
// every package was read.
func refreshNPM(file string, add []string, view func(pkg string) ([]byte, error)) error {
	rec := releasedata.NPMRecord{Registry: "https://registry.npmjs.org/", Packages: map[string][]releasedata.NPMVersion{}}
	if b, err := os.ReadFile(file); err == nil {
		if rec, err = releasedata.ParseNPMRecord(b); err != nil {
			return err
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	for _, p := range add {
		rec.Packages[p] = nil
	}
	for p := range rec.Packages {
		out, err := view(p)
		if err != nil {
			return fmt.Errorf("npm view %s: %w", p, err)
		}
		if rec.Packages[p], err = releasedata.ParseNPMView(out); err != nil {
			return fmt.Errorf("npm view %s: %w", p, err)
		}
	}
	return os.WriteFile(file, rec.Marshal(), 0o644)
}
