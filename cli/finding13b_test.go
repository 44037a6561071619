package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestFinding13b_7PartlyUnknownCostReadsPlusUnknown: a debate of which one
// call records no cost shows "$X+unknown" in list and show, the same
// figure, never the priced part alone as if it were the whole.
func TestFinding13b_7PartlyUnknownCostReadsPlusUnknown(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	p := filepath.Join(proj, "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate/rodada-0/agente-1.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	unpriced := regexp.MustCompile(`(?m)^cost_usd:.*\n`).ReplaceAll(raw, nil)
	if string(unpriced) == string(raw) {
		t.Fatal("the sample file records no cost_usd to remove")
	}
	if err := os.WriteFile(p, unpriced, 0o600); err != nil {
		t.Fatal(err)
	}
	money := regexp.MustCompile(`\$[0-9.]+\+unknown`)
	_, list, _ := moot(t, proj, "list")
	var inList string
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, "BUG-20260702-Q2R8") {
			inList = money.FindString(l)
		}
	}
	_, show, _ := moot(t, proj, "show", "BUG-20260702-Q2R8")
	inShow := money.FindString(show)
	if inList == "" || inList != inShow {
		t.Errorf("list %q, show %q: want the same $X+unknown\n%s\n%s", inList, inShow, list, show)
	}
}
