package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/termsafe"
)

// The browser's preview: the selected row's final synthesis (or its
// problem, or a review's summary), rendered off the UI goroutine.

// previewKey names the preview of the selected row.
func (b browser) previewKey(width int) (docKey, bool) {
	r := b.selected()
	if r != nil && r.rev != nil { // a review: its summary, once written
		p := r.rev.Summary // "" until written (listReviewsCmd looks)
		if p == "" {
			return docKey{}, false
		}
		return docKey{path: p, width: width}, true
	}
	if r == nil || r.sum == nil {
		return docKey{}, false
	}
	s := r.sum
	switch {
	case s.Latest != nil && s.Latest.Final != nil:
		f := s.Latest.Final
		return docKey{path: f.Path, width: width, part: "synthesis", version: f.DebateID + " " + f.FinishedAt.String()}, true
	case s.Latest != nil && s.Latest.Problem != nil:
		return docKey{path: s.Latest.Problem.Path, width: width, version: s.Latest.Problem.SHA256}, true
	}
	return docKey{path: s.Bug.Path(), width: width}, true
}

// previewWidth is the inner width of the preview pane (false: no preview).
func (f frame) previewWidth() (int, bool) {
	return f.lay.prevInnerW, f.lay.browseMode != "none"
}

func (b *browser) wantPreview(f *frame) []tea.Cmd {
	w, ok := f.previewWidth()
	if !ok {
		return nil
	}
	k, ok := b.previewKey(w)
	if !ok || f.pending[k] {
		return nil
	}
	if _, done := f.docs[k]; done {
		return nil
	}
	f.pending[k] = true
	var transform func(string) string
	if k.part == "synthesis" {
		transform = synthesisOnly
	}
	cmds := []tea.Cmd{renderFileCmd(k, glamourStyle(f.dark, f.opts.NoColor), transform)}
	if r := b.selected(); r != nil && r.rev == nil && r.sum != nil && !r.sum.Bug.IsQuestion {
		if fk := factsKey(r.sum.Bug); !f.pending[fk] {
			if _, done := f.docs[fk]; !done {
				f.pending[fk] = true
				cmds = append(cmds, bugFactsCmd(fk, r.sum.Bug, glamourStyle(f.dark, f.opts.NoColor)))
			}
		}
	}
	return cmds
}

// factsKey names the preview's line of a bug's notable facts (bugfolder's
// Bug.NotableFacts: express, mitigated, blocked, fix state…).
func factsKey(b *bugfolder.Bug) docKey { return docKey{path: b.Path(), part: "facts"} }

// bugFactsCmd reads the bug in full, off the screen's loop, for its facts.
func bugFactsCmd(key docKey, b *bugfolder.Bug, style string) tea.Cmd {
	return func() tea.Msg {
		full, err := b.Full()
		if err != nil {
			return docMsg{key: key, style: style}
		}
		return docMsg{key: key, out: strings.Join(full.NotableFacts(), " · "), style: style}
	}
}

// synthesisOnly keeps the synthesis of a final answer (everything after its
// synthesis heading); other documents pass unchanged.
func synthesisOnly(body string) string {
	for _, h := range []string{"\n## Síntese", "\n## Synthesis"} {
		if i := strings.Index("\n"+body, h); i >= 0 {
			return strings.TrimSpace(body[i+len(h)-1:])
		}
	}
	return body
}

func (b browser) viewPreview(f *frame, w, h int) string {
	pw, _ := f.previewWidth()
	k, ok := b.previewKey(pw)
	box := f.st.Pane.Width(w).Height(h)
	if !ok {
		return box.Render(f.st.Subtle.Render("no preview"))
	}
	out, done := f.docs[k]
	if !done {
		out = f.st.Subtle.Render("rendering…")
	}
	lines := strings.Split(out, "\n")
	if ll := b.lensLine(f); ll != "" {
		lines = append([]string{ll}, lines...)
	}
	if r := b.selected(); r != nil && r.rev == nil && r.sum != nil {
		if facts := f.docs[factsKey(r.sum.Bug)]; facts != "" {
			lines = append([]string{f.st.Subtle.Render("bug: ") + ansi.Truncate(termsafe.Line(facts), max(0, w-7), "…")}, lines...)
		}
	}
	if len(lines) > h-2 {
		lines = lines[:max(0, h-2)]
	}
	return box.Render(strings.Join(lines, "\n"))
}
