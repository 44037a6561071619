package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

const q2r8 = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"

// TestListKeepsUnknownBesideAFinalTotal: a finished debate whose
// final answer records a total (the priced calls) but one of whose calls
// has no price reads "$X+unknown" in list, as in show — the index's fast
// path took the total alone and dropped the unknown part.
func TestListKeepsUnknownBesideAFinalTotal(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	edit := func(rel string, fn func(string) string) {
		t.Helper()
		p := filepath.Join(proj, q2r8, rel)
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := fn(string(raw))
		if out == string(raw) {
			t.Fatalf("%s: nothing changed", rel)
		}
		if err := os.WriteFile(p, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// the final answer records the priced calls' total, as moot writes it
	edit("resposta-final.md", func(s string) string {
		return strings.Replace(s, "cost_usd: 0.0\n", "cost_usd: 0.01\ntotal_tokens: 30000\ntotal_cost_usd: 0.04\n", 1)
	})
	// one solver's engine has no price: its call records no cost
	edit("rodada-0/agente-1.md", func(s string) string {
		return regexp.MustCompile(`(?m)^cost_usd:.*\n`).ReplaceAllString(s, "")
	})
	_, list, _ := moot(t, proj, "list")
	var row string
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, "BUG-20260702-Q2R8") {
			row = l
		}
	}
	if !strings.Contains(row, "$0.04+unknown") {
		t.Errorf("list row %q: want $0.04+unknown\n%s", row, list)
	}
	_, show, _ := moot(t, proj, "show", "BUG-20260702-Q2R8")
	if !strings.Contains(show, "+unknown") {
		t.Errorf("show must agree:\n%s", show)
	}
}

// TestPlanOfUnpricedEnginesReadsUnknown: a plan whose engines
// have no price totals "unknown", never "≈$0.00 + unknown" (and the
// same words as the TUI's cost screen: money.Estimate).
func TestPlanOfUnpricedEnginesReadsUnknown(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	code, out, errOut := moot(t, proj, "plan", "7", "--mode", "diagnosis")
	if code != 0 {
		t.Fatalf("plan: %d %s", code, errOut)
	}
	var total string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "total") {
			total = l
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(total), " unknown") || strings.Contains(total, "$") {
		t.Errorf("total line %q: want unknown, no dollar figure\n%s", total, out)
	}
}

// TestListWordsStatusAsTheBrowserDoes: moot list words a status with the
// browser's function (bugfolder.StatusWord).
func TestListWordsStatusAsTheBrowserDoes(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	p := filepath.Join(proj, q2r8, "resposta-final.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "---\n", "---\nrecommended_verdict: spec-gap\ndecision: pending\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, list, _ := moot(t, proj, "list")
	for _, want := range []string{"done · decision pending", "done (closed)", "judge-failed"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
}
