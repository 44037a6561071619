package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// TestHappyDebate is the "done when": a headless run with a
// command engine writes every file of the protocol, and moot show reads it.
func TestHappyDebate(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 0)
	if !strings.Contains(r.stderr, "done: 10 calls") {
		t.Errorf("progress:\n%s", r.stderr)
	}
	d := p.readDebate()
	if d.State != bugfolder.StateDone || d.Problem.Mode != bugfolder.Diagnosis || d.Problem.N != 3 || d.Problem.R != 2 || len(d.Problem.Rubric) != 4 {
		t.Fatalf("debate: state %s problem %+v", d.State, d.Problem)
	}
	if len(d.Rounds) != 3 {
		t.Fatalf("rounds %d", len(d.Rounds))
	}
	for _, rd := range d.Rounds {
		if len(rd.Files) != 3 {
			t.Errorf("round %d has %d files", rd.K, len(rd.Files))
		}
		for _, f := range rd.Files {
			if f.Status != bugfolder.StatusOK || f.Engine != "zeta-engine" || f.Round != rd.K || f.DebateID != "BUG-20260715-A7K3-r"+itoa(rd.K) ||
				f.BugID != "BUG-20260715-A7K3" || f.ProtocolVersion != 1 || f.TokensIn == 0 || !f.TokensEstimated || f.CostUSD <= 0 || f.StartedAt.IsZero() {
				t.Errorf("%s: %+v", f.Path, f)
			}
			if _, err := os.Stat(filepath.Join(rd.Dir, "raw", f.SolverID+".attempt-1.stdout")); err != nil {
				t.Errorf("raw stdout: %v", err)
			}
			if _, err := os.Stat(filepath.Join(rd.Dir, "raw", f.SolverID+".attempt-1.stderr")); err == nil {
				t.Error("an empty stderr leaves no raw file")
			}
		}
	}
	fin := d.Final
	if fin.Role != bugfolder.RoleJudge || fin.SolverID != "juiz" || fin.DebateID != "BUG-20260715-A7K3-final" || fin.Round != 2 ||
		fin.DecidedBy != "judge" || fin.Participants != 3 || fin.Of != 3 || len(fin.Labels) != 3 || fin.WinnerSolver == "" ||
		fin.AcceptedContributions != 2 || fin.HealthTokensPerContribution <= 0 {
		t.Errorf("final: %+v", fin)
	}
	if strings.Contains(fin.Body, "degradado") {
		t.Error("a full debate is not degraded")
	}
	if !strings.Contains(d.Convergence, "| 0 | 3/3 |") || !strings.Contains(d.Convergence, "| 2 | 3/3 |") {
		t.Errorf("convergence:\n%s", d.Convergence)
	}
	// problema.md: read-only, its sha recorded at setup
	fi, _ := os.Stat(d.Problem.Path)
	if fi.Mode().Perm() != 0o400 {
		t.Errorf("problema.md mode %v", fi.Mode().Perm())
	}
	evs := p.events()
	if evs[0]["type"] != "setup" || evs[0]["problema_sha256"] != d.Problem.SHA256 {
		t.Errorf("setup event %v, file sha %s", evs[0], d.Problem.SHA256)
	}
	types := map[string]int{}
	for _, ev := range evs {
		types[ev["type"].(string)]++
	}
	for typ, n := range map[string]int{"setup": 1, "plan": 1, "round_started": 3, "call_started": 10, "call_finished": 10, "convergence": 3, "judge_started": 1, "judge_finished": 1, "debate_finished": 1} {
		if types[typ] != n {
			t.Errorf("%d %s events, want %d (all: %v)", types[typ], typ, n, types)
		}
	}
	if types["output"] != 0 {
		t.Error("output deltas do not belong in the event log")
	}
	// moot show and list read it
	show := p.moot("show", "7").mustExit(t, 0)
	if !strings.Contains(show.stdout, "status | done") || !strings.Contains(show.stdout, "3 of 3 solvers took part") {
		t.Errorf("show:\n%s", show.stdout)
	}
	for _, args := range [][]string{{"show", "7", "--round", "1"}, {"show", "7", "--final"}, {"show", "7", "--problem"}, {"show", "7", "--convergence"}} {
		p.moot(args...).mustExit(t, 0)
	}
	var list []map[string]any
	json.Unmarshal([]byte(p.moot("list", "--json").stdout), &list)
	for _, e := range list {
		if e["bug_id"] == "BUG-20260715-A7K3" && (e["status"] != "done" || e["cost_usd"].(float64) <= 0 || e["winner"] == nil) {
			t.Errorf("list entry %v", e)
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestProblemNeverChanges: problema.md is written before round 0 and a
// changed one stops a resume.
func TestProblemNeverChanges(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "judge=judgebad"
	p.moot("run", "7", "--mode", "repair", "--yes", "--headless").mustExit(t, 4)
	path := filepath.Join(p.debate(), "problema.md")
	before, _ := os.ReadFile(path)
	sum := sha256.Sum256(before)
	if p.events()[0]["problema_sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatal("setup event does not record problema.md's sha256")
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, append(before, []byte("\nedited\n")...), 0o600)
	fp := testutil.Fingerprint(t, p.debate())
	r := p.moot("resume", "7", "--yes", "--headless", "--winner", "A").mustExit(t, 2)
	if !strings.Contains(r.stderr, "problema.md") || !strings.Contains(r.stderr, "changed since setup") {
		t.Errorf("stderr: %s", r.stderr)
	}
	if testutil.Fingerprint(t, p.debate()) != fp {
		t.Error("a refused resume wrote something")
	}
}

var markRE = regexp.MustCompile(`marca: (\S+) r(\d+)`)

// marks lists the "marca: ID rK" lines of a text (who wrote what, when).
func marks(s string) []string {
	var out []string
	for _, m := range markRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+"@"+m[2])
	}
	sort.Strings(out)
	return out
}

// TestSnapshotsAreFrozen: every round-k prompt holds exactly the valid
// files of round k-1 — in parallel and in the sequential fallback, where
// a later solver of round k runs after an earlier one has written.
func TestSnapshotsAreFrozen(t *testing.T) {
	t.Parallel()
	for _, parallel := range []string{"3", "1"} {
		t.Run("parallel="+parallel, func(t *testing.T) {
			p := newProject(t)
			p.Plan = "agente-3@0=fail,agente-1@0=inject" // agente-1 names its engine in its body
			p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--parallel", parallel, "--critic", "omega").mustExit(t, 0)
			// round 0: nobody sees anybody
			for _, id := range []string{"agente-1", "agente-2", "agente-3"} {
				if m := marks(p.prompt(0, id, 1)); len(m) != 0 {
					t.Errorf("round 0 prompt of %s holds %v", id, m)
				}
			}
			// round 1: exactly the valid round-0 files (agente-3 failed, so it is absent and noted)
			pr := p.prompt(1, "agente-2", 1)
			// (and round 1's critique: critics of a round run first)
			if got := strings.Join(marks(pr), " "); got != "agente-1@0 agente-2@0 critic-1@1" {
				t.Errorf("round 1 snapshot of agente-2: %s", got)
			}
			if !strings.Contains(pr, "<<<INÍCIO agente-2 (sua proposta anterior)") {
				t.Error("a solver's own previous proposal must be marked as its own")
			}
			if !strings.Contains(pr, "agente-3: sem proposta válida nesta rodada (error)") {
				t.Errorf("the failed solver must be noted in the snapshot:\n%s", pr)
			}
			// the solver that failed while the quorum held is called again in round 1
			if p.starts("agente-3", 1) != 1 {
				t.Error("agente-3 was not called again in round 1")
			}
			// round 2: round-1 solver files and round 2's critique, no solver file of round 2
			pr = p.prompt(2, "agente-3", 1)
			if got := strings.Join(marks(pr), " "); got != "agente-1@1 agente-2@1 agente-3@1 critic-1@2" {
				t.Errorf("round 2 snapshot of agente-3: %s", got)
			}
			cp := p.prompt(1, "critic-1", 1)
			if got := strings.Join(marks(cp), " "); got != "agente-1@0 agente-2@0" {
				t.Errorf("critic's round-1 snapshot: %s", got)
			}
			// engines are never named to the debaters
			for _, f := range []string{p.prompt(1, "agente-1", 1), pr, cp} {
				if strings.Contains(f, "zeta-engine") || strings.Contains(f, "zeta-1") || strings.Contains(f, "omega") {
					t.Error("a debater's prompt names an engine")
				}
			}
			d := p.readDebate()
			for k := 1; k <= 2; k++ {
				if f := d.Rounds[k].File("critic-1"); f == nil || f.Role != bugfolder.RoleCritic || f.Status != bugfolder.StatusOK {
					t.Errorf("critic file of round %d: %+v", k, f)
				}
			}
			if d.Rounds[0].File("critic-1") != nil {
				t.Error("critics start in round 1")
			}
		})
	}
}

// TestSequentialWritesTheSameFiles: --parallel 1 is the same protocol.
func TestSequentialWritesTheSameFiles(t *testing.T) {
	t.Parallel()
	shape := func(parallel string) []string {
		p := newProject(t)
		p.Plan = "agente-2@1=invalid"
		p.moot("run", "7", "--mode", "repair", "-n", "4", "-r", "1", "--yes", "--headless", "--parallel", parallel).mustExit(t, 0)
		var out []string
		d := p.readDebate()
		for _, rd := range d.Rounds {
			for _, f := range rd.Files {
				out = append(out, rd.Dir[len(p.debate()):]+"/"+f.SolverID+" "+string(f.Status))
			}
		}
		out = append(out, fmt.Sprintf("final %d/%d", d.Final.Participants, d.Final.Of))
		return out
	}
	a, b := shape("4"), shape("1")
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("parallel:\n%s\nsequential:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}
