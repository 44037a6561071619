package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestQuitDialogsAskAlike: the question q asks over a running debate and
// over a running review lists the same answers in the same order (leave
// it, resumable; keep watching), with keep watching chosen by default,
// and says what leaving keeps in the same words.
func TestQuitDialogsAskAlike(t *testing.T) {
	t.Parallel()
	menu := quitMenu("BUG-20260715-A7K3", false)
	menu.form.Init()
	debate := ansi.Strip(frame{w: 100, h: 30}.fitForm(menu.form, 80, 0).View())
	review := ansi.Strip(newStopReviewAsk("20261202-005400").view(NewStyles(true), 100))
	for name, text := range map[string]string{"debate": debate, "review": review} {
		leave, stay := strings.Index(text, "Leave it, resumable"), strings.Index(text, "Keep watching")
		if leave < 0 || stay < 0 || leave > stay {
			t.Errorf("the %s's quit question does not list leave, then keep watching:\n%s", name, text)
			continue
		}
		if !strings.Contains(text, "everything written is kept") {
			t.Errorf("the %s's quit question does not say what leaving keeps:\n%s", name, text)
		}
		stayLine := text[strings.LastIndex(text[:stay], "\n")+1 : stay]
		if !strings.ContainsAny(stayLine, ">▸") {
			t.Errorf("the %s's quit question does not default to keep watching:\n%s", name, text)
		}
	}
}
