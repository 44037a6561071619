package cli

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/label"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/tradeoff"
)

func newShowCmd(e *env) *cobra.Command {
	var (
		problem, convergence, final bool
		round                       int
		debate                      string
	)
	cmd := &cobra.Command{
		Use:   "show BUG [--problem|--round K|--convergence|--final]",
		Short: "Print a debate (rendered on a terminal, plain Markdown otherwise)",
		Long: `Print a bug's latest debate: a summary by default, or one part of it.
A failed, timed-out or invalid answer is shown as such, never hidden.

On a terminal the Markdown is rendered (without colour when NO_COLOR is set);
piped, it is printed as plain Markdown.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			picked := 0
			for _, b := range []bool{problem, convergence, final, cmd.Flags().Changed("round")} {
				if b {
					picked++
				}
			}
			if picked > 1 {
				return usageErr("give at most one of --problem, --round K, --convergence, --final")
			}
			if dir := reviewTarget(e, args[0]); dir != "" {
				if picked > 0 || debate != "" {
					return usageErr("a review has no --problem, --round, --convergence, --final or --debate: moot show %s prints its summary", args[0])
				}
				return printReview(e, dir)
			}
			reg, bug, ds, err := showSubject(e, args[0])
			if err != nil {
				return err
			}
			var d *bugfolder.Debate
			if debate != "" {
				for _, x := range ds {
					if x.Name == debate || strings.TrimPrefix(x.Name, "debate-") == debate {
						d = x
					}
				}
				if d == nil {
					return usageErr("%s has no debate %q (its debates: %s)", bug.ID, debate, debateNames(ds))
				}
			} else if len(ds) > 0 {
				d = ds[len(ds)-1]
			}
			if d == nil {
				if facts := bug.Facts(); len(facts) > 0 {
					fmt.Fprintf(e.stdout, "%s: %s\n", termsafe.Line(bug.ID), termsafe.Line(strings.Join(facts, " · ")))
				}
				fmt.Fprintf(e.stdout, "%s has no debate yet. Start one with: moot run %s --mode diagnosis\n", bug.ID, bug.ID)
				return nil
			}
			var md string
			switch {
			case problem:
				md, err = showProblem(d)
			case cmd.Flags().Changed("round"):
				md, err = showRound(reg, d, round)
			case convergence:
				md, err = showConvergence(d)
			case final:
				md, err = showFinal(d)
			default:
				md = showSummary(reg, bug, ds, d)
			}
			if err != nil {
				return err
			}
			if err := renderMarkdown(e, md); err != nil {
				return err
			}
			return reportProblems(e, d)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&problem, "problem", false, "print problema.md: the settings, the frozen rubric and P")
	fl.IntVar(&round, "round", 0, "print every file of round K, failures included")
	fl.BoolVar(&convergence, "convergence", false, "print convergencia.md")
	fl.BoolVar(&final, "final", false, "print the judge's final answer")
	fl.StringVar(&debate, "debate", "", "an earlier debate of the bug, by folder name (debate-20260715T100000Z) or timestamp")
	return cmd
}

func debateNames(ds []*bugfolder.Debate) string {
	var n []string
	for _, d := range ds {
		n = append(n, d.Name)
	}
	if len(n) == 0 {
		return "none"
	}
	return strings.Join(n, ", ")
}

// solverIDs lists the debate's solvers and critics: from problema.md, else
// from the files present.
func solverIDs(d *bugfolder.Debate) (solvers, critics []string) {
	if d.Problem != nil && len(d.Problem.Solvers) > 0 {
		for _, kv := range d.Problem.Solvers {
			solvers = append(solvers, kv.Key)
		}
		for _, kv := range d.Problem.Critics {
			critics = append(critics, kv.Key)
		}
		return
	}
	seen := map[string]bool{}
	for _, r := range d.Rounds {
		for _, f := range r.Files {
			if seen[f.SolverID] {
				continue
			}
			seen[f.SolverID] = true
			if f.Role == bugfolder.RoleCritic {
				critics = append(critics, f.SolverID)
			} else {
				solvers = append(solvers, f.SolverID)
			}
		}
	}
	return
}

// stateHint tells the engineer what to do next with a debate.
func stateHint(bug *bugfolder.Bug, d *bugfolder.Debate) string {
	unfinished := d.State != bugfolder.StateDone && d.State != bugfolder.StateCancelled && d.State != bugfolder.StateNoDebate
	switch {
	case unfinished && d.HandRun() && d.State == bugfolder.StateJudgeFailed:
		return fmt.Sprintf("run by hand, and its judge failed: `moot resume %s --winner A` records your choice, or `moot run %s --mode MODE` archives it and starts a new debate", bug.ID, bug.ID)
	case unfinished && d.HandRun() && d.State == bugfolder.StateWaiting:
		return fmt.Sprintf("run by hand, every round done and no judge's answer: `moot resume %s --winner A` records your choice, or `moot run %s --mode MODE` archives it and starts a new debate", bug.ID, bug.ID)
	case unfinished && d.HandRun() && d.State == bugfolder.StateInterrupted:
		gap := ""
		if g := d.HandRunGap(); g != "" {
			gap = " (" + g + ")"
		}
		return fmt.Sprintf("written by hand and stopped midway%s: with no moot event log, moot cannot continue it call by call (`moot resume` refuses it); `moot run %s --mode MODE` archives it and starts a new debate", gap, bug.ID)
	case unfinished && (d.HandRun() || d.Translated()):
		return fmt.Sprintf("unfinished, and moot cannot continue it in place (run by hand or written with the translated names): `moot run %s --mode MODE` archives it and starts a new debate", bug.ID)
	}
	// the engines file its last session was given with --config, when its
	// event log records it: the hint then runs as printed
	target := engine.ResumeArgs(bug.ID, termsafe.Line(d.EnginesFile()))
	switch d.State {
	case bugfolder.StateRunning:
		if d.Holder != nil && d.HolderAlive {
			return fmt.Sprintf("being written now by %s", d.Holder)
		}
		return fmt.Sprintf("no moot process runs it now: `moot resume %s` continues it where it stopped", target)
	case bugfolder.StateInterrupted:
		return fmt.Sprintf("interrupted: %s is gone; `moot resume %s` continues it where it stopped", holderOrDash(d.Holder), target)
	case bugfolder.StateWaiting:
		if d.PendingDecision() == string(bugfolder.PointBudget) {
			return fmt.Sprintf("%s: `moot resume %s --max-usd …` or `--max-tokens …` raises it and continues (`--on-budget stop` finishes on the last complete round)", bugfolder.BudgetStopMark, target)
		}
		return fmt.Sprintf("waiting for a decision (%s): `moot resume %s` asks it again", orDash(d.PendingDecision()), target)
	case bugfolder.StateJudgeFailed:
		return "the " + finalWord(d) + " failed: " + engine.FinalAdvice(protocolFor(d), target, engine.FinalLabels(d))
	case bugfolder.StateCancelled:
		if d.PendingDecision() == "judge" {
			return "cancelled after the " + finalWord(d) + " failed; " + engine.FinalAdvice(protocolFor(d), target, engine.FinalLabels(d))
		}
		return fmt.Sprintf("cancelled; everything is kept: `moot resume %s` continues it", target)
	}
	return ""
}

// holderOrDash names a lock's holder, or "the process that ran it".
func holderOrDash(h *bugfolder.LockInfo) string {
	if h == nil {
		return "the process that ran it"
	}
	return h.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// cell describes one call in a rounds table.
func cell(f *bugfolder.DebaterFile) string {
	if f == nil {
		return "—"
	}
	s := string(f.Status)
	if f.Status != bugfolder.StatusOK {
		s = "**" + s + "**"
	}
	if d := f.Duration(); d > 0 {
		s += " · " + humanDuration(d)
	}
	return s
}

func showSummary(reg *bugfolder.Register, bug *bugfolder.Bug, ds []*bugfolder.Debate, d *bugfolder.Debate) string {
	var w strings.Builder
	title := bug.Title
	if title == "" {
		title = bug.ID
	}
	fmt.Fprintf(&w, "# %s — %s\n\n", bug.ID, title)
	solvers, critics := solverIDs(d)
	words := engine.Describe(protocolFor(d))
	rows := [][2]string{{"status", string(d.State)}}
	if facts := bug.Facts(); len(facts) > 0 {
		rows = append(rows, [2]string{"bug", strings.Join(facts, " · ")})
	}
	if h := stateHint(bug, d); h != "" {
		rows = append(rows, [2]string{"next", h})
	}
	where := "`" + reg.Rel(d.Dir) + "`"
	if len(ds) > 1 {
		where += fmt.Sprintf(" (%d debates in all)", len(ds))
	}
	rows = append(rows, [2]string{"debate", where})
	if p := d.Problem; p != nil {
		support := ""
		if c := max(len(p.Critics), criticsOnDisk(d)); words.Support || c > 0 {
			support = fmt.Sprintf(" · %d %s(s)", c, words.Supporter)
		}
		mode := string(p.Mode)
		if protocolName(d) == argue.Name { // argue's mode is its style, frozen in its personas' parts
			mode = argue.Name + " · style " + orDash(argue.StyleOf(p.Lenses))
		}
		rows = append(rows, [2]string{"setup", fmt.Sprintf("%s · N=%d · R=%d%s · language %s", orDash(mode), p.N, p.R, support, d.Lang)})
		var eng []string
		for _, kv := range p.Solvers {
			eng = append(eng, kv.Key+" "+kv.Value)
		}
		for _, kv := range p.Critics {
			eng = append(eng, kv.Key+" "+kv.Value)
		}
		if p.Judge != "" {
			eng = append(eng, words.Final+" "+p.Judge)
		}
		if len(eng) == 0 {
			eng = append(eng, "not recorded (a debate run by hand)")
		}
		rows = append(rows, [2]string{"engines", strings.Join(eng, ", ")})
		if l := frozenLenses(p); l != "" {
			rows = append(rows, [2]string{cmp.Or(words.LensesWord, "lenses"), l})
		}
	} else {
		rows = append(rows, [2]string{"setup", "problema.md is missing: the debate never finished its setup"})
	}
	if t := d.StartedAt(); !t.IsZero() {
		rows = append(rows, [2]string{"started", startedText(t, d.StartedForm())})
	} else if d.Problem != nil || len(d.Rounds) > 0 {
		rows = append(rows, [2]string{"started", unknownStart(d)})
	}
	if d.Problem != nil || len(d.Rounds) > 0 {
		// the event log's sessions; "—" when nothing records it (a debate run by hand)
		e := elapsedText(d.Elapsed())
		if d.ElapsedFromFiles() {
			e += " (its calls' recorded durations, a round's longest each: no event log)"
		}
		rows = append(rows, [2]string{"elapsed", e})
	}
	tokens, cost := d.Totals()
	spent := fmt.Sprintf("%s tokens · %s", digits.Grouped(tokens), money.Total(cost, d.CostUnpriced()))
	switch {
	case !d.CostKnown() && tokens == 0 && d.HandRun():
		spent = "unknown: neither tokens nor cost were recorded (a debate run by hand)"
	case !d.CostKnown() && tokens == 0:
		spent = "unknown: no call has recorded tokens or cost yet"
	case !d.CostKnown():
		spent = fmt.Sprintf("%s tokens · cost unknown (not recorded)", digits.Grouped(tokens))
	}
	if a := amendments(d); a != "" {
		rows = append(rows, [2]string{"amendments", a})
	}
	calls := fmt.Sprintf("%d model calls (retried attempts included)", d.ModelCalls())
	if d.State == bugfolder.StateRunning {
		calls = runningCalls(d)
	}
	rows = append(rows, [2]string{"calls", calls})
	rows = append(rows, [2]string{"spent", spent})
	if f := d.Final; f != nil {
		win := label.Winner(f.Winner, f.WinnerSolver)
		by := f.DecidedBy
		if by == "" || by == string(bugfolder.PointJudge) {
			by = words.Final
		}
		if w := f.AmbiguousWinner(d.Lang); w != nil {
			win = "unknown: " + w.Error()
		} else if win == "—" && f.Synthesis {
			win = label.Synthesis + ", decided by " + by
		} else if win == "—" {
			win = "unknown: the " + words.Final + "'s file names no winner moot can read"
		} else {
			win += ", decided by " + by
		}
		if f.Of > 0 {
			win += fmt.Sprintf(" · %d of %d %s took part", f.Participants, f.Of, words.Members)
		}
		if protocolName(d) == tradeoff.Name { // a synthesis over two options names no winner
			win = fmt.Sprintf("none: a tradeoff recommends and the human decides · %d of %d reviewers took part", f.Participants, f.Of)
		}
		if protocolName(d) == argue.Name && f.Winner == "" { // argue synthesizes toward a nuanced conclusion
			win = fmt.Sprintf("none: argue writes a nuanced synthesis, not a winner · %d of %d %s took part", f.Participants, f.Of, words.Members)
		}
		if protocolName(d) == council.Name { // a council synthesizes; it names no winner
			win = fmt.Sprintf("none: a council synthesizes consensus and divergences · %d of %d members took part", f.Participants, f.Of)
			rows = append(rows, [2]string{"escalation", councilEscalation(f.Escalation, f.EscalationReasons)})
		}
		rows = append(rows, [2]string{"winner", win})
		if d.Anonymised != "" && len(f.Labels) == 0 {
			rows = append(rows, [2]string{"labels", "as the host anonymised them in `" + reg.Rel(d.Anonymised) + "`; it recorded no label → solver map"})
		}
		dec := decisionText(d)
		if v := f.RecommendedVerdict; v != "" && !strings.Contains(dec, v) {
			rows = append(rows, [2]string{"verdict", termsafeLine(v) + " (the " + words.Final + "'s recommendation; the spec verdict is the engineer's to take)"})
		}
		if dec != "" {
			rows = append(rows, [2]string{"decision", dec})
		}
		if f.HealthTokensPerContribution > 0 {
			rows = append(rows, [2]string{"health", fmt.Sprintf("%s tokens per accepted contribution (%d accepted)", digits.Grouped(int(f.HealthTokensPerContribution)), f.AcceptedContributions)})
		}
	}
	if protocolName(d) == argue.Name {
		rows = append(rows, argueRows(reg, d)...)
	}
	// the first row (the status) heads the table: a Markdown table needs a
	// header, and an empty one drew an empty row above the summary
	for i, r := range rows {
		fmt.Fprintf(&w, "| %s | %s |\n", r[0], strings.ReplaceAll(r[1], "|", "\\|"))
		if i == 0 {
			w.WriteString("|---|---|\n")
		}
	}
	if len(d.Rounds) > 0 {
		w.WriteString("\n## Rounds\n\n| round |")
		cols := append(append([]string{}, solvers...), critics...)
		for _, id := range cols {
			// a support role by the protocol's word: argue's critic-1 is its scorer-1
			if c := bugfolder.PT.Names().Critic; strings.HasPrefix(id, c) && words.Supporter != "" && words.Supporter != "critic" {
				id = words.Supporter + strings.TrimPrefix(id, c)
			}
			fmt.Fprintf(&w, " %s |", id)
		}
		w.WriteString("\n|---|")
		for range cols {
			w.WriteString("---|")
		}
		w.WriteString("\n")
		for _, r := range d.Rounds {
			fmt.Fprintf(&w, "| %d |", r.K)
			for _, id := range cols {
				fmt.Fprintf(&w, " %s |", cell(r.File(id)))
			}
			w.WriteString("\n")
		}
	}
	if len(d.JudgeAttempts) > 0 {
		fmt.Fprintf(&w, "\n## %s\n\n%d failed attempt(s):\n\n", capital(words.Final), len(d.JudgeAttempts))
		for _, a := range d.JudgeAttempts {
			reason := a.Error
			if reason == "" && len(a.Invalid) > 0 {
				reason = strings.Join(a.Invalid, "; ")
			}
			fmt.Fprintf(&w, "- `%s`: %s %s\n", filepath.Base(a.Path), a.Status, reason)
		}
	}
	if d.Final != nil {
		w.WriteString("\n## Final answer\n\n")
		w.WriteString(demote(strings.TrimSpace(d.Final.Body)) + "\n")
	}
	return w.String()
}

// amendments lists the debate's amendments (swaps, timeouts, accepted
// engine changes) as its files record them: each with the round it first
// took effect in and who it applies to.
func amendments(d *bugfolder.Debate) string {
	type use struct {
		round int
		who   []string
	}
	seen := map[string]*use{}
	var order []string
	add := func(a string, round int, who string) {
		if a == "" {
			return
		}
		u := seen[a]
		if u == nil {
			u = &use{round: round}
			seen[a] = u
			order = append(order, a)
		}
		if !slices.Contains(u.who, who) {
			u.who = append(u.who, who)
		}
	}
	for _, r := range d.Rounds {
		for _, f := range r.Files {
			add(f.Amendment, r.K, f.SolverID)
		}
	}
	if f := d.Final; f != nil {
		add(f.Amendment, f.Round, d.Lang.Names().JudgeID)
	}
	var out []string
	for _, a := range order {
		out = append(out, fmt.Sprintf("from round %d: %s (%s)", seen[a].round, a, strings.Join(seen[a].who, ", ")))
	}
	return strings.Join(out, " · ")
}

func showProblem(d *bugfolder.Debate) (string, error) {
	p := d.Problem
	if p == nil {
		return "", usageErr("%s has no %s: the debate never finished its setup", d.Dir, d.Lang.Names().Problem)
	}
	raw, err := safefs.ReadFile(p.Path, 0)
	if err != nil {
		return "", &bugfolder.InputError{Path: p.Path, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	doc, err := bugfolder.ParseDocument(raw)
	if err != nil {
		return "", &bugfolder.InputError{Path: p.Path, Msg: err.Error()}
	}
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", d.Lang.Names().Problem)
	if p.Mode != "" {
		fmt.Fprintf(&w, "mode **%s** · N=%d · R=%d · %s %s · p_sha256 `%s`\n\n", p.Mode, p.N, p.R, finalWord(d), orDash(p.Judge), orDash(p.PSHA256))
	}
	w.WriteString(strings.TrimSpace(doc.Body) + "\n")
	return w.String(), nil
}

func showRound(reg *bugfolder.Register, d *bugfolder.Debate, k int) (string, error) {
	var r *bugfolder.Round
	for _, x := range d.Rounds {
		if x.K == k {
			r = x
		}
	}
	if r == nil {
		var have []string
		for _, x := range d.Rounds {
			have = append(have, fmt.Sprint(x.K))
		}
		return "", usageErr("round %d has no folder in %s (rounds present: %s)", k, reg.Rel(d.Dir), orDash(strings.Join(have, ", ")))
	}
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", d.Lang.RoundDir(k))
	solvers, critics := solverIDs(d)
	ids := append(append([]string{}, solvers...), critics...)
	for _, f := range r.Files {
		found := false
		for _, id := range ids {
			if id == f.SolverID {
				found = true
			}
		}
		if !found {
			ids = append(ids, f.SolverID)
		}
	}
	for _, id := range ids {
		f := r.File(id)
		if f == nil {
			fmt.Fprintf(&w, "## %s — no file\n\nThe call did not finish (not run yet, running, or interrupted).\n\n", id)
			continue
		}
		fmt.Fprintf(&w, "## %s — %s\n\n", id, f.Status)
		meta := []string{"engine " + orDash(f.Engine)}
		if dd := f.Duration(); dd > 0 {
			meta = append(meta, humanDuration(dd))
		}
		if f.TokensIn+f.TokensOut > 0 {
			est := ""
			if f.TokensEstimated {
				est = " (estimated)"
			}
			meta = append(meta, fmt.Sprintf("%s→%s tokens%s", digits.Grouped(f.TokensIn), digits.Grouped(f.TokensOut), est))
		}
		if f.Attempt > 1 {
			meta = append(meta, fmt.Sprintf("attempt %d", f.Attempt))
		}
		if f.Amendment != "" {
			meta = append(meta, "amended: "+f.Amendment)
		}
		fmt.Fprintf(&w, "%s\n\n", strings.Join(meta, " · "))
		if f.Error != "" {
			fmt.Fprintf(&w, "> error: %s\n\n", f.Error)
		}
		for _, inv := range f.Invalid {
			fmt.Fprintf(&w, "> invalid: %s\n\n", inv)
		}
		body := strings.TrimSpace(f.Body)
		switch {
		case body == "":
			w.WriteString("_(no answer)_\n\n")
		case f.Status == bugfolder.StatusOK:
			w.WriteString(demote(body) + "\n\n")
		default:
			fence := bugfolder.FenceFor(body)
			fmt.Fprintf(&w, "%s\n%s\n%s\n\n", fence, body, fence)
		}
	}
	return w.String(), nil
}

// demote pushes a body's headings one level down so they nest under the
// debater's own heading.
func demote(body string) string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "#") {
			line = "#" + line
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func showConvergence(d *bugfolder.Debate) (string, error) {
	if strings.TrimSpace(d.Convergence) == "" {
		return "", usageErr("%s has no %s yet (it is written after each round)", d.Dir, d.Lang.Names().Convergence)
	}
	return d.Convergence, nil
}

func showFinal(d *bugfolder.Debate) (string, error) {
	f := d.Final
	if f == nil {
		return "", usageErr("%s has no %s: the debate is %s", d.Dir, d.Lang.Names().Final, d.State)
	}
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", d.Lang.Names().Final)
	var meta []string
	if len(f.Labels) > 0 {
		var ls []string
		for _, kv := range f.Labels {
			ls = append(ls, kv.Key+" = "+kv.Value)
		}
		meta = append(meta, "labels: "+strings.Join(ls, ", "))
	}
	words := engine.Describe(protocolFor(d))
	if f.DecidedBy == string(bugfolder.PointJudge) {
		meta = append(meta, "decided by "+words.Final)
	} else if f.DecidedBy != "" {
		meta = append(meta, "decided by "+f.DecidedBy)
	}
	if f.Of > 0 {
		meta = append(meta, fmt.Sprintf("%d of %d %s took part", f.Participants, f.Of, words.Members))
	}
	if len(meta) > 0 {
		w.WriteString(strings.Join(meta, " · ") + "\n\n")
	}
	w.WriteString(strings.TrimSpace(f.Body) + "\n")
	return w.String(), nil
}

// criticsOnDisk counts the distinct critics whose files the rounds hold (a
// hand-run debate's problema.md may name none).
func criticsOnDisk(d *bugfolder.Debate) int {
	seen := map[string]bool{}
	for _, r := range d.Rounds {
		for _, f := range r.Files {
			if f.Role == bugfolder.RoleCritic {
				seen[f.SolverID] = true
			}
		}
	}
	return len(seen)
}

// frozenLenses names each participant's frozen lens, in solver order.
func frozenLenses(p *bugfolder.ProblemFile) string {
	var parts []string
	for _, kv := range p.Solvers {
		if l, ok := p.Lenses[kv.Key]; ok {
			parts = append(parts, kv.Key+" "+termsafeLine(l.Name))
		}
	}
	return strings.Join(parts, ", ")
}

// argueRows are an argue debate's own lines of the summary, read from its
// own files: why it stopped (or that it runs) after how many rounds of the
// cap, and where its whole transcript is.
func argueRows(reg *bugfolder.Register, d *bugfolder.Debate) [][2]string {
	var rows [][2]string
	if v, ok := argue.ReadView(d.Dir); ok {
		rows = append(rows, [2]string{"termination", fmt.Sprintf("%s (rounds 0 to %d ran; cap %d after round 0)", termsafeLine(v.Reason), v.Rounds-1, v.Cap)})
	}
	if p := filepath.Join(d.Dir, argue.Transcript); isFile(p) {
		rows = append(rows, [2]string{"transcript", "`" + reg.Rel(p) + "` (every round with its scores, the termination, the synthesis: `moot transcript " + subjectID(d) + "`)"})
	}
	return rows
}

// isFile reports whether p is a regular file (never through a symlink).
func isFile(p string) bool {
	f, err := safefs.OpenRegular(p)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// reportProblems prints what could not be read in a debate folder (after
// what could) and makes it exit 2.
func reportProblems(e *env, d *bugfolder.Debate) error {
	for _, p := range d.Problems {
		fmt.Fprintf(e.stderr, "moot: %s\n", termsafe.Text(p.Error()))
	}
	if len(d.Problems) > 0 {
		return &exitError{code: ExitUsage, quiet: true}
	}
	return nil
}

// protocolFor is a debate's protocol for its hints (nil, read as the
// debate protocol, when this moot does not run the one it names).
func protocolFor(d *bugfolder.Debate) engine.Protocol {
	p, err := protocolOf(d)
	if err != nil {
		return nil
	}
	return p
}

// finalWord names a debate's final step in its protocol's words.
func finalWord(d *bugfolder.Debate) string { return engine.Describe(protocolFor(d)).Final }

// councilEscalation says what a council's escalation flag means.
func councilEscalation(e string, reasons []string) string {
	switch {
	case e != council.EscalationHuman && e != council.EscalationEscalate:
	case len(reasons) > 0: // what the council recorded: the stakes, a low convergence…
		return e + ": " + strings.Join(reasons, "; ") + " (see resposta-final.md)"
	case e == council.EscalationHuman:
		return "human: synthesis confidence under 50 %, the decision goes straight to a human (see resposta-final.md)"
	default:
		return "escalate: the reasons are in resposta-final.md"
	}
	return "none: convergence and synthesis confidence at 70 % or more, no critical divergence"
}

// capital is w with its first letter in capitals (a section's title).
func capital(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// startedText writes a debate's start with the precision its files gave:
// a date alone as that date, a time without an offset as written (the
// writer's wall clock in a zone it did not name), a full time in UTC.
func startedText(t time.Time, form bugfolder.TimeForm) string {
	switch form {
	case bugfolder.TimeDay:
		return t.Format("2006-01-02") + " (a date alone: the files give no time of day)"
	case bugfolder.TimeNoZone:
		return t.Format("2006-01-02 15:04:05") + " (as written: the files give no time zone)"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// unknownStart says why a debate's start is unknown: no start written
// anywhere, or one written in a form moot cannot read (named with its
// file and field, and what to write instead).
func unknownStart(d *bugfolder.Debate) string {
	path, field, value := d.UnreadStart()
	if path == "" {
		return "unknown (no created_at in problema.md, no started_at in its files)"
	}
	if rel, err := filepath.Rel(d.Dir, path); err == nil {
		path = rel
	}
	return fmt.Sprintf("unknown: %s %q in %s is not a date moot reads (write 2026-10-04, 2026-10-04T10:00:00 or 2026-10-04T10:00:00-03:00)", field, value, path)
}

// runningCalls is the calls row of a debate another moot runs: the live
// header's figure — finished over the plan's count, those in flight apart
// ("3/10 (3 running)") — then the calls started, as the row says them once
// the debate has ended.
func runningCalls(d *bugfolder.Debate) string {
	made, open := d.ModelCalls(), len(bugfolder.OpenCalls(d.Events))
	planned, _ := bugfolder.PlannedCalls(d.Events)
	figure := fmt.Sprintf("%d/%d", made-open, max(planned, made))
	if planned == 0 {
		figure = fmt.Sprintf("%d finished", made-open)
	}
	if open > 0 {
		figure += fmt.Sprintf(" (%d running)", open)
	}
	return fmt.Sprintf("%s, as the live header counts them; %d model calls started (retried attempts included)", figure, made)
}
