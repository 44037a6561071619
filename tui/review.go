package tui

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/review"
)

// The browser lists the reviews (moot review) as rows of their own, read
// by protocol/review as moot list reads them; enter opens the review view:
// one pane per lens of a round, the route table and the summary, followed
// on disk while another moot process runs the review.

// reviewsMsg carries the reviews under the project and the register.
type reviewsMsg struct {
	states []*review.State
	dirs   []string
	// calls is each review's call count (review.Calls).
	calls []int
}

// reviewParents are the folders that hold reviews: the git root's and the
// project's .moot/reviews/, and every bug's review/ (review.Parents).
func reviewParents(reg *bugfolder.Register) []string {
	if reg == nil {
		return nil
	}
	return review.Parents([]string{gitTop(reg.Project), reg.Project}, reg)
}

// gitTop is the nearest folder at or above dir holding .git, or "".
func gitTop(dir string) string {
	for d := dir; d != ""; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return ""
}

// listReviewsCmd reads every review's record (a record that cannot be read
// is left out, as moot list reports it).
func listReviewsCmd(reg *bugfolder.Register) tea.Cmd {
	return func() tea.Msg {
		states, dirs, _ := review.List(reviewParents(reg))
		calls := make([]int, len(states))
		for i, st := range states {
			evs, _ := review.ReadEvents(dirs[i]) // an unreadable log: the record's count
			calls[i] = review.Calls(st, evs)
		}
		return reviewsMsg{states: states, dirs: dirs, calls: calls}
	}
}

// setReviews puts the reviews into the list: a known one is updated, a new
// one joins after the bugs and questions.
func (b *browser) setReviews(m reviewsMsg) {
	for i, st := range m.states {
		at := slices.IndexFunc(b.rows, func(r *browserRow) bool { return r.rev != nil && r.dir.Dir == m.dirs[i] })
		if at >= 0 {
			b.setRev(b.rows[at], st, m.calls[i])
			continue
		}
		b.addRow(&browserRow{dir: bugfolder.BugDir{Dir: m.dirs[i], Context: st.BugID}, rev: st, revCalls: m.calls[i]})
	}
	b.refilter()
}

// setRev sets a review row's record, keeping the count of rows that wait
// for a human decision (as setSum does for a bug's).
func (b *browser) setRev(r *browserRow, st *review.State, calls int) {
	if r.pendingDecision() {
		b.pending--
	}
	r.rev, r.revCalls = st, calls
	if r.pendingDecision() {
		b.pending++
	}
}

// reviews counts the rows that are reviews.
func (b *browser) reviews() int {
	n := 0
	for _, r := range b.rows {
		if r.rev != nil {
			n++
		}
	}
	return n
}

// reviewStatus is a review row's STATUS: its record's status, and the
// decision of one a human decides ("stalled · decision pending").
func reviewStatus(st *review.State) string {
	if (st.Status == review.StatusStalled || st.Status == review.StatusHeld) && st.Decision != "" {
		return st.Status + " · decision " + st.Decision
	}
	return st.Status
}

// reviewCost is a review row's COST: "—" before any call.
func reviewCost(st *review.State) string {
	if st.Calls == 0 {
		return "—"
	}
	if st.CostUnknown && st.CostUSD == 0 {
		return "unknown"
	}
	return money.Total(st.CostUSD, st.CostUnknown)
}

// reviewHeads are the columns' headings while a review's row is
// selected: what a review's cells mean (its verdict, rounds, lenses
// passed/held/refused and calls) where a bug's say mode, N×R, winner and
// health.
var reviewHeads = map[string]string{"MODE": "VERDICT", "N×R": "RNDS", "WINNER": "LENSES P/H/R", "HEALTH": "CALLS"}

// reviewLine is a review row's text: its marks, the columns (VERDICT its
// last round's gate, ROUNDS, LENSES passed/held/refused in that round,
// CALLS), then its lenses and contract's intent.
func (r *browserRow) reviewLine(st *Styles, on []bool, widths []int) string {
	s := r.rev
	rounds, date, verdict, lenses := fmt.Sprint(len(s.Rounds)), "—", "—", "—"
	if !s.StartedAt.IsZero() {
		date = s.StartedAt.Format("2006-01-02")
	}
	if g, ok := review.LastGate(s); ok {
		verdict = string(g.Outcome)
		lenses = fmt.Sprintf("P%d H%d R%d", g.Passes, g.Holds, g.Refuses) // lenses passed, held, refused
	}
	nr := fmt.Sprintf("%d×%d", len(s.Lenses), len(s.Rounds))
	status := st.Badge(s.Status) + strings.TrimPrefix(reviewStatus(s), s.Status)
	cells := []string{s.ID, "", r.context(), status, "review", verdict, rounds, lenses, reviewCost(s), date, fmt.Sprint(r.revCalls)}
	calls := fmt.Sprintf("%d %s · ", r.revCalls, plural(r.revCalls, "call", "calls"))
	if on[healthCol] {
		calls = "" // the CALLS column says it
	}
	if !on[nrCol] { // a narrow list drops the column: the row still says it
		calls = nr + " · " + calls
	}
	return st.Warning.Render(r.marks()) + joinCells(on, widths, cells) + " " + st.Subtle.Render(calls) + termsafe.Line(s.Contract.Intent)
}

// nrCol and healthCol are the indexes of the N×R and HEALTH columns in
// browserCols (a review's lenses × rounds, its CALLS).
var (
	nrCol     = slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "N×R" })
	healthCol = slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "HEALTH" })
)

// reviewMarks are a review row's markers: ◆ a stalled review waiting for
// a human decision, ⚑ restricted (else ◇, a review).
func (r *browserRow) reviewMarks() string {
	m := []rune("   ")
	if review.WaitsForDecision(r.rev) {
		m[0] = '◆'
	}
	m[1] = '◇'
	if r.rev.Restricted {
		m[1] = '⚑'
	}
	return string(m)
}

// lensPane is one lens of a round in the review view.
type lensPane struct {
	lens, engine, family string
	// status is waiting, called, pass, refuse, hold or UNVERIFIED.
	status   string
	reason   string
	findings []review.Finding
	// rejected are the rungs that did not sit, with why.
	rejected []string
	// dry marks a pass the protocol judged dry (review.Verdict.Dry).
	dry bool
}

// reviewData is what the review view shows, read from the folder.
type reviewData struct {
	dir    string
	st     *review.State
	round  int // the round shown
	rounds int // the last round begun
	panes  []*lensPane
	routes string
	sum    string
	stamp  string
	// calls counts the calls made, those running included (review.Calls).
	calls int
}

// reviewLoadedMsg delivers a review read from disk.
type reviewLoadedMsg struct {
	data *reviewData
	err  error
}

// loadReviewCmd reads a review's round (0: the latest).
func loadReviewCmd(dir string, round int) tea.Cmd {
	return func() tea.Msg {
		d, err := readReview(dir, round)
		return reviewLoadedMsg{d, err}
	}
}

// checkReviewCmd reads the review again when its folder changed.
func checkReviewCmd(dir string, round int, stamp string) tea.Cmd {
	return func() tea.Msg {
		if reviewStamp(dir) == stamp {
			return nil
		}
		d, err := readReview(dir, round)
		return reviewLoadedMsg{d, err}
	}
}

// reviewStamp sums up what changes while a review runs: its record, its
// event log, its summary and each round's verdict files.
func reviewStamp(dir string) string {
	var sb strings.Builder
	files := []string{review.StateFile, review.EventsFile, "summary.md", "resumo.md", review.DecisionFile}
	rounds, _ := filepath.Glob(filepath.Join(dir, "round-*"))
	for _, r := range rounds {
		rel, _ := filepath.Rel(dir, r)
		files = append(files, filepath.Join(rel, review.RoutesFile))
		vs, _ := filepath.Glob(filepath.Join(r, review.VerdictsDir, "*.json"))
		for _, v := range vs {
			rel, _ := filepath.Rel(dir, v)
			files = append(files, rel)
		}
	}
	for _, f := range files {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			fmt.Fprintf(&sb, "%s:%d:%d;", f, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return sb.String()
}

// readReview reads a review's record, its events of a round (0: the
// latest begun), the round's verdict files, routes and the summary.
func readReview(dir string, round int) (*reviewData, error) {
	stamp := reviewStamp(dir)
	st, err := review.ReadState(dir)
	if err != nil {
		return nil, err
	}
	st.Status = review.ListedStatus(st, dir) // as its row and moot list say it
	evs, err := review.ReadEvents(dir)
	if err != nil {
		return nil, err
	}
	d := &reviewData{dir: dir, st: st, rounds: len(st.Rounds), stamp: stamp, calls: review.Calls(st, evs)}
	for _, e := range evs {
		d.rounds = max(d.rounds, e.Round)
	}
	d.round = round
	if d.round <= 0 || d.round > d.rounds {
		d.round = d.rounds
	}
	d.panes = lensPanes(dir, st, evs, d.round)
	rd := filepath.Join(dir, review.RoundDir(d.round))
	d.routes = readDoc(filepath.Join(rd, review.RoutesFile))
	d.sum = readDoc(filepath.Join(dir, review.SummaryFile(st.LangOf())))
	return d, nil
}

// readDoc reads a document, "" when it is not written yet.
func readDoc(p string) string {
	b, err := safefs.ReadFile(p, 4<<20)
	if err != nil {
		return ""
	}
	return string(b)
}

// lensPanes builds a round's panes: the record's lenses in order, each
// from its events (rung, call_started, verdict) and, once written, its
// verdict file.
func lensPanes(dir string, st *review.State, evs []engine.Event, round int) []*lensPane {
	var panes []*lensPane
	get := func(lens string) *lensPane {
		for _, p := range panes {
			if p.lens == lens {
				return p
			}
		}
		p := &lensPane{lens: lens, status: "waiting"}
		panes = append(panes, p)
		return p
	}
	for _, l := range st.Lenses {
		get(l.Name)
	}
	for _, e := range evs {
		if e.Round != round || e.SolverID == "" {
			continue
		}
		p := get(e.SolverID)
		switch e.Type {
		case engine.EvRung:
			switch review.Status(e.Choice) {
			case review.StatusSat, review.StatusVerifier, review.StatusNotReached:
			default:
				p.rejected = append(p.rejected, rungWhy(e.Engine, string(e.Choice), e.Reason))
			}
		case engine.EvCallStarted:
			p.engine, p.status = e.Engine, "called"
		case engine.EvVerdict:
			p.engine, p.status, p.reason = e.Engine, string(e.Choice), e.Reason
		}
	}
	for _, p := range panes {
		seatFile(filepath.Join(dir, review.RoundDir(round), review.VerdictsDir, p.lens+".json"), p)
	}
	return panes
}

// rungWhy is one rejected rung's line: "engine: status — reason".
func rungWhy(eng, status, reason string) string {
	s := eng + ": " + status
	if reason != "" {
		s += " — " + reason
	}
	return s
}

// seatFile fills a pane from its lens's verdict file, once written.
func seatFile(p string, pane *lensPane) {
	b, err := safefs.ReadFile(p, 4<<20)
	if err != nil {
		return
	}
	var s review.Seat
	if json.Unmarshal(b, &s) != nil {
		return
	}
	pane.engine, pane.family, pane.status, pane.reason = s.Engine, s.Family, string(s.Outcome), s.Reason
	if s.Unverified {
		pane.status = "UNVERIFIED"
	}
	pane.findings, pane.dry = s.Findings, s.Dry
	pane.rejected = nil
	for _, a := range s.Attempts {
		switch a.Status {
		case review.StatusSat, review.StatusVerifier, review.StatusNotReached:
		default:
			pane.rejected = append(pane.rejected, rungWhy(a.Engine, string(a.Status), a.Reason))
		}
	}
}

// severities says a pane's findings: their count and the top severities
// ("3 findings: 1 blocker, 2 minor").
func severities(fs []review.Finding) string {
	if len(fs) == 0 {
		return "no findings"
	}
	var parts []string
	for _, sev := range []string{review.SevBlocker, review.SevMajor, review.SevMinor, review.SevInfo} {
		n := 0
		for _, f := range fs {
			if f.Severity == sev {
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, sev))
		}
	}
	return fmt.Sprintf("%d %s: %s", len(fs), plural(len(fs), "finding", "findings"), strings.Join(parts, ", "))
}

// reviewRank orders a review's status as statusRank orders a debate's: a
// stalled review waits for a human, a running one runs, a refuse or a hold
// stopped, a pass is settled.
var reviewRank = map[string]int{review.StatusStalled: 0, review.StatusRunning: 2, review.StatusRefused: 3, review.StatusHeld: 3, review.StatusError: 3, review.StatusCancelled: 3, review.StatusInterrupted: 3, review.StatusPassed: 4}

// keyLess orders two rows of which one is a review by the list's sort
// key; a row not read yet goes last, a review has no health.
func (b *browser) keyLess(ri, rj *browserRow) int {
	unread := func(r *browserRow) bool { return r.rev == nil && r.sum == nil }
	if c := cmpBool(unread(ri), unread(rj)); c != 0 || unread(ri) {
		return c
	}
	started := func(r *browserRow) time.Time {
		if r.rev != nil {
			return r.rev.StartedAt
		}
		return r.sum.StartedAt
	}
	rank := func(r *browserRow) int {
		if r.rev != nil {
			return reviewRank[r.rev.Status]
		}
		return statusRank[r.sum.State]
	}
	cost := func(r *browserRow) (float64, bool) {
		if r.rev != nil {
			return r.rev.CostUSD, r.rev.Calls > 0 && !r.rev.CostUnknown
		}
		return r.sum.CostUSD, r.sum.Count > 0 && !r.sum.CostUnknown
	}
	switch b.sortBy {
	case "date":
		return started(rj).Compare(started(ri))
	case "status":
		return cmp.Compare(rank(ri), rank(rj))
	case "cost":
		ci, oki := cost(ri)
		cj, okj := cost(rj)
		return cmp.Or(cmpBool(!oki, !okj), cmp.Compare(cj, ci))
	case "health":
		return cmpBool(ri.rev != nil || ri.sum.Health == 0, rj.rev != nil || rj.sum.Health == 0)
	}
	return 0
}
