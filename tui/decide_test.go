package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// q2r8 is the sample bug whose debate is done; the tests make its final
// answer wait for a human decision, as a spec debate's does.
const q2r8 = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"

// makePending marks the sample Q2R8's final answer as waiting for a human
// decision.
func makePending(t *testing.T, f *fixture) string {
	t.Helper()
	dir := filepath.Join(f.proj, q2r8)
	p := filepath.Join(dir, "resposta-final.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.Replace(string(raw), "---\n", "---\nrecommended_verdict: spec-gap\ndecision: pending\n", 1))
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A result that waits for a human decision is marked ◆ and listed first;
// its Final tab says so, and d opens the form that writes decisao.md
// through the same function as moot decide. revise without a note is
// refused by the form, nothing written.
func TestDecideForm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := makePending(t, f)
	fakeWho(f)
	m := loadBrowser(t, f, 120, 30)
	if top := drawnRows(m)[0]; !strings.HasPrefix(top, "◆") || !strings.Contains(top, "BUG-20260702-Q2R8") {
		t.Fatalf("the pending decision is not first and marked: the first row is %q\n%s", top, screenText(m, f.proj))
	}
	if !strings.Contains(screenText(m, f.proj), "◆") {
		t.Errorf("the browser shows no ◆:\n%s", screenText(m, f.proj))
	}
	if row := lineWith(screenText(m, f.proj), "BUG-20260702-Q2R8"); !strings.HasPrefix(row, "▸") {
		t.Errorf("the browser does not open on the pending decision at the top: %q", row)
	}
	m = keys(t, m, "enter")
	if !strings.Contains(screenText(m, f.proj), "A human decision is pending on the recommended verdict spec-gap: d approve, decline or revise") {
		t.Fatalf("the Final tab does not say a decision waits:\n%s", screenText(m, f.proj))
	}
	// revise with no note: the form stays open, nothing is written
	m = keys(t, m, "d", "down", "down", "enter", "enter")
	if !menuDrawn(m, menuDecide) {
		t.Fatalf("revise without a note closed the form (menu %+v)", m.dlg.menu)
	}
	if _, err := os.Stat(filepath.Join(dir, bugfolder.DecisionFile)); err == nil {
		t.Fatal("revise without a note wrote decisao.md")
	}
	// a space, f and b are text here, not the menu's page keys
	m = keys(t, m, "f", "i", "x", "space", "b", "o", "t", "h", "enter")
	if menuDrawn(m, menuDecide) {
		t.Fatalf("the form is still open after the note: %s", screenText(m, f.proj))
	}
	raw, err := os.ReadFile(filepath.Join(dir, bugfolder.DecisionFile))
	if err != nil {
		t.Fatalf("no decisao.md: %v (status %q)", err, m.toast.text)
	}
	dec, err := bugfolder.ParseDecision("decisao.md", raw)
	if err != nil || dec.Choice != bugfolder.ChoiceRevise || dec.Note != "fix both" || !dec.At.Equal(fixedNow) || dec.By != "Ana <ana@example.org>" {
		t.Fatalf("decisao.md: %+v %v", dec, err)
	}
	if !strings.Contains(screenText(m, f.proj), "decision: revise") || !strings.Contains(screenText(m, f.proj), "decision recorded: revise") {
		t.Errorf("after deciding, the Final tab:\n%s\nstatus %q", screenText(m, f.proj), m.toast.text)
	}
	m = keys(t, m, "d")
	if menuDrawn(m, menuDecide) {
		t.Error("d opens the form again on a decided result")
	}
	m = keys(t, m, "q")
	if drawnScreen(m) != "browser" || strings.Contains(screenText(m, f.proj), "◆") {
		t.Errorf("back in the browser the row still waits (screen %v)", m.screen)
	}
}

// An escalated council's Final tab says it was escalated, and why in
// short, before the pending decision (docs/architecture.md).
func TestDecideEscalatedCouncil(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ flag, want string }{
		{"escalate", "ESCALATED (the reasons are in resposta-final.md). A human decision is pending"},
		{"human", "ESCALATED to a human (synthesis confidence under 50 %). A human decision is pending"},
		// the stakes alone escalated it: the screen names them, not a low convergence
		{"escalate\nescalation_reasons: [value at risk of 200000 (> 100000)]", "ESCALATED (value at risk of 200000 (> 100000)). A human decision is pending"},
	} {
		t.Run(strings.Fields(tc.flag)[0], func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			p := filepath.Join(f.proj, q2r8, "resposta-final.md")
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			raw = []byte(strings.Replace(string(raw), "---\n", "---\nescalation: "+tc.flag+"\ndecision: pending\n", 1))
			if err := os.WriteFile(p, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			m := keys(t, loadBrowser(t, f, 200, 30), "enter")
			if !strings.Contains(screenText(m, f.proj), tc.want) {
				t.Errorf("the Final tab does not say %q:\n%s", tc.want, screenText(m, f.proj))
			}
		})
	}
}
