package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// TestBrowserTellsProtocolsAndIDsApart: the list has a PROTOCOL column
// (debate, tradeoff, argue…) at 80 and 140 columns, and two questions
// whose long IDs share a prefix (and differ in the middle) never read the
// same, however narrow the ID column.
func TestBrowserTellsProtocolsAndIDsApart(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 140} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			src := filepath.Join(testutil.RepoRoot(t), "testdata", "sample", q2r8)
			ids := map[string]string{
				"20261202-should-checkout-cache-coupon-lookups":   "tradeoff",
				"20261202-should-checkout-cache-coupon-lookups-2": "argue",
				"20261202-should-we-cache-coupon-lookups":         "council",
			}
			for id, proto := range ids {
				dir := filepath.Join(f.proj, bugfolder.QuestionsDir, id)
				if err := testutil.Copy(src, dir); err != nil {
					t.Fatal(err)
				}
				rewrite(t, filepath.Join(dir, "problema.md"), "bug_id: BUG-20260702-Q2R8\n", fmt.Sprintf("protocol: %s\nquestion_id: %s\nquestion: Should checkout cache coupon lookups?\n", proto, id))
			}
			m := loadBrowser(t, f, w, 30)
			s := screenText(m, f.proj)
			if !strings.Contains(s, "PROTOCOL") {
				t.Fatalf("no PROTOCOL column:\n%s", s)
			}
			var cells []string
			for _, l := range strings.Split(s, "\n") {
				if !strings.Contains(l, "20261202-") {
					continue
				}
				proto := ""
				for _, p := range []string{"tradeoff", "argue", "council"} {
					if strings.Contains(l, " "+p+" ") {
						proto = p
					}
				}
				if proto == "" {
					t.Errorf("a question's row names no protocol: %q", l)
				}
				fields := strings.Fields(strings.TrimLeft(l, "▸ ◆?⚑●"))
				cells = append(cells, fields[0])
			}
			if len(cells) != 3 {
				t.Fatalf("%d question rows:\n%s", len(cells), s)
			}
			if cells[0] == cells[1] || cells[1] == cells[2] || cells[0] == cells[2] {
				t.Errorf("two question IDs read the same: %q\n%s", cells, s)
			}
			if !strings.Contains(s, " debate ") {
				t.Errorf("a bug's debate shows no protocol:\n%s", s)
			}
		})
	}
}
