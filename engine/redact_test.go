package engine_test

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestNewPlanLeavesTheCallersP: planning redacts a secret value of the
// environment in the P it plans with (and says so), never in the caller's
// P, which a front end may be showing meanwhile; a P with no secret is
// planned with as it is, never copied.
func TestNewPlanLeavesTheCallersP(t *testing.T) {
	const secret = "s3cr3t-plan-value-0123456789"
	t.Setenv("MOOT_PLAN_TEST_TOKEN", secret)
	tests := []struct {
		name   string
		text   string
		redact bool
	}{
		{"a secret in a log", "the log says token=" + secret + "\n", true},
		{"no secret", "the log says nothing secret\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			s := f.setup(2, 0)
			p := &bugfolder.Problem{Text: tc.text, SHA256: "before", Parts: []bugfolder.Part{{Path: "logs/app.log", Text: tc.text}}}
			s.Problem = p
			plan, err := NewPlan(s, f.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if p.Text != tc.text || p.Parts[0].Text != tc.text || p.SHA256 != "before" || len(p.Warnings) != 0 {
				t.Errorf("the caller's P changed: %+v", p)
			}
			got := plan.Setup.Problem
			if !tc.redact {
				if got != p {
					t.Error("a P with no secret was copied")
				}
				return
			}
			if strings.Contains(got.Text, secret) || !strings.Contains(got.Text, harness.Redacted) || strings.Contains(got.Parts[0].Text, secret) || got.SHA256 == "before" {
				t.Errorf("the planned P is not redacted: %+v", got)
			}
			if !strings.Contains(strings.Join(plan.Warnings, "\n"), "logs/app.log hold(s) a secret value") {
				t.Errorf("the plan does not warn of the secret: %q", plan.Warnings)
			}
		})
	}
}
