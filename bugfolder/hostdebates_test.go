package bugfolder_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// publicBug reads one bug of a register kept in testdata/registers, on a
// copy (the tests may archive its debate).
func publicBug(t *testing.T, register, id string) *bugfolder.Bug {
	t.Helper()
	dir := testutil.CopyTree(t, filepath.Join("registers", register))
	_, b, err := bugfolder.Resolve(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func latestDebate(t *testing.T, b *bugfolder.Bug) *bugfolder.Debate {
	t.Helper()
	ds, err := bugfolder.ReadDebates(b)
	if err != nil || len(ds) == 0 {
		t.Fatalf("debates of %s: %v (%d)", b.ID, err, len(ds))
	}
	return ds[len(ds)-1]
}

// TestHostSpecDebateReadAsWritten: a host's spec-mode debate (setup in a
// fenced yaml block, "## Problema P", a frozen rubric with a qualifier,
// date-only times, the winner as the label P-A under "## Vencedora", the
// verdict under "## RECOMENDAÇÃO de veredito", the proposals the judge
// read in juiz/propostas-anonimas.md) is read as the host wrote it.
func TestHostSpecDebateReadAsWritten(t *testing.T) {
	d := latestDebate(t, publicBug(t, "odcs", "BUG-20261004-ODCS"))
	p := d.Problem
	if p == nil || p.Mode != bugfolder.Spec || p.N != 3 || p.R != 2 {
		t.Fatalf("setup read as %+v", p)
	}
	if len(p.Rubric) != 4 || !strings.Contains(p.Rubric[1], "RECOMENDAÇÃO") || !strings.Contains(p.P, "Defeito") {
		t.Errorf("rubric %q, P %q", p.Rubric, p.P)
	}
	f := d.Final
	if f.Winner != "A" || f.Synthesis || f.RecommendedVerdict != "spec-correta" {
		t.Errorf("winner %q (synthesis %v), verdict %q; want A and spec-correta", f.Winner, f.Synthesis, f.RecommendedVerdict)
	}
	if want := time.Date(2026, 10, 4, 0, 0, 0, 0, time.UTC); !d.StartedAt().Equal(want) || !d.StartedDay() {
		t.Errorf("started %v (a date alone: %v), want 2026-10-04, a date alone", d.StartedAt(), d.StartedDay())
	}
	if filepath.Base(d.Anonymised) != "propostas-anonimas.md" || len(d.JudgeAttempts) != 0 {
		t.Errorf("anonymised proposals %q, judge attempts %d", d.Anonymised, len(d.JudgeAttempts))
	}
	if d.State != bugfolder.StateDone {
		t.Errorf("state %s, want done", d.State)
	}
}

// TestHostRepairDebateReadAsWritten: a host's repair debate (setup and
// rubric as a bullet list, solver files with status: success, a judge
// who names a synthesis of the proposals and no single winner, no time
// anywhere) is read as such: every answer is an answer, the outcome is a
// synthesis, and the start is unknown, never invented.
func TestHostRepairDebateReadAsWritten(t *testing.T) {
	d := latestDebate(t, publicBug(t, "whispper", "BUG-20261001-MAC1"))
	if p := d.Problem; p == nil || p.Mode != bugfolder.Repair || len(p.Rubric) != 3 || p.Rubric[0] != "Menor risco de mudança." {
		t.Fatalf("setup read as %+v", p)
	}
	for _, r := range d.Rounds {
		for _, f := range r.Files {
			if f.Status != bugfolder.StatusOK {
				t.Errorf("%s: status %q, want ok (the host wrote success)", f.Path, f.Status)
			}
		}
	}
	if f := d.Final; f.Winner != "" || f.WinnerSolver != "" || !f.Synthesis || len(f.WinnerAmbiguous) != 0 {
		t.Errorf("winner %q/%q, synthesis %v; want a synthesis", f.Winner, f.WinnerSolver, f.Synthesis)
	}
	if !d.StartedAt().IsZero() || !d.ArchiveTime().IsZero() {
		t.Errorf("start %v, archive time %v: nothing records one", d.StartedAt(), d.ArchiveTime())
	}
}

// TestHostDebateArchivedUnderItsOwnDate: archiving a host debate names
// it by its own date (a date alone is its midnight), or debate-undated
// when its files record no time — never the time of the archiving — and
// the archived debate is read back as the bug's older one.
func TestHostDebateArchivedUnderItsOwnDate(t *testing.T) {
	for _, tc := range []struct{ register, id, want string }{
		{"odcs", "BUG-20261004-ODCS", "debate-20261004T000000Z"},
		{"whispper", "BUG-20261001-MAC1", "debate-undated"},
	} {
		b := publicBug(t, tc.register, tc.id)
		os.Remove(filepath.Join(b.Dir, bugfolder.DoneFile)) // reopened, as the engineer would
		d := latestDebate(t, b)
		dst, err := bugfolder.ArchiveDebate(b.Dir, d.ArchiveTime())
		if err != nil || filepath.Base(dst) != tc.want {
			t.Errorf("%s archived as %q (%v), want %s", tc.id, filepath.Base(dst), err, tc.want)
			continue
		}
		ds, err := bugfolder.ReadDebates(b)
		if err != nil || len(ds) != 1 || ds[0].Name != tc.want || ds[0].Final == nil {
			t.Errorf("%s: debates after archiving %v (%v)", tc.id, names(ds), err)
		}
	}
}

func names(ds []*bugfolder.Debate) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// TestRegisterNamedOnlyInSetupJSON: a project whose state.json has no
// bugs_folder and whose .reversa/setup.json names paths.bugs-dir (and
// sdd-dir) is found from any folder of it.
func TestRegisterNamedOnlyInSetupJSON(t *testing.T) {
	dir := testutil.CopyTree(t, filepath.Join("registers", "setupjson"))
	reg, err := bugfolder.FindRoot(filepath.Join(dir, "reversa", "sdd"))
	if err != nil {
		t.Fatal(err)
	}
	if reg.Root != filepath.Join(dir, "reversa", "bugs") || reg.Project != dir || reg.OutputFolder != filepath.Join("reversa", "sdd") {
		t.Errorf("register %s, project %s, specs %s", reg.Root, reg.Project, reg.OutputFolder)
	}
	os.WriteFile(filepath.Join(dir, ".reversa", "setup.json"), []byte(`{"paths": {"bugs-dir": "../elsewhere"}}`), 0o600)
	if _, err := bugfolder.FindRoot(dir); err == nil || !strings.Contains(err.Error(), "setup.json") || !strings.Contains(err.Error(), "paths.bugs-dir") {
		t.Errorf("a bugs-dir outside the project: %v (must name the file and the field)", err)
	}
}

// TestBugFactsBeyondSchemaOne: the fields real bug.md files carry beyond
// schema 1 are shown as an engineer needs them: an express bug says so, a
// mitigated one says mitigated, not fixed, a blocker and a delivery are
// named, list-valued module is listed, public and internal are not
// restricted, and values outside the schema (status: fixed, phase:
// fix-applied) stay visible as written.
func TestBugFactsBeyondSchemaOne(t *testing.T) {
	for _, tc := range []struct {
		register, id string
		restricted   bool
		want         []string
	}{
		{"fields", "BUG-20261005-7H2K", false, []string{"status fixed (not a schema 1 status: moot treats the bug as open)", "phase fix-applied (not a schema 1 phase)", "modules research-orchestrator, audit-stage", "visibility public", "fix: plan"}},
		{"fields", "BUG-20261006-EXP1", false, []string{"express (registered by the short route, handed straight to the fix step)", "blocked: external — aguardando credenciais do fornecedor (since 2026-10-06)", "visibility internal"}},
		{"genealogico", "BUG-20261009-6RKP", false, []string{"phase mitigating", "mitigated, not fixed (data-repair, renomeação dos arquivos afetados, temporary, since 2026-10-09)", "change risk média", "fix: fix/ started, no plan or change yet"}},
		{"git2dart", "BUG-20260817-V9TR", false, []string{"delivery: branch fix/v9tr, pr #12, ci pending", "fix: plan, 3 changes applied"}},
		{"whispper", "BUG-20261001-MAC1", false, []string{"status resolved", "fix: plan, 4 changes applied, closed (DONE.md)"}},
		{"odcs", "BUG-20261004-ODCS", false, []string{"fix: 2 changes applied, closed (DONE.md)"}},
		{"jiu", "BUG-20261009-NLLT", false, []string{"status resolved", "phase delivering", "express (registered by the short route, handed straight to the fix step)", "delivery: branch main, commit 30db8f7", "fix: closed (DONE.md)"}},
	} {
		b, err := publicBug(t, tc.register, tc.id).Full()
		if err != nil {
			t.Fatal(err)
		}
		facts := b.Facts()
		for _, w := range tc.want {
			if !slices.Contains(facts, w) {
				t.Errorf("%s: facts %q lack %q", tc.id, facts, w)
			}
		}
		for _, f := range facts {
			if strings.Contains(f, "fixed") && strings.HasPrefix(f, "mitigated") && !strings.Contains(f, "not fixed") {
				t.Errorf("%s: a mitigation reads as a fix: %q", tc.id, f)
			}
		}
		if b.Restricted() != tc.restricted {
			t.Errorf("%s: restricted %v (visibility %q)", tc.id, b.Restricted(), b.Visibility)
		}
	}
}

// TestPSaysWhichLooseRuleFoundASection: a host's misspelled locator lands
// in P under the rule that found it, in P's language, so a debater (and
// the engineer) can see the match was loose.
func TestPSaysWhichLooseRuleFoundASection(t *testing.T) {
	for _, tc := range []struct{ register, id, want string }{
		{"genealogico", "BUG-20260929-BJJH", "slug do título, com hífens repetidos lidos como um"},
		{"vendas", "BUG-20260909-xg7e", "título com esse número e todas as palavras da âncora"},
		{"aps", "BUG-20260719-RHZ5", "slug do título, sem o número que só um dos dois tem"},
		{"mira", "BUG-20260815-HYRG", "número de linha (nenhum título tem esse número)"},
		{"git2dart", "BUG-20260817-O3B3", "slug do título, com hífens repetidos lidos como um"},
	} {
		b, err := publicBug(t, tc.register, tc.id).Full()
		if err != nil {
			t.Fatal(err)
		}
		p, err := bugfolder.AssembleP(b)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Text, tc.want) || strings.Contains(p.Text, "não foi encontrada") {
			t.Errorf("%s: P lacks %q or has a section not found:\n%s", tc.id, tc.want, p.Text)
		}
	}
}

// TestHostWinnerForms: the winner forms a host judge writes under its
// winner heading — a bare anonymised label, one followed by the grafts it
// took, a synthesis — and the ones that name no single winner.
func TestHostWinnerForms(t *testing.T) {
	for _, tc := range []struct {
		body, winner string
		synthesis    bool
		verdict      string
	}{
		{"## Vencedora\n\nP-A\n", "A", false, ""},
		{"## Vencedora\n\n**P-C** (com enxertos de P-A e P-B)\n", "C", false, ""},
		{"## Winner\n\nP-B\n\n## Recommended verdict\n\nspec-outdated, not spec-gap.\n", "B", false, "spec-outdated"},
		{"## Vencedora\n\nP-A e P-B empatam\n", "", false, ""},
		{"**Vencedora (Síntese da Convergência)**:\n1. x\n", "", true, ""},
		{"## Vencedora\n\nSíntese das três propostas.\n\n## RECOMENDAÇÃO de veredito\n\n`spec-desatualizada`. Não é `spec-gap`.\n", "", true, "spec-desatualizada"},
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != tc.winner || f.Synthesis != tc.synthesis || f.RecommendedVerdict != tc.verdict {
			t.Errorf("%q: winner %q synthesis %v verdict %q; want %q %v %q", tc.body, f.Winner, f.Synthesis, f.RecommendedVerdict, tc.winner, tc.synthesis, tc.verdict)
		}
	}
}

// FuzzSetupJSONRegister: whatever .reversa/setup.json and state.json
// hold, finding the register never panics and never names a folder
// outside the project.
func FuzzSetupJSONRegister(f *testing.F) {
	f.Add(`{"paths": {"bugs-dir": "reversa/bugs", "sdd-dir": "reversa/sdd"}}`, `{"version": "1.3.4"}`)
	f.Add(`{"paths": {"bugs-dir": "../x"}}`, `{}`)
	f.Add(`{"paths": {"bugs-dir": ["a"]}}`, `{"bugs_folder": ""}`)
	f.Add(`{"paths": null}`, `not json`)
	f.Add(`{"paths": {"bugs-dir": "/etc"}}`, `{"output_folder": "reversa/sdd"}`)
	f.Fuzz(func(t *testing.T, setup, state string) {
		proj := t.TempDir()
		for _, d := range []string{".reversa", "reversa/bugs/app/bugs", "reversa/sdd", "sub"} {
			os.MkdirAll(filepath.Join(proj, d), 0o700)
		}
		os.WriteFile(filepath.Join(proj, ".reversa", "setup.json"), []byte(setup), 0o600)
		os.WriteFile(filepath.Join(proj, ".reversa", "state.json"), []byte(state), 0o600)
		reg, err := bugfolder.FindRoot(filepath.Join(proj, "sub"))
		if err != nil {
			return
		}
		if !bugfolder.Within(proj, reg.Root) || strings.HasPrefix(reg.OutputFolder, "..") || filepath.IsAbs(reg.OutputFolder) {
			t.Fatalf("register %s, specs %s: outside the project %s", reg.Root, reg.OutputFolder, proj)
		}
	})
}
