package deps

import (
	"bufio"
	"bytes"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// apiPackages are the packages whose exported API may name only standard
// library and occkit types (issue 12, item 5): a user of the pure packages
// never has to import gjson, sjson or any other module to call them.
var apiPackages = []string{".", "./resolver/...", "./admission/...", "./compile/...", "./probe/...", "./logging/...", "./drivers"}

// TestPureAPINamesNoForeignType type-checks the pure packages from their
// export data and walks every exported function, method, field, variable
// and constant: a named type from outside the standard library and this
// module anywhere in one of them fails the test.
func TestPureAPINamesNoForeignType(t *testing.T) {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Standard}}\t{{.DepOnly}}"}, apiPackages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	export := map[string]string{}
	std := map[string]bool{}
	var roots []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			t.Fatalf("go list line %q", sc.Text())
		}
		export[f[0]] = f[1]
		std[f[0]] = f[2] == "true"
		if f[3] == "false" && !strings.Contains(f[0], "/internal/") {
			roots = append(roots, f[0])
		}
	}
	if len(roots) < len(apiPackages) {
		t.Fatalf("go list found %d API packages, want at least %d", len(roots), len(apiPackages))
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	foreign := func(pkg *types.Package) bool {
		const self = "github.com/occkit/occkit"
		p := pkg.Path()
		return !std[p] && p != self && !strings.HasPrefix(p, self+"/")
	}
	var bad []string
	for _, path := range roots {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for _, where := range foreignInAPI(pkg, foreign) {
			bad = append(bad, path+": "+where)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// foreignInAPI lists each exported declaration of pkg whose type names a
// type from a package foreign reports.
func foreignInAPI(pkg *types.Package, foreign func(*types.Package) bool) []string {
	var bad []string
	check := func(where string, t types.Type) {
		if name := foreignType(t, foreign, map[types.Type]bool{}); name != "" {
			bad = append(bad, fmt.Sprintf("%s names %s", where, name))
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			if obj.IsAlias() {
				check(name, obj.Type())
				continue
			}
			named, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			switch u := named.Underlying().(type) {
			case *types.Struct:
				for i := 0; i < u.NumFields(); i++ {
					if f := u.Field(i); f.Exported() {
						check(name+"."+f.Name(), f.Type())
					}
				}
			case *types.Interface:
				for i := 0; i < u.NumMethods(); i++ {
					if m := u.Method(i); m.Exported() {
						check(name+"."+m.Name(), m.Type())
					}
				}
			default:
				check(name, u)
			}
			for i := 0; i < named.NumMethods(); i++ {
				if m := named.Method(i); m.Exported() {
					check(name+"."+m.Name(), m.Type())
				}
			}
		default:
			check(name, obj.Type())
		}
	}
	return bad
}

// foreignType returns the first foreign named type t mentions, or "".
// Named types of this module are not entered: their own exported API is
// checked where they are declared.
func foreignType(t types.Type, foreign func(*types.Package) bool, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		if obj := t.Obj(); obj.Pkg() != nil && foreign(obj.Pkg()) {
			return obj.Pkg().Path() + "." + obj.Name()
		}
		return foreignType(types.Unalias(t), foreign, seen)
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil && foreign(obj.Pkg()) {
			return obj.Pkg().Path() + "." + obj.Name()
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if n := foreignType(t.TypeArgs().At(i), foreign, seen); n != "" {
				return n
			}
		}
	case *types.Pointer:
		return foreignType(t.Elem(), foreign, seen)
	case *types.Slice:
		return foreignType(t.Elem(), foreign, seen)
	case *types.Array:
		return foreignType(t.Elem(), foreign, seen)
	case *types.Chan:
		return foreignType(t.Elem(), foreign, seen)
	case *types.Map:
		if n := foreignType(t.Key(), foreign, seen); n != "" {
			return n
		}
		return foreignType(t.Elem(), foreign, seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if n := foreignType(tup.At(i).Type(), foreign, seen); n != "" {
					return n
				}
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if n := foreignType(t.Field(i).Type(), foreign, seen); n != "" {
				return n
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if n := foreignType(t.Method(i).Type(), foreign, seen); n != "" {
				return n
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if n := foreignType(t.EmbeddedType(i), foreign, seen); n != "" {
				return n
			}
		}
	}
	return ""
}

// TestForeignInAPIFindsThirdPartyTypes: the walk itself finds a foreign
// type in each place an API can name one, and nothing in an API that
// names only its own and standard types.
func TestForeignInAPIFindsThirdPartyTypes(t *testing.T) {
	third := types.NewPackage("example.com/third", "third")
	result := types.NewNamed(types.NewTypeName(token.NoPos, third, "Result", nil), types.NewStruct(nil, nil), nil)
	foreign := func(p *types.Package) bool { return p == third }
	for name, typ := range map[string]types.Type{
		"param":  types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "r", result)), nil, false),
		"result": types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.NewSlice(result))), false),
		"map":    types.NewMap(types.Typ[types.String], types.NewPointer(result)),
		"chan":   types.NewChan(types.SendRecv, result),
		"struct": types.NewStruct([]*types.Var{types.NewField(token.NoPos, nil, "R", result, false)}, nil),
		"array":  types.NewArray(result, 2),
	} {
		if got := foreignType(typ, foreign, map[types.Type]bool{}); got != "example.com/third.Result" {
			t.Errorf("%s: foreignType = %q, want the third-party Result", name, got)
		}
	}
	own := types.NewPackage("github.com/occkit/occkit", "occkit")
	value := types.NewNamed(types.NewTypeName(token.NoPos, own, "Value", nil), types.NewStruct(
		[]*types.Var{types.NewField(token.NoPos, own, "r", result, false)}, nil), nil)
	own.Scope().Insert(value.Obj())
	get := types.NewFunc(token.NoPos, own, "Get", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, own, "", value)), false))
	own.Scope().Insert(get)
	if bad := foreignInAPI(own, foreign); len(bad) != 0 {
		t.Errorf("an unexported field of a foreign type was reported: %v", bad)
	}
	leak := types.NewFunc(token.NoPos, own, "Leak", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, own, "", result)), false))
	own.Scope().Insert(leak)
	if bad := foreignInAPI(own, foreign); len(bad) != 1 || !strings.HasPrefix(bad[0], "Leak names example.com/third.Result") {
		t.Errorf("foreignInAPI = %v, want Leak reported", bad)
	}
}
