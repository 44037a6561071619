package tui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// The two questions the tests ask: the coupon one waits for a human
// decision, the sharding one is done.
const (
	couponQ = "20261130-which-coupon-cache"
	shardQ  = "20261129-should-we-shard-orders"
)

// addQuestions writes the two questions under proj/.moot/debates/, each
// a copy of the sample Q2R8's debate whose problema.md asks a question;
// it returns the pending one's folder.
func addQuestions(t *testing.T, proj string) string {
	t.Helper()
	for id, q := range map[string]string{couponQ: "Which coupon cache should checkout use?", shardQ: "Should we shard the orders table?"} {
		addQuestion(t, proj, id, "", q)
	}
	pending := filepath.Join(proj, bugfolder.QuestionsDir, couponQ)
	rewrite(t, filepath.Join(pending, "resposta-final.md"), "---\n", "---\nrecommended_verdict: spec-gap\ndecision: pending\n")
	return pending
}

// addQuestion makes a question of the sample's finished Q2R8 debate in
// proj: its folder id, its protocol (proto, "" for none recorded) and
// its question.
func addQuestion(t *testing.T, proj, id, proto, question string) {
	t.Helper()
	dir := filepath.Join(proj, bugfolder.QuestionsDir, id)
	if err := testutil.Copy(filepath.Join(testutil.RepoRoot(t), "testdata", "sample", q2r8), dir); err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("question_id: %s\nquestion: %s\n", id, question)
	if proto != "" {
		head = "protocol: " + proto + "\n" + head
	}
	rewrite(t, filepath.Join(dir, "problema.md"), "bug_id: BUG-20260702-Q2R8\n", head)
}

// rewrite replaces the first old in a file with new.
func rewrite(t *testing.T, path, old, new string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(old)) {
		t.Fatalf("%s lacks %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(raw, []byte(old), []byte(new), 1), 0o600); err != nil {
		t.Fatal(err)
	}
}

// questionsOnly is a project with the two questions and no register, and
// the stand-in register cli gives the browser there.
func questionsOnly(t *testing.T) (*fixture, string) {
	t.Helper()
	f := newFixture(t)
	proj := filepath.Join(t.TempDir(), "questions-only")
	pending := addQuestions(t, proj)
	f.proj, f.reg = proj, &bugfolder.Register{Project: proj, Lang: bugfolder.EN}
	return f, pending
}

// fakeWho names the person deciding in the fixture's models without
// starting git.
func fakeWho(f *fixture) {
	f.whoIs = func(context.Context, string, func(string) string) string { return "Ana <ana@example.org>" }
}

// The browser lists the project's questions beside the register's bugs
// (? and CONTEXT question), the pending question first; the filter finds
// one, enter opens its debate on the Final tab, and d records the human
// decision in its decisao.md — at 80×24 and 140×45.
func TestQuestionsInTheBrowser(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			pending := addQuestions(t, f.proj)
			fakeWho(f)
			m := loadBrowser(t, f, size[0], size[1])
			if !strings.Contains(screenText(m, f.proj), "1/8 · 6 bugs, 2 questions") {
				t.Fatalf("want 6 bugs and 2 questions:\n%s", screenText(m, f.proj))
			}
			// the question's ID is drawn cut in the middle: its date, then its end
			if top := drawnRows(m)[0]; !strings.HasPrefix(top, "◆?  "+couponQ[:8]+"…") || !strings.Contains(top, couponQ[len(couponQ)-8:]+" ") {
				t.Fatalf("the first row is not the pending question, marked ◆?: %q\n%s", top, screenText(m, f.proj))
			}
			checkFrame(t, m, size[0], size[1], f.proj, []string{"1/8 · 6 bugs, 2 questions", "◆?  20261130", "ID "})
			goldenScreen(t, m, f.proj)
			m = keys(t, m, "/", "s", "h", "a", "r", "d", "enter")
			// a long ID is cut in its middle: its row is found by the ID's end
			if text := screenText(m, f.proj); !strings.Contains(text, "1/1 · 1 of 8 match") || !strings.HasPrefix(lineWith(text, "orders"), "▸") {
				t.Fatalf("the filter /shard does not show its one row, selected:\n%s", text)
			}
			m = keys(t, m, "esc", "/", "c", "o", "u", "p", "o", "n", "enter")
			if text := screenText(m, f.proj); !strings.Contains(text, "1/1 · 1 of 8 match") || !strings.HasPrefix(lineWith(text, "cache"), "▸") {
				t.Fatalf("the filter /coupon does not show its one row, selected:\n%s", text)
			}
			m = keys(t, m, "enter")
			if activeTab(m) != "Final" || !strings.Contains(screenText(m, f.proj), "A human decision is pending") {
				t.Fatalf("enter did not open the question's Final tab:\n%s", screenText(m, f.proj))
			}
			checkFrame(t, m, size[0], size[1], f.proj, []string{"A human decision is pending"})
			m = keys(t, m, "d", "enter", "enter")
			dec, raw := readDecision(t, pending)
			if dec.Choice != bugfolder.ChoiceApprove || !strings.Contains(raw, "question_id: "+couponQ) || strings.Contains(raw, "bug_id") || dec.By != "Ana <ana@example.org>" {
				t.Fatalf("decisao.md: %+v\n%s", dec, raw)
			}
			checkFrame(t, m, size[0], size[1], f.proj, []string{"decision: approve"})
			m = keys(t, m, "q")
			if drawnScreen(m) != "browser" || strings.Contains(lineWith(screenText(m, f.proj), "cache"), "◆") {
				t.Errorf("back in the browser, the question still waits: %s", screenText(m, f.proj))
			}
		})
	}
}

// readDecision parses a debate's decisao.md (and returns its text).
func readDecision(t *testing.T, dir string) (*bugfolder.Decision, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, bugfolder.DecisionFile))
	if err != nil {
		t.Fatalf("no decisao.md: %v", err)
	}
	dec, err := bugfolder.ParseDecision("decisao.md", raw)
	if err != nil {
		t.Fatal(err)
	}
	return dec, string(raw)
}

// A project with questions and no register opens the browser on them, the
// pending one first, and the same keys as the teatest program decide it.
func TestQuestionsOnlyBrowser(t *testing.T) {
	t.Parallel()
	f, pending := questionsOnly(t)
	fakeWho(f)
	tm := teatest.NewTestModel(t, New(f.options()), teatest.WithInitialTermSize(80, 24))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("Which coupon")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // the top row: the pending question
	waitFor("A human decision is pending")
	tm.Send(tea.KeyPressMsg{Code: 'd', Text: "d"})
	waitFor("Record the human decision")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor("decision recorded")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(Model)
	if dec, raw := readDecision(t, pending); dec.Choice != bugfolder.ChoiceApprove || !strings.Contains(raw, "question_id: "+couponQ) {
		t.Errorf("decisao.md: %+v\n%s", dec, raw)
	}
	if text := screenText(final, f.proj); !strings.Contains(headerLine(final), filepath.Join("questions-only", bugfolder.QuestionsDir)) || !regexp.MustCompile(`\d/2 ·`).MatchString(text) {
		t.Errorf("the browser does not list the 2 questions over questions-only:\n%s", text)
	}

	m := loadBrowser(t, f, 140, 45)
	text := checkFrame(t, m, 140, 45, f.proj, []string{"debates over questions-only/.moot/debates", "2 questions"})
	if strings.Contains(text, "no bugs") {
		t.Errorf("a project with questions says it has no bugs:\n%s", text)
	}
}
