package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestElapsedListAndShowAlike: moot list and moot show
// write a debate's elapsed time the same way, from its event log's
// sessions; a debate written by hand (no event log) reads "—" (null in
// --json) even when its problem is dated years before its rounds, never a
// span from that date.
func TestElapsedListAndShowAlike(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	hand := filepath.Join(proj, "_reversa_bugs/billing/bugs/BUG-20260801-X9Z2-invoice-total-rounding/debate/problem.md")
	raw, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	raw = regexp.MustCompile(`(?m)^created_at:.*$`).ReplaceAll(raw, []byte("created_at: 2020-01-01T00:00:00Z"))
	if err := os.WriteFile(hand, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	log := `{"type":"setup","time":"2026-07-03T14:00:00Z"}
{"type":"resumed","time":"2026-07-04T09:00:00Z"}
{"type":"debate_finished","time":"2026-07-04T09:02:30Z"}
`
	if err := os.WriteFile(filepath.Join(proj, "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate/eventos.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	_, list, _ := moot(t, proj, "list")
	_, js, _ := moot(t, proj, "list", "--json")
	var entries []listEntry
	if err := json.Unmarshal([]byte(js), &entries); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ bug, want string }{
		{"BUG-20260801-X9Z2", "—"},
		{"BUG-20260702-Q2R8", "2m30s"},
	} {
		var col string
		lines := strings.Split(list, "\n")
		at := strings.Index(lines[0], "ELAPSED")
		for _, l := range lines {
			if strings.HasPrefix(l, tc.bug) && at >= 0 {
				col = strings.Fields(string([]rune(l)[len([]rune(lines[0][:at])):]))[0]
			}
		}
		var row string
		_, show, _ := moot(t, proj, "show", tc.bug)
		for _, l := range strings.Split(show, "\n") {
			if strings.HasPrefix(l, "| elapsed |") {
				row = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "| elapsed |"), "|"))
			}
		}
		if col != tc.want || row != tc.want {
			t.Errorf("%s: list %q, show %q; want %q\n%s", tc.bug, col, row, tc.want, list)
		}
		for _, en := range entries {
			if en.BugID == tc.bug && (en.ElapsedSeconds == nil) != (tc.want == "—") {
				t.Errorf("%s: --json elapsed_seconds %v", tc.bug, en.ElapsedSeconds)
			}
		}
	}
}
