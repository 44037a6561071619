package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
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
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"ask it again: moot ask"})
			if drawnScreen(m) != "browser" {
				t.Fatalf("n on a question left the browser:\n%s", text)
			}
			if sz[0] >= 140 && !strings.Contains(text, "'Should we shard the orders table?'") {
				t.Errorf("the footer does not name the question:\n%s", text)
			}
		})
	}
}

// TestNewOnAQuestionAdvisesACommandThatRuns: the moot ask n advises on a
// question carries what the question's protocol requires, so it runs as
// printed: a tradeoff's two options, a council's lenses; an argue (or an
// older question) needs only the question.
func TestNewOnAQuestionAdvisesACommandThatRuns(t *testing.T) {
	t.Parallel()
	q := "Should we retry webhooks?"
	for _, tc := range []struct {
		p    *bugfolder.ProblemFile
		want string
	}{
		{&bugfolder.ProblemFile{Protocol: "tradeoff", Lenses: map[string]bugfolder.Lens{"agente-1": {Name: "A", Text: "Retry forever"}, "agente-2": {Name: "B", Text: "Give up after 3 tries & alert"}}},
			"moot ask --protocol tradeoff --option-a 'Retry forever' --option-b 'Give up after 3 tries & alert' -- 'Should we retry webhooks?'"},
		{&bugfolder.ProblemFile{Protocol: "council", Lenses: map[string]bugfolder.Lens{"agente-2": {Name: "cost"}, "agente-1": {Name: "security"}}},
			"moot ask --protocol council --lens security --lens cost -- 'Should we retry webhooks?'"},
		{&bugfolder.ProblemFile{Protocol: "argue"}, "moot ask -- 'Should we retry webhooks?'"},
		{nil, "moot ask -- 'Should we retry webhooks?'"},
	} {
		if got := questionNewAdvice(q, tc.p); !strings.HasSuffix(got, ": "+tc.want) {
			t.Errorf("advice %q, want it to end with %q", got, tc.want)
		}
	}
}

// TestNewWithNoBugSetsUpAQuestionOrAReview: in a register with no bug, n
// opens the wizard on what needs none — argue on a question of its own
// and the review of a change, no bug's protocol, no restricted note —
// and the question typed goes to moot ask's checks with no bug; on a
// question's row, n sets up a new question, its text prefilled with that
// one's (a question's folder holds one debate).
func TestNewWithNoBugSetsUpAQuestionOrAReview(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			var asked, reviewed [][]string
			opts := fiveProtocolOptions(f, t, &asked, &reviewed)
			ents, err := os.ReadDir(f.reg.Root)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents { // every context, and its bugs, gone
				if e.IsDir() {
					if err := os.RemoveAll(filepath.Join(f.reg.Root, e.Name())); err != nil {
						t.Fatal(err)
					}
				}
			}
			m := browserWith(t, opts, sz[0], sz[1])
			m = keys(t, m, "n")
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"a question of its own", "argue — on a question", "review — of a change"})
			if strings.Contains(text, "debate —") || strings.Contains(text, "restricted") {
				t.Errorf("with no bug, the wizard offers a bug's protocol or says a bug is restricted:\n%s", text)
			}
			const q = "Should refunds be retried forever?"
			m = keys(t, m, "enter") // argue
			m = typeText(t, m, q)
			m = keys(t, m, "enter")
			if len(asked) == 0 {
				t.Fatalf("the question went to no check:\n%s", screenText(m, f.proj))
			}
			last := asked[len(asked)-1]
			if last[len(last)-1] != q || slices.ContainsFunc(last, func(a string) bool { return strings.HasPrefix(a, "BUG-") }) {
				t.Errorf("moot ask's check got %q, want the question and no bug", last)
			}

			g := newFixture(t)
			addQuestions(t, g.proj)
			opts = fiveProtocolOptions(g, t, &asked, &reviewed)
			m = browserWith(t, opts, sz[0], sz[1])
			m = keys(t, m, "/", "s", "h", "a", "r", "d", "enter", "n", "enter")
			checkFrame(t, m, sz[0], sz[1], g.proj, []string{"a question of its own", "┃ > Should we shard the orders table?"})
		})
	}
}
