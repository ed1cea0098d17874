package realgateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The mirror records what it cannot answer from the upstream registry
// (a packument always as the full document), serves it back with tarball
// URLs pointing at itself, and once recorded needs no upstream; it serves
// nothing outside a package's packument and tarballs.
func TestMirror(t *testing.T) {
	var accepts []string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.EscapedPath() {
		case "/@openclaw%2fdiscord":
			accepts = append(accepts, r.Header.Get("Accept"))
			io.WriteString(w, `{"name":"@openclaw/discord","versions":{"1.0.0":{"dist":{"tarball":"`+npmRegistry+`@openclaw/discord/-/discord-1.0.0.tgz"}}}}`)
		case "/@openclaw/discord/-/discord-1.0.0.tgz":
			io.WriteString(w, "tarball bytes")
		default:
			http.NotFound(w, r)
		}
	}))
	defer upstream.Close()
	dir := t.TempDir()
	get := func(h http.Handler, path, accept string) (int, string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "http://mirror.test:4873"+path, nil)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	recorder := Mirror{Dir: dir, Upstream: upstream.URL}
	code, body := get(recorder, "/@openclaw%2fdiscord", "application/vnd.npm.install-v1+json")
	if code != 200 || !strings.Contains(body, `"tarball":"http://mirror.test:4873/@openclaw/discord/-/discord-1.0.0.tgz"`) {
		t.Fatalf("recorded packument: %d %s", code, body)
	}
	if len(accepts) != 1 || accepts[0] != "application/json" {
		t.Errorf("the recorder asked upstream with Accept %q, want the full document", accepts)
	}
	if code, body := get(recorder, "/@openclaw/discord/-/discord-1.0.0.tgz", ""); code != 200 || body != "tarball bytes" {
		t.Errorf("recorded tarball: %d %q", code, body)
	}
	upstream.Close()
	served := Mirror{Dir: dir}
	if !served.HasPackument("@openclaw/discord") || served.HasPackument("@openclaw/slack") {
		t.Error("HasPackument does not follow what was recorded")
	}
	if !served.Has("@openclaw/discord", "1.0.0") || served.Has("@openclaw/discord", "2.0.0") || served.Has("../discord", "1.0.0") {
		t.Error("Has does not follow what was recorded")
	}
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/@openclaw/discord", 200},
		{"/@openclaw%2fdiscord", 200},
		{"/@openclaw/discord/-/discord-1.0.0.tgz", 200},
		{"/@openclaw/slack", 404},
		{"/@openclaw/discord/-/discord-2.0.0.tgz", 404},
		{"/@openclaw/discord/-/../../../etc/passwd.tgz", 404},
		{"/..%2f..%2fetc%2fpasswd", 404},
		{"/-/npm/v1/security/advisories/bulk", 404},
	} {
		if code, _ := get(served, tc.path, ""); code != tc.code {
			t.Errorf("GET %s = %d, want %d", tc.path, code, tc.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "packuments", "@openclaw%2fdiscord.json")); err != nil {
		t.Error(err)
	}
}
