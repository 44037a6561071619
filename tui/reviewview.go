package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/termsafe"
)

// reviewView is the review screen: the review read from disk and which
// tab (0 the panes, 1 the route table, 2 the summary) is shown.
type reviewView struct {
	*reviewData
	tab int
	// focus is the lens pane enter zooms (↑/↓ move it).
	focus int
	// rendered keeps the last document glamour rendered, so a frame that
	// shows the same text at the same width does not render it again.
	rendered renderedDoc
	// zoomed is the routes or summary document rendered for the zoom (at
	// the window's width, in a command: never in Update); zoomWant is the
	// one asked for and not back yet.
	zoomed, zoomWant renderedDoc
}

// renderedDoc is a Markdown text rendered at a width in a style.
type renderedDoc struct {
	md, style string
	w         int
	out       string
}

// reviewTabs are the review view's tabs.
var reviewTabs = []string{"panes", "routes", "summary"}

// awaitsDecision reports whether the review waits for a human (it
// stalled, or it holds).
func (r *reviewView) awaitsDecision() bool { return r.st.WaitsDecision }

// decideReview records the decision on a stalled review off the UI
// goroutine, through the same function as moot decide (decisao.md).
func (s reviewState) decideReview(f *frame, mn *menu) tea.Cmd {
	project := ""
	if f.opts.Register != nil {
		project = f.opts.Register.Project
	}
	dir, choice, note, opts, k := s.view.dir, bugfolder.Choice(mn.choice), mn.note, f.opts, f.opts.keeper()
	return func() tea.Msg {
		by := opts.decider(context.Background(), project)
		err := k.DecideRecord(dir, choice, note, by, opts.Now)
		return decidedMsg{dir: dir, choice: choice, by: by, err: err}
	}
}

// followReview is the watch tick's look at the review on screen; the
// latest round is followed as new rounds begin.
func (s reviewState) followReview(f *frame) tea.Cmd {
	round := s.view.round
	if round == s.view.rounds {
		round = 0
	}
	return checkReviewCmd(f.opts.keeper(), s.view.dir, round, s.view.stamp)
}

// reviewDoc renders a review's document (Markdown) to the body's height.
func (s reviewState) reviewDoc(f *frame, md string, h int) string {
	if md == "" {
		return f.st.Subtle.Render("not written yet")
	}
	style := glamourStyle(f.dark, f.opts.NoColor)
	if d := s.view.rendered; d.md != md || d.w != f.lay.docW || d.style != style {
		s.view.rendered = renderedDoc{md: md, style: style, w: f.lay.docW, out: RenderMarkdown(md, f.lay.docW, style)}
	}
	lines := strings.Split(strings.TrimRight(s.view.rendered.out, "\n"), "\n")
	if len(lines) > h { // say how much is left (enter zooms it whole)
		n := len(lines) - max(0, h-1)
		lines = append(lines[:max(0, h-1)], f.st.Subtle.Render(fmt.Sprintf("… %d more lines (moot show prints it all)", n)))
	}
	return strings.Join(lines, "\n")
}

// renderLensPanes draws a round's lenses as a grid of boxes, as the
// debate view draws its calls.
func (s reviewState) renderLensPanes(f *frame, panes []*lensPane, w, h int) string {
	cols, rows := gridShape(len(panes), w, h)
	paneW, paneH := w/cols, h/rows
	var out []string
	for row := 0; row < rows; row++ {
		var boxes [][]string
		for c := 0; c < cols; c++ {
			if i := row*cols + c; i < len(panes) {
				boxes = append(boxes, s.lensBox(f, panes[i], paneW, paneH, i == s.view.focus))
			}
		}
		for l := 0; l < paneH; l++ {
			var b strings.Builder
			for _, box := range boxes {
				b.WriteString(box[l])
			}
			out = append(out, b.String())
		}
	}
	return strings.Join(out, "\n")
}

// paneClip is how much of a lens's reason a pane shows; the zoom shows
// more, and each finding whole.
const paneClip = 400

// lensBox is one lens as w×h lines: its lensLines in a box; a lens
// taller than the box ends in "… N more" (enter zooms it whole).
func (s reviewState) lensBox(f *frame, p *lensPane, w, h int, focused bool) []string {
	innerW, innerH := max(4, w-2), max(1, h-2)
	content := s.lensLines(f, p, innerW, paneClip)
	border := f.st.Pane
	if focused {
		border = f.st.PaneFocus
	}
	edge := lipgloss.NewStyle().Foreground(border.GetBorderTopForeground())
	// the focused lens's border is heavy, as a debate's focused pane: seen without colour
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	if focused {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
	}
	bar := edge.Render(vt)
	out := []string{edge.Render(tl + strings.Repeat(hz, innerW) + tr)}
	for i := 0; i < innerH; i++ {
		line := ""
		if i < len(content) {
			line = content[i]
			if i == innerH-1 && len(content) > innerH {
				line = f.st.Subtle.Render(fmt.Sprintf("… %d more", len(content)-innerH+1))
			}
		}
		out = append(out, bar+fitCells(line, innerW)+bar)
	}
	return append(out, edge.Render(bl+strings.Repeat(hz, innerW)+br))
}

// reviewZoom is the zoom's text: the focused lens whole, wrapped to the
// window, or the tab's document.
func (s reviewState) reviewZoom(f *frame) string {
	r := s.view
	if r == nil {
		return ""
	}
	switch r.tab {
	case 0:
		if r.focus < len(r.panes) {
			return strings.Join(s.lensLines(f, r.panes[r.focus], max(10, f.w-2), 64<<10), "\n")
		}
		return ""
	}
	want := s.reviewZoomDoc(f)
	switch {
	case want.md == "":
		return f.st.Subtle.Render("not written yet")
	case want.same(r.zoomed):
		return r.zoomed.out
	}
	return termsafe.Text(want.md) // plain until the rendering arrives
}

// reviewZoomDoc is the document the routes or summary tab zooms: its
// Markdown at the window's width in the current style, not rendered yet.
func (s reviewState) reviewZoomDoc(f *frame) renderedDoc {
	md := s.view.routes
	if s.view.tab == 2 {
		md = s.view.sum
	}
	return renderedDoc{md: md, style: glamourStyle(f.dark, f.opts.NoColor), w: max(10, f.w-2)}
}

// same reports whether two renderings are of one text, width and style.
func (d renderedDoc) same(o renderedDoc) bool {
	return d.md == o.md && d.w == o.w && d.style == o.style
}

// reviewDocMsg delivers a review's document rendered for the zoom.
type reviewDocMsg struct {
	dir string
	doc renderedDoc
}

// wantDoc asks for the zoomed routes or summary document when it is
// not rendered (nor asked for) yet: glamour runs in the command.
func (s *reviewState) wantDoc(f *frame, z *zoomState) []tea.Cmd {
	r := s.view
	if !z.on || r == nil || r.tab == 0 {
		return nil
	}
	want := s.reviewZoomDoc(f)
	if want.md == "" || want.same(r.zoomed) || want.same(r.zoomWant) {
		return nil
	}
	r.zoomWant = want
	dir := r.dir
	return []tea.Cmd{func() tea.Msg {
		want.out = RenderMarkdown(want.md, want.w, want.style)
		return reviewDocMsg{dir: dir, doc: want}
	}}
}

// gotDoc shows a rendered document in the zoom if it is still the
// one the zoom shows (the user's place kept through a re-render).
func (s *reviewState) gotDoc(f *frame, z *zoomState, d *debateState, msg reviewDocMsg) {
	r := s.view
	if r == nil || r.dir != msg.dir {
		return
	}
	if msg.doc.same(r.zoomWant) {
		r.zoomWant = renderedDoc{}
	}
	if !z.on || r.tab == 0 || !msg.doc.same(s.reviewZoomDoc(f)) {
		return
	}
	r.zoomed = msg.doc
	off := z.vp.YOffset()
	z.set(f, d, msg.doc.out)
	z.vp.GotoTop()
	if z.hold {
		z.vp.SetYOffset(off)
	}
}

// reviewZoomTitle names what the review's zoom shows.
func (s reviewState) reviewZoomTitle() string {
	if r := s.view; r != nil && r.tab == 0 && r.focus < len(r.panes) {
		return fmt.Sprintf("review %s · round %d · %s", r.st.ID, r.round, r.panes[r.focus].lens)
	}
	if r := s.view; r != nil {
		return fmt.Sprintf("review %s · %s", r.st.ID, reviewTabs[r.tab])
	}
	return "review"
}

// lensLines is a lens's text wrapped at word boundaries to w cells: its
// name and status, the rung that sat (engine and family), its findings,
// its reason (clipped to clip runes) and every rejected rung with why.
func (s reviewState) lensLines(fr *frame, p *lensPane, w, clip int) []string {
	badge := fr.st.Badge(p.status)
	switch {
	case p.status == "waiting":
		badge = fr.st.Subtle.Render("waiting")
	case p.status == "called":
		badge = fr.spin.View() + " " + fr.st.Badge("running")
	case p.status == "UNVERIFIED":
		badge = fr.st.Warning.Render(p.status)
	case p.dry:
		badge += fr.st.Subtle.Render(" (dry)")
	}
	content := wrapStyled(fr.st.Bold.Render(p.lens)+" · "+badge, w, "", nil)
	if p.engine != "" {
		seat := p.engine
		if p.family != "" {
			seat += " (" + p.family + ")"
		}
		content = append(content, wrapStyled("sat: "+seat, w, "  ", fr.st.Subtle.Render)...)
	}
	if p.status != "waiting" && p.status != "called" {
		content = append(content, severities(p.findings, s.view.sevs))
	}
	for _, f := range p.findings {
		content = append(content, wrapStyled("  "+f.Severity+": "+termsafe.Line(f.Claim), w, "    ", nil)...)
		if clip > paneClip { // the zoom shows the whole finding: where, its evidence, what follows
			for _, kv := range [][2]string{{"file", f.File}, {"evidence", f.Evidence}, {"impact", f.Impact}, {"follow-up", f.FollowUp}} {
				if strings.TrimSpace(kv[1]) != "" {
					content = append(content, wrapStyled("    "+kv[0]+": "+termsafe.Line(kv[1]), w, "      ", fr.st.Subtle.Render)...)
				}
			}
		}
	}
	if clip > paneClip { // the zoom says what the seat checked, as its verdict names it
		for _, c := range p.checked {
			content = append(content, wrapStyled("  checked: "+termsafe.Line(c), w, "    ", fr.st.Subtle.Render)...)
		}
	}
	if p.reason != "" {
		content = append(content, wrapStyled(clipLine(p.reason, clip), w, "", nil)...)
	}
	for _, why := range p.rejected {
		content = append(content, wrapStyled("rejected "+termsafe.Line(why), w, "  ", fr.st.Warning.Render)...)
	}
	return content
}

// ReviewDoneMsg tells a review view opened by NewReview that the review's
// run ended: it reads the folder once more and q leaves.
type ReviewDoneMsg struct{}

// NewReview is the review view alone, following dir while moot review
// runs it in the same process (moot review on a terminal): its panes
// update as the verdicts land; q or ctrl+c leaves (a review still running
// is then stopped by the caller, as a signal stops it).
func NewReview(dir string, opts Options) Model {
	m := New(opts)
	m.screen, m.rv.alone = scrReview, dir
	return m
}
