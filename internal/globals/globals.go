package globals

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"sort"
)

// Finding is one write to a package-level variable after its declaration.
type Finding struct {
	// Pos is where the write happens.
	Pos token.Position
	// Var is the variable, "importpath.name".
	Var string
	// How says what writes it: "assignment", "increment", "address taken",
	// "pointer-receiver method M", "range assignment", or the in-place
	// mutator called on it ("delete", "sort.Strings", …).
	How string
}

func (f Finding) String() string { return fmt.Sprintf("%s: %s: %s", f.Pos, f.Var, f.How) }

// mutators are the calls known to modify their first argument in place.
// A call to any other function that mutates a global it receives is not
// seen: the check is syntactic past this list.
var mutators = map[string]bool{
	"sort.Sort": true, "sort.Stable": true, "sort.Strings": true, "sort.Ints": true,
	"sort.Float64s": true, "sort.Slice": true, "sort.SliceStable": true,
	"slices.Sort": true, "slices.SortFunc": true, "slices.SortStableFunc": true, "slices.Reverse": true,
	"maps.Copy": true, "maps.DeleteFunc": true,
}

// Check type-checks files as the package path and reports every write to
// one of its package-level variables that happens after the declaration:
// an assignment to it or through it (v = …, v.f = …, v[k] = …, *v = …),
// ++/--, a range loop assigning it, taking its address, calling a
// pointer-receiver method on a non-pointer variable (an implicit &v), and
// passing it as the destination of copy, clear, delete, append's result
// aside, or a known in-place mutator (sort.Strings, slices.Sort, …).
// Initializers are declarations, not writes; writes inside init functions
// are writes.
func Check(fset *token.FileSet, path string, files []*ast.File, imp types.Importer) ([]Finding, error) {
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		return nil, err
	}
	c := checker{fset: fset, pkg: pkg, info: info}
	for _, f := range files {
		ast.Inspect(f, c.visit)
	}
	sort.Slice(c.found, func(i, j int) bool {
		a, b := c.found[i].Pos, c.found[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return c.found, nil
}

type checker struct {
	fset  *token.FileSet
	pkg   *types.Package
	info  *types.Info
	found []Finding
}

// global returns the package-level variable that e names or writes
// through (v, v.f, v[i], *v, (v)), or nil.
func (c *checker) global(e ast.Expr) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			if v := c.pkgVar(x.Sel); v != nil {
				return v // pkg.V, a qualified global of another package
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return c.pkgVar(x)
		default:
			return nil
		}
	}
}

// pkgVar is the package-level variable id refers to, or nil.
func (c *checker) pkgVar(id *ast.Ident) *types.Var {
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

func (c *checker) report(at ast.Node, v *types.Var, how string) {
	c.found = append(c.found, Finding{Pos: c.fset.Position(at.Pos()), Var: v.Pkg().Path() + "." + v.Name(), How: how})
}

func (c *checker) visit(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.GenDecl:
		// Package-level declarations are visited for their initializers
		// (function literals may write globals), not their names.
		return true
	case *ast.AssignStmt:
		if x.Tok == token.DEFINE {
			return true
		}
		for _, l := range x.Lhs {
			if v := c.global(l); v != nil {
				c.report(l, v, "assignment")
			}
		}
	case *ast.IncDecStmt:
		if v := c.global(x.X); v != nil {
			c.report(x, v, "increment")
		}
	case *ast.RangeStmt:
		if x.Tok == token.ASSIGN {
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if v := c.global(e); e != nil && v != nil {
					c.report(e, v, "range assignment")
				}
			}
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if v := c.global(x.X); v != nil {
				c.report(x, v, "address taken")
			}
		}
	case *ast.CallExpr:
		c.call(x)
	}
	return true
}

func (c *checker) call(x *ast.CallExpr) {
	switch fun := x.Fun.(type) {
	case *ast.Ident:
		if b, ok := c.info.Uses[fun].(*types.Builtin); ok && len(x.Args) > 0 {
			switch b.Name() {
			case "copy", "clear", "delete":
				if v := c.global(x.Args[0]); v != nil {
					c.report(x, v, b.Name())
				}
			}
		}
	case *ast.SelectorExpr:
		if sel := c.info.Selections[fun]; sel != nil && sel.Kind() == types.MethodVal {
			recv := sel.Obj().(*types.Func).Type().(*types.Signature).Recv()
			_, ptrRecv := recv.Type().(*types.Pointer)
			if v := c.global(fun.X); v != nil && ptrRecv {
				// The receiver's type; a qualified global of another
				// package (base64.StdEncoding) has none recorded here,
				// so its variable's type stands in.
				t := c.info.TypeOf(fun.X)
				if t == nil {
					t = v.Type()
				}
				if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
					c.report(x, v, "pointer-receiver method "+fun.Sel.Name)
				}
			}
			return
		}
		if pkgID, ok := fun.X.(*ast.Ident); ok && len(x.Args) > 0 {
			if pn, ok := c.info.Uses[pkgID].(*types.PkgName); ok && mutators[pn.Imported().Path()+"."+fun.Sel.Name] {
				if v := c.global(x.Args[0]); v != nil {
					c.report(x, v, pn.Imported().Path()+"."+fun.Sel.Name)
				}
			}
		}
	}
}

// ExportImporter imports packages from compiled export data: exports maps
// an import path to its export file, as `go list -export` reports it.
func ExportImporter(fset *token.FileSet, exports map[string]string) types.Importer {
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
}
