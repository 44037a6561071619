package cli

import (
	"encoding/json"
	"os"
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

// TestShowAndListHostTimesAsWritten: a host debate's start written
// without a time zone is shown as written (never as UTC), a start moot
// cannot read is named with its file and field (never "no started_at"),
// and a debate with no known start but recorded call durations has an
// elapsed time instead of "—".
func TestShowAndListHostTimesAsWritten(t *testing.T) {
	const debate = "_reversa_bugs/compatibilidade-instalacao/bugs/BUG-20261001-MAC1-pkg-falha/debate"
	for _, tc := range []struct {
		name, field string
		show        []string
		notShow     []string
		entry       map[string]any
	}{
		{"a time without a zone", "started_at: 2026-10-01T10:30:00",
			[]string{"| started | 2026-10-01 10:30:00 (as written: the files give no time zone) |"},
			[]string{"UTC"},
			map[string]any{"started_at": "2026-10-01T10:30:00", "started_no_zone": true}},
		{"a date moot cannot read", "started_at: 01/10/2026 10h30",
			[]string{`| started | unknown: started_at "01/10/2026 10h30" in rodada-0/agente-1.md is not a date moot reads`},
			[]string{"no started_at in its files"},
			map[string]any{"started_at": nil}},
		{"call durations and no start", "duration_s: 95",
			[]string{"| started | unknown (no created_at", "| elapsed | 3m10s (its calls' recorded durations"},
			[]string{"| elapsed | — |"},
			map[string]any{"started_at": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, filepath.Join("registers", "whispper"))
			for _, r := range []string{"rodada-0", "rodada-1"} {
				for _, a := range []string{"agente-1.md", "agente-2.md", "agente-3.md"} {
					p := filepath.Join(proj, debate, r, a)
					raw, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "status: success\n", "status: success\n"+tc.field+"\n", 1)), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			code, out, errOut := moot(t, proj, "show", "BUG-20261001-MAC1")
			if code != 0 {
				t.Fatalf("show: exit %d: %s", code, errOut)
			}
			for _, s := range tc.show {
				if !strings.Contains(out, s) {
					t.Errorf("show lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.notShow {
				if strings.Contains(out, s) {
					t.Errorf("show says %q:\n%s", s, out)
				}
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
				if e["bug_id"] != "BUG-20261001-MAC1" {
					continue
				}
				for k, v := range tc.entry {
					if e[k] != v {
						t.Errorf("list --json: %s is %v, want %v", k, e[k], v)
					}
				}
			}
		})
	}
}
