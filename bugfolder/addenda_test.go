package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// A revoked latest version dropped the
// bug's addenda, one valid only from a future date was included, another
// bug's addendum on a different row of the same table was included, and
// the label read "addendum in force: — in force for". (The register is
// Portuguese: P speaks it.)
func TestAddendaInForce(t *testing.T) {
	const spec = "# Req\n\n## Export\n\n| ID | Req |\n|---|---|\n| RF-02 | export CSV |\n| RF-06 | every row |\n"
	tests := []struct {
		name    string
		addenda map[string]string
		in, out []string // markers P must hold / must not hold
		notes   []string
	}{
		{"revoked latest falls back", map[string]string{
			"bug-BUG-20260801-K9P2-v001.md": "- Target section: `requirements.md#RF-06`\n- Validity: superseded by v002\n\nV001-TEXT\n",
			"bug-BUG-20260801-K9P2-v002.md": "- Target section: `requirements.md#RF-06`\n- Validity: from 2026-09-10\n\nV002-TEXT\n",
			"bug-BUG-20260801-K9P2-v003.md": "- Target section: `requirements.md#RF-06`\n- Status: revoked on 2026-09-20; v002 stays in force\n\nV003-TEXT\n",
		}, []string{"V002-TEXT"}, []string{"V001-TEXT", "V003-TEXT"}, []string{"bug-BUG-20260801-K9P2-v003.md`: revoked on 2026-09-20"}},
		{"a newer version in force elsewhere supersedes an older one here", map[string]string{
			"bug-20260901-ab12-v001.md": "- Target section: `requirements.md#RF-06`\n\nAB12-V001\n",
			"bug-20260901-ab12-v002.md": "- Target section: `requirements.md#RF-02`\n\nAB12-V002\n",
		}, nil, []string{"AB12-V001", "AB12-V002"}, nil},
		{"future validity excluded", map[string]string{
			"bug-20261020-fut1-v001.md": "- Target section: `requirements.md#RF-06`\n- Validity: from 2099-03-01\n\nFUTURE-TEXT\n",
		}, nil, []string{"FUTURE-TEXT"}, []string{"bug-20261020-fut1-v001.md`: vigente só a partir de 2099-03-01"}},
		{"expired validity excluded", map[string]string{
			"bug-20200101-old1-v001.md": "- Target section: `requirements.md#RF-06`\n- Validity: 2020-01-01 until 2020-06-01\n\nEXPIRED-TEXT\n",
		}, nil, []string{"EXPIRED-TEXT"}, []string{"vigência terminou em 2020-06-01"}},
		{"another row of the same table is another section", map[string]string{
			"bug-20260819-sp01-v001.md": "- Target section: `requirements.md#RF-02`\n- Validity: from 2026-08-19\n\nRF02-TEXT\n",
		}, nil, []string{"RF02-TEXT", "não estarem vigentes"}, nil},
		{"the same row applies, labelled plainly", map[string]string{
			"bug-20260819-sp06-v001.md": "- Target section: `requirements.md#RF-06`\n\nRF06-TEXT\n",
		}, []string{"RF06-TEXT", "(adendo vigente; vigente para _reversa_sdd/requirements.md#RF-06)"}, []string{"adendo vigente:"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, dir := writeBug(t, "id: BUG-20260801-K9P2\ntitle: t\ntraceability:\n  specs: [requirements.md#RF-06]\n")
			sdd := filepath.Join(reg.Project, reg.OutputFolder)
			os.MkdirAll(filepath.Join(sdd, "addenda"), 0o700)
			os.WriteFile(filepath.Join(sdd, "requirements.md"), []byte(spec), 0o600)
			for name, body := range tt.addenda {
				os.WriteFile(filepath.Join(sdd, "addenda", name), []byte("# Addendum\n\n"+body), 0o600)
			}
			b, err := bugfolder.ParseBug(reg, dir, "app")
			if err != nil {
				t.Fatal(err)
			}
			p, err := bugfolder.AssembleP(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range append(tt.in, tt.notes...) {
				if !strings.Contains(p.Text, s) {
					t.Errorf("P lacks %q:\n%s", s, p.Text)
				}
			}
			for _, s := range tt.out {
				if strings.Contains(p.Text, s) {
					t.Errorf("P holds %q", s)
				}
			}
		})
	}
}
