package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/internal/whoami"
)

// decider names the person deciding (Options.whoIs, else whoami.Name).
func (o Options) decider(ctx context.Context, project string) string {
	if o.whoIs != nil {
		return o.whoIs(ctx, project, o.env)
	}
	return whoami.Name(ctx, project, o.env)
}

// decidedMsg says how recording a human decision went.
type decidedMsg struct {
	dir    string
	choice bugfolder.Choice
	by     string
	err    error
}

// awaitsDecision reports whether the debate shown ends with a result that
// waits for a human decision nobody has recorded yet.
func (d *debateView) awaitsDecision() bool {
	if d == nil {
		return false
	}
	if d.decision != "" {
		return d.decision == bugfolder.DecisionPending
	}
	return d.final != nil && strings.EqualFold(strings.TrimSpace(d.final.Decision), bugfolder.DecisionPending)
}

// decisionLine is the final tab's line about the human decision: what
// waits and the key that answers it, or what was decided ("" when the
// result waits for none).
func (s debateState) decisionLine(f *frame) string {
	d := s.deb
	switch {
	case d.awaitsDecision():
		v := ""
		if d.final != nil && d.final.RecommendedVerdict != "" {
			v = " on the recommended verdict " + clipLine(d.final.RecommendedVerdict, 40)
		}
		return f.st.Warning.Render(escalationWords(d.final)+"A human decision is pending"+v+": ") + f.st.Bold.Render("d") + " approve, decline or revise"
	case d.decision != "":
		return "decision: " + f.st.Bold.Render(d.decision) + f.st.Subtle.Render(" (decisao.md)")
	}
	return ""
}

// escalationWords names a council's escalation before the pending
// decision ("" for a result that was not escalated).
func escalationWords(f *bugfolder.Final) string {
	switch {
	case f == nil:
		return ""
	case len(f.EscalationReasons) > 0: // what the council recorded: the stakes, a low convergence…
		to := ""
		if f.Escalation == "human" {
			to = " to a human"
		}
		return "ESCALATED" + to + " (" + strings.Join(f.EscalationReasons, "; ") + "). "
	case f.Escalation == "human":
		return "ESCALATED to a human (synthesis confidence under 50 %). "
	case f.Escalation != "": // written before the reasons were recorded: resposta-final.md names them
		return "ESCALATED (the reasons are in resposta-final.md). "
	}
	return ""
}

// decideMenu is the form that records the human decision: the choice, then
// a note (required to revise). d, a bug's debate shown (nil for a
// review), says which result it decides and whether another waits too.
func decideMenu(bugID string, d *debateView) *menu {
	mn := &menu{kind: menuDecide, choice: string(bugfolder.ChoiceApprove)}
	var opts []huh.Option[string]
	for _, c := range bugfolder.Choices {
		opts = append(opts, huh.NewOption(string(c), string(c)))
	}
	mn.form = newForm(huh.NewGroup(
		mn.wrappedNote("Record the human decision on "+noteText(bugID),
			d.decisionOn()+"Written to decisao.md beside the final answer, with who and when. moot never decides on its own."),
		huh.NewSelect[string]().Title("Decision").Options(opts...).Value(&mn.choice).Height(len(opts)+1),
		huh.NewText().Title("Note").Description("required to revise: what should change").Value(&mn.note).Lines(3).
			Validate(func(s string) error {
				if bugfolder.Choice(mn.choice).NeedsNote() && strings.TrimSpace(s) == "" {
					return fmt.Errorf("revise needs a note")
				}
				return nil
			}),
	))
	return mn
}

// decisionOn is the decision form's first lines on a bug's debate: which
// result it decides, in moot decide's words (bugfolder.DebateWords), with
// an archived one's folder on a line of its own (a form wraps at hyphens
// too); then the other result that waits too, decided after this one
// ("" for a review's or a question's).
func (d *debateView) decisionOn() string {
	if d == nil || d.which == "" {
		return ""
	}
	s := "On " + noteText(d.which)
	if folder := archivedFolder(d.dir); folder != "" {
		s += ", in\n" + noteText(folder) + "/"
	}
	s += "\n"
	if d.also != "" {
		words, folder, _ := strings.Cut(d.also, "\n")
		s += "Waiting too: " + noteText(words) + "\n" + noteText(folder) + "\n(d on the bug's ◈ row decides it after this one)\n"
	}
	return s
}

// archivedFolder is the folder's name when dir is an archived debate of a
// bug (debate-…), else "".
func archivedFolder(dir string) string {
	if base := filepath.Base(dir); strings.HasPrefix(base, bugfolder.DebateDir+"-") {
		return base
	}
	return ""
}

// open opens the decision form on the final tab.
func (decideDialog) open(m Model) (Model, tea.Cmd) {
	cmd := m.dlg.openMenu(&m.frame, decideMenu(m.dv.deb.bugID, m.dv.deb))
	return m, cmd
}

// done records the decision off the UI goroutine, through the
// same function as moot decide.
func (decideDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	if m.screen == scrReview && m.rv.view != nil {
		return m, m.rv.decideReview(&m.frame, mn)
	}
	if m.subj.bug == nil || m.dv.deb == nil {
		return m, nil
	}
	h := engine.HumanDecision{Root: m.subj.bug.WriterRoot(), Dir: m.dv.deb.dir, Lang: m.dv.deb.lang, BugID: m.subj.bug.ID,
		Choice: bugfolder.Choice(mn.choice), Note: mn.note, Command: "moot (TUI) decide " + m.subj.bug.ID, Now: m.opts.Now}
	if m.subj.bug.IsQuestion { // decisao.md names a question by question_id
		h.BugID, h.QuestionID = "", m.subj.bug.ID
	}
	project := ""
	if m.opts.Register != nil {
		project = m.opts.Register.Project
	}
	opts := m.opts
	return m, func() tea.Msg {
		h.By = opts.decider(context.Background(), project)
		_, err := engine.Decide(h)
		return decidedMsg{dir: h.Dir, choice: h.Choice, by: h.By, err: err}
	}
}

// loadDecisionCmd opens the bug's debate in dir (its latest, or an
// archived one the row named) for its decision, off the UI goroutine:
// the folder goes through the rule moot decide follows
// (bugfolder.DecisionTarget), and the debate is shown as a and enter
// show it, one of the bug's debates.
func loadDecisionCmd(bug *bugfolder.Bug, dir string) tea.Cmd {
	return func() tea.Msg {
		full, err := bug.Full()
		if err != nil {
			return debateLoadedMsg{bug: bug, err: err}
		}
		ds, err := bugfolder.ReadDebates(full)
		if err != nil {
			return debateLoadedMsg{bug: full, err: err}
		}
		if dir, err = bugfolder.DecisionTarget(full, ds, dir); err != nil {
			return debateLoadedMsg{bug: full, err: err}
		}
		i := slices.IndexFunc(ds, func(d *bugfolder.Debate) bool { return d.Dir == dir })
		if i < 0 {
			return statusMsg(fmt.Sprintf("%s's debate %s is gone: nothing to decide there", full.ID, filepath.Base(dir)))
		}
		return debateLoadedMsg{bug: full, deb: ds[i], nth: i + 1, of: len(ds), facts: readFolderFacts(ds[i]), also: alsoWaiting(ds, dir)}
	}
}

// alsoWaiting is the newest result of ds (a bug's debates) other than
// the one in dir that waits for a human decision, in moot decide's words
// with its folder ("" when none): the decision form names it.
func alsoWaiting(ds []*bugfolder.Debate, dir string) string {
	if w := bugfolder.Waiting(ds, dir); len(w) > 0 {
		return bugfolder.DebateWords(w[0]) + ", in\n" + filepath.Base(w[0].Dir) + "/"
	}
	return ""
}

// recorded shows the recorded decision (or why it was refused).
func (decideDialog) recorded(m Model, msg decidedMsg) Model {
	if msg.err != nil {
		m.toast.text, m.toast.until = "decision not recorded: "+termsafe.Line(msg.err.Error()), m.clock().Add(8*time.Second)
		return m
	}
	if m.dv.deb != nil && m.dv.deb.dir == msg.dir {
		m.dv.deb.decision = string(msg.choice)
	}
	m.browser.decided(msg.dir, msg.choice)
	m.toast.text, m.toast.until = fmt.Sprintf("decision recorded: %s, by %s", msg.choice, termsafe.Line(msg.by)), m.clock().Add(6*time.Second)
	return m
}

// pendingDecision reports whether the row's latest result waits for a
// human decision (the browser marks it ◆ and lists it first).
func (r *browserRow) pendingDecision() bool {
	if r.rev != nil {
		return r.rev.WaitsDecision
	}
	return r.sum != nil && r.sum.Decision == bugfolder.DecisionPending
}

// archivedPending reports whether the row's latest result waits for
// nothing but an archived result of its bug still waits for a human
// decision (the browser marks it ◈; d decides it).
func (r *browserRow) archivedPending() bool {
	return r.rev == nil && r.sum != nil && !r.sum.Bug.Done && !r.pendingDecision() && r.sum.ArchivedPending != ""
}

// alsoArchived reports whether the row's latest result waits for a human
// decision (◆) and an archived result of its bug waits too: the STATUS
// says both, and d decides the latest first, saying the other waits.
func (r *browserRow) alsoArchived() bool {
	return r.rev == nil && r.sum != nil && !r.sum.Bug.Done && r.pendingDecision() && r.sum.ArchivedPending != ""
}

// waitsForHuman reports whether a human decision waits on the row: its
// latest result's (◆) or an archived result's (◈).
func (r *browserRow) waitsForHuman() bool { return r.pendingDecision() || r.archivedPending() }

// hasPending reports whether any row waits for a human decision.
func (b *browser) hasPending() bool { return b.pending > 0 }

// setSum puts a row's summary, keeping the count of pending rows.
func (b *browser) setSum(r *browserRow, s *bugfolder.Summary) {
	if r.waitsForHuman() {
		b.pending--
	}
	r.sum = s
	if r.waitsForHuman() {
		b.pending++
	}
}

// addRow appends a row (a folder found after the first listing).
func (b *browser) addRow(r *browserRow) {
	b.rows = append(b.rows, r)
	if r.waitsForHuman() {
		b.pending++
	}
}

// pendingFirst moves the visible rows that wait for a human decision (◆
// and ◈ alike: an archived result's decision is as much the engineer's) to
// the top, keeping the list's order otherwise.
func (b *browser) pendingFirst() {
	if !b.hasPending() {
		return
	}
	slices.SortStableFunc(b.visible, func(i, j int) int {
		return cmpBool(!b.rows[i].waitsForHuman(), !b.rows[j].waitsForHuman())
	})
}

// decided updates the row whose latest debate, or whose archived result
// waiting (◈), is dir after a decision was recorded, so its mark goes at
// once (the row is read again when its debate view is left).
func (b *browser) decided(dir string, c bugfolder.Choice) {
	for _, r := range b.rows {
		switch {
		case r.sum != nil && r.sum.Latest != nil && r.sum.Latest.Dir == dir:
			s := *r.sum
			s.Decision = string(c)
			b.setSum(r, &s)
		case r.sum != nil && r.sum.ArchivedPending == dir:
			s := *r.sum
			s.ArchivedPending = ""
			b.setSum(r, &s)
		}
	}
	b.refilter()
}

// topUntilMoved reports whether the cursor stays on the top row as the
// index and the reviews stream in: nobody has moved it yet, and a result
// waiting for a decision has been put there.
func (b *browser) topUntilMoved() bool {
	return !b.moved && b.cursor == 0 && b.hasPending()
}
