package layers

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The TUI never reads the disk on its UI goroutine (docs/tui.md): a read
// is a tea.Cmd, run by Bubble Tea off it, whose message brings what was
// read. The check below type-checks package tui (its non-test files, the
// imports from the build cache's export data), walks its functions from
// Model.Update and fails on a direct read.
//
// A call of an interface's method reaches every method of the package
// of that name (more than the real call, never less); a function or
// method named without a call (a key table's action, a method value) is
// reached as if called; a function literal of a command's shape,
// func() tea.Msg, is the command and a literal started with go runs on
// its own goroutine: what they call is not followed. Any other literal
// runs where it is written. A read is a call of os.ReadFile, os.Stat,
// os.Lstat, os.ReadDir, os.Open, filepath.WalkDir/Walk/Glob, or of a
// bugfolder or engine function or method that reaches one of them
// (bugfolder is walked the same way, and engine with bugfolder's reads:
// engine.ResumeNeed counts a debate's calls from its folders).

// diskReads are the standard library's reads of the disk.
var diskReads = map[string][]string{
	"os":            {"ReadFile", "Stat", "Lstat", "ReadDir", "Open"},
	"path/filepath": {"WalkDir", "Walk", "Glob"},
}

// knownReads are the reads on the Update path this check tolerates (the
// caller → the read): none is left; a read on it fails the test, and one
// listed here fails it once it is gone (take it off the list).
var knownReads = []string{}

// exportData maps every package pkgs depend on to its export data file
// (go list builds what the cache lacks).
func exportData(t *testing.T, root string, pkgs ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			m[path] = file
		}
	}
	return m
}

// srcPkg is one package's non-test source, type-checked.
type srcPkg struct {
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
	// decls are its functions and methods by their object; vars its
	// package variables' values (a table of handlers is one).
	decls   map[types.Object]*ast.FuncDecl
	byName  map[string][]*ast.FuncDecl
	vars    map[types.Object][]ast.Expr
	checked *types.Package
}

// parseSrc type-checks the non-test Go files of dir (or src, file name to
// text, when given) as the package path.
func parseSrc(t *testing.T, exports map[string]string, path, dir string, src map[string]string) *srcPkg {
	t.Helper()
	p := &srcPkg{fset: token.NewFileSet(), decls: map[types.Object]*ast.FuncDecl{}, byName: map[string][]*ast.FuncDecl{}, vars: map[types.Object][]ast.Expr{},
		info: &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}}
	if src == nil {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		src = map[string]string{}
		for _, n := range names {
			if !strings.HasSuffix(n, "_test.go") {
				src[n] = ""
			}
		}
	}
	for name, text := range src {
		var body any
		if text != "" {
			body = text
		}
		f, err := parser.ParseFile(p.fset, name, body, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.files = append(p.files, f)
	}
	imp := importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	conf := types.Config{Importer: imp}
	var err error
	if p.checked, err = conf.Check(path, p.fset, p.files, p.info); err != nil {
		t.Fatalf("type-check %s: %v", path, err)
	}
	for _, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				p.decls[p.info.Defs[d.Name]] = d
				p.byName[d.Name.Name] = append(p.byName[d.Name.Name], d)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok && d.Tok == token.VAR {
						for _, n := range vs.Names {
							p.vars[p.info.Defs[n]] = vs.Values
						}
					}
				}
			}
		}
	}
	return p
}

// isCmdLit reports whether fl is a command: func() tea.Msg.
func isCmdLit(fl *ast.FuncLit) bool {
	ft := fl.Type
	if ft.Params.NumFields() != 0 || ft.Results.NumFields() != 1 {
		return false
	}
	sel, ok := ft.Results.List[0].Type.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Msg"
}

// funcName names a function: Recv.Name or Name.
func funcName(fn *types.Func) string {
	if r := fn.Signature().Recv(); r != nil {
		t := r.Type()
		if pt, ok := t.(*types.Pointer); ok {
			t = pt.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Name()
}

// reach walks p from the function named root (Recv.Name) and calls hit
// for every function of another package that isRead says reads, with
// the chain of p's functions that led there; it returns how many it
// walked.
func (p *srcPkg) reach(root string, isRead func(*types.Func) bool, hit func(at token.Position, call string, chain []string)) int {
	type item struct {
		node  ast.Node
		chain []string
	}
	seen := map[ast.Node]bool{}
	var queue []item
	push := func(n ast.Node, chain []string) {
		if n != nil && !seen[n] {
			seen[n] = true
			queue = append(queue, item{n, chain})
		}
	}
	for obj, d := range p.decls {
		if fn, ok := obj.(*types.Func); ok && funcName(fn) == root {
			push(d, []string{root})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		follow := func(d *ast.FuncDecl) {
			push(d, append(slices.Clip(it.chain), funcName(p.info.Defs[d.Name].(*types.Func))))
		}
		ast.Inspect(it.node, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				if _, ok := n.Call.Fun.(*ast.FuncLit); ok {
					return false // its own goroutine
				}
			case *ast.FuncLit:
				return !isCmdLit(n) // a command runs off the UI goroutine
			case *ast.Ident:
				switch obj := p.info.Uses[n].(type) {
				case *types.Func:
					p.use(obj, isRead, follow, func(call string) { hit(p.fset.Position(n.Pos()), call, it.chain) })
				case *types.Var:
					push(valuesNode(p.vars[obj]), append(slices.Clip(it.chain), obj.Name()))
				}
			}
			return true
		})
	}
	return len(seen)
}

// use is a use of fn: a read reported, a function of p followed (an
// interface's method: every method of p of its name).
func (p *srcPkg) use(fn *types.Func, isRead func(*types.Func) bool, follow func(*ast.FuncDecl), read func(call string)) {
	if fn.Pkg() == nil { // the universe's (error.Error)
		return
	}
	if fn.Pkg() != p.checked {
		if isRead(fn) {
			read(fn.Pkg().Name() + "." + funcName(fn))
		}
		return
	}
	if d, ok := p.decls[fn]; ok {
		follow(d)
		return
	}
	for _, d := range p.byName[fn.Name()] { // an interface's method
		if d.Recv != nil {
			follow(d)
		}
	}
}

// valuesNode holds a variable's values as one node to walk.
func valuesNode(vs []ast.Expr) ast.Node {
	if len(vs) == 0 {
		return nil
	}
	return &ast.CompositeLit{Elts: vs}
}

// stdRead reports whether fn is one of diskReads.
func stdRead(fn *types.Func) bool {
	return fn.Pkg() != nil && slices.Contains(diskReads[fn.Pkg().Path()], fn.Name())
}

// readers are the functions and methods of the package at path (in dir)
// that reach a read of the disk (diskReads, or a call isRead says is one),
// by their name (funcName).
func readers(t *testing.T, exports map[string]string, path, dir string, isRead func(*types.Func) bool) map[string]bool {
	t.Helper()
	p := parseSrc(t, exports, path, dir, nil)
	out := map[string]bool{}
	for obj := range p.decls {
		fn, ok := obj.(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		n := 0
		p.reach(funcName(fn), isRead, func(token.Position, string, []string) { n++ })
		if n > 0 {
			out[funcName(fn)] = true
		}
	}
	return out
}

// readsIn is a read of the disk: a standard library read, or a call of a
// function of the packages named (their path's last element) that
// reaches one (their readers).
func readsIn(pkgReaders map[string]map[string]bool) func(*types.Func) bool {
	return func(fn *types.Func) bool {
		if stdRead(fn) {
			return true
		}
		if fn.Pkg() == nil {
			return false
		}
		r, ok := pkgReaders[filepath.Base(fn.Pkg().Path())]
		return ok && r[funcName(fn)]
	}
}

// updateReads are the direct reads of the disk reachable from
// Model.Update in p, as "file:line: call (via chain)", but for
// knownReads (known: those seen); isRead says what a read is.
func updateReads(p *srcPkg, isRead func(*types.Func) bool) (hits, known []string, walked int) {
	walked = p.reach("Model.Update", isRead, func(at token.Position, call string, chain []string) {
		if k := chain[len(chain)-1] + " → " + call; slices.Contains(knownReads, k) {
			known = append(known, k)
			return
		}
		hits = append(hits, fmt.Sprintf("%s:%d: %s (via %s)", filepath.Base(at.Filename), at.Line, call, strings.Join(chain, " → ")))
	})
	slices.Sort(hits)
	return slices.Compact(hits), known, walked
}

// TestTUIUpdateNeverReadsTheDisk fails when a function of package tui
// reachable from Model.Update (the screens' Update and key handlers, the
// dialogs, and what they call) reads the disk itself instead of
// returning a command that does.
func TestTUIUpdateNeverReadsTheDisk(t *testing.T) {
	root := repoRoot(t)
	exports := exportData(t, root, "./tui")
	bf := readers(t, exports, module+"/bugfolder", filepath.Join(root, "bugfolder"), stdRead)
	if !bf["SubjectDirs"] {
		t.Fatal("bugfolder.SubjectDirs is not seen to read the disk: the check would miss bugfolder's reads")
	}
	// engine's functions read through bugfolder's too (engine.ResumeNeed
	// counts a debate's calls from its folders)
	en := readers(t, exports, module+"/engine", filepath.Join(root, "engine"), readsIn(map[string]map[string]bool{"bugfolder": bf}))
	if !en["ResumeNeed"] {
		t.Fatal("engine.ResumeNeed is not seen to read the disk: the check would miss engine's reads")
	}
	isRead := readsIn(map[string]map[string]bool{"bugfolder": bf, "engine": en})
	hits, seenKnown, walked := updateReads(parseSrc(t, exports, module+"/tui", filepath.Join(root, "tui"), nil), isRead)
	if walked < 100 {
		t.Fatalf("only %d functions reached from Model.Update: the walk lost its way", walked)
	}
	for _, h := range hits {
		t.Errorf("%s: Update reads the disk on the UI goroutine; return a tea.Cmd that reads it", h)
	}
	for _, k := range knownReads {
		if !slices.Contains(seenKnown, k) {
			t.Errorf("%s is no longer read on the Update path: take it off knownReads", k)
		}
	}
}

// TestUpdateDiskCheckSeesADirectRead proves the check can fail: a read
// two calls below Update, in a key table's action, or through a bugfolder
// reader is found; the same read inside a returned command is not.
func TestUpdateDiskCheckSeesADirectRead(t *testing.T) {
	exports := exportData(t, repoRoot(t), "./tui")
	const head = "package tui\nimport (\n\"os\"\ntea \"charm.land/bubbletea/v2\"\n\"github.com/reversa/moot/bugfolder\"\n)\ntype Model struct{}\n" +
		"func unreached() { _, _ = os.Stat, bugfolder.SubjectDirs }\n"
	cases := []struct {
		name, src string
		want      string
	}{
		{"a read below Update", head + "func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { return m, m.open() }\n" +
			"func (m Model) open() tea.Cmd { stat(); return nil }\nfunc stat() { os.Stat(\"x\") }\n", "os.Stat"},
		{"a key table's action", head + "var table = []func(){ func() { os.ReadFile(\"x\") } }\n" +
			"func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { table[0](); return m, nil }\n", "os.ReadFile"},
		{"a bugfolder reader", head + "func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { bugfolder.SubjectDirs(nil); return m, nil }\n", "bugfolder.SubjectDirs"},
		{"a read in a command", head + "func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { return m, func() tea.Msg { os.ReadFile(\"x\"); return nil } }\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parseSrc(t, exports, module+"/tui", "", map[string]string{"x.go": c.src})
			hits, _, _ := updateReads(p, readsIn(map[string]map[string]bool{"bugfolder": {"SubjectDirs": true}}))
			if c.want == "" && len(hits) > 0 || c.want != "" && (len(hits) != 1 || !strings.Contains(hits[0], c.want)) {
				t.Errorf("found %q, want %q", hits, c.want)
			}
		})
	}
}
