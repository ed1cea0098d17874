package adversarial_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
)

// TestIncludeTraversal_DOC4: $include resolves only inside the allowed
// roots: no "..", no absolute path elsewhere, no symbolic link out, no
// directory or NUL trick.
func TestIncludeTraversal_DOC4(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	for _, d := range []string{filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(dir, "secret.json")
	write(secret, `{"stolen":true}`)
	write(filepath.Join(root, "ok.json"), `{"included":true}`)
	write(filepath.Join(root, "deep.json"), `{"$include":"../secret.json"}`)
	if err := os.Symlink(secret, filepath.Join(root, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, inc string
		want      want
	}{
		{"dot-dot", `"../secret.json"`, want{400, bad, "$include", "DOC-4"}},
		{"dot-dot after a directory", `"sub/../../secret.json"`, want{400, bad, "$include", "DOC-4"}},
		{"absolute outside", `"` + secret + `"`, want{400, bad, "$include", "DOC-4"}},
		{"absolute system file", `"/etc/passwd"`, want{400, bad, "$include", "DOC-4"}},
		{"symlinked file", `"link.json"`, want{400, bad, "$include", "DOC-4"}},
		{"symlinked directory", `"up/secret.json"`, want{400, bad, "$include", "DOC-4"}},
		{"nested include escapes", `"deep.json"`, want{400, bad, "$include", "DOC-4"}},
		{"second array member", `["ok.json","../secret.json"]`, want{400, bad, "$include[1]", "DOC-4"}},
		{"NUL byte", `"ok.json\u0000../secret.json"`, want{400, bad, "$include", "DOC-4"}},
		{"empty", `""`, want{400, bad, "$include", "DOC-4"}},
		{"a directory", `"sub"`, want{400, bad, "$include", "DOC-4"}},
		{"not a path", `{"path":"ok.json"}`, want{400, bad, "$include", "DOC-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := compile.Load([]byte(`{"$include":`+tt.inc+`}`), compile.LoadOptions{IncludeRoots: []string{root}})
			refused(t, err, tt.want)
			if !doc.Equal(occkit.Document{}) {
				t.Errorf("refusal returned a document %.80s", doc)
			}
		})
	}
	// The root itself works, so the refusals above are about the paths.
	doc, err := compile.Load([]byte(`{"$include":"ok.json"}`), compile.LoadOptions{IncludeRoots: []string{root}})
	if err != nil || doc.String() != `{"included":true}` {
		t.Fatalf("Load = %s, %v", doc, err)
	}
}

// TestHarnessHomeTraversal_DRV2: a SandboxDriver's harness home, the one
// workspace-like path occkit validates, must be absolute and normalized.
func TestHarnessHomeTraversal_DRV2(t *testing.T) {
	at := occkit.NewPath("harnessHome")
	for _, home := range []string{"../etc", "home/node", "/home/../etc", "/home/./node", "/home//node", "/home/node/", "/..", "/home/node\x00", "/home/\x1b[2Jnode"} {
		t.Run(home, func(t *testing.T) {
			refused(t, drivers.CheckHarnessHome(at, home), want{400, bad, "harnessHome", "DRV-2"})
		})
	}
	if err := drivers.CheckHarnessHome(at, "/home/node"); err != nil {
		t.Fatalf("/home/node: %v", err)
	}
}
