package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
)

// TestListFitsTheTerminal: on a terminal of 80 or 140 columns every
// record of moot list is one line no wider than the terminal, the title
// is cut first, and no ID is cut (two question IDs that share a long
// prefix stay apart).
func TestListFitsTheTerminal(t *testing.T) {
	t.Parallel()
	tb := table{header: []string{"BUG", "#", "CONTEXT", "STATUS", "PROTOCOL", "MODE", "N×R", "WINNER", "COST", "STARTED", "ELAPSED", "TITLE"},
		flex: 11, flexMin: 12, drop: []int{9, 10, 2, 8, 7, 6, 5, 11, 1}, squeeze: 3,
		rows: [][]string{
			{"BUG-20260720-R5T6", "8", "auth", "interrupted", "debate", "repair", "3×2", "—", "unknown", "2026-12-02", "9s", "Sessão administrativa não expira após troca de senha"},
			{"20261202-should-checkout-cache-coupon-lookups", "", "question", "done", "argue", "—", "2×2", "—", "unknown", "2026-12-02", "1m2s", "Should checkout cache coupon lookups?"},
			{"20261202-should-checkout-cache-coupon-lookups-2", "", "question", "done · decision pending", "tradeoff", "—", "2×1", "—", "unknown", "2026-12-02", "40s", "Should checkout cache coupon lookups?"},
		}}
	for _, width := range []int{80, 140} {
		out := tb.render(width)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 4 {
			t.Errorf("%d columns: %d lines for 3 records and a header:\n%s", width, len(lines), out)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > width {
				t.Errorf("%d columns: a line of %d:\n%s", width, ansi.StringWidth(l), l)
			}
		}
		for _, id := range []string{"BUG-20260720-R5T6 ", "20261202-should-checkout-cache-coupon-lookups ", "20261202-should-checkout-cache-coupon-lookups-2 "} {
			if !strings.Contains(out, id) {
				t.Errorf("%d columns: the ID %q is cut:\n%s", width, id, out)
			}
		}
		for _, col := range []string{"STATUS", "PROTOCOL", "tradeoff", "argue"} {
			if !strings.Contains(out, col) {
				t.Errorf("%d columns: %q is gone:\n%s", width, col, out)
			}
		}
	}
	if whole := tb.render(0); !strings.Contains(whole, "Sessão administrativa não expira após troca de senha") {
		t.Errorf("with no width the title is cut:\n%s", whole)
	}
}

// TestPlanWarningsWrapAPathAfterItsSlashes: a warning longer than the
// terminal wraps at spaces with a hanging indent; a path longer than the
// line (the archive's, 92 characters on an 80-column terminal) is cut
// after one of its '/', under the indent, so no line runs past the edge
// for the terminal to cut mid-name, and its pieces read whole joined.
func TestPlanWarningsWrapAPathAfterItsSlashes(t *testing.T) {
	t.Parallel()
	path := "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto/debate-20261202T004954Z/resposta-final.md"
	out := "  - " + wrapWords("the previous answer is at "+path+" until this one finishes", 36, "    ")
	var pieces []string
	for i, l := range strings.Split(out, "\n") {
		if i > 0 && !strings.HasPrefix(l, "    ") {
			t.Errorf("line %d lacks the hanging indent: %q", i, l)
		}
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line %d runs past 40 columns: %q", i, l)
		}
		for _, w := range strings.Fields(l) {
			if strings.Contains(path, w) && len(w) > 2 {
				pieces = append(pieces, w)
			}
		}
	}
	if strings.Join(pieces, "") != path {
		t.Errorf("the path does not read whole (%q):\n%s", pieces, out)
	}
	for _, p := range pieces[:max(0, len(pieces)-1)] {
		if !strings.HasSuffix(p, "/") {
			t.Errorf("the path is cut inside a name, after %q:\n%s", p, out)
		}
	}
	if got := wrapWords("at "+path, 0, "    "); got != "at "+path {
		t.Errorf("piped (no width) the warning is not one line: %q", got)
	}
}

// TestListSharesTheWidthWithALongQuestionID: a 58-character question ID
// is cut in its middle to a bug ID's width (as the browser cuts it), so
// at 80 columns the status, protocol and the title's start stay beside
// it and at 140 every column does, two IDs never read the same and a
// bug's ID stays whole.
func TestListSharesTheWidthWithALongQuestionID(t *testing.T) {
	t.Parallel()
	long := "20261202-should-we-retry-payment-webhooks-forever-or-give-up"[:58]
	tb := table{header: []string{"BUG", "#", "CONTEXT", "STATUS", "PROTOCOL", "MODE", "N×R", "WINNER", "COST", "STARTED", "ELAPSED", "TITLE"},
		flex: 11, flexMin: 12, drop: []int{9, 10, 2, 8, 7, 6, 5, 11, 1}, squeeze: 3, idCut: true,
		rows: [][]string{
			{"BUG-20260720-R5T6", "8", "auth", "interrupted", "debate", "repair", "3×2", "—", "unknown", "2026-12-02", "9s", "Sessão administrativa não expira após troca de senha"},
			{long, "", "question", "done", "argue", "—", "2×2", "—", "unknown", "2026-12-02", "1m2s", "Should we retry payment webhooks forever?"},
			{long + "-2", "", "question", "done · decision pending", "tradeoff", "—", "2×1", "—", "unknown", "2026-12-02", "40s", "Should we retry payment webhooks forever?"},
		}}
	for _, tc := range []struct {
		width int
		shown []string
	}{
		{80, []string{"STATUS", "PROTOCOL", "TITLE", "BUG-20260720-R5T6 ", "Sessão", "tradeoff", "decision pending"}},
		{140, []string{"20261202…", "CONTEXT", "N×R", "WINNER", "STARTED", "ELAPSED", "Should we"}},
	} {
		out := tb.render(tc.width)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("%d columns: %d lines for 3 records and a header:\n%s", tc.width, len(lines), out)
		}
		ids := map[string]bool{}
		for _, l := range lines {
			if ansi.StringWidth(l) > tc.width {
				t.Errorf("%d columns: a line of %d:\n%s", tc.width, ansi.StringWidth(l), l)
			}
			ids[strings.Fields(l)[0]] = true
		}
		if len(ids) != 4 {
			t.Errorf("%d columns: two IDs read the same:\n%s", tc.width, out)
		}
		for _, s := range tc.shown {
			if !strings.Contains(out, s) {
				t.Errorf("%d columns: %q is not shown:\n%s", tc.width, s, out)

			}
		}
	}
}

// TestListShortensAnArchivedPendingStatus: a status that says an archived
// result still waits for its decision is shortened to a form that fits
// its column, never cut where its words tell it from a plain "decision
// pending"; each decision on the latest result keeps its word while it
// fits.
func TestListShortensAnArchivedPendingStatus(t *testing.T) {
	t.Parallel()
	archived := "_reversa_bugs/checkout/bugs/BUG-7/debate-20261201T093000Z"
	for _, tc := range []struct {
		decision string
		wants    []string // by width: 60, 50
	}{
		{"pending", []string{"done · pending (and archived)", "2 decisions pending"}},
		{"", []string{"done · pending (archived)", "pending (archived)"}},
		{"approve", []string{"approve, pending (archived)", "pending (archived)"}},
	} {
		en := listEntry{BugID: "BUG-20260715-A7K3", Status: "done", ArchivedDecisionPending: &archived}
		full := "done · decision " + bugfolder.DecisionWord(tc.decision, false, true)
		tb := table{header: []string{"BUG", "#", "CONTEXT", "STATUS", "PROTOCOL", "MODE", "N×R", "WINNER", "COST", "STARTED", "ELAPSED", "TITLE"},
			flex: 11, flexMin: 12, drop: []int{9, 10, 2, 8, 7, 6, 5, 11, 1}, squeeze: 3, idCut: true,
			rows:    [][]string{{en.BugID, "7", "checkout", full, "tradeoff", "repair", "2×1", "—", "unknown", "2026-12-03", "1s", "Desconto aplicado duas vezes"}},
			shorter: [][]string{shorterStatus(en, tc.decision)}}
		if out := tb.render(0); !strings.Contains(out, full) {
			t.Errorf("piped, the status %q is not whole:\n%s", full, out)
		}
		for i, width := range []int{60, 50} {
			out := tb.render(width)
			row := strings.Split(out, "\n")[1]
			if !strings.Contains(row, tc.wants[i]+" ") || strings.Contains(row, "…") {
				t.Errorf("decision %q at %d columns: want the status %q, whole:\n%s", tc.decision, width, tc.wants[i], out)
			}
		}
	}
}
