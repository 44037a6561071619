package cli

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestTheWizardRefusesTheChangesMootReviewRefuses: a change moot review
// refuses (files outside the project, missing or a folder; a range
// outside git; none given on a bug with no applied fix; a contract
// without its criteria) is refused by the wizard's check of a review as
// typed (nothing planned) for the same reason, in the wizard's words: its
// Change, Contract or Builder field, never the flags --change/--files/
// --contract/--builder it does not have; a file of the project is not.
func TestTheWizardRefusesTheChangesMootReviewRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.py")
	if err := os.WriteFile(outside, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const contract = "intent | criteria"
	for _, tc := range []struct {
		name     string
		contract string
		change   []string // moot review's words for the change, as the wizard passes them
		field    string   // the wizard's field the refusal names
		reason   string   // "" when accepted
		builder  string   // "" for unknown
	}{
		{"files outside the project", contract, []string{"--files", outside}, "Change", "not inside the project root", ""},
		{"a missing file", contract, []string{"--files", "src/checkout/nosuch.py"}, "Change", "no such file in", ""},
		{"a folder", contract, []string{"--files", "src/checkout"}, "Change", "a folder: name the files in it", ""},
		{"a range outside git", contract, []string{"--change", "HEAD~1..HEAD"}, "Change", "needs a git repository", ""},
		{"no change on a bug with no applied fix", contract, []string{"--", "BUG-20260715-A7K3"}, "Change", "has no applied fix to review", ""},
		{"a contract without its criteria", "document Total", []string{"--files", "src/checkout/desconto.py"}, "Contract", `give "intent | pass criteria"`, ""},
		{"a builder no engine, model or family names", contract, []string{"--files", "src/checkout/desconto.py"}, "Builder", "is no engine of the engines file", "nosuch"},
		{"a file of the project", contract, []string{"--files", "src/checkout/desconto.py"}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, "sample")
			builder := cmp.Or(tc.builder, "unknown")
			args := append([]string{"--contract", tc.contract, "--builder", builder}, tc.change...)
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
			if code != 2 || !strings.Contains(stderr, tc.reason) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("not refused for the same reason (%q):\nwizard:      %v\nmoot review: exit %d, %s", tc.reason, err, code, stderr)
			}
			flags := []string{"--change", "--files", "--contract", "--builder"}
			if !slices.ContainsFunc(flags, func(f string) bool { return strings.Contains(stderr, f) }) {
				t.Errorf("moot review's refusal names no flag: %s", stderr)
			}
			if msg := err.Error(); slices.ContainsFunc(flags, func(f string) bool { return strings.Contains(msg, f) }) || !strings.Contains(msg, tc.field) {
				t.Errorf("the wizard's refusal is not in its words (its %s field, no flag): %v", tc.field, err)
			}
		})
	}
}
