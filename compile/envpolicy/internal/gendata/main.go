// Command gendata writes the release data package envpolicy embeds (see
// its doc.go, "Data"): the newest release's file as gen.mjs wrote it, in
// data/, and every other carried release as a delta against it in
// data/releases/<release>.json (package internal/delta).
//
//	go run ./internal/gendata -data data [DIR...]
//
// Each DIR holds what gen.mjs wrote for one or more releases
// (<release>.json); each is added, or replaces the carried release of the
// same version. The releases already carried are rebuilt from data/
// itself, so adding or refreshing a release needs only that release's
// package installed.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/occkit/occkit/compile/envpolicy/internal/delta"
)

func main() {
	data := flag.String("data", "data", "the data directory")
	flag.Parse()
	if err := run(*data, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

func run(data string, dirs []string) error {
	releases, err := carried(data)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join(d, "*.json"))
		if err != nil {
			return err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			r, err := release(b)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			releases[r] = b
		}
	}
	if len(releases) == 0 {
		return fmt.Errorf("no release to write")
	}
	versions := make([]string, 0, len(releases))
	for v := range releases {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, func(a, b string) int { return compare(b, a) })
	base := releases[versions[0]]
	deltas := map[string][]byte{}
	for _, v := range versions[1:] {
		d, err := delta.Diff(base, releases[v])
		if err != nil {
			return fmt.Errorf("%s: %w", v, err)
		}
		b, err := json.MarshalIndent(d, "", " ")
		if err != nil {
			return err
		}
		deltas[v+".json"] = append(b, '\n')
	}
	// Write only when every delta is made: the old files go last.
	old, _ := filepath.Glob(filepath.Join(data, "*.json"))
	oldDeltas, _ := filepath.Glob(filepath.Join(data, "releases", "*.json"))
	for _, f := range append(old, oldDeltas...) {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(data, versions[0]+".json"), base, 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(data, "releases"), 0o755); err != nil {
		return err
	}
	for name, b := range deltas {
		if err := os.WriteFile(filepath.Join(data, "releases", name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// carried reads the releases data holds: the base file as it is, every
// delta applied to it.
func carried(data string) (map[string][]byte, error) {
	out := map[string][]byte{}
	top, err := filepath.Glob(filepath.Join(data, "*.json"))
	if err != nil || len(top) > 1 {
		return nil, fmt.Errorf("want at most one base release in %s, found %d", data, len(top))
	}
	if len(top) == 0 {
		return out, nil
	}
	base, err := os.ReadFile(top[0])
	if err != nil {
		return nil, err
	}
	r, err := release(base)
	if err != nil {
		return nil, err
	}
	out[r] = base
	files, err := filepath.Glob(filepath.Join(data, "releases", "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var d delta.Delta
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		b, err := d.Apply(base)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, b, "", " "); err != nil {
			return nil, err
		}
		out[d.Release] = indented.Bytes()
	}
	return out, nil
}

// release is the release a data file names.
func release(b []byte) (string, error) {
	var f struct{ Release string }
	if err := json.Unmarshal(b, &f); err != nil || f.Release == "" {
		return "", fmt.Errorf("no release named (%v)", err)
	}
	return f.Release, nil
}

// compare orders release versions by their dot-separated numbers.
func compare(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx != nil || erry != nil {
			if c := strings.Compare(as[i], bs[i]); c != 0 {
				return c
			}
			continue
		}
		if x != y {
			return x - y
		}
	}
	return len(as) - len(bs)
}
