package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestListHeadingsFollowTheKindsShown: moot list heads its first column
// BUG while only bugs are listed and ID once a question or a review is
// (as the browser does), its outcome WINNER unless a review is listed
// (OUTCOME), and a review's cell says its verdict and lenses
// passed/held/refused.
func TestListHeadingsFollowTheKindsShown(t *testing.T) {
	t.Parallel()
	bug := listEntry{BugID: "BUG-1", Kind: "bug", Status: "done", Winner: ptr("A")}
	q := listEntry{BugID: "20261203-should-we-retry", Kind: "question", Status: "done", Protocol: ptr("argue")}
	rev := listEntry{BugID: "20261202-094234", Kind: "review", Status: "pass", Protocol: ptr("review"),
		Verdict: ptr("pass"), Lenses: &lensOutcomes{Passed: 2}, Rounds: ptr(1)}
	for _, tc := range []struct {
		name    string
		entries []listEntry
		want    []string
		not     []string
	}{
		{"bugs only", []listEntry{bug}, []string{"BUG ", "WINNER"}, []string{"OUTCOME"}},
		{"a question among them", []listEntry{bug, q}, []string{"ID ", "WINNER"}, []string{"BUG ", "OUTCOME"}},
		{"a review among them", []listEntry{bug, rev}, []string{"ID ", "OUTCOME", "pass P2 H0 R0"}, []string{"BUG ", "WINNER"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			printList(&env{stdout: &out}, tc.entries)
			head := strings.SplitN(out.String(), "\n", 2)[0]
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(head, n) {
					t.Errorf("the heading says %q:\n%s", n, head)
				}
			}
		})
	}
}
