package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestTUIWizardStartsAReviewOfAChange: at 80×24, `moot run BUG` on a
// terminal offers review beside the debates; choosing it asks
// the change, the contract, the builder and the lenses as moot review
// takes them (a contract without its criteria is refused as it is typed,
// in the command's words); the review's cost screen follows, then its
// live view to the end of the round, one pane per lens.
func TestTUIWizardStartsAReviewOfAChange(t *testing.T) {
	t.Parallel()
	// 140×45: TestTUIBrowserNewStartsEveryProtocol walks the same pages
	for _, sz := range []struct{ w, h int }{{80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
			bug := tr.withRegister("BUG-20260702-Q2R8-frete-arredondado")
			m := tribunalTmux(t, tr, sz.w, sz.h, "run", "BUG-20260702-Q2R8", "--solver", "loc", "--config", tr.cfg)
			m.wait("the protocol list", "review — of a change", "argue — on a question")
			m.send("Down", "Down", "Down", "Down", "Enter")
			m.wait("the review's page", "Change", "Contract", "Builder", "Lenses")
			m.send("-l", "HEAD~1..HEAD")
			m.send("Enter")
			m.wait("the contract in focus", "┃ Contract")
			m.send("-l", "document Total")
			m.send("Enter")
			m.wait("a contract without criteria refused as the command refuses it", "pass criteria")
			m.send("-l", " | Total has a doc comment")
			m.send("Enter")
			m.wait("the builder in focus", "┃ Builder")
			m.send("-l", "mistral")
			m.send("Enter")
			m.wait("the lenses in focus", "┃ Lenses")
			m.send("-l", "defect security")
			m.send("Enter")
			m.wait("the review's cost screen", "Cost of the review", "defect: ext-anth", "▸ Start ◂")
			m.send("Enter")
			m.wait("the live view, ended", "defect · pass", "security · pass", "←/h left")
			rs, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "review.json"))
			if len(rs) != 1 {
				t.Fatalf("the bug's reviews: %v", rs)
			}
		})
	}
}
