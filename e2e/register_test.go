package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestRestrictedFailsClosedThroughTheBinary: a visibility moot cannot read
// as exactly normal or internal keeps the bug listed, warns, and refuses an
// external engine before anything is written.
func TestRestrictedFailsClosedThroughTheBinary(t *testing.T) {
	for _, tc := range []struct{ name, from, to string }{
		{"visibility_list", "visibility: normal", "visibility: [restricted]"},
		{"visibility_mapping", "visibility: normal", "visibility: {level: normal}"},
		{"merge_key", "visibility: normal", "<<: {visibility: restricted}"},
		{"wrong_case_key", "visibility: normal", "Visibility: restricted"},
		{"unknown_value_public", "visibility: normal", "visibility: public"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			f := filepath.Join(p.bugDir(), "bug.md")
			raw, _ := os.ReadFile(f)
			if !strings.Contains(string(raw), tc.from) {
				t.Fatalf("bug.md has no %q", tc.from)
			}
			os.WriteFile(f, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o600)
			fp := testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs"))
			r := p.moot("run", "7", "--mode", "diagnosis", "--solver", "ext", "--yes", "--headless")
			if r.code != 2 || !strings.Contains(r.stderr, "restricted") || !strings.Contains(r.stderr, "ext") {
				t.Errorf("external engine on %s: exit %d, stderr %q", tc.name, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "warning: "+f) {
				t.Errorf("no warning naming %s: %q", f, r.stderr)
			}
			if testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs")) != fp {
				t.Error("a refused run wrote something")
			}
			l := p.moot("list", "--json").mustExit(t, 0)
			if !strings.Contains(l.stdout, `"visibility": "restricted"`) || !strings.Contains(l.stderr, f) {
				t.Errorf("list: the bug must stay listed as restricted, with a warning:\n%s\n%s", l.stdout, l.stderr)
			}
		})
	}
}
