package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestPartlyUnknownCostReadsPlusUnknown: a debate of which one
// call records no cost shows "$X+unknown" in list and show, the same
// figure, never the priced part alone as if it were the whole.
func TestPartlyUnknownCostReadsPlusUnknown(t *testing.T) {
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

// TestListAndShowNameTheWinnerInEnglish: list's WINNER column and
// show's winner row name the proposal in the UI's words ("proposal B"),
// as the browser and the Final tab do; --json keeps the document's label.
func TestListAndShowNameTheWinnerInEnglish(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	_, list, _ := moot(t, proj, "list")
	_, show, _ := moot(t, proj, "show", "BUG-20260702-Q2R8")
	var row string // show's winner row (the documents it quotes keep their words)
	for _, l := range strings.Split(show, "\n") {
		if strings.HasPrefix(l, "| winner") {
			row = l
		}
	}
	for name, out := range map[string]string{"list": list, "show's winner row": row} {
		if strings.Contains(out, "Proposta") || !strings.Contains(out, "proposal B (agente-1)") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}
