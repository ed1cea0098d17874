package render

import (
	"os/exec"
	"strings"
	"testing"
)

// The point of this package: rendering builds without client-go. The
// package (and so every program that only renders) depends on the occkit
// policy packages, k8s.io/api, k8s.io/apimachinery and their own
// requirements, never on k8s.io/client-go.
func TestRenderDoesNotImportClientGo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	var api bool
	for _, pkg := range pkgs {
		if strings.HasPrefix(pkg, "k8s.io/client-go") {
			t.Errorf("package render depends on %s", pkg)
		}
		api = api || strings.HasPrefix(pkg, "k8s.io/api/")
	}
	if !api {
		t.Errorf("go list saw no k8s.io/api package among %d dependencies: the check checks nothing", len(pkgs))
	}
}
