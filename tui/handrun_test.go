package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// handRunDir is the sample's debate written by hand (no event log, no
// lock) that stopped in round 1.
const handRunDir = "_reversa_bugs/billing/bugs/BUG-20260801-X9Z2-invoice-total-rounding/debate"

// redate moves the hand-run debate's problem date years back, as a bug
// filed long before its debate: a span from it is no elapsed time.
func redate(t *testing.T, proj string) {
	t.Helper()
	p := filepath.Join(proj, handRunDir, "problem.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	raw = regexp.MustCompile(`(?m)^created_at:.*$`).ReplaceAll(raw, []byte("created_at: 2020-01-01T00:00:00Z"))
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestHandRunResumeReasonIsTrue: r on a debate written by
// hand that stopped midway said "nothing to resume here: r resumes an
// interrupted … debate" — of an interrupted debate. It now says what the
// debate lacks, that moot cannot continue it (r and moot resume refuse
// it) and that n starts a new one, wrapped to fit 80 columns.
func TestHandRunResumeReasonIsTrue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 80, 24)
	m = keys(t, m, "j")
	if row := lineWith(screenText(m, f.proj), "BUG-20260801-X9Z2"); !strings.HasPrefix(row, "▸") {
		t.Fatalf("the selected row is not the hand-run debate: %q", row)
	}
	m = keys(t, m, "r")
	text := screenText(m, f.proj)
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"written by hand and stopped midway", "round 1 lacks agent-2, agent-3, critic-1", "cannot continue it", "n starts a new debate"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the reason lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(flat, "nothing to resume here") {
		t.Errorf("the old, untrue reason:\n%s", text)
	}
	goldenScreen(t, m, f.proj)
	if m = keys(t, m, "x"); strings.Contains(strings.Join(strings.Fields(screenText(m, f.proj)), " "), "written by hand and stopped midway") || drawnScreen(m) != "browser" {
		t.Error("a key does not put the reason away")
	}
}

// TestHandRunElapsedIsUnknown: the header of a debate
// written by hand read an elapsed time spanned from its problem's date to
// its last file (years, for a bug filed long before); with no event log
// nothing records it, so it reads "—".
func TestHandRunElapsedIsUnknown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	redate(t, f.proj)
	m := loadBrowser(t, f, 140, 45)
	m = keys(t, m, "j", "enter")
	if got := debateOf(m); got != "BUG-20260801-X9Z2" {
		t.Fatalf("not on the hand-run debate: %q", got)
	}

	m = pump(t, m, nil)
	head := strings.SplitN(screenText(m, f.proj), "\n", 2)[0]
	if !strings.Contains(head, " · — · ") || regexp.MustCompile(`\d+h`).MatchString(head) {
		t.Errorf("header %q: want the elapsed time unknown (—)", head)
	}
}
