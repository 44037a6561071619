package bugfolder_test

import (
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"go.yaml.in/yaml/v3"
)

// TestCostAccuracyRoundTrip: what the writer puts in cost_accuracy and
// budget_cut is what the reader (and so the browser) gets back.
func TestCostAccuracyRoundTrip(t *testing.T) {
	rows := []bugfolder.CostAccuracy{
		{Engine: "zeta", EstTokens: 5500, ActTokens: 16500, EstTokensIn: 4000, EstTokensOut: 1500, ActTokensIn: 12000, ActTokensOut: 4500, BaseIn: 4000, BaseOut: 1500, EstUSD: 0.01, ActUSD: 0.03},
		{Engine: "alfa", EstTokens: 10, ActTokens: 9, EstTokensIn: 6, EstTokensOut: 4, ActTokensIn: 5, ActTokensOut: 4, BaseIn: 6, BaseOut: 4},
	}
	fm := bugfolder.FinalMeta{BudgetCut: true, CostAccuracy: bugfolder.CostAccuracyNode(rows)}
	fm.Status = bugfolder.StatusOK
	head, err := yaml.Marshal(fm)
	if err != nil {
		t.Fatal(err)
	}
	f, err := bugfolder.ParseFinal(filepath.Join(t.TempDir(), "resposta-final.md"), []byte("---\n"+string(head)+"---\n\n## Vencedora\n\nProposta A\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.BudgetCut || len(f.CostAccuracy) != 2 || f.CostAccuracy[0] != rows[1] || f.CostAccuracy[1] != rows[0] {
		t.Errorf("read back %v %+v", f.BudgetCut, f.CostAccuracy)
	}
}

// FuzzCostAccuracy: a hand-edited cost_accuracy never makes the reader
// panic, and every entry it keeps names its engine.
func FuzzCostAccuracy(f *testing.F) {
	f.Add("cost_accuracy:\n  zeta: {est_tokens: 5500, act_tokens: 16500, base_tokens_in: 4000}\n")
	f.Add("cost_accuracy: [1, 2]\nbudget_cut: true\n")
	f.Add("cost_accuracy:\n  zeta: {est_tokens: lots}\n  \"\": {}\n")
	f.Fuzz(func(t *testing.T, fm string) {
		fin, err := bugfolder.ParseFinal("resposta-final.md", []byte("---\n"+fm+"\n---\n\nx\n"))
		if err != nil {
			return
		}
		for _, c := range fin.CostAccuracy {
			if c.Engine == "" {
				t.Fatalf("an entry without its engine: %+v", c)
			}
		}
	})
}

// TestPartialRun: a debate cut by the budget,
// degraded, or whose engine made other calls than planned is partial; an
// older record without call counts is judged by its flags alone.
func TestPartialRun(t *testing.T) {
	row := func(est, act int) []bugfolder.CostAccuracy {
		return []bugfolder.CostAccuracy{{Engine: "a", EstTokens: 100, EstCalls: est, ActCalls: act}}
	}
	tests := []struct {
		name          string
		cut, degraded bool
		rows          []bugfolder.CostAccuracy
		want          bool
	}{
		{"as planned", false, false, row(11, 11), false},
		{"cut", true, false, row(11, 11), true},
		{"degraded", false, true, row(11, 11), true},
		{"stopped early", false, false, row(11, 5), true},
		{"a judge retried", false, false, row(11, 13), true},
		{"older record", false, false, row(0, 0), false},
	}
	for _, tc := range tests {
		if got := bugfolder.PartialRun(tc.cut, tc.degraded, tc.rows); got != tc.want {
			t.Errorf("%s: PartialRun = %v, want %v", tc.name, got, tc.want)
		}
	}
}
