package bugfolder

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// TestElapsedAndHandRunGap: a debate's elapsed time is
// the event log's sessions, and unknown (never a span from the problem's
// or the bug's date, nor from its files' timestamps) when nothing records
// it; a debate written by hand that stopped midway says what it lacks.
func TestElapsedAndHandRunGap(t *testing.T) {
	const handRun = "_reversa_bugs/billing/bugs/BUG-20260801-X9Z2-invoice-total-rounding/debate"
	const logged = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"
	for _, tc := range []struct {
		name    string
		dir     string
		log     string // an event log written into the folder
		problem func(string) string
		elapsed time.Duration
		known   bool
		gap     string
	}{
		{name: "hand-run, stopped in round 1", dir: handRun,
			gap: "round 1 lacks agent-2, agent-3, critic-1; round 2 and the final answer were never written"},
		{name: "hand-run, its problem dated long before its rounds", dir: handRun,
			problem: func(s string) string {
				return regexp.MustCompile(`(?m)^created_at:.*$`).ReplaceAllString(s, "created_at: 2020-01-01T00:00:00Z")
			},
			gap: "round 1 lacks agent-2, agent-3, critic-1; round 2 and the final answer were never written"},
		{name: "two sessions in the log", dir: logged, known: true, elapsed: 150 * time.Second,
			log: `{"type":"setup","time":"2026-07-03T14:00:00Z"}
{"type":"call_finished","time":"2026-07-03T14:01:00Z"}
{"type":"resumed","time":"2026-07-04T09:00:00Z"}
{"type":"debate_finished","time":"2026-07-04T09:01:30Z"}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(testutil.CopyTree(t, "sample"), tc.dir)
			if tc.log != "" {
				if err := os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(tc.log), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.problem != nil {
				p := filepath.Join(dir, "problem.md")
				raw, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tc.problem(string(raw))), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			d, err := ReadDebate(dir, PT)
			if err != nil {
				t.Fatal(err)
			}
			if e, known := d.Elapsed(); e != tc.elapsed || known != tc.known {
				t.Errorf("Elapsed = %v, %v; want %v, %v", e, known, tc.elapsed, tc.known)
			}
			e, known := d.Elapsed()
			if got := ElapsedText(e, known, time.Duration.String); tc.known == (got == "—") {
				t.Errorf("ElapsedText = %q", got)
			}
			if d.Final == nil {
				if g := d.HandRunGap(); g != tc.gap {
					t.Errorf("HandRunGap = %q\nwant %q", g, tc.gap)
				}
			}
		})
	}
}
