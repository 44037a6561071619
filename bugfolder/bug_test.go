package bugfolder_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

func TestFindRoot(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	root := filepath.Join(proj, "_reversa_bugs")
	deep := filepath.Join(root, "checkout", "bugs", "BUG-20260715-A7K3-desconto-aplicado-duas-vezes", "evidence")
	src := filepath.Join(proj, "src", "checkout")
	for name, dir := range map[string]string{
		"project top":                     proj,
		"a child folder of the project":   src,
		"inside the register":             deep,
		"the register itself":             root,
		"an ancestor named _reversa_bugs": filepath.Join(root, "checkout"),
	} {
		t.Run(name, func(t *testing.T) {
			reg, err := bugfolder.FindRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			if reg.Root != root || reg.Project != proj {
				t.Errorf("root %s project %s", reg.Root, reg.Project)
			}
			if reg.Lang != bugfolder.PT || reg.OutputFolder != "_reversa_sdd" {
				t.Errorf("lang %v output %q", reg.Lang, reg.OutputFolder)
			}
		})
	}
	if _, err := bugfolder.FindRoot(t.TempDir()); !errors.Is(err, bugfolder.ErrNoRoot) {
		t.Errorf("empty folder: %v", err)
	}
}

func TestDocLanguage(t *testing.T) {
	for in, want := range map[string]bugfolder.Lang{"pt-BR": bugfolder.PT, "Português": bugfolder.PT, "": bugfolder.PT, "en": bugfolder.EN, "en-US": bugfolder.EN, "English": bugfolder.EN, "inglês": bugfolder.EN, "klingon": bugfolder.PT} {
		if got := bugfolder.LangFromDocLanguage(in); got != want {
			t.Errorf("%q → %v, want %v", in, got, want)
		}
	}
}

func TestBadStateJSON(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	p := filepath.Join(proj, ".reversa", "state.json")
	os.WriteFile(p, []byte("{oops"), 0o644)
	_, err := bugfolder.FindRoot(proj)
	if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "state.json") {
		t.Errorf("err = %v", err)
	}
	os.WriteFile(p, []byte(`{"output_folder": "../outside"}`), 0o644)
	if _, err := bugfolder.FindRoot(proj); err == nil || !strings.Contains(err.Error(), "leaves the project") {
		t.Errorf("escaping output_folder: %v", err)
	}
}

func TestDiscoverSample(t *testing.T) {
	reg, err := bugfolder.FindRoot(filepath.Join(testutil.RepoRoot(t), "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	bugs, errs := bugfolder.Discover(reg)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := map[string]*bugfolder.Bug{}
	for _, b := range bugs {
		got[b.ID] = b
	}
	want := map[string]string{
		"BUG-20260715-A7K3": "checkout", "BUG-20260702-Q2R8": "checkout", "BUG-20260705-M8N2": "checkout",
		"BUG-20260610-K4M1": "checkout", "BUG-20260801-X9Z2": "billing", "BUG-20260720-R5T6": "auth",
	}
	if len(got) != len(want) {
		t.Fatalf("found %d bugs, want %d (inspections/, generated/ and intake/ are not bugs)", len(got), len(want))
	}
	for id, ctx := range want {
		if got[id] == nil || got[id].Context != ctx {
			t.Errorf("%s: %+v", id, got[id])
		}
	}
	a := got["BUG-20260715-A7K3"]
	if a.DisplayNumber != 7 || a.Visibility != "normal" || a.ChangeRisk != "média" || len(a.Specs) != 2 {
		t.Errorf("A7K3 fields: %+v", a)
	}
	if bugfolder.Lookup(a.Meta, "x_reviewer") == nil || bugfolder.Lookup(a.Meta, "relationships") == nil {
		t.Error("unknown front-matter fields must be kept")
	}
	if !strings.Contains(a.AgentNotes(), "assinatura pública") {
		t.Errorf("Agent Notes = %q", a.AgentNotes())
	}
	if !got["BUG-20260720-R5T6"].Restricted() || !got["BUG-20260610-K4M1"].Locked() || a.Locked() {
		t.Error("restricted / locked flags wrong")
	}
}

func TestResolve(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "sample")
	bugDir := filepath.Join(proj, "_reversa_bugs", "checkout", "bugs", "BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
	for _, arg := range []string{
		"BUG-20260715-A7K3", "bug-20260715-a7k3", "7", "#7", "BUG-007",
		"BUG-20260715-A7K3-desconto-aplicado-duas-vezes",
		bugDir, filepath.Join(bugDir, "bug.md"), filepath.Join(bugDir, "evidence", ".."),
	} {
		_, b, err := bugfolder.Resolve(proj, arg)
		if err != nil {
			t.Errorf("%s: %v", arg, err)
			continue
		}
		if b.ID != "BUG-20260715-A7K3" {
			t.Errorf("%s → %s", arg, b.ID)
		}
	}
	// a relative path from a working folder deep inside the project
	_, b, err := bugfolder.Resolve(filepath.Join(proj, "src"), "../_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado")
	if err != nil || b.ID != "BUG-20260702-Q2R8" {
		t.Errorf("relative path: %v %v", b, err)
	}
	for _, arg := range []string{"BUG-20991231-NOPE", "42", "", proj, filepath.Join(proj, "src")} {
		if _, _, err := bugfolder.Resolve(proj, arg); !bugfolder.IsInputError(err) {
			t.Errorf("%q: err = %v, want an input error", arg, err)
		}
	}
}

func TestLegacyRegister(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "legacy")
	reg, b, err := bugfolder.Resolve(proj, "1")
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != "BUG-20250101-LGC1" || b.Context != "" {
		t.Errorf("bug %s context %q", b.ID, b.Context)
	}
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[bugfolder.PartKind][]string{}
	for _, part := range p.Parts {
		kinds[part.Kind] = append(kinds[part.Kind], part.Path)
	}
	if len(kinds[bugfolder.PartCapsule]) != 1 || !strings.HasSuffix(kinds[bugfolder.PartCapsule][0], "reproducao/passos.md") {
		t.Errorf("capsule from reproducao/: %v", kinds[bugfolder.PartCapsule])
	}
	if len(kinds[bugfolder.PartEvidence]) != 1 || !strings.HasSuffix(kinds[bugfolder.PartEvidence][0], "evidencias/saida.txt") {
		t.Errorf("evidence from evidencias/: %v", kinds[bugfolder.PartEvidence])
	}
	if len(kinds[bugfolder.PartSpec]) != 1 || !strings.HasSuffix(kinds[bugfolder.PartSpec][0], "spec.md") {
		t.Errorf("spec.md beside bug.md: %v", kinds[bugfolder.PartSpec])
	}
	if reg.Lang != bugfolder.PT {
		t.Error("no state.json: Portuguese")
	}
}

func TestBrokenBugFiles(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(bugDir string)
		wantMsg string
	}{
		{"malformed front matter", func(d string) {
			os.WriteFile(filepath.Join(d, "bug.md"), []byte("---\nid: X\ntitle: [oops\n---\n"), 0o644)
		}, "not valid YAML"},
		{"unclosed front matter", func(d string) { os.WriteFile(filepath.Join(d, "bug.md"), []byte("---\nid: X\n"), 0o644) }, "never closed"},
		{"bug.md is a folder", func(d string) { os.Remove(filepath.Join(d, "bug.md")); os.Mkdir(filepath.Join(d, "bug.md"), 0o755) }, "cannot be read"},
		{"id escaping the register", func(d string) { os.WriteFile(filepath.Join(d, "bug.md"), []byte("---\nid: ../../etc\n---\n"), 0o644) }, "id:"},
		{"duplicate key", func(d string) {
			os.WriteFile(filepath.Join(d, "bug.md"), []byte("---\nid: BUG-1\nvisibility: restricted\ntitle: x\nvisibility: normal\n---\n"), 0o644)
		}, "visibility: is set twice (again on line 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, "sample")
			dir := filepath.Join(proj, "_reversa_bugs", "checkout", "bugs", "BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
			tt.mutate(dir)
			_, _, err := bugfolder.Resolve(proj, dir)
			if !bugfolder.IsInputError(err) {
				t.Fatalf("err = %v, want an input error", err)
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, "bug.md")) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q must name the file and say %q", err, tt.wantMsg)
			}
			// discovery reports it and still lists the others
			reg, _ := bugfolder.FindRoot(proj)
			bugs, errs := bugfolder.Discover(reg)
			if len(errs) != 1 || len(bugs) != 5 {
				t.Errorf("discover: %d bugs, errors %v", len(bugs), errs)
			}
		})
	}
}
