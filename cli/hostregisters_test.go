package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestShowAndListReadHostDebatesAsWritten: on the public registers kept
// in testdata/registers, show and list --json say a host judge's winner
// (a label P-A, or a synthesis with no single winner), its spec verdict,
// a date-only start as that date, and every bug's fix state.
func TestShowAndListReadHostDebatesAsWritten(t *testing.T) {
	for _, tc := range []struct {
		register, bug string
		show          []string
		entry         map[string]any
		fix           map[string]any
	}{
		{"odcs", "BUG-20261004-ODCS",
			[]string{"| winner | proposal A, decided by judge |", "| started | 2026-10-04 (a date alone", "| verdict | spec-correta (the judge's recommendation", "propostas-anonimas.md", "fix: 2 changes applied, closed (DONE.md)"},
			map[string]any{"winner": "Proposta A", "recommended_verdict": "spec-correta", "started_at": "2026-10-04", "started_day": true},
			map[string]any{"plan": false, "changes": 2.0, "done": true}},
		{"whispper", "BUG-20261001-MAC1",
			[]string{"| winner | a synthesis of the proposals, no single winner, decided by judge |", "| started | unknown", "fix: plan, 4 changes applied, closed (DONE.md)"},
			map[string]any{"winner": nil, "winner_synthesis": true, "started_at": nil},
			map[string]any{"plan": true, "changes": 4.0, "done": true}},
	} {
		proj := testutil.CopyTree(t, filepath.Join("registers", tc.register))
		code, out, errOut := moot(t, proj, "show", tc.bug)
		if code != 0 {
			t.Fatalf("show %s: exit %d: %s", tc.bug, code, errOut)
		}
		for _, s := range tc.show {
			if !strings.Contains(out, s) {
				t.Errorf("show %s lacks %q:\n%s", tc.bug, s, out)
			}
		}
		if strings.Contains(out, "00:00:00") || strings.Contains(out, "**success**") {
			t.Errorf("show %s prints a date as midnight or an answer as failed:\n%s", tc.bug, out)
		}
		code, out, errOut = moot(t, proj, "list", "--json")
		if code != 0 {
			t.Fatalf("list: exit %d: %s", code, errOut)
		}
		var entries []map[string]any
		if err := json.Unmarshal([]byte(out), &entries); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e["fix"] == nil {
				t.Errorf("%s: a bug with fix/ listed without its fix state: %v", e["bug_id"], e)
			}
			if e["bug_id"] != tc.bug {
				continue
			}
			for k, v := range tc.entry {
				if e[k] != v {
					t.Errorf("%s: %s is %v, want %v", tc.bug, k, e[k], v)
				}
			}
			fix, _ := e["fix"].(map[string]any)
			for k, v := range tc.fix {
				if fix[k] != v {
					t.Errorf("%s: fix.%s is %v, want %v", tc.bug, k, fix[k], v)
				}
			}
		}
	}
}
