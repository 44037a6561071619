package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const q2r8Debate = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"

// editFile rewrites a file of the fixture's project; the edit must change it.
func editFile(t *testing.T, path string, fn func(string) string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := fn(string(raw))
	if out == string(raw) {
		t.Fatalf("%s: nothing changed", path)
	}
	if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mixedCost makes the sample's BUG-20260702-Q2R8 a debate that mixed a
// priced and an unpriced engine: its final answer records the priced
// total ($0.04), one solver's call records no cost.
func mixedCost(t *testing.T, f *fixture) {
	t.Helper()
	dir := filepath.Join(f.proj, q2r8Debate)
	editFile(t, filepath.Join(dir, "resposta-final.md"), func(s string) string {
		return strings.Replace(s, "cost_usd: 0.0\n", "cost_usd: 0.01\ntotal_tokens: 30000\ntotal_cost_usd: 0.04\n", 1)
	})
	editFile(t, filepath.Join(dir, "rodada-0", "agente-1.md"), func(s string) string {
		return regexp.MustCompile(`(?m)^cost_usd:.*\n`).ReplaceAllString(s, "")
	})
}

// TestIssue13_4CostColumnIsNeverCut: at the sizes people use, the
// browser's COST column shows a partly unknown cost whole
// ("$0.04+unknown"), never cut to "$0.04…" nor without its unknown part.
func TestIssue13_4CostColumnIsNeverCut(t *testing.T) {
	f := newFixture(t)
	mixedCost(t, f)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := loadBrowser(t, f, size[0], size[1])
			text := checkFrame(t, m, size[0], size[1], f.proj, []string{"COST"})
			var row string
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "BUG-20260702-Q2R8") {
					row = l
				}
			}
			if !strings.Contains(row, " $0.04+unknown ") {
				t.Errorf("row %q: want its cost whole, $0.04+unknown\n%s", row, text)
			}
		})
	}
}
