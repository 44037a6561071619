package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestNewOnAQuestionSpellsOutMootAsk: n on a question's row starts no
// wizard (a question's folder holds one debate); the footer says how to
// debate it again — the moot ask command, its protocols and the question —
// at 80 and 140 columns.
func TestNewOnAQuestionSpellsOutMootAsk(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			addQuestions(t, f.proj)
			m := loadBrowser(t, f, sz[0], sz[1])
			m = keys(t, m, "/", "s", "h", "a", "r", "d", "enter", "n")
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"moot ask --protocol argue|council|tradeoff"})
			if drawnScreen(m) != "browser" {
				t.Fatalf("n on a question left the browser:\n%s", text)
			}
			if sz[0] >= 140 && !strings.Contains(text, "'Should we shard the orders table?'") {
				t.Errorf("the footer does not name the question:\n%s", text)
			}
		})
	}
}
