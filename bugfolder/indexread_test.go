package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// TestIndexReadsWhatTheFullReaderDoes: the index reads each file once
// (the language from problema.md's head it reads anyway, the final
// answer's cost from the read that found its winner), and says what the
// full reads say: the debate's language, and "+unknown" when a call or
// the final answer recorded no cost.
func TestIndexReadsWhatTheFullReaderDoes(t *testing.T) {
	tests := []struct {
		name     string
		file     string // beneath the debate folder
		old, new string
		lang     bugfolder.Lang
		unpriced bool
	}{
		{"as moot writes it", "", "", "", bugfolder.PT, false},
		{"language in problema.md", "problema.md", "mode: diagnosis\n", "mode: diagnosis\nlanguage: en\n", bugfolder.EN, false},
		{"language quoted", "problema.md", "mode: diagnosis\n", "mode: diagnosis\nlanguage: \"en\"\n", bugfolder.EN, false},
		{"language portuguese", "problema.md", "mode: diagnosis\n", "mode: diagnosis\nlanguage: pt-BR\n", bugfolder.PT, false},
		{"final answer without its cost", "resposta-final.md", "cost_usd: ", "price: ", bugfolder.PT, true},
		{"a call without its cost", "rodada-1/agente-2.md", "cost_usd: ", "price: ", bugfolder.PT, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := t.TempDir()
			if err := testutil.GenerateRegister(proj, 1); err != nil {
				t.Fatal(err)
			}
			reg, err := bugfolder.FindRoot(proj)
			if err != nil {
				t.Fatal(err)
			}
			dirs, errs := bugfolder.BugDirs(reg)
			if len(dirs) != 1 || len(errs) != 0 {
				t.Fatalf("dirs %v, errors %v", dirs, errs)
			}
			deb := filepath.Join(dirs[0].Dir, bugfolder.DebateDir)
			if tt.file != "" {
				p := filepath.Join(deb, tt.file)
				raw, err := os.ReadFile(p)
				if err != nil || !strings.Contains(string(raw), tt.old) {
					t.Fatalf("%s: %v, %q not there", p, err, tt.old)
				}
				if err := os.WriteFile(p, []byte(strings.Replace(string(raw), tt.old, tt.new, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := bugfolder.IndexBug(reg, dirs[0])
			if err != nil {
				t.Fatal(err)
			}
			if s.Latest == nil || s.Latest.Lang != tt.lang || s.Latest.Lang != bugfolder.DetectLang(deb, reg.Lang) {
				t.Errorf("language %v, want %v (DetectLang: %v)", s.Latest.Lang, tt.lang, bugfolder.DetectLang(deb, reg.Lang))
			}
			if s.CostUnpriced != tt.unpriced || s.CostUSD == 0 {
				t.Errorf("cost $%.4f, unpriced calls %v, want %v", s.CostUSD, s.CostUnpriced, tt.unpriced)
			}
		})
	}
}
