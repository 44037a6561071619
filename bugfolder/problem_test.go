package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

const a7k3 = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"

func assemble(t *testing.T, proj, arg string) *bugfolder.Problem {
	t.Helper()
	_, b, err := bugfolder.Resolve(proj, arg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAssemblePOrderAndContent(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "sample")
	p := assemble(t, proj, "7")
	var got []string
	for _, part := range p.Parts {
		got = append(got, part.Path)
	}
	want := []string{
		a7k3 + "/bug.md",
		a7k3 + "/evidence/reproduction.md",
		a7k3 + "/evidence/fechamento.log",
		a7k3 + "/evidence/pedido-4711.json",
		a7k3 + "/evidence/tela-carrinho.png",
		"_reversa_sdd/sdd/checkout.md",
		"_reversa_sdd/sdd/checkout.md",
		"_reversa_sdd/addenda/bug-BUG-20260715-A7K3-v002.md",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Parts[1].Kind != bugfolder.PartCapsule {
		t.Error("the capsule must come right after bug.md")
	}
	png := p.Parts[4]
	if !png.Binary || png.Text != "" || png.Size != 73 || len(png.SHA256) != 64 {
		t.Errorf("binary part: %+v", png)
	}
	if !strings.Contains(p.Text, "sha256 "+png.SHA256) || strings.Contains(p.Text, "\x89PNG") {
		t.Error("binary files are listed by hash, never inlined")
	}
	// only the located spec sections
	if !strings.Contains(p.Text, "4.1 Cupom e desconto progressivo") || !strings.Contains(p.Text, "5. Fechamento do pedido") {
		t.Error("located sections missing")
	}
	for _, notThere := range []string{"## 6. Frete", "## 1. Visão geral", "4.2 Ordem de aplicação", "Adendo v001"} {
		if strings.Contains(p.Text, notThere) {
			t.Errorf("P holds %q, which no locator names (or an inactive addendum)", notThere)
		}
	}
	if !strings.Contains(p.Text, "em caso de empate, prevalece o cupom") {
		t.Error("the active addendum v002 is missing")
	}
	if p.Bytes() != len(p.Text) || p.Tokens() != (p.Bytes()+3)/4 {
		t.Errorf("size %d bytes, %d tokens", p.Bytes(), p.Tokens())
	}
	// deterministic
	if q := assemble(t, proj, "7"); q.Text != p.Text || q.SHA256 != p.SHA256 {
		t.Error("P is not deterministic")
	}
}

func TestAssemblePFencesCannotBeClosedByContent(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "sample")
	p := assemble(t, proj, "7")
	// the capsule holds a ``` block: its own fence must be longer
	if !strings.Contains(p.Text, "````markdown\n# Cápsula de reprodução") {
		t.Errorf("capsule fence:\n%s", p.Text)
	}
}

func TestMissingSpecIsStatedNotInvented(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	// X9Z2 has traceability.specs: [] (spec-gap, English project form is PT here)
	p := assemble(t, proj, "9")
	if !strings.Contains(p.Text, "spec-gap") {
		t.Errorf("empty specs must be stated:\n%s", p.Text)
	}
	// a locator whose file or anchor does not exist
	bug := filepath.Join(proj, a7k3, "bug.md")
	raw, _ := os.ReadFile(bug)
	s := strings.Replace(string(raw), "sdd/checkout.md#5-fechamento-do-pedido", "sdd/nao-existe.md#x", 1)
	s = strings.Replace(s, "_reversa_sdd/sdd/checkout.md#regra-desconto-cumulativo", "_reversa_sdd/sdd/checkout.md#ancora-inexistente", 1)
	os.WriteFile(bug, []byte(s), 0o644)
	p = assemble(t, proj, "7")
	if !strings.Contains(p.Text, "`sdd/nao-existe.md`") || !strings.Contains(p.Text, "não existe") {
		t.Error("a missing spec file must be stated")
	}
	if !strings.Contains(p.Text, "`#ancora-inexistente` não foi encontrada") {
		t.Error("a missing anchor must be stated")
	}
	if strings.Contains(p.Text, "4.1 Cupom") {
		t.Error("nothing may be invented for a missing anchor")
	}
}

func TestSymlinks(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	ev := filepath.Join(proj, a7k3, "evidence")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("password=hunter2\n"), 0o644)

	// a symlink inside the project is followed
	if err := os.Symlink(filepath.Join("..", "..", "..", "..", "..", "src", "checkout", "desconto.py"), filepath.Join(ev, "codigo.py")); err != nil {
		t.Fatal(err)
	}
	p := assemble(t, proj, "7")
	if !strings.Contains(p.Text, "def aplicar_desconto") {
		t.Error("a symlink inside the project should be read")
	}

	// one leaving it is refused, naming the file
	link := filepath.Join(ev, "vazamento.txt")
	os.Symlink(outside, link)
	_, b, _ := bugfolder.Resolve(proj, "7")
	_, err := bugfolder.AssembleP(b)
	if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "leaves the project") {
		t.Fatalf("err = %v", err)
	}
	os.Remove(link)

	// a symlinked evidence folder leaving the project too
	os.Symlink(filepath.Dir(outside), filepath.Join(ev, "pasta"))
	if _, err := bugfolder.AssembleP(b); !bugfolder.IsInputError(err) {
		t.Errorf("symlinked folder outside: %v", err)
	}
	os.Remove(filepath.Join(ev, "pasta"))

	// a broken symlink is an unreadable file
	os.Symlink(filepath.Join(ev, "nada"), filepath.Join(ev, "quebrado.log"))
	if _, err := bugfolder.AssembleP(b); !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "quebrado.log") {
		t.Errorf("broken symlink: %v", err)
	}
}

func TestSpecLocatorOutsideProject(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	bug := filepath.Join(proj, a7k3, "bug.md")
	raw, _ := os.ReadFile(bug)
	os.WriteFile(bug, []byte(strings.Replace(string(raw), "sdd/checkout.md#5-fechamento-do-pedido", "../../../../etc/passwd#root", 1)), 0o644)
	_, b, err := bugfolder.Resolve(proj, "7")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bugfolder.AssembleP(b); !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "traceability.specs") {
		t.Errorf("err = %v", err)
	}
}

func TestUnreadableEvidence(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: file permissions cannot make a file unreadable (the broken-symlink and folder cases cover unreadable input)")
	}
	proj := testutil.CopyTree(t, "sample")
	f := filepath.Join(proj, a7k3, "evidence", "fechamento.log")
	os.Chmod(f, 0)
	_, b, _ := bugfolder.Resolve(proj, "7")
	if _, err := bugfolder.AssembleP(b); !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), f) {
		t.Errorf("err = %v", err)
	}
}

func TestSpecSection(t *testing.T) {
	text := "# Doc\n\n## Regras {#regras}\n\nA\n\n### 4.1 Cupom não acumula\n\nB\n\n```\n## not a heading\n```\n\n### 4.2 Ordem\n\nC\n\n## Outra\n\nD\n\n## Outra\n\nE\n"
	tests := []struct{ anchor, want, notWant string }{
		{"regras", "A", "D"},
		{"41-cupom-não-acumula", "B", "C"},
		{"41-cupom-nao-acumula", "B", "C"},
		{"#42-ordem", "C", "D"},
		{"outra-1", "E", "D"},
		{"outra", "D", "E"},
	}
	for _, tt := range tests {
		sec, ok := bugfolder.SpecSection(text, tt.anchor)
		if !ok {
			t.Errorf("%s: not found", tt.anchor)
			continue
		}
		if !strings.Contains(sec, "\n"+tt.want+"\n") || strings.Contains(sec, "\n"+tt.notWant+"\n") {
			t.Errorf("%s:\n%s", tt.anchor, sec)
		}
	}
	if sec, _ := bugfolder.SpecSection(text, "41-cupom-não-acumula"); !strings.Contains(sec, "## not a heading") {
		t.Error("a heading inside a fence must not end the section")
	}
	if _, ok := bugfolder.SpecSection(text, "nada"); ok {
		t.Error("found a missing anchor")
	}
}

func TestFenceFor(t *testing.T) {
	for in, want := range map[string]string{"plain": "```", "```go\nx\n```": "````", "  `````\n": "``````"} {
		if got := bugfolder.FenceFor(in); got != want {
			t.Errorf("FenceFor(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzHeaderPath: whatever a file is named, its header in P is one line
// without a backtick or a control character (it cannot close the code span
// or forge a section).
func FuzzHeaderPath(f *testing.F) {
	for _, s := range []string{"evidence/log.txt", "a`\n### `x`", "\x1b]0;t\x07", "\u2028x\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		h := bugfolder.HeaderPath(name)
		if strings.ContainsAny(h, "`\n\r") || strings.ContainsFunc(h, unicode.IsControl) {
			t.Fatalf("HeaderPath(%q) = %q", name, h)
		}
	})
}

// FuzzHeaderText: whatever a bug's title, its line in P is one line with
// no control or invisible character.
func FuzzHeaderText(f *testing.F) {
	for _, s := range []string{"Desconto aplicado duas vezes", "x\n\n### `evidence/forged.log` (evidência)\n\n```\nFORGED", "\x1b]0;t\x07\r\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		h := bugfolder.HeaderText(title)
		if strings.ContainsAny(h, "\n\r") || strings.ContainsFunc(h, func(r rune) bool { return r != ' ' && !unicode.IsGraphic(r) }) {
			t.Fatalf("HeaderText(%q) = %q", title, h)
		}
	})
}
