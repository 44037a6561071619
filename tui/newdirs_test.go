package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// newBug writes a bug folder (a copy of bug 7's bug.md under another ID)
// into a context of proj's register, whole at once: made aside, then
// renamed into place.
func newBug(t *testing.T, proj, context, id, title string) string {
	t.Helper()
	src := filepath.Join(proj, "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes/bug.md")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	md := strings.Replace(string(raw), "BUG-20260715-A7K3", id, 1)
	md = strings.Replace(md, "display_number: 7", "display_number: 10", 1)
	md = regexp.MustCompile(`(?m)^title: .*$`).ReplaceAllString(md, "title: "+title)
	aside := filepath.Join(t.TempDir(), "bug")
	if err := os.MkdirAll(aside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(aside, bugfolder.BugFile), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proj, "_reversa_bugs", context, "bugs", id+"-novo")
	if err := os.Rename(aside, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newQuestion writes a question folder under proj/.moot/debates/ (which
// did not exist when the browser opened): a copy of Q2R8's debate that
// asks a question.
func newQuestion(t *testing.T, proj, id string) {
	t.Helper()
	aside := filepath.Join(t.TempDir(), "q")
	if err := testutil.Copy(filepath.Join(proj, q2r8), aside); err != nil {
		t.Fatal(err)
	}
	rewrite(t, filepath.Join(aside, "problema.md"), "bug_id: BUG-20260702-Q2R8\n", fmt.Sprintf("question_id: %s\nquestion: Should the browser follow new folders?\n", id))
	root := filepath.Join(proj, bugfolder.QuestionsDir)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(aside, filepath.Join(root, id)); err != nil {
		t.Fatal(err)
	}
}

// drawnRows are the browser's list rows as the frame draws them, in
// screen order, the selection's ▸ blanked (so two browsers whose
// selections differ compare equal): the lines under the column heads, up
// to the blank line above the preview.
func drawnRows(m Model) []string {
	var rows []string
	in := false
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		switch {
		case !in && strings.Contains(l, " STATUS "):
			in = true
		case in && strings.TrimSpace(l) == "":
			return rows
		case in:
			rows = append(rows, strings.TrimSpace(strings.TrimPrefix(l, "▸")))
		}
	}
	return rows
}

// drawnRow is the drawn row that shows name, "" when none does.
func drawnRow(m Model, name string) string {
	for _, r := range drawnRows(m) {
		if strings.Contains(r, name) {
			return r
		}
	}
	return ""
}

// ordered opens the browser's list in order sortBy (s pressed until the
// list is so ordered: "" is the register's, date the first s) and filtered
// by filter (typed after /, then enter).
func ordered(t *testing.T, m Model, sortBy, filter string) Model {
	t.Helper()
	for range slices.Index(sortKeys, sortBy) {
		m = keys(t, m, "s")
	}
	if filter != "" {
		m = keys(t, m, "/")
		m = keys(t, m, strings.Split(filter, "")...)
		m = keys(t, m, "enter")
	}
	return m
}

// TestNewFoldersJoinTheBrowserLive: a bug folder (or a
// question's) made while the browser is open joins the list — at once
// through fsnotify on the folders that hold bugs, else at the next
// one-second poll — read, in the current order and filter (the same
// list a browser opened afterwards shows), the selected row kept.
func TestNewFoldersJoinTheBrowserLive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		sortBy string
		filter string
		// add makes the new folder; notified: wait for fsnotify's word
		// instead of the poll
		add      func(t *testing.T, proj string)
		notified bool
		// want is the new row's name as drawn ("" when the filter hides
		// it), status its STATUS cell once read
		want, status string
		golden       bool
	}{
		{name: "a bug in register order notified", notified: true, want: "BUG-20260630-B1B1", status: "no-debate", golden: true,
			add: func(t *testing.T, proj string) {
				newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug criado com o browser aberto")
			}},
		{name: "a bug in a new context by the poll", want: "BUG-20260901-C2C2", status: "no-debate",
			add: func(t *testing.T, proj string) {
				if err := os.MkdirAll(filepath.Join(proj, "_reversa_bugs", "shipping", "bugs"), 0o755); err != nil {
					t.Fatal(err)
				}
				newBug(t, proj, "shipping", "BUG-20260901-C2C2", "Frete grátis ignorado")
			}},
		{name: "a bug newest first", sortBy: "date", notified: true, want: "BUG-20260630-B1B1", status: "no-debate",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a bug the filter hides", filter: "billing", notified: true, want: "",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a bug the filter matches", filter: "novo", notified: true, want: "BUG-20260630-B1B1", status: "no-debate",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a question by the poll", want: "20261201…-folders", status: "done",
			add: func(t *testing.T, proj string) { newQuestion(t, proj, "20261201-follow-new-folders") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := ordered(t, loadBrowser(t, f, 80, 24), tc.sortBy, tc.filter)
			if tc.filter == "" {
				m = keys(t, m, "j", "j", "j") // a row below where the new bug goes
			}
			before := selectedBug(m) // "": no row matched the filter, nothing was selected
			// justified: which way the folder arrived (fsnotify's word or the
			// poll) is no view's to say, so the browser's watch is asked directly
			if tc.notified && m.browser.watch == nil {
				t.Fatal("the browser watches no folder (fsnotify)")
			}
			var heard <-chan struct{}
			if tc.notified {
				heard = m.browser.watch.changed()
			}
			tc.add(t, f.proj)
			if tc.notified {
				select { // the watch's word, not the poll's
				case <-heard:
				case <-time.After(10 * time.Second):
					t.Fatal("fsnotify said nothing of the new folder")
				}
				m = pump(t, m, holderWatchMsg{m.browser.watch})
			} else {
				m = pump(t, m, watchTickMsg{})
			}
			if after := selectedBug(m); before != "" && after != before {
				t.Errorf("the selection moved from %s to %q:\n%s", before, after, screenText(m, ""))
			}
			if tc.golden {
				goldenScreen(t, m, f.proj)
			}
			// the lists are compared in a window where every row fits
			m = pump(t, m, tea.WindowSizeMsg{Width: 140, Height: 45})
			got := drawnRows(m)
			row := drawnRow(m, tc.want)
			if tc.want != "" && row == "" || tc.want == "" && !strings.Contains(screenText(m, ""), " of 7 match") {
				t.Fatalf("the new folder is not listed:\n%s", screenText(m, ""))
			}
			if tc.want != "" && !strings.Contains(row, " "+tc.status+" ") {
				t.Errorf("the new row is not read (want its status %q): %q", tc.status, row)
			}
			fresh := ordered(t, loadBrowser(t, f, 140, 45), tc.sortBy, tc.filter)
			if want := drawnRows(fresh); !slices.Equal(got, want) {
				t.Errorf("list after the new folder:\n got %q\nwant %q (a browser opened now)", got, want)
			}
		})
	}
}

// TestNewFolderReadAgainOnceItsBugFileIsWritten: a bug
// folder found empty (made, its bug.md not written yet) is listed as
// incomplete, then read again at the next look once bug.md is there.
func TestNewFolderReadAgainOnceItsBugFileIsWritten(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 140, 45)
	empty := filepath.Join(f.proj, "_reversa_bugs/checkout/bugs/BUG-20260630-B1B1-novo")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	m = pump(t, m, watchTickMsg{})
	if r := drawnRow(m, "BUG-20260630-B1B1"); !strings.Contains(r, " no-debate (incomplete) ") {
		t.Fatalf("the empty folder is not listed as incomplete: %q\n%s", r, screenText(m, ""))
	}
	if err := os.Remove(empty); err != nil {
		t.Fatal(err)
	}
	newBug(t, f.proj, "checkout", "BUG-20260630-B1B1", "Escrito depois da pasta")
	m = pump(t, m, watchTickMsg{})
	if r := drawnRow(m, "BUG-20260630-B1B1"); !strings.Contains(r, " no-debate ") || !strings.Contains(r, "Escrito dep") { // the title as far as its column goes
		t.Errorf("the folder was not read again once its bug.md was written: %q\n%s", r, screenText(m, ""))
	}
}
