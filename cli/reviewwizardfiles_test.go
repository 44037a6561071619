package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestTheWizardRefusesTheFilesMootReviewRefuses: files given as the
// change that are outside the project, missing or a folder are refused by
// the wizard's check of a review as typed (nothing planned) with the words
// moot review refuses them with; a file of the project is not.
func TestTheWizardRefusesTheFilesMootReviewRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.py")
	if err := os.WriteFile(outside, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		refused    bool
	}{
		{"outside the project", outside, true},
		{"missing", "src/checkout/nosuch.py", true},
		{"a folder", "src/checkout", true},
		{"a file of the project", "src/checkout/desconto.py", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, "sample")
			code, _, stderr := moot(t, proj, "review", "--files", tc.file, "--contract", "intent | criteria", "--builder", "unknown", "--headless", "--yes")
			e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, cwd: proj, getenv: func(k string) string {
				if k == "HOME" || k == "XDG_CONFIG_HOME" {
					return proj
				}
				return os.Getenv(k)
			}}
			_, err := reviewForWizard(e)([]string{"--files", tc.file, "--contract", "intent | criteria", "--builder", "unknown"}, true)
			if !tc.refused {
				if err != nil || code != 0 {
					t.Errorf("a file of the project: wizard %v; moot review exit %d: %s", err, code, stderr)
				}
				return
			}
			if err == nil {
				t.Fatalf("the wizard accepts --files %s, which moot review refuses (exit %d): %s", tc.file, code, stderr)
			}
			if code != 2 || !strings.Contains(stderr, "moot: "+err.Error()) {
				t.Errorf("not the same refusal:\nwizard:      %v\nmoot review: exit %d, %s", err, code, stderr)
			}
		})
	}
}
