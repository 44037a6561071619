package lazyre_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestNoRegexpCompiledAtStart keeps moot's start cheap: no package of the
// moot binary compiles a regular expression in a package-level variable
// (that runs on every `moot version`); they use lazyre.New. Test-only
// programs (internal/fake*) are exempt.
func TestNoRegexpCompiledAtStart(t *testing.T) {
	for _, pkg := range parseMoot(t) {
		for _, f := range pkg.files {
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				ast.Inspect(gd, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok && isCall(call, "regexp", "MustCompile") {
						t.Errorf("%s: a package-level regexp.MustCompile runs at every start; use lazyre.New", pkg.fset.Position(call.Pos()))
					}
					return true
				})
			}
		}
	}
}

// TestEveryLazyExpressionCompiles compiles every lazyre.New expression of
// the moot binary whose text is a constant (literals and package
// constants joined by +): lazyre panics at an invalid one's first use, so
// this is the check regexp.MustCompile made at start.
func TestEveryLazyExpressionCompiles(t *testing.T) {
	checked := 0
	for _, pkg := range parseMoot(t) {
		for _, f := range pkg.files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !isCall(call, "lazyre", "New") || len(call.Args) != 1 {
					return true
				}
				expr, ok := pkg.constString(call.Args[0])
				if !ok {
					t.Errorf("%s: lazyre.New of an expression this test cannot evaluate; give it a constant", pkg.fset.Position(call.Pos()))
					return true
				}
				if _, err := regexp.Compile(expr); err != nil {
					t.Errorf("%s: %v", pkg.fset.Position(call.Pos()), err)
				}
				checked++
				return true
			})
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d expressions; the source walk is broken", checked)
	}
}

// goPackage is one folder's non-test files, parsed.
type goPackage struct {
	fset   *token.FileSet
	files  []*ast.File
	consts map[string]ast.Expr
}

// parseMoot parses every non-test Go file of the moot binary's packages.
func parseMoot(t *testing.T) []*goPackage {
	t.Helper()
	root := testutil.RepoRoot(t)
	byDir := map[string]*goPackage{}
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (strings.HasPrefix(base, ".") || base == "testdata" || strings.HasPrefix(rel, filepath.Join("internal", "fake"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		pkg := byDir[dir]
		if pkg == nil {
			pkg = &goPackage{fset: token.NewFileSet(), consts: map[string]ast.Expr{}}
			byDir[dir] = pkg
			dirs = append(dirs, dir)
		}
		f, err := parser.ParseFile(pkg.fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkg.files = append(pkg.files, f)
		for _, decl := range f.Decls {
			// constants, and package-level variables set to a string
			// once (the pieces expressions are built of)
			if gd, ok := decl.(*ast.GenDecl); ok && (gd.Tok == token.CONST || gd.Tok == token.VAR) {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							pkg.consts[name.Name] = vs.Values[i]
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := make([]*goPackage, 0, len(dirs))
	for _, d := range dirs {
		pkgs = append(pkgs, byDir[d])
	}
	return pkgs
}

// constString evaluates a string built of literals and the package's
// constants (or variables initialised to such a string) joined by +.
func (p *goPackage) constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return p.constString(e.X)
	case *ast.Ident:
		v, ok := p.consts[e.Name]
		if !ok {
			return "", false
		}
		return p.constString(v)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok1 := p.constString(e.X)
		y, ok2 := p.constString(e.Y)
		return x + y, ok1 && ok2
	}
	return "", false
}

// isCall reports whether call is pkg.name(…).
func isCall(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
