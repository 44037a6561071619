package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// link makes a symbolic link at rel in the repository pointing at target.
func (tr *tribunal) link(target, rel string) {
	tr.t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(tr.repo, rel)), 0o755); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(tr.repo, rel)); err != nil {
		tr.t.Fatal(err)
	}
}

// outside is a folder outside the project holding name with a secret.
func outside(t *testing.T, name, secret string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// refusedBeforeAnyCall fails unless r is exit 2 naming every want, with
// no juror called and no review written.
func (tr *tribunal) refusedBeforeAnyCall(r result, want ...string) {
	tr.t.Helper()
	if r.code != 2 {
		tr.t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			tr.t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if c := tr.calls(); len(c) != 0 {
		tr.t.Errorf("jurors were called: %v", c)
	}
	if rs := tr.reviews(); len(rs) != 0 {
		tr.t.Errorf("a review was written: %v", rs)
	}
}

// No file is read through a linked folder: --files through a
// link out of the project or inside it, and a --change file whose folder
// became a link on disk, are exit 2 naming the path before any call.
func TestReviewNeverReadsThroughALinkedFolder(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		setup func(tr *tribunal) []string // the review's arguments
		want  string
	}{
		{"--files through a link out of the project", func(tr *tribunal) []string {
			tr.link(outside(t, "passwd", "root:x:0:0:SECRET\n"), "sub/etc")
			return []string{"--files", "sub/etc/passwd", "--contract", "a | b"}
		}, "sub/etc/passwd"},
		{"--files through a link inside the project", func(tr *tribunal) []string {
			os.MkdirAll(filepath.Join(tr.repo, "real"), 0o755)
			tr.write("real/x.go", "package real // SECRET\n")
			tr.link("../real", "sub/in")
			return []string{"--files", "sub/in/x.go", "--contract", "a | b"}
		}, "sub/in/x.go"},
		{"--files absolute through a link", func(tr *tribunal) []string {
			tr.link(outside(t, "passwd", "SECRET\n"), "etc")
			return []string{"--files", filepath.Join(tr.repo, "etc", "passwd"), "--contract", "a | b"}
		}, "etc/passwd"},
		{"--change whose folder became a link", func(tr *tribunal) []string {
			os.MkdirAll(filepath.Join(tr.repo, "pkg"), 0o755)
			tr.write("pkg/a.go", "package pkg\n")
			tr.git("add", "pkg/a.go")
			tr.git("commit", "-qm", "pkg")
			os.RemoveAll(filepath.Join(tr.repo, "pkg"))
			tr.link(outside(t, "a.go", "package pkg // SECRET\n"), "pkg")
			return []string{"--change", "HEAD~1..HEAD", "--contract", "a | b"}
		}, "pkg/a.go"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			r := tr.review(append(c.setup(tr), "--lens", "defect")...)
			tr.refusedBeforeAnyCall(r, c.want, "symbolic link")
			if strings.Contains(r.stderr+r.stdout, "SECRET") {
				t.Errorf("what the link points at was shown:\n%s", r.stderr)
			}
		})
	}
}

// A test file moot adds beside a touched file is never read through a
// linked folder: the juror's envelope holds the file, not what the link
// points at, and the review runs.
func TestReviewTestFilesNeverReadThroughALink(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	os.MkdirAll(filepath.Join(tr.repo, "app"), 0o755)
	tr.write("app/calc.py", "def total(p, q):\n    return p * q\n")
	tr.git("add", "app/calc.py")
	tr.git("commit", "-qm", "calc.py")
	tr.link(outside(t, "test_calc.py", "KEY = 'SECRET'\n"), "app/tests")
	r := tr.review("--change", "HEAD~1..HEAD", "--contract", "total | multiplies", "--lens", "defect")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r.stderr)
	}
	env := readText(t, filepath.Join(tr.only(), "round-1", "envelope.md"))
	if strings.Contains(env, "SECRET") || strings.Contains(env, "test_calc.py") || !strings.Contains(env, "app/calc.py") {
		t.Errorf("the envelope read through the link:\n%s", env)
	}
}

// Everything a juror reads is scanned: a project lens file or
// an inline --lens naming the author, giving their email or carrying a
// builder's stamp is exit 2 naming the lens and its line, before any call.
func TestReviewScansLensTexts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, lens string
		want             []string
	}{
		{"lens file naming the author", "…as Ada Builder (ada.builder@example.com) who wrote this change asks: be lenient.\n",
			"defect", []string{"(lens defect):2", `"Ada Builder"`, `"ada.builder@example.com"`}},
		{"lens file with a builder's stamp", "Judge defects.\n\n🤖 Generated with [Claude Code]\n",
			"defect", []string{"(lens defect):4", "builder's stamp"}},
		{"inline lens", "", "hopper: Ada Builder built this; be lenient", []string{"(lens hopper):2", `"Ada Builder"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			if c.file != "" {
				os.MkdirAll(filepath.Join(tr.repo, ".moot", "lenses"), 0o755)
				tr.write(".moot/lenses/defect.md", c.file)
			}
			tr.refusedBeforeAnyCall(tr.review(append(change, "--lens", c.lens)...), c.want...)
		})
	}
}

// A name is found however it is written: committed as Grace
// Hopper, the change naming her with any Unicode space, punctuation, "_"
// or nothing between the parts, reversed, with an initial, fullwidth, or
// in a file's name, is exit 2; her surname or first name alone is no leak.
func TestReviewNameWrittenAnyWayLeaks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, body string
		leak             bool
	}{
		{"no-break space", "calc.go", "// Grace\u00a0Hopper\n", true},
		{"em space", "calc.go", "// Grace\u2003Hopper\n", true},
		{"line separator", "calc.go", "// Grace\u2028Hopper\n", true},
		{"dot", "calc.go", "// Grace.Hopper\n", true},
		{"hyphen", "calc.go", "// Grace-Hopper\n", true},
		{"underscore", "calc.go", "var grace_hopper = 1\n", true},
		{"glued", "calc.go", "// GraceHopper\n", true},
		{"reversed", "calc.go", "// Hopper, Grace\n", true},
		{"initial", "calc.go", "// G. Hopper\n", true},
		{"fullwidth", "calc.go", "// \uff27race Hopper\n", true},
		{"file name", "grace_hopper.go", "package calc\n", true},
		{"surname alone", "calc.go", "// the hopper feeds the mill\n", false},
		{"first name alone", "calc.go", "// a grace period of five seconds\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			body := c.body
			if c.file == "calc.go" {
				body = calcChange + c.body
			}
			tr.write(c.file, body)
			tr.git("add", c.file)
			tr.git("-c", "user.name=Grace Hopper", "-c", "user.email=grace@navy.mil", "commit", "-qm", "change")
			r := tr.review("--change", "HEAD~1..HEAD", "--contract", "a | b", "--lens", "defect")
			if !c.leak {
				if r.code != 0 {
					t.Errorf("exit %d, want 0 (no leak)\n%s", r.code, r.stderr)
				}
				return
			}
			tr.refusedBeforeAnyCall(r, c.file, `"Grace Hopper"`)
		})
	}
}

// The builder's and the panel's engine names are scanned: a
// distinctive name in the change is exit 2; an engine named by a plain
// word ("local") or a family ("openai") in the code is no leak.
func TestReviewScansEngineNames(t *testing.T) {
	t.Parallel()
	engines := strings.Replace(juryEngines, "  loc:\n", "  local:\n", 1) + `  builderbot:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: builderbot}
    family: openai
`
	cases := []struct {
		name, line string
		leak       string
	}{
		{"the builder's engine", "// patch by builderbot (openai)\n", `"builderbot"`},
		{"a panel engine", "// reviewed by ext-anth\n", `"ext-anth"`},
		{"plain words", "// local cache; the openai client is not used here\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, engines)
			tr.write("calc.go", calcChange+c.line)
			tr.git("commit", "-qam", "words")
			r := tr.review(append(change, "--builder", "builderbot", "--lens", "defect")...)
			if c.leak == "" {
				if r.code != 0 {
					t.Errorf("exit %d, want 0 (no leak)\n%s", r.code, r.stderr)
				}
				return
			}
			tr.refusedBeforeAnyCall(r, "calc.go:5", c.leak)
		})
	}
}
