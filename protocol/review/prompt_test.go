package review

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

// TestEveryJurorsPromptBeginsWithTheSameBlockHoldingTheEnvelope: the
// jurors of a review (each with its own lens) read the same rules and
// envelope first, byte for byte, and their lens after it, named in full.
func TestEveryJurorsPromptBeginsWithTheSameBlockHoldingTheEnvelope(t *testing.T) {
	const env = "## Contract\n\nDedupe the cart.\n\n## src/cart.go\n\nfunc Apply() {}\n"
	var prompts []string
	for _, l := range []bugfolder.Lens{{Name: "correctness", Text: "does it do what it says"}, {Name: "security", Text: "attacks"}, {Name: "tests", Text: "do the tests prove it"}} {
		pr := Prompt(l, env, "N0NCE")
		own := pr[engine.SharedPrefix([]string{pr}):]
		if !strings.Contains(own, `"`+l.Name+`"`) || !strings.Contains(own, l.Text) {
			t.Errorf("the juror's own part does not name its lens %s:\n%s", l.Name, own)
		}
		prompts = append(prompts, pr)
	}
	testutil.RequireSharedPrefix(t, prompts, env, engine.SharedEnd)
}
