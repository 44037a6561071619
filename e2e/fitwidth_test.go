package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanAndListFitTheTerminal: on terminals of 60 and 80 columns every
// line moot plan writes is one of its own (a heading, or indented under
// its key or table): nothing runs past the edge for the terminal to wrap
// (a wrap starts a line with the middle of a word), a dollar cap's budget
// lines included, and the archive warning's paths, each wider than 80
// columns, broken after a '/' under the warning's text, never mid-name; moot
// ask's plan and moot review's plan line too; moot list is one line per record,
// and at 140 columns it shows the columns 80 leave out.
func TestPlanAndListFitTheTerminal(t *testing.T) {
	t.Parallel()
	for _, w := range []int{60, 80, 140} {
		for _, capped := range []bool{false, true} {
			t.Run(fmt.Sprintf("plan-%d-capped-%v", w, capped), func(t *testing.T) {
				t.Parallel()
				testPlanFits(t, w, capped)
			})
		}
		t.Run(fmt.Sprintf("archive-warning-%d", w), func(t *testing.T) {
			t.Parallel()
			testPlanWrapsTheArchivePaths(t, w)
		})
		t.Run(fmt.Sprintf("review-plan-%d", w), func(t *testing.T) {
			t.Parallel()
			testReviewPlanFits(t, w)
		})
		t.Run(fmt.Sprintf("ask-plan-%d", w), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			m := startTmux(t, p, w, 60, "ask", "Should checkout cache coupon lookups for sixty seconds, or never?", "--protocol", "argue", "--headless", "--lang", "en")
			if code := m.exitCode(); code != "4" {
				t.Fatalf("exit %s, want 4 (the plan printed, not accepted):\n%s", code, m.screen())
			}
			s := m.screen()
			_, plan, ok := strings.Cut(s, "Argue plan for ")
			plan, _, _ = strings.Cut(plan, "\nmoot: ") // the notes on stderr after it are not the plan
			if !ok || !strings.Contains(plan, "ENGINE") || !strings.Contains(plan, "total") {
				t.Fatalf("%d columns: no plan with its engines table:\n%s", w, s)
			}
			for _, l := range strings.Split(plan, "\n")[1:] {
				if l != "" && !strings.HasPrefix(l, "  ") && l != "Warnings:" && l != "Refused:" {
					t.Errorf("%d columns: a line of ask's plan the terminal wrapped: %q\n%s", w, l, s)
				}
			}
		})
		t.Run(fmt.Sprintf("list-%d", w), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			m := startTmux(t, p, w, 24, "list")
			if code := m.exitCode(); code != "0" {
				t.Fatalf("exit %s:\n%s", code, m.screen())
			}
			s := strings.TrimRight(m.screen(), "\n")
			lines := strings.Split(s, "\n")
			if len(lines) != 7 || !strings.HasPrefix(lines[0], "BUG ") {
				t.Errorf("%d columns: want a header and 6 records, one a line:\n%s", w, s)
			}
			for _, l := range lines[1:] {
				if !strings.HasPrefix(l, "BUG-") {
					t.Errorf("%d columns: a line that is no record: %q", w, l)
				}
			}
			if wide := strings.Contains(lines[0], "WINNER"); wide != (w >= 140) {
				t.Errorf("%d columns: the WINNER column is shown %v; the list does not follow the terminal's width:\n%s", w, wide, s)
			}
		})
		t.Run(fmt.Sprintf("list-archived-pending-%d", w), func(t *testing.T) {
			t.Parallel()
			testListSaysAnArchivedResultWaits(t, w)
		})
	}
}

// testListSaysAnArchivedResultWaits: after two tradeoffs on bug 7 (the
// first one's result, archived by the second, still waits for its
// decision, as the second's does) and three questions whose IDs are
// alike, moot list at w columns says on the bug's row that both wait, in
// words that fit the column: shortened ("pending (and archived)", "2
// decisions pending"), not cut where they tell it from a plain "decision
// pending"; from 80 columns the TITLE column stays.
func testListSaysAnArchivedResultWaits(t *testing.T, w int) {
	p := newProject(t)
	p.moot(tradeoffArgs("7")...).mustExit(t, 0)
	p.moot(tradeoffArgs("7")...).mustExit(t, 0)
	// three questions of a day whose IDs share their start and their end
	for _, q := range []string{"Should checkout retry payment webhooks forever?", "Should billing retry payment webhooks forever?", "Should refunds be retried forever?"} {
		p.moot("ask", q, "--yes", "--headless").mustExit(t, 0)
	}
	m := startTmux(t, p, w, 24, "list")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := m.screen()
	var row string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "BUG-20260715-A7K3") {
			row = l
		}
	}
	if !strings.Contains(row, "pending (and archived)") && !strings.Contains(row, "2 decisions pending") {
		t.Errorf("%d columns: bug 7's row does not say that its archived result waits too:\n%s", w, s)
	}
	// from 80 columns the titles stay: the status takes its shortest
	// forms before the TITLE column goes
	if heading, _, _ := strings.Cut(s, "\n"); w >= 80 && !strings.Contains(heading, "TITLE") {
		t.Errorf("%d columns: no TITLE column beside the questions and the long status:\n%s", w, s)
	}
}

// testPlanFits runs moot plan at w columns (with a dollar cap when
// capped) and fails on any line the terminal wrapped.
func testPlanFits(t *testing.T, w int, capped bool) {
	p := newProject(t)
	args := []string{"plan", "7", "--mode", "diagnosis", "--judge", "omega"}
	if capped {
		args = append(args, "--max-usd", "0.001")
	}
	m := startTmux(t, p, w, 60, args...)
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := m.screen()
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l == "" || strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "Debate plan for ") || l == "Warnings:" || l == "Refused:" {
			continue
		}
		t.Errorf("%d columns: a line the terminal wrapped: %q\n%s", w, l, s)
	}
	if !strings.Contains(s, "ENGINE") || !strings.Contains(s, "total") {
		t.Errorf("the engines table is missing:\n%s", s)
	}
	if capped && (!strings.Contains(s, "budget") || strings.Contains(s, "worst case≈")) {
		t.Errorf("the budget lines are missing or the worst case runs into its figure:\n%s", s)
	}
}

// testPlanWrapsTheArchivePaths runs moot plan of a bug whose finished
// debate will be archived at w columns: the warning names the archive's
// paths (92 characters) on lines of the plan's own (under the warning's
// "  - "), and the paths read whole once the pieces are joined at their
// '/': no piece ends inside a name.
func testPlanWrapsTheArchivePaths(t *testing.T, w int) {
	p := newProject(t)
	m := startTmux(t, p, w, 60, "plan", "5", "-n", "3", "-r", "2", "--mode", "diagnosis")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := m.screen()
	_, warn, ok := strings.Cut(s, "  - _reversa_bugs/")
	if !ok {
		t.Fatalf("no archive warning:\n%s", s)
	}
	for _, l := range strings.Split(strings.TrimRight(warn, "\n"), "\n")[1:] {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("%d columns: a line of the warning the terminal wrapped: %q\n%s", w, l, s)
		}
	}
	const folder = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/"
	joined := strings.ReplaceAll(strings.Join(strings.Fields("_reversa_bugs/"+warn), " "), "/ ", "/") // a piece ends at a '/': joined, a path cut mid-name keeps a space
	if !strings.Contains(joined, "holds a finished debate") {
		t.Fatalf("no archive warning:\n%s", s)
	}
	for _, path := range []string{folder + "debate-20260703T140000Z/resposta-final.md", folder + "debate/resposta-final.md"} {
		if !strings.Contains(joined, path) {
			t.Errorf("%d columns: %s does not read whole:\n%s", w, path, s)
		}
	}
}

// testReviewPlanFits runs moot review --headless without --yes at w
// columns: its plan line, longer than 80 columns, wraps at spaces under its
// text ("Review plan: " is 13 columns), no line left to the terminal.
func testReviewPlanFits(t *testing.T, w int) {
	tr := newTribunal(t, juryEngines)
	env := []string{"FAKE_JURY=" + tr.jury, "FAKE_JURYLOG=" + tr.jurylog,
		"XDG_CONFIG_HOME=" + filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME=" + filepath.Join(tr.home, "cache")}
	args := append(append([]string{"review"}, change...), "--builder", "mistral", "--config", tr.cfg, "--headless")
	m := startTmuxIn(t, tr.repo, env, w, 60, args...)
	if code := m.exitCode(); code != "4" {
		t.Fatalf("exit %s, want 4 (the plan printed, not accepted):\n%s", code, m.screen())
	}
	s := m.screen()
	_, plan, ok := strings.Cut(s, "Review plan: ")
	plan, _, _ = strings.Cut(plan, "\nmoot: ")
	if !ok || !strings.Contains(plan, "juror(s)") {
		t.Fatalf("no review plan:\n%s", s)
	}
	for _, l := range strings.Split(strings.TrimRight(plan, "\n"), "\n")[1:] {
		if !strings.HasPrefix(l, strings.Repeat(" ", 13)) {
			t.Errorf("%d columns: a line of the review plan the terminal wrapped: %q\n%s", w, l, s)
		}
	}
}

// TestShowOnATerminalKeepsTheAnswersHeadApartAndBarred: moot show of a
// council at 80 columns writes each quoted head line of the final answer
// (the convergence, one line per member) as its own paragraph, every
// wrapped quoted line keeps its bar, and the summary table has no empty
// header row.
func TestShowOnATerminalKeepsTheAnswersHeadApartAndBarred(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--protocol", "council", "--mode", "repair", "-r", "0", "--lens", "security", "--lens", "performance", "--yes", "--headless").mustExit(t, 0)
	m := startTmux(t, p, 80, 200, "show", "7")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := m.screen()
	lines := strings.Split(s, "\n")
	inQuote := false
	members := 0
	for i, l := range lines {
		text := strings.TrimSpace(l)
		if strings.HasPrefix(text, "│ Membro ") {
			members++
			if prev := strings.TrimSpace(lines[i-1]); prev != "│" {
				t.Errorf("a member's head line runs on from the line before (%q):\n%s", prev, s)
			}
		}
		switch {
		case strings.HasPrefix(text, "│ Convergência"):
			inQuote = true
		case inQuote && text == "":
			inQuote = false
		case inQuote && !strings.HasPrefix(text, "│"):
			t.Errorf("a quoted line lost its bar: %q\n%s", l, s)
		}
		if text == "│" && i+1 < len(lines) && strings.Contains(lines[i+1], "──┼──") {
			t.Errorf("the summary table opens with an empty header row:\n%s", s)
		}
	}
	if members != 2 {
		t.Errorf("%d members' head lines, want 2:\n%s", members, s)
	}
}

// TestShowNamesArguesScorerAsTheProtocolDoes: moot show of an argue heads
// its scorer's column scorer-1, as the headless output and the setup
// ("1 scorer(s)") name it, not by its file's name critic-1.
func TestShowNamesArguesScorerAsTheProtocolDoes(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("ask", "Should we cache coupon lookups?", "--protocol", "argue", "-r", "1", "--yes", "--headless").mustExit(t, 0)
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-should-we-cache-coupon-lookups"))
	if len(dirs) != 1 {
		t.Fatalf("question folders: %v", dirs)
	}
	r := p.moot("show", filepath.Base(dirs[0])).mustExit(t, 0)
	head := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "| round |") {
			head = l
		}
	}
	if !strings.Contains(head, "scorer-1") || strings.Contains(head, "critic-1") {
		t.Errorf("the rounds table's head: %q\n%s", head, r.stdout)
	}
}

// TestListAt80ColumnsSharesTheWidthWithALongQuestionID: with a question
// whose ID is 58 characters long, moot list at 80 columns keeps the
// columns it shows without questions (status, protocol, mode, N×R and the
// title), the ID cut in its middle to a bug ID's width.
func TestListAt80ColumnsSharesTheWidthWithALongQuestionID(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	q := "Should we retry payment webhooks forever or give up at once?"
	p.moot("ask", q, "--yes", "--headless", "--lang", "en").mustExit(t, 0)
	m := startTmux(t, p, 80, 24, "list")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := strings.TrimRight(m.screen(), "\n")
	lines := strings.Split(s, "\n")
	for _, want := range []string{"STATUS", "PROTOCOL", "MODE", "N×R", "TITLE", "Should we", "…"} {
		if !strings.Contains(s, want) {
			t.Errorf("80 columns: %q is not shown:\n%s", want, s)
		}
	}
	if len(lines) != 8 {
		t.Errorf("want a header and 7 records, one a line:\n%s", s)
	}
}

// TestPlanWrapsItsSetupLines: at 60 columns moot plan wraps its mode and
// setup lines under their key, as it wraps calls and path: the panel
// line reads to its last word (the judge), none is cut with "…".
func TestPlanWrapsItsSetupLines(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 60, 60, "plan", "7", "--mode", "diagnosis", "--judge", "omega", "--critic", "zeta-engine")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s:\n%s", code, m.screen())
	}
	s := m.screen()
	head, _, _ := strings.Cut(s, "\n  calls")
	if whole := strings.Join(strings.Fields(head), " "); !strings.Contains(whole, "· judge omega") {
		t.Errorf("the panel line does not read to its judge:\n%s", head)
	}
	for _, l := range strings.Split(head, "\n")[1:] {
		if strings.HasSuffix(l, "…") {
			t.Errorf("a setup line is cut: %q\n%s", l, head)
		}
	}
}
