package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

const attackSpec = `# Spec

<a id="legacy-anchor"></a>
## Legacy

LEGACY-TEXT

## Attr {#attr-id .important}

ATTR-TEXT

## Kramdown
{: #kd-id}

KD-TEXT

Limits
------

LIMITS-TEXT

## Requirements

| ID | Req |
|---|---|
| RF-06 | ROW-06 |
| RF-07 | ROW-07 |
`

// Locator forms that once landed nowhere, with no note, or twice.
func TestSpecLocatorFormsTheTesterFound(t *testing.T) {
	tests := []struct {
		name, specs string
		in          []string
		notes       []string
	}{
		{"mapping entry", "  - path: reversa/sdd/req.md\n    section: limits\n", []string{"LIMITS-TEXT"}, nil},
		{"setext heading", "  - reversa/sdd/req.md#limits\n", []string{"LIMITS-TEXT"}, nil},
		{"html anchor", "  - reversa/sdd/req.md#legacy-anchor\n", []string{"LEGACY-TEXT"}, nil},
		{"pandoc attributes", "  - reversa/sdd/req.md#attr-id\n", []string{"ATTR-TEXT"}, nil},
		{"kramdown attributes", "  - reversa/sdd/req.md#kd-id\n", []string{"KD-TEXT"}, nil},
		{"github column range", "  - reversa/sdd/req.md#L3C1-L6C4\n", []string{"## Legacy", "LEGACY-TEXT"}, nil},
		{"trailing colon", "  - \"reversa/sdd/req.md#RF-06:\"\n", []string{"ROW-06"}, nil},
		{"comma list", "  - reversa/sdd/req.md#RF-06,RF-07\n", []string{"ROW-06", "ROW-07"}, nil},
		{"two anchors", "  - \"reversa/sdd/req.md#RF-06 #RF-07\"\n", []string{"ROW-06", "ROW-07"}, nil},
		{"windows separators", "  - 'reversa\\sdd\\req.md#RF-06'\n", []string{"ROW-06"}, nil},
		{"percent-encoded name", "  - reversa/sdd/My%20Spec.md\n", []string{"MY-SPEC"}, nil},
		{"pre-1.2.58 prefix", "  - _reversa_sdd/req.md#RF-06\n", []string{"ROW-06"}, nil},
		{"absolute path in the project", "  - PROJECT/reversa/sdd/req.md#RF-07\n", []string{"ROW-07"}, nil},
		{"code span", "  - \"`reversa/sdd/req.md#RF-07`\"\n", []string{"ROW-07"}, nil},
		{"a folder", "  - reversa/sdd\n", nil, []string{"is a folder, not a spec file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := t.TempDir()
			write := func(rel, body string) {
				p := filepath.Join(proj, filepath.FromSlash(rel))
				os.MkdirAll(filepath.Dir(p), 0o700)
				os.WriteFile(p, []byte(body), 0o600)
			}
			write(".reversa/state.json", `{"doc_language":"en","bugs_folder":"reversa/bugs","output_folder":"reversa/sdd"}`)
			write("reversa/sdd/req.md", attackSpec)
			write("reversa/sdd/My Spec.md", "# Mine\n\nMY-SPEC\n")
			dir := filepath.Join(proj, "reversa", "bugs", "app", "bugs", "BUG-20260801-K9P2-x")
			write("reversa/bugs/app/bugs/BUG-20260801-K9P2-x/bug.md", "---\nid: BUG-20260801-K9P2\ntitle: t\ntraceability:\n  specs:\n"+strings.ReplaceAll(tt.specs, "PROJECT", proj)+"---\n# t\n")
			reg, err := bugfolder.FindRoot(proj)
			if err != nil {
				t.Fatal(err)
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
			for _, s := range tt.in {
				if n := strings.Count(p.Text, s); n > 1 {
					t.Errorf("%q is in P %d times", s, n)
				}
			}
			if len(tt.notes) == 0 && strings.Contains(p.Text, "was not found") {
				t.Errorf("a locator was not found:\n%s", p.Text)
			}
		})
	}
}

// A locator written twice lands once.
func TestDuplicateLocatorsLandOnce(t *testing.T) {
	reg, dir := writeBug(t, "id: BUG-20260801-K9P2\ntitle: t\ntraceability:\n  specs: [req.md#RF-06, req.md#RF-06]\n")
	os.MkdirAll(filepath.Join(reg.Project, reg.OutputFolder), 0o700)
	os.WriteFile(filepath.Join(reg.Project, reg.OutputFolder, "req.md"), []byte(attackSpec), 0o600)
	b, _ := bugfolder.ParseBug(reg, dir, "app")
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(p.Text, "ROW-06"); n != 1 {
		t.Errorf("RF-06 is in P %d times", n)
	}
}
