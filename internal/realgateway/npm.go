package realgateway

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Mirror is an npm registry served from a directory: what a platform's
// registry mirror is to a cluster, for the tier's network namespace, which
// reaches nothing else. It serves the packuments (full documents, whatever
// the request's Accept) and tarballs recorded under Dir, the tarball URLs
// of a packument pointing back at the mirror; anything else is 404.
//
// With Upstream set it records: a request it cannot answer from Dir is
// fetched from Upstream (a packument always as the full document, which
// `npm view` needs and an install accepts), stored, then served. The tier's
// setup records once, through the very install the tier later repeats
// offline (.ci/plugins.sh); the tier only serves.
//
// Layout: Dir/packuments/<name, "/" as "%2f">.json and
// Dir/tarballs/<name>/-/<file>.tgz.
type Mirror struct {
	Dir      string
	Upstream string
}

// maxRecorded bounds one recorded response.
const maxRecorded = 512 << 20

func (m Mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, `{"error":"method not allowed"}`, http.StatusMethodNotAllowed)
		return
	}
	name, file, ok := npmPath(r.URL)
	if !ok {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	local := m.packumentPath(name)
	if file != "" {
		local = filepath.Join(m.Dir, "tarballs", filepath.FromSlash(name), "-", file)
	}
	b, err := os.ReadFile(local)
	if errors.Is(err, os.ErrNotExist) && m.Upstream != "" {
		b, err = m.record(r.URL.EscapedPath(), local, file == "")
	}
	if err != nil {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	if file == "" {
		// Tarballs come from this mirror, as a registry mirror rewrites
		// them.
		base := "http://" + r.Host + "/"
		if m.Upstream != "" {
			b = bytes.ReplaceAll(b, []byte(strings.TrimSuffix(m.Upstream, "/")+"/"), []byte(base))
		}
		b = bytes.ReplaceAll(b, []byte(npmRegistry), []byte(base))
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	_, _ = w.Write(b)
}

// npmRegistry is the public registry whose tarball URLs recorded
// packuments carry.
const npmRegistry = "https://registry.npmjs.org/"

// npmPath splits a registry request path into the package name and, for a
// tarball (/<name>/-/<file>.tgz), the file name.
func npmPath(u *url.URL) (name, file string, ok bool) {
	p := strings.TrimPrefix(u.Path, "/")
	if i := strings.Index(p, "/-/"); i >= 0 {
		name, file = p[:i], p[i+3:]
		if !strings.HasSuffix(file, ".tgz") || strings.ContainsAny(file, "/\\") {
			return "", "", false
		}
	} else {
		name = p
	}
	return name, file, validPackageName(name)
}

// validPackageName reports whether s is an npm package name ("pkg" or
// "@scope/pkg") that is safe as a path.
func validPackageName(s string) bool {
	parts := strings.Split(s, "/")
	if len(parts) > 2 || len(parts) == 2 && !strings.HasPrefix(parts[0], "@") || len(parts) == 1 && strings.HasPrefix(s, "@") {
		return false
	}
	for _, part := range parts {
		part = strings.TrimPrefix(part, "@")
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") {
			return false
		}
		for _, c := range part {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~", c)) {
				return false
			}
		}
	}
	return true
}

func (m Mirror) packumentPath(name string) string {
	return filepath.Join(m.Dir, "packuments", strings.ReplaceAll(name, "/", "%2f")+".json")
}

// HasPackument reports whether the mirror holds a packument for name.
func (m Mirror) HasPackument(name string) bool {
	_, err := os.Stat(m.packumentPath(name))
	return err == nil
}

// Has reports whether the mirror holds name's packument and the tarball
// of its version (npm's file name: the unscoped name, "-", the version).
func (m Mirror) Has(name, version string) bool {
	file := name[strings.LastIndexByte(name, '/')+1:] + "-" + version + ".tgz"
	_, err := os.Stat(filepath.Join(m.Dir, "tarballs", filepath.FromSlash(name), "-", file))
	return err == nil && validPackageName(name) && m.HasPackument(name)
}

// EnvMirror names the variable that holds the tier's npm mirror directory
// (.ci/plugins.sh records it, .ci/setup writes it to integration.env).
const EnvMirror = "OCCKIT_NPM_MIRROR"

// record fetches escapedPath from the upstream registry into local.
func (m Mirror) record(escapedPath, local string, packument bool) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(m.Upstream, "/")+escapedPath, nil)
	if err != nil {
		return nil, err
	}
	if packument {
		req.Header.Set("Accept", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", escapedPath, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxRecorded))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		return nil, err
	}
	tmp := local + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return nil, err
	}
	return b, os.Rename(tmp, local)
}
