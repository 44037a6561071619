package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestPlanCriticalPath: the plan's time figure is per stage — a round's
// critics before its solvers, the judge last — each as long as its
// slowest call, in more turns when --parallel is below a stage's size.
func TestPlanCriticalPath(t *testing.T) {
	cases := []struct {
		name            string
		n, r, critics   int
		parallel        int
		stages, turns   int
		text            string
		defaultParallel int
	}{
		{"no critics", 4, 3, 0, 0, 5, 5,
			"5 stages in turn, each as long as its slowest call (rounds 0–3: 4 solvers; then the judge); at most 50m by the calls' time limits", 4},
		{"critics before solvers", 4, 3, 2, 0, 8, 8,
			"8 stages in turn, each as long as its slowest call (round 0: 4 solvers; rounds 1–3: 2 critics, then 4 solvers; then the judge); at most 1h20m by the calls' time limits", 4},
		{"more critics than solvers", 2, 1, 3, 0, 4, 4,
			"4 stages in turn, each as long as its slowest call (round 0: 2 solvers; round 1: 3 critics, then 2 solvers; then the judge); at most 40m by the calls' time limits", 3},
		{"parallel below the stage", 4, 1, 0, 2, 3, 5,
			"3 stages in 5 turns (call limits), each as long as its slowest call (rounds 0–1: 4 solvers; then the judge); at most 50m by the calls' time limits", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, "7")
			s := f.setup(c.n, c.r)
			s.Parallel = c.parallel
			for range c.critics {
				s.Critics = append(s.Critics, "b")
			}
			if got := DefaultParallel(s); got != c.defaultParallel {
				t.Errorf("default parallel %d, want %d", got, c.defaultParallel)
			}
			p, err := NewPlan(s, f.cfg)
			if err != nil {
				t.Fatal(err)
			}
			turns := 0
			for _, st := range p.Stages {
				turns += st.Waves
			}
			if len(p.Stages) != c.stages || turns != c.turns {
				t.Errorf("%d stages in %d turns, want %d in %d: %+v", len(p.Stages), turns, c.stages, c.turns, p.Stages)
			}
			if got := p.PathText(); got != c.text {
				t.Errorf("path:\n got %s\nwant %s", got, c.text)
			}
		})
	}
}

// TestStageRunsInParallel: with --parallel left to its default (the
// largest stage), a round's three critics are all in flight at once —
// each waits for the others to start, which a sequential run never
// reaches — and the round's solvers start only after every critic ended.
func TestStageRunsInParallel(t *testing.T) {
	f := newFixture(t, "7")
	s := f.setup(2, 1)
	s.Parallel = 0
	s.Critics = []string{"b", "b", "b"}
	var (
		mu            sync.Mutex
		started, done int
		allIn         = make(chan struct{})
		solverEarly   bool
		inTurns       bool
	)
	f.engines["b"].answer = func(req harness.Request, n int) *harness.Result {
		mu.Lock()
		started++
		if started == len(s.Critics) {
			close(allIn)
		}
		mu.Unlock()
		select {
		case <-allIn:
		case <-time.After(10 * time.Second):
			mu.Lock()
			inTurns = true
			mu.Unlock()
			return &harness.Result{Failure: harness.FailEngine, Err: "the other critics never started: the stage ran in turns"}
		}
		mu.Lock()
		done++
		mu.Unlock()
		return nil
	}
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 1 && req.Role == string(bugfolder.RoleSolver) {
			mu.Lock()
			solverEarly = solverEarly || done < len(s.Critics)
			mu.Unlock()
		}
		return nil
	}
	if _, err := Start(context.Background(), s, f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	if inTurns {
		t.Fatal("the critics of round 1 were never in flight together")
	}
	if solverEarly {
		t.Error("a solver of round 1 started before its round's critics ended")
	}
}

// TestPromptsShareOneP: every call — solvers, critics, the judge — gets
// its prompt in pieces with P as one piece that all calls share (one copy
// of P in memory whatever N), P.md from the debate's one P file, and the
// whole prompt holds P as the protocol wrote it, never the stand-in.
func TestPromptsShareOneP(t *testing.T) {
	f := newFixture(t, "7")
	s := f.setup(3, 1)
	s.Critics = []string{"b"}
	if _, err := Start(context.Background(), s, f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	var reqs []harness.Request
	for _, e := range f.engines {
		reqs = append(reqs, e.calls...)
	}
	if len(reqs) != 3*2+1+1 {
		t.Fatalf("%d calls", len(reqs))
	}
	var shared *byte
	files := map[string]bool{}
	for _, req := range reqs {
		body := strings.TrimRight(req.P, "\n")
		text := req.PromptText()
		if strings.Contains(text, "\x00") || !strings.Contains(text, body) {
			t.Fatalf("%s round %d: the prompt lacks P or holds the stand-in", req.SolverID, req.Round)
		}
		var piece *byte
		for _, part := range req.PromptParts {
			if part == body {
				piece = unsafe.StringData(part)
			}
		}
		if piece == nil || shared != nil && piece != shared {
			t.Errorf("%s round %d (%s): P is not the one shared piece", req.SolverID, req.Round, req.Role)
		}
		shared = piece
		files[req.PFile] = true
	}
	if len(files) != 1 || files[""] {
		t.Errorf("the calls' P files: %v, want one", files)
	}
	for name := range files {
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Errorf("the P file %s outlived the debate", name)
		}
	}
}

// The judge's kept prompt names P instead of writing it a third time (P is
// kept once in problema.md): put back, P makes the prompt the engine read
// byte for byte.
func TestKeptJudgePromptNamesP(t *testing.T) {
	f := newFixture(t, "7")
	if _, err := Start(context.Background(), f.setup(2, 0), f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	var judge *harness.Request
	for _, req := range f.engines["a"].calls {
		if req.Role == "judge" {
			judge = &req
		}
	}
	if judge == nil {
		t.Fatal("no judge call")
	}
	body := strings.TrimRight(judge.P, "\n")
	if len(body) < 4096 {
		t.Fatalf("the sample's P is %d bytes: too small to be split off (4096)", len(body))
	}
	kept, err := filepath.Glob(filepath.Join(f.bug.Dir, "debate", "juiz", "raw", "juiz*prompt"))
	if err != nil || len(kept) != 1 {
		t.Fatalf("kept judge prompts: %v %v", kept, err)
	}
	raw, err := os.ReadFile(kept[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), body) {
		t.Error("the kept judge prompt writes P again")
	}
	sum := sha256.Sum256([]byte(body))
	ref := regexp.MustCompile(`\[P: [^\]]*sha256 ` + hex.EncodeToString(sum[:]) + `[^\]]*\]`)
	if got := ref.ReplaceAllLiteralString(string(raw), body); got != judge.PromptText() {
		t.Errorf("the kept prompt with P put back is not the prompt the judge read (reference found: %v)", ref.MatchString(string(raw)))
	}
}
