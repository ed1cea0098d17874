// Package docs holds the test that every exported identifier of the
// library is documented, and every package has a doc.go with an overview.
package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// roots are the library's package trees, from the repository root. The
// examples are programs, not API, and are checked by their own tests.
var roots = []string{".", "compile", "resolver", "admission", "logging", "probe", "drivers"}

func TestExportedIdentifiersAreDocumented(t *testing.T) {
	repo := filepath.Join("..", "..")
	for _, pkgDir := range packageDirs(t, repo) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, pkgDir, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repo, pkgDir)
		for _, pkg := range pkgs {
			if strings.HasSuffix(pkg.Name, "_test") || pkg.Name == "main" {
				continue
			}
			if _, ok := pkg.Files[filepath.Join(pkgDir, "doc.go")]; !ok && !strings.Contains(rel, "internal") {
				t.Errorf("%s: no doc.go", rel)
			}
			for name, f := range pkg.Files {
				for _, miss := range undocumented(f) {
					t.Errorf("%s: %s is exported but has no doc comment", filepath.Join(rel, filepath.Base(name)), miss)
				}
			}
		}
	}
}

func packageDirs(t *testing.T, repo string) []string {
	var dirs []string
	for _, r := range roots {
		base := filepath.Join(repo, r)
		if r == "." {
			dirs = append(dirs, base)
			continue
		}
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			// Nested modules are checked from their own tree too.
			if p != base {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return nil // still walk: their packages are library API
				}
			}
			if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
				dirs = append(dirs, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// undocumented lists the exported top-level identifiers of f without a doc
// comment: on the declaration, or on its group for grouped specs.
func undocumented(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv != nil && !exportedReceiver(d.Recv) {
				continue
			}
			out = append(out, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
						out = append(out, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Doc == nil && d.Doc == nil && s.Comment == nil {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

func exportedReceiver(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	typ := fl.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

func TestUndocumentedCatchesMissingDocs(t *testing.T) {
	src := "package p\n\n// A is documented.\nfunc A() {}\n\nfunc B() {}\n\ntype C int\n\n// D is documented.\nconst D = 1\n\nvar E = 2\n\nfunc (C) F() {}\n\nfunc lower() {}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(undocumented(f), ",")
	if got != "B,C,E,F" {
		t.Fatalf("undocumented = %s, want B,C,E,F", got)
	}
}
