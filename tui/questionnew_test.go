package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/argue"
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

// TestLeftCostScreenGivesBackTheQuestionsFolder: a question set up from
// the browser reserves its folder when the wizard ends (its cost screen
// opens); leaving that cost screen unstarted — back to the wizard, or
// out of the setup to the list — gives the empty folder back, so the list shows
// no empty question and asking again takes the same folder, not a "-2".
func TestLeftCostScreenGivesBackTheQuestionsFolder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var asked, reviewed [][]string
	opts := fiveProtocolOptions(f, t, &asked, &reviewed)
	dir := filepath.Join(f.proj, bugfolder.QuestionsDir, "20261203-should-refunds-be-retried-forever")
	reserved := 0
	opts.Ask = func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error) {
		if !reserve {
			return nil, engine.Setup{}, nil
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return nil, engine.Setup{}, err
		}
		if err := os.Mkdir(dir, 0o700); err != nil { // taken: as ReserveQuestionDir, the caller would get a "-2"
			return nil, engine.Setup{}, err
		}
		reserved++
		b := bugfolder.QuestionBug(f.proj, dir, nil)
		return b, engine.Setup{Bug: b, Protocol: argue.Protocol{}, N: 2, R: 2, Solvers: []string{"scripted", "scripted"}, Judge: "scripted"}, nil
	}
	m := browserWith(t, opts, 80, 24)
	toCost := func(m Model, ks ...string) Model {
		m = keys(t, m, ks...)
		if drawnScreen(m) != "cost" {
			t.Fatalf("the wizard's end opened no cost screen:\n%s", screenText(m, f.proj))
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("the question's folder was not reserved: %v", err)
		}
		return m
	}
	m = keys(t, m, "G", "n", "down", "enter") // the list's last row; argue
	m = typeText(t, m, "Should refunds be retried forever?")
	m = toCost(m, "enter", "enter", "enter", "enter", "enter", "enter") // question, personas, R; engine, synthesizer, timeout
	m = keys(t, m, "esc")                                               // back to the wizard, on its last field
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("back to the wizard, the reserved folder stays: %v", err)
	}
	m = toCost(m, "enter") // the same folder again
	m = keys(t, m, "q")    // out of the setup, as Cancel
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cancelled, the reserved folder stays: %v", err)
	}
	if reserved != 2 || drawnScreen(m) != "browser" {
		t.Errorf("reserved %d times (want 2), on the %s:\n%s", reserved, drawnScreen(m), screenText(m, f.proj))
	}
}
