package e2e

import (
	"strings"
	"testing"
)

// Finding 4 of the attack on issue 16: a vendor engine's family comes
// from its kind (and model); a family: that says otherwise is exit 2
// naming the engines file, the engine and the field, so a builder can
// never sit by relabelling its own vendor.
func TestReviewVendorFamilyCannotBeOverridden(t *testing.T) {
	cases := []struct{ name, engines, field string }{
		{"claude declared unknown", "engines:\n  cl:\n    kind: claude\n    family: unknown\n", "engines.cl.family"},
		{"claude declared google", "engines:\n  cl2:\n    kind: claude\n    model: claude-opus-4-1\n    family: google\n", "engines.cl2.family"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, c.engines)
			for _, args := range [][]string{{"engines", "--config", tr.cfg}, {"review", "--change", "HEAD~1..HEAD", "--contract", "a | b", "--builder", "anthropic", "--lens", "defect", "--config", tr.cfg, "--yes"}} {
				r := tr.run(args...)
				if r.code != 2 || !strings.Contains(r.stderr, tr.cfg) || !strings.Contains(r.stderr, c.field) || !strings.Contains(r.stderr, "anthropic") {
					t.Errorf("moot %s: exit %d, want 2 naming %s, %s and the family anthropic\n%s%s", args[0], r.code, tr.cfg, c.field, r.stdout, r.stderr)
				}
			}
			if len(tr.calls()) != 0 {
				t.Error("a juror was called")
			}
		})
	}
}
