package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
)

// typedAhead hands the model msgs one after another before any command
// they return has run — keys typed (or pasted) faster than the form moves
// to its next field, whose move is a message of its own — then runs the
// commands and feeds their messages back.
func typedAhead(t *testing.T, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	var cmds []tea.Cmd
	for _, msg := range msgs {
		nm, cmd := m.Update(msg)
		m = nm.(Model)
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		for _, msg := range run(c) {
			m = pump(t, m, msg)
		}
	}
	return m
}

// TestTypedAheadTextLandsInTheNextField: text typed or pasted right after
// enter goes to the field enter moved to — the next one on the page, or
// the first of the next page — never to the field just left.
func TestTypedAheadTextLandsInTheNextField(t *testing.T) {
	t.Parallel()
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	backspace := tea.KeyPressMsg{Code: tea.KeyBackspace}
	for _, tc := range []struct {
		name string
		// to walks to the field typed in; ahead is typed right after enter
		to    []string
		ahead []tea.Msg
		check func(w *wizard) (got, want string)
	}{
		{"the next field of the page", []string{"enter", "enter"}, // debate: mode; N is "3"
			[]tea.Msg{enter, backspace, keyMsg("4")},
			func(w *wizard) (string, string) { return "N=" + w.nStr + " R=" + w.rStr, "N=3 R=4" }},
		{"a paste into the next field", []string{"enter", "enter"},
			[]tea.Msg{enter, backspace, tea.PasteMsg{Content: "1"}},
			func(w *wizard) (string, string) { return "N=" + w.nStr + " R=" + w.rStr, "N=3 R=1" }},
		{"the first field of the next page", []string{"down", "enter", "enter", "enter"}, // tradeoff: mode, R; on the engines' choice
			[]tea.Msg{enter, keyMsg("x"), keyMsg("y")},
			func(w *wizard) (string, string) { return "option A " + w.optA, "option A xy" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			opts := protocolOptions(f, t)
			opts.Proposals = nil
			m := sized(t, opts, 80, 24)
			m = keys(t, m, tc.to...)
			m = typedAhead(t, m, tc.ahead...)
			if got, want := tc.check(m.wiz); got != want {
				t.Errorf("typed ahead of the move: %s, want %s:\n%s", got, want, screenText(m, f.proj))
			}
		})
	}
}

// TestANoteTypedAheadLandsWholeInTheDecision: on the human decision's
// menu, a note typed right after enter chose revise lands whole in the
// note (huh moves to it by a message; its first letter went to the
// choice), and decisao.md records it whole.
func TestANoteTypedAheadLandsWholeInTheDecision(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := makePending(t, f)
	fakeWho(f)
	m := loadBrowser(t, f, 80, 24)
	m = keys(t, m, "enter", "d", "down", "down")
	var ahead []tea.Msg
	ahead = append(ahead, tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, k := range []string{"l", "o", "c", "k", "s"} {
		ahead = append(ahead, keyMsg(k))
	}
	m = typedAhead(t, m, ahead...)
	m = keys(t, m, "enter")
	raw, err := os.ReadFile(filepath.Join(dir, bugfolder.DecisionFile))
	if err != nil {
		t.Fatalf("no decisao.md: %v\n%s", err, screenText(m, f.proj))
	}
	if dec, err := bugfolder.ParseDecision("decisao.md", raw); err != nil || dec.Choice != bugfolder.ChoiceRevise || dec.Note != "locks" {
		t.Fatalf("decisao.md: %+v %v", dec, err)
	}
}
