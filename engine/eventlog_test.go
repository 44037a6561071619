package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestWriteEventLogSample runs a debate through every kind of event the log
// holds (a transport retry, a timeout, an invalid answer, two quorum
// menus, a judge failure, a cancel, a resume, a human choice) and, with
// MOOT_WRITE_EVENTLOG set, keeps its log as testdata/eventlog/eventos.jsonl:
// the sample bugfolder's tests read back byte for byte. The sample was
// written by moot before the event schema was typed, so it pins the
// on-disk format.
func TestWriteEventLogSample(t *testing.T) {
	f := newFixture(t, "7")
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false, price: {input_per_mtok: 1, output_per_mtok: 2}}\n  b: {kind: command, command: [x], external: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.cfg = cfg
	f.engines = map[string]*scripted{"a": {}, "b": {}}
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		switch {
		case req.Round == 0 && req.SolverID == "agente-3" && n == 1:
			return &harness.Result{Failure: harness.FailTransport, Err: "connection refused"}
		case req.Round == 1 && (req.SolverID == "agente-2" || req.SolverID == "agente-4"):
			return failed(bugfolder.StatusTimeout)
		case req.Round == 1 && req.SolverID == "agente-3":
			return &harness.Result{Body: "no sections at all", TokensIn: 10, TokensOut: 5}
		case req.Role == string(bugfolder.RoleJudge) && n == 1:
			return &harness.Result{Body: "## Vencedora\n\nProposta Z\n"}
		}
		return nil
	}
	s := &sup{
		quorum: []QuorumDecision{{Choice: QuorumSetTimeout, SolverID: "agente-2", Timeout: 3 * time.Minute, By: "human"},
			{Choice: QuorumSwap, SolverID: "agente-1", Engine: "b", By: "human"}, // not a failed solver: a warning
			{Choice: QuorumSwap, SolverID: "agente-3", Engine: "b", By: "human"}, {Choice: QuorumContinue, By: "policy"}},
		judge: []JudgeDecision{{Choice: JudgeCancel, By: "human"}},
	}
	res, err := Start(context.Background(), f.setup(4, 1), f.opts(s))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	res, err = Resume(context.Background(), f.bug, f.opts(&sup{judge: []JudgeDecision{{Choice: JudgeHuman, Winner: "A", By: "human"}}}))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	raw, err := os.ReadFile(filepath.Join(f.bug.Dir, "debate", "eventos.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "testdata", "eventlog", "eventos.jsonl")
	if os.Getenv("MOOT_WRITE_EVENTLOG") == "" {
		sample, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// the same debate logs the same events with the same fields
		if got, want := shapes(t, raw), shapes(t, sample); !slices.Equal(got, want) {
			t.Errorf("the log's events and fields changed:\n got %v\nwant %v", got, want)
		}
		return
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shapes lists each logged event as its type and its sorted field names,
// sorted: what a log says, whatever order parallel calls finished in.
func shapes(t *testing.T, raw []byte) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(m["type"], slices.Sorted(maps.Keys(m))))
	}
	slices.Sort(out)
	return out
}
