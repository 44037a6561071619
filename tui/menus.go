package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
)

// menuKind says which menu is open over the live view.
type menuKind int

const (
	menuNone menuKind = iota
	menuQuorum
	menuQuorumOther
	menuSwapEngine
	menuSwapConfirm
	menuTimeout
	menuJudge
	menuJudgeHuman
	menuJudgeEngine
	menuJudgeConfirm
	menuQuit
	menuEngineChange
	menuTrust
	menuDecide
	menuResumeCost
)

// menu is an open huh form and what it answers.
type menu struct {
	kind menuKind
	form *huh.Form

	choice  string
	solver  string
	engine  string
	timeout string
	label   string
	confirm bool
	// note is the human decision's note (menuDecide).
	note string
	// ahead holds keys typed while the form moves its focus
	// (typeahead.go).
	ahead typeAhead

	// first is the first field of a menu of several pages: esc on a later
	// page goes back to it, one step, not out of the menu.
	first huh.Field

	q      engine.QuorumLoss
	qReply chan quorumAnswer
	j      engine.JudgeFailure
	jReply chan judgeAnswer
	// texts are the descriptions the menu wraps itself (menuwrap.go), at
	// textW cells.
	texts []wizardText
	textW int
	// bud is a budget menu's question (tui/budget.go).
	bud *budgetAsk
}

func newForm(groups ...*huh.Group) *huh.Form {
	return huh.NewForm(groups...).WithShowHelp(false).WithTheme(formTheme)
}

// formTheme is huh's Charm theme with yes/no buttons whose focus shows
// without colour (NO_COLOR, a monochrome terminal): the focused button is
// marked "▸ Yes ◂", bold and reversed, as the cost screen marks its own;
// and a multi-select's boxes read chosen or not without colour: "[✓] "
// and "[ ] " (huh's "✓ " and "• " read alike in grey, and "•" as chosen).
var formTheme = huh.ThemeFunc(func(isDark bool) *huh.Styles {
	t := huh.ThemeCharm(isDark)
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.SelectedPrefix = fs.SelectedPrefix.SetString("[✓] ")
		fs.UnselectedPrefix = fs.UnselectedPrefix.SetString("[ ] ")
		fs.FocusedButton = fs.FocusedButton.Bold(true).Reverse(true).
			Transform(func(s string) string { return "▸ " + s + " ◂" })
		fs.BlurredButton = fs.BlurredButton.
			Transform(func(s string) string { return "  " + s + "  " })
	}
	return t
})

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// memberWords are the protocol's words for one and several of the panel
// (a debate's when the engine gave none).
func memberWords(q engine.QuorumLoss) (one, many string) {
	if q.Member == "" {
		return "solver", "solvers"
	}
	return q.Member, q.Members
}

// failedWords are the words for one and several of the failed: the
// support role's (argue's scorer) when only it failed, else the panel's.
func failedWords(q engine.QuorumLoss) (one, many string) {
	if q.Support && q.Supporter != "" {
		return q.Supporter, q.Supporter + "s"
	}
	return memberWords(q)
}

// finalWord is the protocol's word for its final step.
func finalWord(j engine.JudgeFailure) string {
	if j.Final == "" {
		return "judge"
	}
	return j.Final
}

// quorumMenu offers, in this order: continue with the valid solvers, retry
// the failed, cancel, other….
func quorumMenu(q engine.QuorumLoss, reply chan quorumAnswer, unpriced func(...string) bool, width int) *menu {
	m := &menu{kind: menuQuorum, q: q, qReply: reply}
	if q.Support {
		return supportMenu(m, unpriced, width)
	}
	one, many := memberWords(q)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s answered validly; the quorum is %d.\n\nFailed:\n", q.Valid, q.Panel, plural(q.Panel, one, many), q.Needed)
	for _, f := range q.Failed {
		st := string(f.Status)
		if st == "" {
			st = "no answer"
		}
		b.WriteString(failedLine(fmt.Sprintf("  %-9s %-15s ", f.SolverID, st), clipLine(f.LastError, 60), width-4) + "\n")
	}
	var opts []huh.Option[string]
	if q.Valid > 0 {
		opts = append(opts, huh.NewOption(fmt.Sprintf("Continue with the %d valid %s (saves %d %s)", q.Valid, plural(q.Valid, one, many), q.ContinueSaves, plural(q.ContinueSaves, "call", "calls")), "continue"))
	}
	opts = append(opts,
		huh.NewOption(fmt.Sprintf("Retry the %d failed (+%d %s, %s)", len(q.Failed), q.RetryCalls, plural(q.RetryCalls, "call", "calls"), estimate(q.RetryUSD, unpriced(failedEngines(q)...))), "retry"),
		huh.NewOption("Cancel (everything is kept; moot resume asks again)", "cancel"),
		huh.NewOption(fmt.Sprintf("Other… (swap a failed %s's engine, change its timeout, pause)", one), "other"),
	)
	m.choice = opts[0].Value
	m.form = newForm(huh.NewGroup(
		m.wrappedNote(fmt.Sprintf("Quorum lost in round %d", q.Round), strings.TrimRight(b.String(), "\n")),
		huh.NewSelect[string]().Title("What now?").Options(opts...).Value(&m.choice),
	))
	return m
}

// supportMenu is the quorum menu when only the support role failed (the
// panel's quorum holds): it names the support role (argue's scorer), says
// what going on without it means for the round, and saves no call.
func supportMenu(m *menu, unpriced func(...string) bool, width int) *menu {
	q := m.q
	one, _ := failedWords(q)
	_, members := memberWords(q)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s answered validly (the quorum of %d holds), but the %s's answer is not valid.\n\nFailed:\n", q.Valid, q.Panel, members, q.Needed, one)
	for _, f := range q.Failed {
		st := string(f.Status)
		if st == "" {
			st = "no answer"
		}
		b.WriteString(failedLine(fmt.Sprintf("  %-9s %-15s ", f.SolverID, st), clipLine(f.LastError, 60), width-4) + "\n")
	}
	opts := []huh.Option[string]{
		huh.NewOption(fmt.Sprintf("Continue without the %s for round %d (no call saved)", one, q.Round), "continue"),
		huh.NewOption(fmt.Sprintf("Retry the %s (+%d %s, %s)", one, q.RetryCalls, plural(q.RetryCalls, "call", "calls"), estimate(q.RetryUSD, unpriced(failedEngines(q)...))), "retry"),
		huh.NewOption("Cancel (everything is kept; moot resume asks again)", "cancel"),
		huh.NewOption(fmt.Sprintf("Other… (swap the %s's engine, change its timeout, pause)", one), "other"),
	}
	m.choice = opts[0].Value
	m.form = newForm(huh.NewGroup(
		m.wrappedNote(fmt.Sprintf("The %s failed in round %d", one, q.Round), strings.TrimRight(b.String(), "\n")),
		huh.NewSelect[string]().Title("What now?").Options(opts...).Value(&m.choice),
	))
	return m
}

// failedLine is a failed solver's line of the quorum menu: its reason
// wraps under itself (a hanging indent), or under the line, indented,
// when too little room is left beside the name and status.
func failedLine(head, why string, width int) string {
	indent := ansi.StringWidth(head)
	if width-indent < 20 {
		indent = 6
		head = strings.TrimRight(head, " ") + "\n" + strings.Repeat(" ", indent)
	}
	lines := strings.Split(wrapText(why, max(10, width-indent)), "\n")
	return head + strings.Join(lines, "\n"+strings.Repeat(" ", indent))
}

// otherMenu picks the action and the failed solver.
func otherMenu(prev *menu) *menu {
	m := &menu{kind: menuQuorumOther, q: prev.q, qReply: prev.qReply, choice: "swap"}
	if prev.kind == menuQuorumOther && prev.choice != "" {
		m.choice = prev.choice // back from its second page: the action chosen stays
	}
	one, many := failedWords(m.q)
	var solvers []huh.Option[string]
	for _, f := range m.q.Failed {
		solvers = append(solvers, huh.NewOption(fmt.Sprintf("%s (%s, %s)", f.SolverID, f.Engine, f.Status), f.SolverID))
	}
	m.solver = m.q.Failed[0].SolverID
	action := huh.NewSelect[string]().Title("Other").Options(
		huh.NewOption(fmt.Sprintf("Swap a failed %s's engine (an amendment, recorded)", one), "swap"),
		huh.NewOption(fmt.Sprintf("Change a failed %s's timeout", one), "timeout"),
		huh.NewOption("Pause: stop here, resume later with moot resume", "pause"),
		huh.NewOption("← Back to the quorum menu", "back"),
	).Value(&m.choice)
	m.first = action
	m.form = newForm(huh.NewGroup(action),
		huh.NewGroup(huh.NewSelect[string]().Title(fmt.Sprintf("Which failed %s?", one)).OptionsFunc(func() []huh.Option[string] {
			if m.choice == "timeout" && len(solvers) > 1 { // one timeout for them all
				return append(slices.Clone(solvers), huh.NewOption(fmt.Sprintf("All %d failed %s", len(solvers), many), engine.AllFailed))
			}
			return solvers
		}, &m.choice).Value(&m.solver)).
			WithHideFunc(func() bool { return m.choice == "back" || m.choice == "pause" }),
	)
	return m
}

// swapMenu picks the new engine of a failed solver.
func swapMenu(prev *menu, cfg *harness.Config, status map[string]EngineStatus) *menu {
	m := &menu{kind: menuSwapEngine, q: prev.q, qReply: prev.qReply, solver: prev.solver}
	current := ""
	for _, f := range m.q.Failed {
		if f.SolverID == m.solver {
			current = f.Engine
		}
	}
	opts := engineOptions(m.q.Engines, current, cfg, status)
	if len(opts) == 0 {
		opts = append(opts, huh.NewOption("no other engine is available — choose to go back", ""))
	}
	m.engine = opts[0].Value
	m.form = newForm(huh.NewGroup(
		menuDescribed(m, huh.NewSelect[string]().Title(fmt.Sprintf("New engine for %s (now %s)", m.solver, current)),
			withNote("The swap is an amendment: recorded in its files and the event log; problema.md keeps the original plan.", restrictedNote(withheld(m.q.Engines, cfg)))).
			Options(opts...).Value(&m.engine),
	))
	return m
}

// engineOptions are the engines a failed call may move to, as the wizard
// offers them: among names (the engine's list, restricted-safe), those
// whose probe did not fail, other than current.
func engineOptions(names []string, current string, cfg *harness.Config, status map[string]EngineStatus) []huh.Option[string] {
	var opts []huh.Option[string]
	for _, name := range names {
		if name == current {
			continue
		}
		if st, ok := status[name]; ok && !st.OK {
			continue
		}
		label := name
		if ec, ok := cfg.Engines[name]; ok {
			label += "  (" + string(ec.Kind) + ")"
			if ec.External {
				label += "  external"
			}
		}
		opts = append(opts, huh.NewOption(label, name))
	}
	return opts
}

// swapConfirmMenu asks before an external engine receives the bug.
func swapConfirmMenu(prev *menu) *menu {
	m := &menu{kind: menuSwapConfirm, q: prev.q, qReply: prev.qReply, solver: prev.solver, engine: prev.engine}
	m.form = newForm(huh.NewGroup(
		menuDescribed(m, huh.NewConfirm().Title(fmt.Sprintf("Send this bug to the external engine %s?", m.engine)),
			fmt.Sprintf("%s will receive the bug and the snapshot of the last round.", m.engine)).
			Affirmative("Yes, send it").Negative("No").Value(&m.confirm),
	))
	return m
}

// timeoutMenu asks a failed solver's new timeout.
func timeoutMenu(prev *menu) *menu {
	m := &menu{kind: menuTimeout, q: prev.q, qReply: prev.qReply, solver: prev.solver}
	one, many := failedWords(m.q)
	who := m.solver
	called := fmt.Sprintf("an amendment, recorded; the %s is called again with it", one)
	if who == engine.AllFailed {
		who = "every failed " + one
		called = fmt.Sprintf("an amendment, recorded; the failed %s are called again with it", many)
	}
	m.form = newForm(huh.NewGroup(
		menuDescribed(m, huh.NewInput().Title(fmt.Sprintf("New timeout for %s", who)), called).
			Placeholder("e.g. 20m").Value(&m.timeout).Validate(func(s string) error {
			d, err := time.ParseDuration(strings.TrimSpace(s))
			if err != nil || d <= 0 {
				return fmt.Errorf("a positive duration, e.g. 15m")
			}
			return nil
		}),
	))
	return m
}

// judgeMenu offers: retry the judge, retry it on another engine (when
// one is offered), choose the winner, cancel. A debate that records no judge
// engine (run by hand) is not retryable: no retry is offered.
func judgeMenu(j engine.JudgeFailure, reply chan judgeAnswer, unknown, switchable, retryable bool) *menu {
	m := &menu{kind: menuJudge, j: j, jReply: reply, choice: "retry"}
	var opts []huh.Option[string]
	if retryable {
		opts = append(opts, huh.NewOption(fmt.Sprintf("Retry the %s (%s, %s)", finalWord(j), retryCalls(j), estimate(j.RetryUSD, unknown)), "retry"))
	} else {
		m.choice = "human" // a hand-run debate records no judge engine to retry
	}
	if switchable && retryable {
		opts = append(opts, huh.NewOption(fmt.Sprintf("Retry with another engine… (%s, an amendment, recorded)", retryCalls(j)), "engine"))
	}
	if !j.NoWinner { // a synthesis names no winner: a human decides with moot decide once it is written
		opts = append(opts, huh.NewOption("Choose the winner myself", "human"))
	}
	opts = append(opts, huh.NewOption("Cancel (everything is kept; moot resume asks again)", "cancel"))
	m.form = newForm(huh.NewGroup(
		m.wrappedNote(fmt.Sprintf("The %s failed (attempt %d)", finalWord(j), j.Attempt),
			clipLine(j.Reason, 300)+fmt.Sprintf("\n\nNothing is invented: the attempt is kept in the %s's folder.", finalWord(j))),
		huh.NewSelect[string]().Title("What now?").Options(opts...).Value(&m.choice),
	))
	return m
}

// retryCalls says how many calls a judge retry makes: "+1 call", or
// "+2 calls" with the order-swap check.
func retryCalls(j engine.JudgeFailure) string {
	if j.RetryCalls > 1 {
		return fmt.Sprintf("+%d calls", j.RetryCalls)
	}
	return "+1 call"
}

// judgeEngineMenu picks the engine the judge is retried on.
func judgeEngineMenu(prev *menu, cfg *harness.Config, status map[string]EngineStatus) *menu {
	m := &menu{kind: menuJudgeEngine, j: prev.j, jReply: prev.jReply}
	opts := append(engineOptions(prev.j.Engines, prev.j.Engine, cfg, status), huh.NewOption(fmt.Sprintf("← Back to the %s menu", finalWord(prev.j)), ""))
	m.engine = opts[0].Value
	m.form = newForm(huh.NewGroup(
		menuDescribed(m, huh.NewSelect[string]().Title(fmt.Sprintf("Retry the %s on another engine (now: %s)", finalWord(prev.j), prev.j.Engine)),
			withNote(fmt.Sprintf(retryCalls(prev.j)+". The switch is an amendment: recorded in the %s's files and the event log; problema.md keeps the original plan.", finalWord(prev.j)), restrictedNote(withheld(prev.j.Engines, cfg)))).
			Options(opts...).Value(&m.engine),
	))
	return m
}

// judgeConfirmMenu asks before an external judge receives the proposals.
func judgeConfirmMenu(prev *menu) *menu {
	m := &menu{kind: menuJudgeConfirm, j: prev.j, jReply: prev.jReply, engine: prev.engine}
	m.form = newForm(huh.NewGroup(
		menuDescribed(m, huh.NewConfirm().Title(fmt.Sprintf("Send the proposals to the external engine %s?", m.engine)),
			fmt.Sprintf("%s will receive P and the anonymized proposals to judge.", m.engine)).
			Affirmative("Yes, send them").Negative("No").Value(&m.confirm),
	))
	return m
}

// humanMenu lets the engineer pick the winning proposal by label, each
// choice on one line of a menu width wide.
func humanMenu(prev *menu, width int) *menu {
	m := &menu{kind: menuJudgeHuman, j: prev.j, jReply: prev.jReply}
	desc := "Recorded as decided by a human; the winning proposal becomes the synthesis."
	marks := map[string]string{}
	if inOrder, reversed := m.j.Winner, m.j.ReversedWinner; reversed != "" { // which winner each order gave
		marks[inOrder], marks[reversed] = " (labels in order)", " (moved)"
		desc = fmt.Sprintf("The %s chose %s (labels in order) · %s (proposals moved).\n%s", finalWord(m.j), inOrder, reversed, desc)
	}
	var opts []huh.Option[string]
	for _, l := range m.j.Labels {
		// one line each (a wrapped choice hides the ones below it): the
		// preview gives way to the window; the panes have it whole
		head := labelWord(l.Label) + marks[l.Label] + " — "
		if l.Member != "" { // the pane it is in: the panes are titled by member
			head = labelWord(l.Label) + " (" + l.Member + ")" + marks[l.Label] + " — "
		}
		room := max(12, min(70, width-6-ansi.StringWidth(head)))
		opts = append(opts, huh.NewOption(head+preview(l.Preview, room), l.Label))
	}
	opts = append(opts, huh.NewOption(fmt.Sprintf("← Back to the %s menu", finalWord(m.j)), ""))
	m.label = opts[0].Value
	m.form = newForm(huh.NewGroup(
		huh.NewSelect[string]().Title("Which proposal wins?").
			Description(desc).
			Options(opts...).Value(&m.label).Height(len(opts) + 1 + strings.Count(wrapText(desc, max(10, width-4)), "\n") + 1), // the title, the description as wrapped, the choices
	))
	return m
}

// engineChangeMenu asks whether to resume on engines that now resolve
// differently than the debate locked, as an amendment.
func engineChangeMenu(diffs []string) *menu {
	m := &menu{kind: menuEngineChange, choice: "leave"}
	m.form = newForm(huh.NewGroup(
		m.wrappedNote("The engines changed since this debate started",
			strings.Join(diffs, "\n")+"\nAccepting records the change as an amendment (like a swap) in the event log and in the files written from now on."),
		huh.NewSelect[string]().Options(
			huh.NewOption("Accept the change as an amendment and resume", "accept"),
			huh.NewOption("Leave it (restore the engines file, then resume)", "leave"),
		).Value(&m.choice).Height(3),
	))
	return m
}

// quitMenu asks before leaving a running protocol (what: "debate" or
// "review", resume: what moot resume takes, Options.resumeArgs, with the
// engines file it runs on): a debate's and a review's q ask the one
// question, in the one form.
func quitMenu(what, resume string, fromBrowser bool) *menu {
	m := &menu{kind: menuQuit, choice: "stay"}
	how := fmt.Sprintf("moot resume %s continues it.", resume)
	switch {
	case fromBrowser && what == "debate": // leaving goes back to the list, where r resumes it
		how = fmt.Sprintf("Back to the list: r (or moot resume %s) continues it.", resume)
	case fromBrowser:
		how = fmt.Sprintf("Back to the list: moot resume %s continues it.", resume)
	}
	m.form = newForm(huh.NewGroup(
		m.wrappedNote("Leave this "+what+"?", quitNote+"\n"+how),
		huh.NewSelect[string]().Options(
			huh.NewOption(quitChoices[0], "leave"),
			huh.NewOption(quitChoices[1], "stay"),
		).Value(&m.choice).Height(3),
	))
	return m
}

// quitChoices are the answers of the "leave this running protocol?"
// question (quitMenu), in the one order: leave,
// then keep watching (the default); quitNote says what leaving does.
var quitChoices = []string{"Leave it, resumable", "Keep watching"}

const quitNote = "The calls in flight stop; everything written is kept."

// TrustRequest asks the engineer to trust a project's engines file before
// it may run commands, redirect endpoints or set a child's environment.
type TrustRequest struct {
	// File is the engines file, as shown; Reasons what trusting allows.
	File    string
	Reasons []string
	// Trust remembers the file as trusted (moot trust).
	Trust func() error
}

// trustMenu asks whether to trust the project's engines file; nothing of
// it runs, not even a probe, before the answer.
func trustMenu(r *TrustRequest) *menu {
	m := &menu{kind: menuTrust, choice: "quit"}
	var b strings.Builder
	for _, x := range r.Reasons {
		b.WriteString("• " + noteText(x) + "\n")
	}
	m.form = newForm(huh.NewGroup(
		m.wrappedNote("Trust this project's engines file?",
			fmt.Sprintf("%s came with the project. Trusted, it may:\n%sIts sha256 is remembered (moot trust); a changed file asks again.", noteText(r.File), b.String())),
		huh.NewSelect[string]().Options(
			huh.NewOption("Quit: read the file first", "quit"),
			huh.NewOption("Trust it", "trust"),
		).Value(&m.choice).Height(3),
	))
	return m
}

// restrictedNote says why the external engines named are not offered on a
// restricted bug ("" when none is withheld): the wizard and the engine
// menus say it alike.
func restrictedNote(ext []string) string {
	if len(ext) == 0 {
		return ""
	}
	return fmt.Sprintf("This bug is visibility: restricted, so external engines (%s) are not offered: a restricted bug never leaves this machine.", strings.Join(ext, ", "))
}

// withNote adds a note, when there is one, as a paragraph of its own.
func withNote(desc, note string) string {
	if note == "" {
		return desc
	}
	return desc + "\n\n" + note
}

// withheld are the external engines of the configuration that a menu's
// engine list (restricted-safe) leaves out: a restricted bug's.
func withheld(names []string, cfg *harness.Config) []string {
	var out []string
	if cfg == nil {
		return nil
	}
	for _, name := range cfg.Order {
		if cfg.Engines[name].External && !slices.Contains(names, name) {
			out = append(out, name)
		}
	}
	return out
}

// noteText is untrusted text for a huh note: sanitized, one line, and its
// emphasis characters escaped so they show as written.
func noteText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "_", `\_`, "*", `\*`, "`", "\\`").Replace(termsafe.Line(s))
}

// wrapText breaks text into lines of at most width cells, at spaces only
// (wordWrap).
func wrapText(s string, width int) string { return wordWrap(s, max(1, width)) }

// preview is the first meaningful line of a proposal.
func preview(body string, n int) string {
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		return clipLine(t, n)
	}
	return "(empty)"
}

// clipLine squeezes text to one line of at most n runes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(termsafe.Line(s)), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// failedEngines are the engines of the failed calls a quorum retry reruns.
func failedEngines(q engine.QuorumLoss) []string {
	var out []string
	for _, f := range q.Failed {
		out = append(out, f.Engine)
	}
	return out
}
