// Package deps holds the test that keeps the pure packages pure.
package deps

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// allowed lists the module path prefixes a pure package may depend on:
// the chosen JSON libraries, go-multierror and go-toml, with the modules
// they themselves require.
var allowed = []string{
	"github.com/tidwall/gjson",
	"github.com/tidwall/sjson",
	"github.com/tidwall/match",  // required by gjson
	"github.com/tidwall/pretty", // required by gjson
	"github.com/santhosh-tekuri/jsonschema/v5",
	"github.com/hashicorp/go-multierror",
	"github.com/hashicorp/errwrap", // required by go-multierror
	"github.com/pelletier/go-toml/v2",
}

// pure are the packages that must never pull in Kubernetes, SSH or any
// other module a control plane did not ask for. drivers is the driver
// contract (a leaf like database/sql/driver) and the root package the
// shared vocabulary: both are pure. probe/runner starts processes but
// pulls in no other module either.
var pure = []string{".", "./resolver", "./resolver/selection", "./admission", "./compile", "./probe", "./probe/runner", "./logging", "./drivers"}

func TestPurePackagesImportOnlyChosenModules(t *testing.T) {
	args := append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}, pure...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, pkg := range strings.Fields(string(out)) {
		seen++
		if ok, why := allowedImport(pkg); !ok {
			t.Errorf("a pure package depends on %s (%s)", pkg, why)
		}
	}
	if seen == 0 {
		t.Fatal("go list reported no packages")
	}
}

// The probe classifiers are pure (issue 12): package probe and what it
// depends on start no process; running probes is probe/runner's job.
func TestProbeStartsNoProcess(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./probe")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "os/exec" || pkg == "github.com/occkit/occkit/probe/runner" {
			t.Errorf("package probe depends on %s", pkg)
		}
	}
}

// celRules is the nested module that compiles a caller's rules with
// cel-go: a higher layer than admission, which it serves.
const celRules = "/admission/celrules"

func allowedImport(pkg string) (bool, string) {
	const self = "github.com/occkit/occkit"
	if pkg == self || strings.HasPrefix(pkg, self+"/") {
		rest := strings.TrimPrefix(pkg, self)
		// The drivers contract itself is pure; the driver
		// implementations and helpers below it are a higher layer.
		if strings.HasPrefix(rest, "/drivers/") || rest == "/examples" || strings.HasPrefix(rest, "/examples/") ||
			rest == celRules || strings.HasPrefix(rest, celRules+"/") {
			return false, "a higher layer"
		}
		return true, ""
	}
	for _, a := range allowed {
		if pkg == a || strings.HasPrefix(pkg, a+"/") {
			return true, ""
		}
	}
	return false, "not a chosen module"
}

func TestAllowedImport(t *testing.T) {
	for pkg, want := range map[string]bool{
		"github.com/tidwall/gjson":                                  true,
		"github.com/occkit/occkit/resolver":                         true,
		"github.com/occkit/occkit/internal/json5":                   true,
		"github.com/occkit/occkit/drivers":                          true,
		"github.com/occkit/occkit/drivers/drivertest":               false,
		"github.com/occkit/occkit/drivers/kubernetes":               false,
		"k8s.io/api/core/v1":                                        false,
		"golang.org/x/crypto/ssh":                                   false,
		"github.com/tidwall/gjsonx":                                 false,
		"github.com/occkit/occkit/examples/quickstart":              false,
		"github.com/occkit/occkit/admission/celrules":               false,
		"github.com/occkit/occkit/admission/celrules/internal/view": false,
		"github.com/google/cel-go/cel":                              false,
		"github.com/occkit/occkit/admission/policytest":             true,
	} {
		if got, _ := allowedImport(pkg); got != want {
			t.Errorf("allowedImport(%q) = %v, want %v", pkg, got, want)
		}
	}
}

// The driver contract is a leaf (issue 12): drivers and the root
// vocabulary import no policy package, and admission, which consumes
// typed drivers, finds capabilities without reflection.
func TestDriverContractIsALeaf(t *testing.T) {
	const self = "github.com/occkit/occkit"
	leafOK := map[string]bool{self: true, self + "/drivers": true}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./drivers")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, self+"/") && !leafOK[pkg] && !strings.HasPrefix(pkg, self+"/internal/") {
			t.Errorf("the driver contract depends on policy package %s", pkg)
		}
	}
	cmd = exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "./admission")
	cmd.Dir = "../.."
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "reflect" {
			t.Error("admission imports reflect: capabilities must be found by type assertion")
		}
	}
}

// The rule module (issue 27) is its own module: cel-go and what it brings
// stay in its go.mod, never in the root's, and it pulls in neither
// Kubernetes nor x/crypto.
func TestCELRulesStayInTheirModule(t *testing.T) {
	for _, f := range []string{"../../go.mod", "../../go.sum"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, mod := range []string{"github.com/google/cel-go", "cel.dev/expr", "github.com/antlr4-go/antlr"} {
			if strings.Contains(string(b), mod) {
				t.Errorf("%s names %s", f, mod)
			}
		}
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	cmd.Dir = "../../admission/celrules"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	cel := false
	for _, pkg := range strings.Fields(string(out)) {
		cel = cel || strings.HasPrefix(pkg, "github.com/google/cel-go/")
		if strings.HasPrefix(pkg, "k8s.io/") || strings.HasPrefix(pkg, "golang.org/x/crypto") {
			t.Errorf("celrules depends on %s", pkg)
		}
	}
	if !cel {
		t.Error("go list reported no cel-go package for celrules")
	}
}
