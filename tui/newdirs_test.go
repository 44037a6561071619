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

// listed is the browser's visible rows by name, in screen order. It reads
// the list rather than the frame: the frame draws a question's name cut to
// its column (17 cells) and only the rows that fit, and the test compares
// whole lists, every row, with a browser opened afterwards.
func listed(m Model) []string {
	var out []string
	for _, i := range m.browser.visible {
		out = append(out, m.browser.rows[i].name())
	}
	return out
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
		want     string
		golden   bool
	}{
		{name: "a bug in register order notified", notified: true, want: "BUG-20260630-B1B1", golden: true,
			add: func(t *testing.T, proj string) {
				newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug criado com o browser aberto")
			}},
		{name: "a bug in a new context by the poll", want: "BUG-20260901-C2C2",
			add: func(t *testing.T, proj string) {
				if err := os.MkdirAll(filepath.Join(proj, "_reversa_bugs", "shipping", "bugs"), 0o755); err != nil {
					t.Fatal(err)
				}
				newBug(t, proj, "shipping", "BUG-20260901-C2C2", "Frete grátis ignorado")
			}},
		{name: "a bug newest first", sortBy: "date", notified: true, want: "BUG-20260630-B1B1",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a bug the filter hides", filter: "billing", notified: true, want: "",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a bug the filter matches", filter: "novo", notified: true, want: "BUG-20260630-B1B1",
			add: func(t *testing.T, proj string) { newBug(t, proj, "checkout", "BUG-20260630-B1B1", "Novo bug") }},
		{name: "a question by the poll", want: "20261201-follow-new-folders",
			add: func(t *testing.T, proj string) { newQuestion(t, proj, "20261201-follow-new-folders") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := loadBrowser(t, f, 80, 24)
			m.browser.sortBy = tc.sortBy
			m.browser.filter.SetValue(tc.filter)
			m.browser.refilter()
			if tc.filter == "" {
				m = keys(t, m, "j", "j", "j") // a row below where the new bug goes
			}
			before := selectedBug(m) // "": no row matched the filter, nothing was selected
			// which way the folder arrived (fsnotify's word or the poll) is
			// no view's to say: the browser's watch is asked directly
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
			got := listed(m)
			if tc.want != "" && !slices.Contains(got, tc.want) || tc.want == "" && !strings.Contains(screenText(m, ""), " of 7 match") {
				t.Fatalf("the new folder is not listed: %v\n%s", got, screenText(m, ""))
			}
			fresh := loadBrowser(t, f, 80, 24)
			fresh.browser.sortBy = tc.sortBy
			fresh.browser.filter.SetValue(tc.filter)
			fresh.browser.refilter()
			if want := listed(fresh); !slices.Equal(got, want) {
				t.Errorf("list after the new folder:\n got %v\nwant %v (a browser opened now)", got, want)
			}
			for _, r := range m.browser.rows {
				if r.name() == tc.want && (r.sum == nil || r.err != nil) {
					t.Errorf("the new row is not read: %+v", r)
				}
			}
			if tc.golden {
				goldenScreen(t, m, f.proj)
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
	m := loadBrowser(t, f, 80, 24)
	empty := filepath.Join(f.proj, "_reversa_bugs/checkout/bugs/BUG-20260630-B1B1-novo")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	m = pump(t, m, watchTickMsg{})
	// the row's state (incomplete, then read) is read from the list: an
	// incomplete row and a read one draw the same ID, and the title only
	// as far as its column allows
	row := func() *browserRow {
		for _, r := range m.browser.rows {
			if r.dir.Dir == empty {
				return r
			}
		}
		return nil
	}
	if r := row(); r == nil || r.sum == nil || !r.sum.Bug.Incomplete {
		t.Fatalf("the empty folder is not listed as incomplete: %+v", r)
	}
	if err := os.Remove(empty); err != nil {
		t.Fatal(err)
	}
	newBug(t, f.proj, "checkout", "BUG-20260630-B1B1", "Escrito depois da pasta")
	m = pump(t, m, watchTickMsg{})
	if r := row(); r == nil || r.sum == nil || r.sum.Bug.Incomplete || r.sum.Bug.Title != "Escrito depois da pasta" {
		t.Errorf("the folder was not read again once its bug.md was written: %+v", r.sum.Bug)
	}
}
