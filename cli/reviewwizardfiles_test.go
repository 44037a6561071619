package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestTheWizardRefusesTheChangesMootReviewRefuses: a change moot review
// refuses (files outside the project, missing or a folder; a range
// outside git; none given on a bug with no applied fix) is refused by the
// wizard's check of a review as typed (nothing planned) for the same
// reason, in the wizard's words: its Change field, never the flags
// --change/--files it does not have; a file of the project is not.
func TestTheWizardRefusesTheChangesMootReviewRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.py")
	if err := os.WriteFile(outside, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change []string // moot review's words for the change, as the wizard passes them
		reason string   // "" when accepted
	}{
		{"files outside the project", []string{"--files", outside}, "not inside the project root"},
		{"a missing file", []string{"--files", "src/checkout/nosuch.py"}, "no such file in"},
		{"a folder", []string{"--files", "src/checkout"}, "a folder: name the files in it"},
		{"a range outside git", []string{"--change", "HEAD~1..HEAD"}, "needs a git repository"},
		{"no change on a bug with no applied fix", []string{"--", "BUG-20260715-A7K3"}, "has no applied fix to review"},
		{"a file of the project", []string{"--files", "src/checkout/desconto.py"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, "sample")
			args := append([]string{"--contract", "intent | criteria", "--builder", "unknown"}, tc.change...)
			code, _, stderr := moot(t, proj, append([]string{"review", "--headless", "--yes"}, args...)...)
			e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, cwd: proj, getenv: func(k string) string {
				if k == "HOME" || k == "XDG_CONFIG_HOME" {
					return proj
				}
				return os.Getenv(k)
			}}
			_, err := reviewForWizard(e)(args, true)
			if tc.reason == "" {
				if err != nil || code != 0 {
					t.Errorf("a file of the project: wizard %v; moot review exit %d: %s", err, code, stderr)
				}
				return
			}
			if err == nil {
				t.Fatalf("the wizard accepts %v, which moot review refuses (exit %d): %s", tc.change, code, stderr)
			}
			t.Logf("wizard: %v\n\t\tmoot review: %s", err, stderr)
			if code != 2 || !strings.Contains(stderr, tc.reason) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("not refused for the same reason (%q):\nwizard:      %v\nmoot review: exit %d, %s", tc.reason, err, code, stderr)
			}
			if !strings.Contains(stderr, "--change") && !strings.Contains(stderr, "--files") {
				t.Errorf("moot review's refusal names no flag: %s", stderr)
			}
			if msg := err.Error(); strings.Contains(msg, "--change") || strings.Contains(msg, "--files") || !strings.Contains(msg, "Change") {
				t.Errorf("the wizard's refusal is not in its words (its Change field, no flag): %v", err)
			}
		})
	}
}
