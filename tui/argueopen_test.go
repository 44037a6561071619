package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/tradeoff"
)

// known are every protocol moot runs, as cli hands them to the UI.
var known = []engine.Protocol{debate.Protocol{}, argue.Protocol{}, council.Protocol{}, tradeoff.Protocol{}}

// questionFixture copies testdata/questions (two argue questions moot ask
// wrote with the fake engine: one stopped by convergence after round 2 of
// a cap of 5, one cancelled at the scorer's failure menu of round 1) and
// returns the options a UI started by cli gets (the wizard's protocols,
// every known one) and the question's bug.
func questionFixture(t *testing.T, slug string) (Options, *bugfolder.Bug) {
	t.Helper()
	f := newFixture(t)
	proj := testutil.CopyTree(t, "../tui/testdata/questions")
	dir := filepath.Join(proj, ".moot", "debates", slug)
	bug := bugfolder.QuestionBug(proj, dir, nil)
	bug.Register = &bugfolder.Register{Root: proj, Project: proj, Lang: bugfolder.EN}
	opts := f.options()
	opts.Protocols, opts.Known = []engine.Protocol{debate.Protocol{}, council.Protocol{}, tradeoff.Protocol{}}, known
	return opts, bug
}

// openQuestion opens the question's debate as the browser does.
func openQuestion(t *testing.T, opts Options, bug *bugfolder.Bug, w, h int) Model {
	t.Helper()
	m := sized(t, opts, w, h)
	msg := loadDebateCmd(bug)().(debateLoadedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	return pump(t, m.openDebate(msg), nil)
}

// TestBrowserResumesWithTheDebatesProtocol: r on an interrupted argue
// question (in the list or inside it) resumes with argue, the protocol its
// problema.md names, not the UI's default (debate); so for every protocol
// moot runs.
func TestBrowserResumesWithTheDebatesProtocol(t *testing.T) {
	opts, bug := questionFixture(t, "20261201-which-cache-policy-wins")
	m := openQuestion(t, opts, bug, 120, 40)
	if got := m.engineOptions(newBridge(), "moot resume").Protocol.Name(); got != argue.Name {
		t.Errorf("the resume runs %s, want argue", got)
	}
	for _, p := range known {
		m.deb.protocol = p.Name()
		if got := m.engineOptions(newBridge(), "moot resume").Protocol.Name(); got != p.Name() {
			t.Errorf("a %s debate resumes with %s", p.Name(), got)
		}
	}
}

// TestBrowserOpensAFinishedArgue: a finished argue opened from the
// browser speaks argue's words on its Final tab (a synthesis and no
// winner, personas, no debate chart), as the live view does, and shows
// only the rounds that ran: it stopped by convergence at round 2 of a cap
// of 5, so there is no Round 3–5 tab of waiting panes.
func TestBrowserOpensAFinishedArgue(t *testing.T) {
	opts, bug := questionFixture(t, "20261201-should-we-cache-coupon-lookups")
	m := openQuestion(t, opts, bug, 100, 30)
	if m.tab != m.finalTab() {
		t.Fatalf("opened on tab %d, want the Final tab %d", m.tab, m.finalTab())
	}
	final := ansi.Strip(m.View().Content)
	for _, want := range []string{"Synthesis by the synthesizer: no winner", "2 of 2 personas took part", "stopped at round 2 (convergence): rounds 0 to 2 ran, of a cap of 5",
		"Problem  Round 0  Round 1  Round 2  Convergence  Final", "r2■/5"} {
		if !strings.Contains(final, want) {
			t.Errorf("the Final tab lacks %q:\n%s", want, final)
		}
	}
	for _, bad := range []string{"Winner", "decided by judge", "solvers", "convergence: no round finished yet", "Round 3"} {
		if strings.Contains(final, bad) {
			t.Errorf("the Final tab says %q:\n%s", bad, final)
		}
	}
	for tab := 1; tab < m.convTab(); tab++ {
		m.tab = tab
		if v := ansi.Strip(m.View().Content); strings.Contains(v, "waiting") {
			t.Errorf("Round %d shows waiting panes:\n%s", tab-1, v)
		}
	}
	m = keys(t, m, "5") // no round 5 ran: the key does nothing
	if m.tab != 3 {
		t.Errorf("5 moved to tab %d", m.tab)
	}
}
