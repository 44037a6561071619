package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// Hand-run setups are read in full, and misnamed files are not ignored
// silently.
func TestHandRunSetupsReadInFull(t *testing.T) {
	tests := []struct {
		name, problem string
		files         []string
		judge         string
		n             int
		solvers       string
	}{
		{"solvers as a front matter list", "---\nmode: diagnosis\nsolvers: [codex, claude, gemini]\n---\n", []string{"agente-1.md"}, "", 3, "agente-1 codex, agente-2 claude, agente-3 gemini"},
		{"solvers as a bullet list", "- mode: diagnosis\n- solvers: [codex, claude]\n", []string{"agente-1.md"}, "", 2, "agente-1 codex, agente-2 claude"},
		{"bold bullet judge", "- **Mode:** diagnosis\n- **Judge:** opus\n", []string{"agente-1.md", "agente-2.md"}, "opus", 2, ""},
		{"mode in a table row", "| Setting | Value |\n|---|---|\n| Mode | diagnosis |\n", []string{"agente-1.md", "agente-2.md"}, "", 2, ""},
		{"mode in prose", "# Debate\n\nMode: diagnosis\n", []string{"agente-1.md", "agente-2.md"}, "", 2, ""},
		{"capitalised file names", "- mode: diagnosis\n", []string{"Agente-1.md", "AGENTE-2.MD", "agente-3.md"}, "", 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "problema.md"), []byte(tt.problem), 0o600)
			os.MkdirAll(filepath.Join(d, "rodada-0"), 0o700)
			for _, f := range tt.files {
				os.WriteFile(filepath.Join(d, "rodada-0", f), []byte("## Hipóteses\n\nx\n"), 0o600)
			}
			deb, err := bugfolder.ReadDebate(d, bugfolder.PT)
			if err != nil {
				t.Fatal(err)
			}
			p := deb.Problem
			var got []string
			for _, kv := range p.Solvers {
				got = append(got, kv.Key+" "+kv.Value)
			}
			if p.Mode != bugfolder.Diagnosis || p.N != tt.n || p.Judge != tt.judge || strings.Join(got, ", ") != tt.solvers {
				t.Errorf("mode %q N %d judge %q solvers %q", p.Mode, p.N, p.Judge, strings.Join(got, ", "))
			}
			if len(tt.files) == 3 && tt.solvers == "" && (deb.Rounds[0].Solvers != 3 || deb.Rounds[0].File("agente-2") == nil) {
				t.Errorf("round 0 read %d solver files", deb.Rounds[0].Solvers)
			}
		})
	}
}

// P in Portuguese says how each part was located in Portuguese.
func TestPortuguesePLocatedByInPortuguese(t *testing.T) {
	reg, dir := writeBug(t, "id: BUG-20260801-K9P2\ntitle: t\ntraceability:\n  specs: [req.md#RF-06, req.md#L1-L2]\n")
	os.MkdirAll(filepath.Join(reg.Project, reg.OutputFolder), 0o700)
	os.WriteFile(filepath.Join(reg.Project, reg.OutputFolder, "req.md"), []byte(attackSpec), 0o600)
	b, _ := bugfolder.ParseBug(reg, dir, "app")
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"localizada por: ID de requisito — linha de tabela", "localizada por: âncora de linhas — linhas 1–2"} {
		if !strings.Contains(p.Text, s) {
			t.Errorf("P lacks %q", s)
		}
	}
	if strings.Contains(p.Text, "table row") {
		t.Error("P mixes languages")
	}
}
