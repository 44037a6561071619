package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

func sampleDebates(t *testing.T, arg string) (*bugfolder.Bug, []*bugfolder.Debate) {
	t.Helper()
	_, b, err := bugfolder.Resolve(filepath.Join(testutil.RepoRoot(t), "testdata", "sample"), arg)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := bugfolder.ReadDebates(b)
	if err != nil {
		t.Fatal(err)
	}
	return b, ds
}

func TestReadHandWrittenDoneDebate(t *testing.T) {
	_, ds := sampleDebates(t, "5")
	if len(ds) != 1 {
		t.Fatalf("%d debates", len(ds))
	}
	d := ds[0]
	if d.State != bugfolder.StateDone || d.Lang != bugfolder.PT || len(d.Problems) != 0 {
		t.Fatalf("state %s lang %v problems %v", d.State, d.Lang, d.Problems)
	}
	p := d.Problem
	if p.Mode != bugfolder.Diagnosis || p.N != 3 || p.R != 2 || len(p.Solvers) != 3 || p.Solvers[2].Value != "codex" || len(p.Rubric) != 4 {
		t.Errorf("problem: %+v", p)
	}
	if !strings.HasPrefix(p.Rubric[0], "Poder explicativo") {
		t.Errorf("rubric entries keep their text without the number: %q", p.Rubric[0])
	}
	if len(d.Rounds) != 3 {
		t.Fatalf("rounds: %d", len(d.Rounds))
	}
	timedOut := d.Rounds[2].File("agente-3")
	if timedOut == nil || timedOut.Status != bugfolder.StatusTimeout || timedOut.Error == "" {
		t.Errorf("round 2 agente-3: %+v", timedOut)
	}
	if f := d.Rounds[1].File("agente-2"); f.Status != bugfolder.StatusOK || f.TokensIn != 3100 || f.Duration().Seconds() != 100 {
		t.Errorf("round 1 agente-2: %+v", f)
	}
	fin := d.Final
	if fin.Winner != "B" || fin.WinnerSolver != "agente-1" || fin.Participants != 2 || fin.Of != 3 || fin.DecidedBy != "judge" || fin.AcceptedContributions != 2 {
		t.Errorf("final: %+v", fin)
	}
	if tok, usd := d.Totals(); tok == 0 || usd <= 0 {
		t.Errorf("totals %d %v", tok, usd)
	}
}

func TestReadEnglishInterruptedDebate(t *testing.T) {
	_, ds := sampleDebates(t, "BUG-20260801-X9Z2")
	d := ds[0]
	if d.Lang != bugfolder.EN || d.State != bugfolder.StateInterrupted { // no event log: nothing runs it
		t.Fatalf("lang %v state %s", d.Lang, d.State)
	}
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %v", d.Problems)
	}
	if len(d.Problem.Critics) != 1 || d.Problem.Rubric[3] != "Contradicts no recorded fact." {
		t.Errorf("problem: %+v", d.Problem)
	}
	if len(d.Rounds) != 2 || len(d.Rounds[0].Files) != 3 || len(d.Rounds[1].Files) != 1 {
		t.Fatalf("rounds: %+v", d.Rounds)
	}
	// agent-2 was saved with CRLF and a BOM
	f := d.Rounds[0].File("agent-2")
	if f == nil || f.Status != bugfolder.StatusOK || strings.Contains(f.Body, "\r") {
		t.Fatalf("CRLF+BOM file: %+v", f)
	}
	if v := bugfolder.ValidateDebater(f.Body, bugfolder.Expect{Lang: bugfolder.EN, Mode: bugfolder.Diagnosis, Role: bugfolder.RoleSolver}); !v.OK() {
		t.Errorf("english body: %s", v.Summary())
	}
}

func TestReadJudgeFailedBulletListDebate(t *testing.T) {
	_, ds := sampleDebates(t, "6")
	d := ds[0]
	if d.State != bugfolder.StateJudgeFailed {
		t.Fatalf("state %s", d.State)
	}
	if d.Problem.Mode != bugfolder.Diagnosis || d.Problem.N != 2 || d.Problem.R != 1 || d.Problem.Judge != "local" {
		t.Errorf("bullet-list problem: %+v", d.Problem)
	}
	if len(d.JudgeAttempts) != 1 || d.JudgeAttempts[0].Status != bugfolder.StatusInvalidOutput || len(d.JudgeAttempts[0].Invalid) != 1 {
		t.Errorf("attempts: %+v", d.JudgeAttempts)
	}
}

func TestReadArchivedDebates(t *testing.T) {
	b, ds := sampleDebates(t, "3")
	if !b.Locked() || len(ds) != 2 || ds[0].Name != "debate-20260611T090000Z" || ds[1].Name != "debate" {
		t.Fatalf("debates: %v", ds)
	}
	if ds[0].State != bugfolder.StateWaiting || ds[1].State != bugfolder.StateDone || ds[1].Final.DecidedBy != "human" {
		t.Errorf("states %s %s", ds[0].State, ds[1].State)
	}
	if ds[0].StartedAt().Format("2006-01-02") != "2026-06-11" {
		t.Errorf("started %v", ds[0].StartedAt())
	}
}

func TestNoDebate(t *testing.T) {
	_, ds := sampleDebates(t, "7")
	if len(ds) != 0 {
		t.Fatalf("%d debates", len(ds))
	}
	d, err := bugfolder.ReadDebate(filepath.Join(t.TempDir(), "debate"), bugfolder.PT)
	if err != nil || d.State != bugfolder.StateNoDebate {
		t.Errorf("missing folder: %v %v", d, err)
	}
}

// writeDebate makes a debate folder with a problema.md, round-0 files and
// the given event log lines.
func writeDebate(t *testing.T, events ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "debate")
	os.MkdirAll(filepath.Join(dir, "rodada-0"), 0o755)
	os.WriteFile(filepath.Join(dir, "problema.md"), []byte("---\nmode: diagnosis\nn: 3\nr: 1\n---\n\n## Rubrica\n\n1. x\n\n## P\n\nP\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rodada-0", "agente-1.md"), []byte("---\nstatus: ok\n---\n## Hipóteses\n"), 0o644)
	if events != nil {
		os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(strings.Join(events, "\n")), 0o644)
	}
	return dir
}

func TestStateFromEventLog(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		want   bugfolder.State
	}{
		{"started", []string{`{"type":"setup"}`, `{"type":"round_started","round":0}`, ``}, bugfolder.StateRunning},
		{"quorum lost, nobody answered", []string{`{"type":"round_started","round":0}`, `{"type":"quorum_lost","round":0}`, ``}, bugfolder.StateWaiting},
		{"quorum lost, then continue", []string{`{"type":"quorum_lost","round":0}`, `{"type":"decision","point":"quorum","choice":"continue"}`, ``}, bugfolder.StateRunning},
		{"paused at the quorum menu", []string{`{"type":"quorum_lost","round":0}`, `{"type":"decision","point":"quorum","choice":"pause"}`, `{"type":"debate_finished","status":"waiting"}`, ``}, bugfolder.StateWaiting},
		{"cancelled", []string{`{"type":"quorum_lost","round":0}`, `{"type":"decision","point":"quorum","choice":"cancel"}`, `{"type":"debate_finished","status":"cancelled"}`, ``}, bugfolder.StateCancelled},
		{"cancelled then resumed", []string{`{"type":"debate_finished","status":"cancelled"}`, `{"type":"resumed"}`, `{"type":"round_started","round":1}`, ``}, bugfolder.StateRunning},
		{"judge failed, pending", []string{`{"type":"judge_started"}`, `{"type":"judge_failed","reason":"x"}`, ``}, bugfolder.StateJudgeFailed},
		{"judge failed, retried", []string{`{"type":"judge_failed"}`, `{"type":"decision","point":"judge","choice":"retry"}`, `{"type":"judge_started"}`, ``}, bugfolder.StateRunning},
		{"a line cut short by a crash", []string{`{"type":"quorum_lost","round":0}`, `{"type":"deci`}, bugfolder.StateWaiting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := bugfolder.ReadDebate(writeDebate(t, tt.events...), bugfolder.PT)
			if err != nil {
				t.Fatal(err)
			}
			if d.State != tt.want {
				t.Errorf("state %s, want %s", d.State, tt.want)
			}
			if len(d.Problems) != 0 {
				t.Errorf("problems: %v", d.Problems)
			}
		})
	}
	// a damaged line in the middle is reported, not fatal
	d, _ := bugfolder.ReadDebate(writeDebate(t, `{"type":"setup"}`, `garbage`, `{"type":"round_started"}`, ``), bugfolder.PT)
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Error(), "line 2") || len(d.Events) != 2 {
		t.Errorf("problems %v events %d", d.Problems, len(d.Events))
	}
}

func TestBrokenDebaterFileIsReportedNotFatal(t *testing.T) {
	dir := writeDebate(t)
	os.WriteFile(filepath.Join(dir, "rodada-0", "agente-2.md"), []byte("---\nstatus: [\n---\n"), 0o644)
	d, err := bugfolder.ReadDebate(dir, bugfolder.PT)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Error(), "agente-2.md") {
		t.Errorf("problems: %v", d.Problems)
	}
	if len(d.Rounds[0].Files) != 1 {
		t.Error("the readable file must still be read")
	}
}

// FuzzParseDebaterFile: debater files come from other tools; never panic.
func FuzzParseDebaterFile(f *testing.F) {
	f.Add([]byte("---\nprotocol_version: 1\nround: 2\nstatus: ok\ntokens_in: 10\n---\n## Hipóteses\n"))
	f.Add([]byte("---\nround: [1]\nstarted_at: {x: 1}\n---\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if df, err := bugfolder.ParseDebaterFile("f.md", b); err == nil {
			_ = df.Duration()
		}
		if fin, err := bugfolder.ParseFinal("f.md", b); err == nil {
			_ = fin.Winner
		}
		if p, err := bugfolder.ParseProblemFile("p.md", b); err == nil {
			_ = p.Rubric
		}
	})
}
