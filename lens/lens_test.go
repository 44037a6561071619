package lens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The library has the twelve lenses of docs/cli.md under their
// hyphenated names, each telling its participant not to homogenize.
func TestLibrary(t *testing.T) {
	want := []string{"security", "performance", "data-integrity", "spec", "operator-safety", "tests", "simplicity", "regression", "defect", "user-impact", "cost", "devils-advocate"}
	if got := strings.Join(Names(), ","); got != strings.Join(want, ",") {
		t.Fatalf("library %s", got)
	}
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range want {
		l, err := c.Resolve(n)
		if err != nil || l.Name != n || !strings.Contains(l.Text, "do not drift toward the panel's average view") || !ValidName(n) {
			t.Errorf("%s: %+v %v", n, l, err)
		}
	}
}

// A project's lenses override the engines file's, which override the
// library; --lens reads a name (any case) or "name: text".
func TestCatalogAndResolve(t *testing.T) {
	proj := t.TempDir()
	dir := filepath.Join(proj, Dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"security.md": "Our security: PCI scope first.\n",
		"cfo.md":      "---\nname: cfo\n---\nCFO: unit economics.\n",
		"notes.txt":   "not a lens",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Load(proj, []Entry{{Name: "cfo", Text: "from config", Where: "moot.yaml:9"}, {Name: "ops", Text: "Ops: toil.", Where: "moot.yaml:10"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ arg, name, text, from string }{
		{"security", "security", "Our security: PCI scope first.", filepath.Join(dir, "security.md")},
		{"CFO", "cfo", "CFO: unit economics.", filepath.Join(dir, "cfo.md")},
		{"ops", "ops", "Ops: toil.", "moot.yaml:10"},
		{"tests", "tests", "Tests: you defend", "library"},
		{"pm: ship value: weekly", "pm", "ship value: weekly", ""},
	} {
		l, err := c.Resolve(tc.arg)
		if err != nil || l.Name != tc.name || !strings.HasPrefix(l.Text, tc.text) || tc.from != "" && c.From(l.Name) != tc.from {
			t.Errorf("%q: %+v from %q, %v", tc.arg, l, c.From(l.Name), err)
		}
	}
	if n := c.Names(); n[len(n)-2] != "cfo" || n[len(n)-1] != "ops" {
		t.Errorf("names: %v", n)
	}
	for _, bad := range []string{"nosuch", "Bad Name: x", "x:", ": text", "x: " + strings.Repeat("a", MaxBytes+1)} {
		if _, err := c.Resolve(bad); err == nil || !strings.Contains(err.Error(), "--lens") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := Load("", []Entry{{Name: "Bad", Text: "x", Where: "moot.yaml:3"}}); err == nil || !strings.Contains(err.Error(), "moot.yaml:3: lenses.Bad") {
		t.Errorf("a bad engines-file lens: %v", err)
	}
}

// A lens file that is a symlink is refused, never followed.
func TestLensFileSymlinkRefused(t *testing.T) {
	proj := t.TempDir()
	dir := filepath.Join(proj, Dir)
	os.MkdirAll(dir, 0o700)
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	if err := os.Symlink(secret, filepath.Join(dir, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(proj, nil); err == nil || !strings.Contains(err.Error(), "leak.md") {
		t.Errorf("a symlinked lens file: %v", err)
	}
}

// FuzzParseFile: a lens file is the project's (untrusted) input: any bytes
// give a valid lens or an error, never a panic.
func FuzzParseFile(f *testing.F) {
	f.Add("cfo.md", []byte("---\nname: cfo\n---\nCFO: unit economics.\n"))
	f.Add("x.md", []byte("---\nname: [a]\n---\n"))
	f.Add("Bad.md", []byte("text"))
	f.Fuzz(func(t *testing.T, name string, raw []byte) {
		l, err := ParseFile(filepath.Join("p", name), raw)
		if err != nil {
			return
		}
		if !ValidName(l.Name) || checkText(l.Text) != nil {
			t.Fatalf("accepted %+v", l)
		}
	})
}

// FuzzResolve: a --lens argument gives a valid lens or an error.
func FuzzResolve(f *testing.F) {
	c, err := Load("", nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"security", "cfo: unit economics", ":", "a:b:c", "SECURITY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		l, err := c.Resolve(arg)
		if err != nil {
			return
		}
		if !ValidName(l.Name) || checkText(l.Text) != nil {
			t.Fatalf("accepted %+v", l)
		}
	})
}

// An error quotes a short --lens whole and a long one by its start and
// size, never cutting a character in two.
func TestQuote(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"security", `"security"`},
		{"big: " + strings.Repeat("x", 5000), `"big: ` + strings.Repeat("x", 55) + `"… (5005 bytes)`},
		{strings.Repeat("é", 40), `"` + strings.Repeat("é", 30) + `"… (80 bytes)`},
	} {
		if got := Quote(tc.arg); got != tc.want {
			t.Errorf("Quote(%.20q…) = %s, want %s", tc.arg, got, tc.want)
		}
	}
}

// A lens file's front matter holds only name:; any other field is refused
// naming the file, the field and its line.
func TestLensFileFields(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"---\nname: cfo\n---\nunit economics\n", ""},
		{"unit economics\n", ""},
		{"---\nname: cfo\nextra: 1\n---\nunit economics\n", "cfo.md: extra: line 3:"},
		{"---\ntext: x\n---\nunit economics\n", "cfo.md: text: line 2:"},
	} {
		_, err := ParseFile(filepath.Join("p", "cfo.md"), []byte(tc.raw))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.raw, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.raw, err, tc.want)
		}
	}
}

// A project lens file that cannot be read blocks only what names it: the
// other lenses (the library's and the project's good files) stay usable,
// and naming the bad one is refused with the file's own error.
func TestBadLensFileBlocksOnlyItself(t *testing.T) {
	proj := t.TempDir()
	dir := filepath.Join(proj, Dir)
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "cfo.md"), []byte("---\nname: cto\n---\ntext\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "security.md"), []byte("---\nextra: 1\n---\ntext\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "ops.md"), []byte("Ops: you defend the on-call engineer.\n"), 0o600)
	c, err := Load(proj, nil)
	if err != nil {
		t.Fatalf("a bad lens file failed the whole catalog: %v", err)
	}
	if _, err := c.Resolve("ops"); err != nil {
		t.Errorf("a good project lens beside a bad one: %v", err)
	}
	if _, err := c.Resolve("performance"); err != nil {
		t.Errorf("a library lens beside a bad project file: %v", err)
	}
	for name, want := range map[string]string{"cfo": "cfo.md: name", "security": "security.md: extra"} {
		_, err := c.Resolve(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("naming the bad %s lens: %v, want an error with %q", name, err, want)
		}
	}
	if got := len(c.Problems()); got != 2 {
		t.Errorf("Problems() lists %d files, want 2", got)
	}
}
