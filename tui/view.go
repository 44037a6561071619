package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/label"
	"github.com/reversa/moot/internal/midcut"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
)

// View draws the screen.
func (m Model) View() tea.View {
	// every frame and the window title pass the one sanitizer: a name the
	// repository chose (a folder, a file, a lock's host) is shown, never
	// obeyed, whichever view drew it; moot's own colours stay
	v := tea.NewView(termsafe.Styled(m.Render()))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = termsafe.Line(m.windowTitle())
	return v
}

// Render draws the current screen as a string of exactly the window's size.
func (m Model) Render() string {
	var parts []string
	if m.opts.Banner != "" {
		parts = append(parts, m.st.Subtle.Render(bannerLine(m.opts.Banner, m.w)))
	}
	body := m.screenView()
	parts = append(parts, body)
	out := strings.Join(parts, "\n")
	if m.helpv.on {
		out = m.overlay(out, m.helpv.helpBox(&m.frame, m.helpRowsOf()))
	}
	if m.dlg.ask != nil {
		out = m.overlay(out, m.dlg.ask.view(m.st, m.w))
	}
	if m.dlg.menu != nil && (m.dlg.menu.kind == menuTrust && m.screen != scrDebate || m.screen == scrReviewCost) {
		// the trust question comes first, over whichever screen opens; a
		// review started from its cost screen may reach its cap before
		// the live view opens, and its budget menu is drawn here then
		// (else the menu would take the keys unseen, and the review wait)
		out = m.dlg.over(&m.frame, out) // scrolled as every menu, its choices and keys in sight
	}
	return m.toast.errorOver(&m.frame, m.fit(out))
}

// errorOver shows the error a run ended with over the bottom of the
// frame, wrapped to the width (up to a third of the window), until a key.
func (t toast) errorOver(f *frame, frame string) string {
	if !t.errShown || t.text == "" {
		return frame
	}
	msg := strings.Split(wrapLines(termsafe.Line(t.text)+" (any key)", f.w), "\n")
	if n := max(1, f.h/3); len(msg) > n {
		msg = append(msg[:n-1], ansi.Truncate(msg[n-1], f.w-1, "")+"…")
	}
	lines := strings.Split(frame, "\n")
	at := max(0, len(lines)-len(msg))
	for i, l := range msg {
		if at+i < len(lines) {
			lines[at+i] = f.st.Warning.Render(l)
		}
	}
	return strings.Join(lines, "\n")
}

// fit pads or cuts the frame to the window's size: a line cut at the
// right edge ends with …, so no cut reads as a whole line.
func (f frame) fit(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > f.h {
		lines = lines[:f.h]
	}
	for i, l := range lines {
		if cellWidth(l) > f.w {
			lines[i] = ansi.Truncate(l, f.w, "…")
		}
	}
	for len(lines) < f.h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// overlay draws box centered over base.
func (f frame) overlay(base, box string) string {
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	x, y := max(0, (f.w-bw)/2), max(0, (f.h-bh)/2)
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(base),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render()
}

// footer is the status line: a message when there is one, else key help.
func (t toast) footer(f *frame, help string) string {
	if t.text != "" && f.clock().Before(t.until) && t.screen == f.screen {
		return f.st.Warning.Render(ansi.Truncate(t.text, f.w, "…"))
	}
	return f.st.StatusBar.Render(ansi.Truncate(fitHelp(help, f.w), f.w, "…"))
}

// fitHelp shortens a key help line to a width by dropping keys from its
// middle: the last two ("? keys · q quit") stay.
func fitHelp(help string, w int) string {
	parts := strings.Split(help, " · ")
	for len(parts) > 2 && ansi.StringWidth(strings.Join(parts, " · ")) > w {
		parts = slices.Delete(parts, len(parts)-3, len(parts)-2)
	}
	return strings.Join(parts, " · ")
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wrapStyled wraps plain text at word boundaries to w cells, the lines
// after the first indented by indent, each line styled by style (if any).
func wrapStyled(text string, w int, indent string, style func(...string) string) []string {
	first := strings.Split(wrapLines(text, w), "\n")
	out := first[:1]
	if len(first) > 1 {
		rest := strings.Join(first[1:], " ")
		if strings.HasPrefix(text, first[0]) {
			// the rest as written: a word the first line broke at a hyphen
			// ("debate-" / "2026…") is never given a space
			rest = strings.TrimLeft(text[len(first[0]):], " ")
		}
		out = append(out, strings.Split(wrapLines(rest, max(1, w-len(indent))), "\n")...)
		for i := 1; i < len(out); i++ {
			out[i] = indent + out[i]
		}
	}
	if style != nil {
		for i := range out {
			out[i] = style(out[i])
		}
	}
	return out
}

// fmtInt prints an integer with thousands separators.
func fmtInt(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// debateHeader is the live header: the bug, its title, then round,
// elapsed, calls, tokens, money and status. The title gives way first,
// then the figures take their short forms, then a long ID (a question's)
// is cut in its middle (midcut, as the browser cuts it) to minHeaderID;
// only then do figures go, the ID kept at minHeaderID, and below the
// fewest figures the ID has what they leave. A figure is never cut.
func (s debateState) debateHeader(f *frame) string {
	d := s.deb
	state := s.stateWord()
	round, r := fmt.Sprintf("round %d of %d", d.current, d.r), fmt.Sprintf("r%d/%d", d.current, d.r)
	if d.stopped() { // a stop rule (or a human) ended the rounds before the cap
		round, r = fmt.Sprintf("stopped at round %d, cap %d", d.stopRound, d.r), fmt.Sprintf("r%d■/%d", d.stopRound, d.r)
	}
	if d.cut { // the budget cap cut the rounds: the final step reads the last complete one
		round, r = fmt.Sprintf("cut by the budget at round %d of %d", d.cutRound, d.r), fmt.Sprintf("r%d■/%d", d.cutRound, d.r)
	}
	callsLong, callsShort, callsTight, callsBare := d.callsText()
	long := []string{string(d.mode), round, d.elapsedText(f.now), callsLong, fmtTokens(d.liveTokens()) + " tokens", s.money(d.usd)}
	if d.mode == "" {
		long = long[1:]
	}
	short := []string{r, d.elapsedText(f.now), callsShort, fmtTokens(d.liveTokens()) + " tok", s.money(d.usd)}
	tight := []string{r, d.elapsedText(f.now), callsTight, fmtTokens(d.liveTokens()), s.money(d.usd)}
	id := f.st.Title.Render(d.bugID)
	// below the tight form the least telling figures go first: tokens,
	// the calls in flight, elapsed, calls, round; status and the whole
	// money figure stay
	tighter := [][]string{
		{tight[0], tight[1], tight[2], tight[4]},
		{tight[0], tight[1], callsBare, tight[4]},
		{tight[0], callsBare, tight[4]},
		{tight[0], tight[4]},
		{tight[4]},
	}
	for _, figs := range [][]string{long, short, tight} {
		tail := " · " + strings.Join(figs, " · ") + " · " + f.st.Badge(state)
		room := f.lay.w - ansi.StringWidth(d.bugID) - ansi.StringWidth(tail)
		if room >= 0 {
			title := ""
			if room >= 8 && d.title != "" {
				title = " " + f.st.Subtle.Render(ansi.Truncate(d.title, room-1, "…"))
			}
			return id + title + tail
		}
	}
	// a long ID (a question's folder name) is cut in its middle before any
	// figure goes: every figure stays down to 80 columns
	for _, figs := range [][]string{short, tight} {
		tail := " · " + strings.Join(figs, " · ") + " · " + f.st.Badge(state)
		if room := f.lay.w - ansi.StringWidth(tail); room >= minHeaderID {
			return f.st.Title.Render(midcut.Cut(d.bugID, room)) + tail
		}
	}
	for _, figs := range tighter {
		tail := " · " + strings.Join(figs, " · ") + " · " + f.st.Badge(state)
		if room := f.lay.w - ansi.StringWidth(tail); room >= min(ansi.StringWidth(d.bugID), minHeaderID) {
			return f.st.Title.Render(midcut.Cut(d.bugID, room)) + tail
		}
	}
	// narrower still, the money and the status come first: the ID has
	// what is left, cut in its middle
	tail := " · " + tight[4] + " · " + f.st.Badge(state)
	if room := f.lay.w - ansi.StringWidth(tail); room >= 5 {
		return f.st.Title.Render(midcut.Cut(d.bugID, room)) + tail
	}
	return ansi.Truncate(id+tail, f.lay.w, "…")
}

// minHeaderID is the fewest columns the header shortens a long ID to
// before it drops a figure (a bug's ID, "BUG-20260702-Q2R8", fits whole).
const minHeaderID = 17

// stateWord is the debate's status as the header says it: the words of
// moot list and the browser.
func (d debateState) stateWord() string { return d.deb.state }

// stateNote says what the status means for a debate this UI does not run.
func (dv debateState) stateNote(f *frame, bug *bugfolder.Bug) string {
	d := dv.deb
	switch {
	case f.run.on || d.live || d.state != "running":
		return ""
	case d.heldBy != "":
		return "another moot process runs this debate: " + d.heldBy
	case !dv.canResume(bug):
		return "no moot process runs this debate now; " + dv.noResumeWhy(bug)
	}
	return "no moot process runs this debate now: r resumes it where it stopped"
}

// canResume reports whether r may resume the debate on screen: not a
// closed bug's (DONE.md), not an archived one (resume takes the latest).
func (dv debateState) canResume(bug *bugfolder.Bug) bool { return dv.noResumeWhy(bug) == "" }

// noResumeWhy says why the debate on screen cannot be resumed ("" when
// it can, as far as the bug and the archive go).
func (dv debateState) noResumeWhy(bug *bugfolder.Bug) string {
	switch d := dv.deb; {
	case bug != nil && bug.Done:
		return "the bug is closed by DONE.md"
	case d != nil && d.of > 0 && d.nth < d.of:
		return "an archived debate is kept as it stopped"
	}
	return ""
}

// money prints a debate's cost so far as list, show and the browser do:
// "+unknown" only when a call made recorded no cost ("unknown" when none
// did), and "unknown" from the start when the plan priced no engine, as
// the end will say: never a $0.00 that becomes "unknown".
func (d debateState) money(usd float64) string {
	return moneyOf(usd, d.deb != nil && d.deb.moneyUnknown())
}

// moneyUnknown reports whether the cost so far is partly unknown: a call
// recorded no cost, or none recorded one yet and the plan (when there is
// one) did not price every engine.
func (d *debateView) moneyUnknown() bool {
	return d.unpriced || !d.costed && (!d.hasEstimate || d.estUnknown)
}

// moneyOf prints an amount of which some may have no price (money.Total).
func moneyOf(usd float64, unknown bool) string { return money.Total(usd, unknown) }

// estimate prints an estimated amount ("≈$0.12", "unknown"; money.Estimate).
func estimate(usd float64, unknown bool) string { return money.Estimate(usd, unknown) }

// estimateWords is the plan's estimated cost as the Final tab says it,
// live and from the files alike: the plan's event decides its "+unknown"
// (an engine it priced has no price; a call that recorded no cost marks
// the actual cost, not the estimate).
func (d debateState) estimateWords() string { return estimate(d.deb.estUSD, d.deb.estUnknown) }

// unpriced reports whether one of the engines named has no known price.
func (f frame) unpriced(names ...string) bool {
	if f.opts.Config == nil {
		return false
	}
	for _, name := range names {
		ec, err := f.opts.Config.Engine(name)
		if err != nil || harness.LimitsOf(ec).Price == nil {
			return true
		}
	}
	return false
}

// menuWindow shows n lines of a menu taller than the window: off lines
// up from its end (0: the end, where its choices are), with a line above
// and below saying what more there is and the keys that scroll to it. It
// returns the offset clamped to the menu.
func menuWindow(s string, n, off int) (string, int) {
	lines := strings.Split(s, "\n")
	if n < 3 || len(lines) <= n {
		return s, 0
	}
	top := len(lines) - (n - 1) // the offset that shows the first line
	off = max(0, min(off, top))
	above, below := "↑ more above (pgup)", "↓ more below (pgdn)"
	switch {
	case off == 0:
		lines = append([]string{above}, lines[len(lines)-n+1:]...)
	case off == top:
		lines = append(lines[:n-1], below)
	default:
		end := len(lines) - off
		lines = append(append([]string{above}, lines[end-(n-2):end]...), below)
	}
	return strings.Join(lines, "\n"), off
}

// wrapLines wraps every line of s wider than w at spaces only (wordWrap:
// a flag or a path is never broken at a hyphen; a word longer than w is
// cut): text is never cut mid-line.
func wrapLines(s string, w int) string { return wordWrap(s, max(1, w)) }

// padLines makes text exactly h lines tall.
func padLines(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// viewDoc draws the top of a rendered document.
func (d debateState) viewDoc(f *frame, k docKey, h int) string {
	if k.path == "" || d.deb.dir == "" {
		return f.st.Subtle.Render("not written yet")
	}
	out, ok := f.docs[k]
	if !ok {
		return f.st.Subtle.Render("rendering…")
	}
	return f.cutDoc(out, h)
}

// cutDoc keeps the first h lines of a rendered document, the last of them
// saying that enter shows it all.
func (f frame) cutDoc(out string, h int) string {
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		lines = append(lines[:max(0, h-1)], f.st.Subtle.Render("… enter shows it all"))
	}
	return strings.Join(lines, "\n")
}

func (f frame) finalDocWidth() int { return f.w - 2 }

// viewFinal draws the final answer: who won, the label map, whether it is
// degraded, health, cost against the estimate, convergence, the answer.
func (dv debateState) viewFinal(fr *frame, bug *bugfolder.Bug, menuOpen bool, h int) string {
	d := dv.deb
	if (d.state == "judge-failed" || d.state == "cancelled" && d.judgeFailed) && !fr.run.on && !menuOpen {
		return dv.viewJudgeFailed(fr, bug, h)
	}
	if fr.run.on || d.judge.path == "" {
		if d.judge.status == "" {
			return fr.st.Subtle.Render("the " + dv.words(fr).Final + " has not run yet")
		}
		return dv.renderPanes(fr, []*pane{d.judge}, fr.w, h)
	}
	f := dv.finalFile()
	lines := dv.finalLines(fr, f)
	if d.stopped() {
		lines = append(lines, fmt.Sprintf("stopped at round %d (%s): rounds 0 to %d ran, of a cap of %d", d.stopRound, d.stopRule, d.stopRound, d.r))
	}
	if dl := dv.decisionLine(fr); dl != "" {
		lines = append(lines, dl)
	}
	lines = append(lines, dv.costLine())
	lines = append(lines, dv.costLines(fr, f)...)
	chart := dv.renderChart(fr, fr.w)
	head := wrapLines(strings.Join(lines, "\n")+"\n"+chart, fr.w) + "\n"
	if rest := h - lipgloss.Height(head); rest < minAnswerLines {
		// a short window keeps the answer's first lines: the chart gives
		// way to its one line of figures (the Convergence tab has it all)
		chart = chart[strings.LastIndex(chart, "\n")+1:]
		head = wrapLines(strings.Join(lines, "\n")+"\n"+chart, fr.w) + "\n"
	}
	if lipgloss.Height(head) > h-2 {
		// a tiny window (60×15): the figures give way to the answer's
		// first line and the line that says enter shows it all
		hl := strings.Split(head, "\n")
		head = strings.Join(hl[:max(1, h-3)], "\n") + "\n"
	}
	rest := h - lipgloss.Height(head) // head's last line is the blank above the answer
	k := docKey{path: d.judge.path, width: fr.finalDocWidth()}
	out, ok := fr.docs[k]
	if !ok {
		return head + "\n" + dv.viewDoc(fr, k, max(1, rest))
	}
	return head + "\n" + fr.cutDoc(trimLeadingBlank(out), max(2, rest))
}

// minAnswerLines is how many lines of the final answer the Final tab
// keeps under its figures (the chart gives way first).
const minAnswerLines = 5

// trimLeadingBlank drops the blank lines a rendered document starts with.
func trimLeadingBlank(s string) string {
	for {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 || strings.TrimSpace(ansi.Strip(s[:nl])) != "" {
			return s
		}
		s = s[nl+1:]
	}
}

// viewJudgeFailed says that the judge failed, why, and what can be done
// (the judge-failure menu, opened by resuming), above its last attempt.
func (dv debateState) viewJudgeFailed(f *frame, bug *bugfolder.Bug, h int) string {
	d := dv.deb
	words := dv.words(f)
	why := d.judge.err
	if why == "" {
		why = "its answer could not be used"
	}
	w := max(20, f.lay.w-2)
	lines := []string{
		f.st.Error.Render(fmt.Sprintf("The %s failed (attempt %d)", words.Final, max(1, d.judge.attempt))),
		f.st.Warning.Render(wrapText("why: "+clipLine(why, 400), w)),
		fmt.Sprintf("Nothing is invented: every attempt is kept in the %s's folder.", words.Final),
		"",
	}
	if d.state == "cancelled" {
		lines = append(lines, "The debate was cancelled at the "+words.Final+" menu; resuming asks again.")
	}
	switch {
	case d.heldBy != "":
		lines = append(lines, f.st.Subtle.Render("another moot process runs this debate ("+d.heldBy+"); it asks there"))
	case !dv.canResume(bug):
		lines = append(lines, f.st.Subtle.Render(dv.noResumeWhy(bug)+": it cannot be resumed"))
	case d.handRun:
		lines = append(lines, f.st.Bold.Render("r")+" opens the judge menu: choose the winner yourself, or cancel (run by hand, it records no judge engine to retry)",
			f.st.Subtle.Render(wrapText(fmt.Sprintf("headless: moot resume %s --winner A records your choice · moot run %s starts a new debate", d.bugID, d.bugID), w)))
	case !words.Winner && words.NoDecision:
		lines = append(lines, f.st.Bold.Render("r")+fmt.Sprintf(" opens the %s menu: retry the %s, or cancel", words.Final, words.Final),
			f.st.Subtle.Render(wrapText(fmt.Sprintf("headless: moot resume %s --yes --on-judge-failure retry retries it; its answer waits for no human decision", f.opts.resumeArgsOf(d)), w)))
	case !words.Winner:
		lines = append(lines, f.st.Bold.Render("r")+fmt.Sprintf(" opens the %s menu: retry the %s, or cancel", words.Final, words.Final),
			f.st.Subtle.Render(wrapText(fmt.Sprintf("headless: moot resume %s --yes --on-judge-failure retry retries it; once a synthesis is written, moot decide %s records the human decision", f.opts.resumeArgsOf(d), d.bugID), w)))
	default:
		lines = append(lines, f.st.Bold.Render("r")+" opens the judge menu: retry the judge, choose the winner yourself, or cancel",
			f.st.Subtle.Render(wrapText(fmt.Sprintf("headless: moot resume %s retries it · moot resume %s --winner A records your choice", f.opts.resumeArgsOf(d), f.opts.resumeArgsOf(d)), w)))
	}
	head := wrapLines(strings.Join(lines, "\n"), f.w)
	rest := h - lipgloss.Height(head) - 1
	if rest < 4 || d.judge.status == "" {
		return head
	}
	return head + "\n" + dv.renderPanes(f, []*pane{d.judge}, f.w, rest)
}

// labelWord names an anonymized proposal in the UI's language ("proposal
// B"); the documents keep their own ("Proposta B").
func labelWord(l string) string { return label.Proposal(l) }

// finalFile is the parsed final answer, read when the debate view was built
// or when the run finished.
func (d debateState) finalFile() *bugfolder.Final {
	return d.deb.final
}

// finalMsg delivers the final answer read off the UI goroutine.
type finalMsg struct {
	dir   string
	final *bugfolder.Final
}

func loadFinalCmd(dir, path string) tea.Cmd {
	return func() tea.Msg {
		raw, err := safefs.ReadFile(path, 0)
		if err != nil {
			return finalMsg{dir: dir}
		}
		f, _ := bugfolder.ParseFinal(path, raw)
		return finalMsg{dir: dir, final: f}
	}
}

// helpBox draws the rows of keys in a box that fits the window: each
// description wrapped to the width, and when the rows are taller than
// the window, a window on them that ↑/↓ scroll.
func (hv helpOverlay) helpBox(f *frame, rows [][2]string) string {
	inner := max(10, min(f.w-4, 78)) // the box's border and padding take 4
	var lines []string
	keyW := helpKeyWidth(rows, inner) // the key column and its space
	for _, r := range rows {
		// a description wider than the box wraps under itself, never cut
		desc := strings.Split(wrapLines(r[1], max(8, inner-keyW)), "\n")
		lines = append(lines, ansi.Truncate(padCell(r[0], keyW)+desc[0], inner, "…"))
		for _, more := range desc[1:] {
			lines = append(lines, strings.Repeat(" ", keyW)+more)
		}
	}
	fits := max(1, f.h-6) // border, title, blank, blank, closing line
	closing := "any key closes"
	if len(lines) > fits {
		off := min(hv.off, len(lines)-fits)
		closing = fmt.Sprintf("↑/↓ scroll (%d–%d of %d) · any other key closes", off+1, off+fits, len(lines))
		lines = lines[off : off+fits]
	}
	var b strings.Builder
	b.WriteString(f.st.Title.Render("Keys") + "\n\n")
	b.WriteString(strings.Join(lines, "\n") + "\n")
	b.WriteString("\n" + f.st.Subtle.Render(ansi.Truncate(closing, inner, "…")))
	return f.st.Box.Render(lipgloss.NewStyle().Width(inner).Render(b.String())) // one width: nothing behind shows through
}

// bannerLine fits the banner to w columns: what it says (before its last
// " · ") is kept whole as long as it fits, and the folder after it is cut
// from its start, so its end (the demo's own folder) stays readable.
func bannerLine(b string, w int) string {
	if ansi.StringWidth(b) <= w {
		return b
	}
	i := strings.LastIndex(b, " · ")
	if i < 0 {
		return midcut.Cut(b, w)
	}
	head, path := b[:i+len(" · ")], b[i+len(" · "):]
	room := w - ansi.StringWidth(head)
	if room < 12 { // too narrow for both: what it says comes first
		return ansi.Truncate(b, max(0, w), "…")
	}
	r := []rune(path)
	for ansi.StringWidth(string(r)) > room-1 {
		r = r[1:]
	}
	return head + "…" + string(r)
}

// menuRows is how many lines a menu's box may show inside its border: the
// window less the border and the banner's line (the demo's), so a tall
// menu's bottom border stays on screen.
func (m frame) menuRows() int {
	n := m.h - 2
	if m.opts.Banner != "" {
		n--
	}
	return n
}

// finalLines are the final answer's head: who won or that a synthesis
// stands, the labels, the verdict recommended, who took part, the
// health (none without a final answer).
func (dv debateState) finalLines(fr *frame, f *bugfolder.Final) []string {
	if f == nil {
		return nil
	}
	d := dv.deb
	var lines []string
	words := dv.words(fr)
	by := f.DecidedBy
	if by == "" {
		by = words.Final
	}
	if words.Winner {
		win, decided := label.Winner(f.Winner, f.WinnerSolver), ", decided by "+by
		switch {
		case win == "—" && f.Synthesis:
			win = label.Synthesis
		case win == "—": // as show says it: no winner is not a decision
			win, decided = label.Unread, ""
		}
		lines = append(lines, fr.st.Title.Render("Winner: ")+fr.st.Bold.Render(win)+fr.st.Subtle.Render(decided))
	} else {
		who := ": no winner"
		if dv.deb.awaitsDecision() || dv.deb.decision != "" {
			who += ", a human decides"
		}
		lines = append(lines, fr.st.Title.Render("Synthesis")+fr.st.Subtle.Render(" by the "+words.Final+who))
	}
	var labels []string
	for _, kv := range f.Labels {
		labels = append(labels, kv.Key+" = "+kv.Value)
	}
	sort.Strings(labels)
	if len(labels) == 0 && d.anonymised != "" {
		lines = append(lines, "labels: as the host anonymised them in "+termsafe.Line(d.anonymised)+"; it recorded no label → solver map")
	} else {
		lines = append(lines, "labels: "+strings.Join(labels, " · "))
	}
	if v := f.RecommendedVerdict; v != "" && !strings.Contains(dv.decisionLine(fr), v) {
		lines = append(lines, "verdict: "+termsafe.Line(v)+" (the "+by+"'s recommendation; the spec verdict is the engineer's to take)")
	}
	if f.Of > 0 && f.Participants < f.Of {
		lines = append(lines, fr.st.Warning.Render(fmt.Sprintf("degraded: %d of %d %s took part", f.Participants, f.Of, words.Members)))
	} else if f.Of > 0 {
		lines = append(lines, fmt.Sprintf("%d of %d %s took part", f.Participants, f.Of, words.Members))
	}
	if f.HealthTokensPerContribution > 0 {
		lines = append(lines, fmt.Sprintf("health: %s tokens per accepted contribution (%d accepted)", fmtTokens(int(f.HealthTokensPerContribution)), f.AcceptedContributions))
	}
	return lines
}

// costLine is the final tab's cost: spent, against the estimate, and the
// tokens.
func (dv debateState) costLine() string {
	d := dv.deb
	cost := "cost: " + dv.money(d.usd)
	switch est := dv.estimateWords(); {
	case d.hasEstimate && strings.HasPrefix(est, "unknown") && strings.HasPrefix(dv.money(d.usd), "unknown"):
		cost += " (an engine has no price; nor had the estimate)"
	case d.hasEstimate:
		cost += ", estimated " + est
	}
	cost += " · " + fmtTokens(d.tokens) + " tokens"
	return cost
}
