package tui

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/termsafe"
)

// The browser lists the runs of a protocol that keeps its own folders
// (reviews, engine.RecordKeeper) as rows of their own, read as moot list
// reads them; enter opens the review view: one pane per lens of a round,
// the route table and the summary, followed on disk while another moot
// process runs the review.

// reviewsMsg carries the reviews under the project and the register.
type reviewsMsg struct {
	recs []engine.Record
}

// keeper is the protocol that keeps reviews (Options.Records; nil: none,
// and the browser lists no review).
func (o Options) keeper() engine.RecordKeeper {
	if len(o.Records) == 0 {
		return nil
	}
	return o.Records[0]
}

// listReviewsCmd reads every review's record (a record that cannot be read
// is left out, as moot list reports it).
func listReviewsCmd(k engine.RecordKeeper, reg *bugfolder.Register) tea.Cmd {
	if k == nil || reg == nil {
		return nil
	}
	return func() tea.Msg {
		recs := k.Records(reg.Project, reg)
		for i := range recs {
			if _, err := os.Stat(recs[i].Summary); err != nil {
				recs[i].Summary = "" // not written yet: the preview says so, no read in Update
			}
		}
		return reviewsMsg{recs: recs}
	}
}

// setReviews puts the reviews into the list: a known one is updated, a new
// one joins after the bugs and questions.
func (b *browser) setReviews(m reviewsMsg) {
	for i := range m.recs {
		rec := &m.recs[i]
		at := slices.IndexFunc(b.rows, func(r *browserRow) bool { return r.rev != nil && r.dir.Dir == rec.Dir })
		if at >= 0 {
			b.setRev(b.rows[at], rec)
			continue
		}
		b.addRow(&browserRow{dir: bugfolder.BugDir{Dir: rec.Dir, Context: rec.BugID}, rev: rec})
	}
	b.refilter()
}

// setRev sets a review row's record, keeping the count of rows that wait
// for a human decision (as setSum does for a bug's).
func (b *browser) setRev(r *browserRow, rec *engine.Record) {
	if r.waitsForHuman() {
		b.pending--
	}
	r.rev = rec
	if r.waitsForHuman() {
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
func reviewStatus(st *engine.Record) string { return cmp.Or(st.Said, st.Status) }

// reviewCost is a review row's COST: "—" before any call.
func reviewCost(st *engine.Record) string {
	if !st.Paid {
		return "—"
	}
	if st.CostUnknown && st.CostUSD == 0 {
		return "unknown"
	}
	return money.Total(st.CostUSD, st.CostUnknown)
}

// reviewElapsed is how long a review has run, as a debate's header counts
// it: its sessions in the event log, and while it runs the time since its
// last event up to now; "—" when no event carries a time.
func reviewElapsed(st *engine.Record, now time.Time) string {
	d := st.Elapsed
	if st.Running && st.Clocked && now.After(st.LastEvent) {
		d += now.Sub(st.LastEvent)
	}
	return bugfolder.ElapsedText(d, st.Clocked, humantime.Duration)
}

// reviewLine is a review row's text, in the columns a debate's row
// fills with what they mean for a review (as moot list writes it): no
// MODE, N×R its lenses × rounds, OUTCOME its last round's gate and the
// lenses passed/held/refused there, no HEALTH; and as its TITLE what was
// reviewed, its contract's intent, as a debate's row shows its bug's
// title: the figures stay in their columns (the preview says its calls).
func (r *browserRow) reviewLine(st *Styles, on []bool, widths []int, idHead int) string {
	s := r.rev
	date, outcome := "—", cmp.Or(r.reviewOutcome(), "—")
	if !s.StartedAt.IsZero() {
		date = s.StartedAt.Format("2006-01-02")
	}
	nr := fmt.Sprintf("%d×%d", s.Lenses, s.Rounds)
	status := st.Badge(s.Status) + strings.TrimPrefix(reviewStatus(s), s.Status)
	cells := []string{s.ID, "", r.context(), status, s.Protocol, "—", nr, outcome, reviewCost(s), date, "—"}
	return st.Warning.Render(r.marks()) + joinCells(on, widths, idHead, cells) + " " + termsafe.Line(s.Intent)
}

// outcomeCap is the widest the OUTCOME column grows for a review's
// verdict and lenses ("pass (weakened) P12 H3 R4");
// outcomeTitleRoom is what the title may give up to it.
const outcomeCap, outcomeTitleRoom = 24, 4

// reviewOutcome is a review's OUTCOME cell: its last round's gate and the
// lenses passed, held and refused there ("" for a bug's row, or a review
// with no verdict yet).
func (r *browserRow) reviewOutcome() string {
	if s := r.rev; s != nil && s.Verdict != "" {
		return fmt.Sprintf("%s P%d H%d R%d", s.Verdict, s.Passes, s.Holds, s.Refuses)
	}
	return ""
}

// winnerCol is the index of the WINNER (OUTCOME) column in browserCols.
var winnerCol = slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "WINNER" })

// reviewMarks are a review row's markers: ◆ a stalled review waiting for
// a human decision, ⚑ restricted (else ◇, a review), ● running.
func (r *browserRow) reviewMarks() string {
	m := []rune("    ")
	if r.rev.WaitsDecision {
		m[0] = '◆'
	}
	m[1] = '◇'
	if r.rev.Restricted {
		m[1] = '⚑'
	}
	if r.rev.Running {
		m[2] = '●' // a moot process runs it now, as a debate's row says
	}
	return string(m)
}

// lensPane is one lens of a round in the review view.
type lensPane struct {
	lens, engine, family string
	// status is waiting, called, pass, refuse, hold or UNVERIFIED.
	status   string
	reason   string
	findings []engine.RecordFinding
	// rejected are the rungs that did not sit, with why.
	rejected []string
	// dry marks a pass the protocol judged dry.
	dry bool
	// checked is what the seat named as checked (the zoom lists it).
	checked []string
}

// reviewData is what the review view shows, read from the folder.
type reviewData struct {
	dir    string
	st     *engine.Record
	round  int // the round shown
	rounds int // the last round begun
	panes  []*lensPane
	routes string
	sum    string
	stamp  string
	// calls counts the calls made, those running included.
	calls int
	// sevs are the findings' severities, gravest first.
	sevs []string
}

// reviewLoadedMsg delivers a review read from disk.
type reviewLoadedMsg struct {
	data *reviewData
	err  error
}

// loadReviewCmd reads a review's round (0: the latest).
func loadReviewCmd(k engine.RecordKeeper, dir string, round int) tea.Cmd {
	if k == nil {
		return nil
	}
	return func() tea.Msg { return readReview(k, dir, round) }
}

// loadStartedReviewCmd reads a review just started: its runner writes its
// record a moment after the folder exists (beside the UI), so a record
// not there yet is read again until it is, for up to startedReviewWait.
func loadStartedReviewCmd(k engine.RecordKeeper, dir string) tea.Cmd {
	if k == nil {
		return nil
	}
	return func() tea.Msg {
		end := time.Now().Add(startedReviewWait)
		for {
			msg := readReview(k, dir, 0)
			if !errors.Is(msg.err, fs.ErrNotExist) || time.Now().After(end) {
				return msg
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// startedReviewWait bounds how long a just-started review's record is
// waited for (its runner writes it before its first call).
const startedReviewWait = 15 * time.Second

// checkReviewCmd reads the review again when its folder changed.
func checkReviewCmd(k engine.RecordKeeper, dir string, round int, stamp string) tea.Cmd {
	if k == nil {
		return nil
	}
	return func() tea.Msg {
		if k.Stamp(dir) == stamp {
			return nil
		}
		return readReview(k, dir, round)
	}
}

// readReview reads a review's round through its keeper.
func readReview(k engine.RecordKeeper, dir string, round int) reviewLoadedMsg {
	rr, err := k.ReadRound(dir, round)
	if err != nil {
		return reviewLoadedMsg{err: err}
	}
	d := &reviewData{dir: dir, st: &rr.Record, round: rr.Round, rounds: rr.Rounds, routes: rr.Routes, sum: rr.Sum,
		stamp: rr.Stamp, calls: rr.Calls, sevs: rr.Severities}
	for _, s := range rr.Seats {
		d.panes = append(d.panes, &lensPane{lens: s.Lens, engine: s.Engine, family: s.Family, status: s.Status, reason: s.Reason,
			findings: s.Findings, rejected: s.Rejected, dry: s.Dry, checked: s.Checked})
	}
	return reviewLoadedMsg{data: d}
}

// severities says a pane's findings: their count and the top severities
// ("3 findings: 1 blocker, 2 minor").
func severities(fs []engine.RecordFinding, order []string) string {
	if len(fs) == 0 {
		return "no findings"
	}
	var parts []string
	for _, sev := range order {
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
			return r.rev.Rank
		}
		return statusRank[r.sum.State]
	}
	cost := func(r *browserRow) (float64, bool) {
		if r.rev != nil {
			return r.rev.CostUSD, r.rev.Paid && !r.rev.CostUnknown
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
