package tui

import (
	"fmt"
	"os"
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
	// justified: setup, not an assertion: the debate loaded as the browser loads it
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	m.dv = m.dv.open(&m.frame, msg)
	return pump(t, m, nil)
}

// TestBrowserResumesWithTheDebatesProtocol: r on an interrupted argue
// question (in the list or inside it) resumes with argue, the protocol its
// problema.md names, not the UI's default (debate); so for every protocol
// moot runs.
func TestBrowserResumesWithTheDebatesProtocol(t *testing.T) {
	t.Parallel()
	opts, bug := questionFixture(t, "20261201-which-cache-policy-wins")
	m := openQuestion(t, opts, bug, 120, 40)
	// justified: the protocol a resume runs shows only once the run starts; these are the options it starts with
	if got := m.dv.engineOptions(&m.frame, newBridge(), "moot resume").Protocol.Name(); got != argue.Name {
		t.Errorf("the resume runs %s, want argue", got)
	}
	for _, p := range known {
		m.dv.deb.protocol = p.Name()
		// justified: as above, the options the resume starts with
		if got := m.dv.engineOptions(&m.frame, newBridge(), "moot resume").Protocol.Name(); got != p.Name() {
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
	t.Parallel()
	opts, bug := questionFixture(t, "20261201-should-we-cache-coupon-lookups")
	m := openQuestion(t, opts, bug, 100, 30)
	if got := activeTab(m); got != "Final" {
		t.Fatalf("opened on tab %q, want the Final tab", got)
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
	if help := ansi.Strip(keys(t, m, "?").View().Content); !strings.Contains(help, "r2■/3") || !strings.Contains(help, "the rounds ended at round 2") {
		t.Errorf("? does not explain the header's ■:\n%s", help)
	}
	for _, k := range []string{"0", "1", "2"} {
		m = keys(t, m, k)
		if v := ansi.Strip(m.View().Content); activeTab(m) != "Round "+k || strings.Contains(v, "waiting") {
			t.Errorf("Round %s (tab %q) shows waiting panes:\n%s", k, activeTab(m), v)
		}
	}
	m = keys(t, m, "5") // no round 5 ran: the key does nothing
	if got := activeTab(m); got != "Round 2" {
		t.Errorf("5 moved to tab %q", got)
	}
}

// TestArgueCallsAgreeWithShow: the header's calls are moot show's count
// (the folder's) and its denominator one rule: a finished argue opened
// from the browser says the actual (a persona a continue dropped has no
// call of a later round still to come); the unfinished one counts only the
// calls left, never a dropped persona's; a live view that learns of a call
// the log never finished (stopped in flight as the round lost its quorum)
// counts it as show does, and a call a resume logs again is not counted
// twice.
func TestArgueCallsAgreeWithShow(t *testing.T) {
	t.Parallel()
	opts, bug := questionFixture(t, "20261201-should-we-cache-coupon-lookups")
	dir := bug.DebateFolder()
	// skeptic (agente-2) failed round 1 and was left out: its round 2 file
	// is gone and the log records the continue without it
	if err := os.Remove(filepath.Join(dir, "rodada-2", "agente-2.md")); err != nil {
		t.Fatal(err)
	}
	appendEvent(t, dir, `{"by":"human","choice":"continue","dropped":["agente-2"],"point":"quorum","round":1,"time":"2026-12-01T04:53:20.9Z","type":"decision"}`)
	m := openQuestion(t, opts, bug, 160, 30)
	d, err := bugfolder.ReadDebate(dir, bugfolder.EN)
	if err != nil {
		t.Fatal(err)
	}
	show := d.ModelCalls()
	if got := headerFigure(m, "calls"); got != fmt.Sprintf("calls %d/%d", show, show) {
		t.Errorf("a finished argue's header %q, want show's actual calls %d/%d", got, show, show)
	}
	// unfinished: the synthesizer alone is to come
	m.dv.deb.final, m.dv.deb.winner, m.dv.deb.state, m.dv.deb.judge.status = nil, "", "cancelled", ""
	if got := headerFigure(m, "calls"); got != fmt.Sprintf("calls %d/%d", show, show+1) {
		t.Errorf("before the synthesis the header says %q, want %d made of %d made + the synthesizer", got, show, show+1)
	}
	// a resume logs again a call whose event was lost: not a new call
	m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-1", Attempt: 1, Status: "ok", Error: "recovered from the file after an interruption"})
	if got := headerFigure(m, "calls"); !strings.HasPrefix(got, fmt.Sprintf("calls %d/", show)) {
		t.Errorf("a call logged again on resume is counted twice: %q, want %d made", got, show)
	}
	// a call stopped in flight leaves its raw output and no event: show
	// counts it, and so does the view once the quorum is lost
	raw := filepath.Join(dir, "rodada-2", "raw")
	if err := os.MkdirAll(raw, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"agente-1.attempt-1.stdout", "agente-1.attempt-2.stdout", "critic-1.attempt-1.stdout", "agente-3.attempt-1.stdout"} {
		if err := os.WriteFile(filepath.Join(raw, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d, _ = bugfolder.ReadDebate(dir, bugfolder.EN)
	// the folder's count comes with the engine's batch (read off the UI goroutine)
	ch := make(chan any, 1)
	ch <- engine.Event{Type: engine.EvQuorumLost, Round: 2, Valid: 1, Needed: 2}
	m = pump(t, m, waitForEngine(ch, dir)())
	if got := headerFigure(m, "calls"); !strings.HasPrefix(got, fmt.Sprintf("calls %d/", d.ModelCalls())) {
		t.Errorf("at the quorum menu the header says %q, show counts %d", got, d.ModelCalls())
	}

}

// appendEvent appends one line to a debate's event log.
func appendEvent(t *testing.T, dir, line string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "eventos.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}
