package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestQuitDialogsAskAlike: the question q asks over a running debate and
// over a running review is the one dialog: the same answers in the same
// order (leave it, resumable; keep watching), keep watching chosen by
// default with the same cursor, and what leaving keeps in the same words.
func TestQuitDialogsAskAlike(t *testing.T) {
	t.Parallel()
	menu := quitMenu("debate", "BUG-20260715-A7K3", false)
	menu.form.Init()
	debate := ansi.Strip(frame{w: 100, h: 30}.fitForm(menu.form, 80, 0).View())
	f := newFixture(t)
	rf := runningReview(t, f)
	m := NewReview(rf.f.Dir, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
	m = pump(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, msg := range run(m.Init()) {
		m = pump(t, m, msg)
	}
	review := screenText(keys(t, m, "q"), "")
	cursor := func(text string) string { // what stands before "Keep watching" on its line
		at := strings.Index(text, "Keep watching")
		line := text[strings.LastIndex(text[:at], "\n")+1 : at]
		if box := strings.LastIndex(line, "│"); box >= 0 { // the dialog's box over the panes
			line = line[box+len("│"):]
		}
		return strings.TrimSpace(line)
	}
	for name, text := range map[string]string{"debate": debate, "review": review} {
		leave, stay := strings.Index(text, "Leave it, resumable"), strings.Index(text, "Keep watching")
		if leave < 0 || stay < 0 || leave > stay {
			t.Errorf("the %s's quit question does not list leave, then keep watching:\n%s", name, text)
			continue
		}
		if !strings.Contains(text, "Leave this "+name+"?") || !strings.Contains(text, "everything written is kept") {
			t.Errorf("the %s's quit question does not say what it asks and what leaving keeps:\n%s", name, text)
		}
		if c := cursor(text); c != cursor(debate) || !strings.Contains(c, ">") {
			t.Errorf("the %s's quit question marks keep watching with %q, the debate's with %q:\n%s", name, c, cursor(debate), text)
		}
	}
}

// TestQuitDialogBreaksALongIDBetweenItsParts: at 60×15 the leave question
// over a question's run names its 55-character ID in "moot resume ID
// continues it." cut after one of its '-' (the one wrap rule, wordWrap),
// never in the middle of a word ("webhooks-fo" / "rever").
func TestQuitDialogBreaksALongIDBetweenItsParts(t *testing.T) {
	t.Parallel()
	m, id := questionLive(t, 60, 15)
	m = keys(t, m, "q")
	if !menuDrawn(m, menuQuit) {
		t.Fatalf("q does not draw the leave question:\n%s", screenText(m, ""))
	}
	text := screenText(m, "")
	var pieces []string
	for _, l := range strings.Split(text, "\n") {
		for _, word := range strings.Fields(strings.Trim(l, " │┃")) {
			if word != "" && (strings.Contains(id, word) || strings.Contains(word, id)) && len(word) > 3 {
				pieces = append(pieces, word)
			}
		}
	}
	if strings.Join(pieces, "") != id {
		t.Fatalf("the ID does not read whole in the dialog (pieces %q):\n%s", pieces, text)
	}
	for _, p := range pieces[:len(pieces)-1] {
		if !strings.HasSuffix(p, "-") {
			t.Errorf("the ID is broken inside a word, after %q:\n%s", p, text)
		}
	}
	goldenScreen(t, m, "")
}
