package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
)

// scripted is an in-process engine whose answers a test decides.
type scripted struct {
	mu    sync.Mutex
	calls []harness.Request
	// answer returns the result of a call; nil means a valid answer.
	answer func(req harness.Request, n int) *harness.Result
}

func (s *scripted) Call(ctx context.Context, req harness.Request) harness.Result {
	s.mu.Lock()
	s.calls = append(s.calls, req)
	n := 0
	for _, c := range s.calls {
		if c.SolverID == req.SolverID && c.Round == req.Round {
			n++
		}
	}
	s.mu.Unlock()
	if s.answer != nil {
		if r := s.answer(req, n); r != nil {
			return *r
		}
	}
	if req.OnOutput != nil {
		req.OnOutput("## ")
	}
	return harness.Result{Body: validBody(req), TokensIn: 100, TokensOut: 50}
}

func (s *scripted) count(id string, round int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if c.SolverID == id && c.Round == round {
			n++
		}
	}
	return n
}

// validBody answers as the protocol asks, judge included.
func validBody(req harness.Request) string {
	if req.Role == string(bugfolder.RoleJudge) {
		first := "A"
		if i := strings.Index(req.PromptText(), "<<<INÍCIO PROPOSTA "); i >= 0 {
			rest := req.PromptText()[strings.Index(req.PromptText(), "# Propostas finais"):]
			first = rest[strings.Index(rest, "PROPOSTA ")+9:][:1]
		}
		return "## Vencedora\n\nProposta " + first + "\n\n## Enxertos\n\nnenhum\n\n## Justificativa por critério\n\n1. a\n2. b\n3. c\n4. d\n\n## Síntese\n\n## Hipóteses\n\nH\n\n## Causa raiz proposta\n\nC\n\n## Teste\n\nT\n\n## Impacto sobre a spec\n\nI\n\n## Riscos e efeitos colaterais\n\nR\n\n## Evidências\n\nE\n\n## Confiança\n\nalta: o log confirma.\n"
	}
	b := fmt.Sprintf("## Hipóteses\n\nH de %s: %s\n\n## Causa raiz proposta\n\nC\n\n## Teste\n\nT\n\n## Impacto sobre a spec\n\nI\n\n## Riscos e efeitos colaterais\n\nR\n\n## Evidências\n\nE r%d\n\n## Confiança\n\nalta: o log confirma.\n", req.SolverID, flavour[req.SolverID], req.Round)
	if req.Round >= 1 {
		b += "\n## Crítica às demais propostas\n\n- agente-1: ok\n- agente-2: ok\n"
	}
	return b
}

// flavour makes each solver's body differ beyond its id.
var flavour = map[string]string{"agente-1": "zulu", "agente-2": "alfa", "agente-3": "mike", "agente-4": "kilo", "agente-5": "echo", "agente-6": "golf"}

func failed(st bugfolder.Status) *harness.Result {
	f := harness.FailEngine
	if st == bugfolder.StatusTimeout {
		f = harness.FailTimeout
	}
	return &harness.Result{Failure: f, Err: "scripted failure"}
}

// sup is a scripted Supervisor.
type sup struct {
	quorum []QuorumDecision
	judge  []JudgeDecision
	asked  []QuorumLoss
	jasked []JudgeFailure
}

func (s *sup) QuorumLost(ctx context.Context, q QuorumLoss) (QuorumDecision, error) {
	s.asked = append(s.asked, q)
	if len(s.quorum) == 0 {
		return QuorumDecision{}, ErrNeedHuman
	}
	d := s.quorum[0]
	s.quorum = s.quorum[1:]
	return d, nil
}

func (s *sup) JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error) {
	s.jasked = append(s.jasked, j)
	if len(s.judge) == 0 {
		return JudgeDecision{}, ErrNeedHuman
	}
	d := s.judge[0]
	s.judge = s.judge[1:]
	return d, nil
}

type fixture struct {
	bug     *bugfolder.Bug
	cfg     *harness.Config
	engines map[string]*scripted
	events  []Event
	mu      sync.Mutex
}

func newFixture(t *testing.T, bugArg string) *fixture {
	t.Helper()
	proj := testutil.CopyTree(t, "sample")
	_, b, err := bugfolder.Resolve(proj, bugArg)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false}\n  b: {kind: command, command: [x], external: false}\n  ext: {kind: command, command: [x]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{bug: b, cfg: cfg, engines: map[string]*scripted{"a": {}, "b": {}, "ext": {}}}
}

func (f *fixture) opts(s Supervisor) Options {
	m := map[string]harness.Engine{}
	for k, v := range f.engines {
		m[k] = v
	}
	return Options{Protocol: debate.Protocol{}, Config: f.cfg, Engines: m, Supervisor: s, Command: "test", Sink: func(e Event) {
		f.mu.Lock()
		f.events = append(f.events, e)
		f.mu.Unlock()
	}}
}

func (f *fixture) setup(n, r int, solvers ...string) Setup {
	if len(solvers) == 0 {
		for i := 0; i < n; i++ {
			solvers = append(solvers, "a")
		}
	}
	return Setup{Protocol: debate.Protocol{}, Bug: f.bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: n, R: r, Solvers: solvers, Judge: "a", Parallel: n}
}

func (f *fixture) debate(t *testing.T) *bugfolder.Debate {
	t.Helper()
	d, err := bugfolder.ReadDebate(filepath.Join(f.bug.Dir, "debate"), bugfolder.PT)
	if err != nil || len(d.Problems) > 0 {
		t.Fatalf("%v %v", err, d.Problems)
	}
	return d
}

func TestSwapEngineIsAnAmendment(t *testing.T) {
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 1 && (req.SolverID == "agente-2" || req.SolverID == "agente-3") {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumSwap, SolverID: "agente-2", Engine: "b", By: "human"}}}
	res, err := Start(context.Background(), f.setup(3, 2), f.opts(s))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	q := s.asked[0]
	if q.Round != 1 || q.Valid != 1 || q.Needed != 2 || len(q.Failed) != 2 || q.RetryCalls != 2 || q.ContinueSaves != 2 {
		t.Errorf("quorum loss: %+v", q)
	}
	d := f.debate(t)
	f2 := d.Rounds[1].File("agente-2")
	if f2.Engine != "b" || f2.Status != bugfolder.StatusOK || !strings.Contains(f2.Amendment, "engine a → b from round 1 (decided by human)") {
		t.Errorf("swapped file: %+v", f2)
	}
	if f3 := d.Rounds[2].File("agente-2"); f3.Engine != "b" || f3.Amendment == "" {
		t.Errorf("the amendment holds in later rounds: %+v", f3)
	}
	if d.Problem.Solvers[1].Value != "a" {
		t.Error("problema.md keeps the original plan")
	}
	if f.engines["b"].count("agente-2", 1) != 1 || f.engines["a"].count("agente-2", 2) != 0 {
		t.Error("the swapped solver must run on b from then on")
	}
	// agente-3 stays in (quorum held after the swap) and is called in round 2
	if d.Rounds[2].File("agente-3") == nil {
		t.Error("a failed solver stays in while the quorum holds")
	}
}

func TestSwapToExternalOnRestrictedIsRefused(t *testing.T) {
	f := newFixture(t, "8") // restricted
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 0 && req.SolverID != "agente-1" {
			return failed(bugfolder.StatusTimeout)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumSwap, SolverID: "agente-2", Engine: "ext"}, {Choice: QuorumCancel}}}
	res, err := Start(context.Background(), f.setup(3, 1), f.opts(s))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	if f.engines["ext"].count("agente-2", 0) != 0 {
		t.Fatal("a restricted bug reached an external engine")
	}
	warned := false
	for _, e := range f.events {
		warned = warned || (e.Type == EvWarning && strings.Contains(e.Text, "restricted"))
	}
	if !warned || len(s.asked) != 2 {
		t.Errorf("the refusal is said and the menu asked again (asked %d)", len(s.asked))
	}
}

func TestChangeTimeoutAndPause(t *testing.T) {
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 0 && req.SolverID != "agente-1" && req.Timeout < time.Hour {
			return failed(bugfolder.StatusTimeout)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumSetTimeout, SolverID: "agente-2", Timeout: 2 * time.Hour}, {Choice: QuorumPause}}}
	// agente-2 with the longer timeout answers; agente-3 still times out,
	// but 2 of 3 meet the quorum, so no second question in round 0
	res, err := Start(context.Background(), f.setup(3, 1), f.opts(s))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s.asked) != 1 {
		t.Errorf("asked %d times", len(s.asked))
	}
	d := f.debate(t)
	if f2 := d.Rounds[0].File("agente-2"); f2.Status != bugfolder.StatusOK || !strings.Contains(f2.Amendment, "timeout 2h0m0s") {
		t.Errorf("agente-2: %+v", f2)
	}
	// pause: waiting, resumable, and the resume asks again
	g := newFixture(t, "7")
	g.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 0 && req.SolverID != "agente-1" {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	s = &sup{quorum: []QuorumDecision{{Choice: QuorumPause}}}
	res, err = Start(context.Background(), g.setup(3, 1), g.opts(s))
	if err != nil || res.Outcome != OutcomeWaiting {
		t.Fatalf("%v %+v", err, res)
	}
	if st := g.debate(t).State; st != bugfolder.StateWaiting {
		t.Errorf("state %s", st)
	}
	s = &sup{quorum: []QuorumDecision{{Choice: QuorumContinue}}}
	res, err = Resume(context.Background(), g.bug, g.opts(s))
	if err != nil || res.Outcome != OutcomeDone || len(s.asked) != 1 {
		t.Fatalf("%v %+v asked %d", err, res, len(s.asked))
	}
	if g.engines["a"].count("agente-1", 0) != 1 {
		t.Error("resume repeated a finished call")
	}
}

// TestChangeTimeoutForAllFailed: one timeout change for every failed
// solver amends each of them and calls them all again.
func TestChangeTimeoutForAllFailed(t *testing.T) {
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 0 && req.SolverID != "agente-1" && req.Timeout < time.Hour {
			return failed(bugfolder.StatusTimeout)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumSetTimeout, SolverID: AllFailed, Timeout: 2 * time.Hour}, {Choice: QuorumPause}}}
	res, err := Start(context.Background(), f.setup(3, 1), f.opts(s))
	if err != nil || res.Outcome != OutcomeDone || len(s.asked) != 1 {
		t.Fatalf("%v %+v asked %d", err, res, len(s.asked))
	}
	d := f.debate(t)
	for _, id := range []string{"agente-2", "agente-3"} {
		if fl := d.Rounds[0].File(id); fl.Status != bugfolder.StatusOK || !strings.Contains(fl.Amendment, "timeout 2h0m0s") {
			t.Errorf("%s: %+v", id, fl)
		}
	}
}

func TestPanelQuorumAfterContinue(t *testing.T) {
	// N=6: quorum 4. Round 0: 3 valid → continue with 3 (panel N'=3,
	// quorum min(max(2,2),3)=2). Round 1: 2 of the 3 valid → no question.
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		switch {
		case req.Round == 0 && (req.SolverID == "agente-4" || req.SolverID == "agente-5" || req.SolverID == "agente-6"):
			return failed(bugfolder.StatusError)
		case req.Round == 1 && req.SolverID == "agente-3":
			return failed(bugfolder.StatusTimeout)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumContinue}}}
	res, err := Start(context.Background(), f.setup(6, 2), f.opts(s))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s.asked) != 1 || s.asked[0].Needed != 4 || s.asked[0].ContinueSaves != 6 {
		t.Fatalf("asked: %+v", s.asked)
	}
	d := f.debate(t)
	if len(d.Rounds[1].Files) != 3 || d.Rounds[2].File("agente-3") == nil {
		t.Error("after continue only the 3 still in are called; a later failure with quorum keeps it in")
	}
	if d.Final.Participants != 3 || d.Final.Of != 6 {
		t.Errorf("participants %d of %d", d.Final.Participants, d.Final.Of)
	}
	// continue with no valid solver is not possible
	g := newFixture(t, "7")
	g.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Role == string(bugfolder.RoleSolver) {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	s = &sup{quorum: []QuorumDecision{{Choice: QuorumContinue}, {Choice: QuorumCancel}}}
	res, _ = Start(context.Background(), g.setup(3, 0), g.opts(s))
	if res.Outcome != OutcomeCancelled || len(s.asked) != 2 {
		t.Errorf("outcome %s asked %d", res.Outcome, len(s.asked))
	}
}

func TestROfZeroAndEvents(t *testing.T) {
	f := newFixture(t, "7")
	res, err := Start(context.Background(), f.setup(2, 0), f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeDone || res.Calls != 3 {
		t.Fatalf("%v %+v", err, res)
	}
	d := f.debate(t)
	if len(d.Rounds) != 1 || d.Final == nil || d.Final.Round != 0 {
		t.Fatalf("R=0: %d rounds, final %+v", len(d.Rounds), d.Final)
	}
	var types []string
	outputs := 0
	for _, e := range f.events {
		if e.Type == EvOutput {
			outputs++
			continue
		}
		types = append(types, string(e.Type))
	}
	want := "setup plan round_started call_started call_started call_finished call_finished convergence judge_started call_started call_finished judge_finished debate_finished"
	got := strings.Join(types, " ")
	// the two round-0 calls run in parallel: their started/finished may interleave
	got = strings.Replace(got, "call_started call_finished call_started call_finished", "call_started call_started call_finished call_finished", 1)
	if got != want {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
	if outputs != 3 {
		t.Errorf("%d output deltas, want 3", outputs)
	}
	if d.Final.TotalTokens != 450 || d.Final.HealthTokensPerContribution != 450 {
		t.Errorf("tokens %d health %v", d.Final.TotalTokens, d.Final.HealthTokensPerContribution)
	}
}

func TestInterruptIsCancelledAndResumable(t *testing.T) {
	f := newFixture(t, "7")
	ctx, cancel := context.WithCancel(context.Background())
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round == 1 {
			cancel()
			return &harness.Result{Failure: harness.FailEngine, Err: "interrupted"}
		}
		return nil
	}
	res, err := Start(ctx, f.setup(3, 1), f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	d := f.debate(t)
	if len(d.Rounds) > 1 && len(d.Rounds[1].Files) != 0 {
		t.Error("an interrupted call must leave no file (it runs again on resume)")
	}
	f.engines["a"].answer = nil
	res, err = Resume(context.Background(), f.bug, f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	for _, id := range []string{"agente-1", "agente-2", "agente-3"} {
		if f.engines["a"].count(id, 0) != 1 {
			t.Errorf("%s round 0 called %d times", id, f.engines["a"].count(id, 0))
		}
	}
}

func TestContextWindowRefusedBeforeTheCall(t *testing.T) {
	f := newFixture(t, "7")
	cfg, _ := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false}\n  small: {kind: command, command: [x], external: false, context_tokens: 2500}\n"))
	f.cfg = cfg
	f.engines["small"] = &scripted{}
	s := f.setup(2, 1, "a", "small")
	res, err := Start(context.Background(), s, f.opts(&sup{quorum: []QuorumDecision{{Choice: QuorumCancel}}}))
	if err != nil {
		t.Fatal(err)
	}
	d := f.debate(t)
	f2 := d.Rounds[0].File("agente-2")
	if f2 == nil || f2.Status != bugfolder.StatusError || !strings.Contains(f2.Error, "context window") || f.engines["small"].count("agente-2", 0) != 0 {
		t.Errorf("a prompt that does not fit is refused before the call: %+v", f2)
	}
	_ = res
}

func TestJudgeHumanChoiceAndLabels(t *testing.T) {
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Role == string(bugfolder.RoleJudge) {
			return &harness.Result{Body: "## Vencedora\n\nProposta Q\n\n## Síntese\n\nx\n"}
		}
		return nil
	}
	s := &sup{judge: []JudgeDecision{{Choice: JudgeRetry}, {Choice: JudgeHuman, Winner: "B"}}}
	res, err := Start(context.Background(), f.setup(3, 0), f.opts(s))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s.jasked) != 2 || len(s.jasked[0].Labels) != 3 || !strings.Contains(s.jasked[0].Reason, "Proposta Q does not exist") {
		t.Errorf("judge failures: %+v", s.jasked)
	}
	for _, l := range s.jasked[0].Labels {
		if strings.Contains(l.Preview, "agente-") {
			t.Error("previews are anonymized")
		}
	}
	d := f.debate(t)
	if len(d.JudgeAttempts) != 2 || d.Final.DecidedBy != "human" || d.Final.Winner != "B" || d.Final.Engine != "human" {
		t.Errorf("attempts %d final %+v", len(d.JudgeAttempts), d.Final)
	}
	// B is the proposal with the second-smallest sha256 of its anonymized
	// content, computed here independently of Label
	anon := NewAnonymizer(bugfolder.PT, []string{"a", "b"}, HideAll)
	type hp struct{ sum, id, body string }
	var hs []hp
	for _, id := range []string{"agente-1", "agente-2", "agente-3"} {
		body := strings.TrimSpace(anon.Apply(d.Rounds[0].File(id).Body)) + "\n"
		sum := sha256.Sum256([]byte(body))
		hs = append(hs, hp{hex.EncodeToString(sum[:]), id, body})
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].sum < hs[j].sum })
	if hs[0].id == "agente-1" && hs[1].id == "agente-2" {
		t.Fatal("choose flavours whose sha256 order differs from the id order, or this test proves nothing")
	}
	if hs[1].id != d.Final.WinnerSolver {
		t.Errorf("label B is %s by sha256 order, final says %s", hs[1].id, d.Final.WinnerSolver)
	}
	// quoted as the proposal wrote it, not anonymized
	// fenced: the debater's text, never instructions
	if !regexp.MustCompile(`## Síntese\n\n> [^\n]+\n\n<<<INÍCIO PROPOSTA B [0-9a-f]{24}>>>\n`).MatchString(d.Final.Body) ||
		!strings.Contains(d.Final.Body, ">>>\n"+strings.TrimSpace(d.Rounds[0].File(hs[1].id).Body)+"\n<<<FIM PROPOSTA B ") {
		t.Errorf("a human choice takes the winning proposal, fenced, as the synthesis:\n%s", d.Final.Body)
	}
	data, _ := os.ReadFile(filepath.Join(f.bug.Dir, "debate", "resposta-final.md"))
	if strings.Contains(string(data), "Proposta Q") {
		t.Error("nothing from the failed attempt is invented into the final")
	}
}

// TestProjectAccessIsRefused: an engine that would read the project (and
// with it debate/, the other participants' files) is refused before
// anything is written; round 0 stays blind.
func TestProjectAccessIsRefused(t *testing.T) {
	f := newFixture(t, "7")
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false}\n  cx: {kind: codex, project_access: read-only}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.cfg = cfg
	f.engines["cx"] = &scripted{}
	opts := f.opts(&sup{})
	opts.Harness.ProjectDir = f.bug.Register.Project
	_, err = Start(context.Background(), f.setup(2, 0, "a", "cx"), opts)
	if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "project_access") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.bug.Dir, "debate")); err == nil {
		t.Error("a refused debate wrote its folder")
	}
}

// TestCheckRefusesBeforeWriting: a front end's engine check (the probe)
// refuses the run before anything is written.
func TestCheckRefusesBeforeWriting(t *testing.T) {
	f := newFixture(t, "7")
	opts := f.opts(&sup{})
	var asked []string
	opts.Check = func(ctx context.Context, names []string) error {
		asked = names
		return &bugfolder.InputError{Msg: "engine b failed its probe"}
	}
	_, err := Start(context.Background(), f.setup(2, 0, "a", "b"), opts)
	if !bugfolder.IsInputError(err) || strings.Join(asked, ",") != "a,b" {
		t.Fatalf("%v, checked %v", err, asked)
	}
	if _, err := os.Stat(filepath.Join(f.bug.Dir, "debate")); !os.IsNotExist(err) {
		t.Error("a refused run wrote its debate folder")
	}
}

// TestRestrictedNeverReachesExternal is a property test: over random
// engines files (every kind, loopback or remote endpoints, external
// declared or left to the default) and random panels, a restricted bug's
// debate either is refused before anything is written, or calls only
// engines that are not external. The seeds are fixed (they were drawn
// from the clock, and once every trial was refused): a run is
// reproducible and each seed is known to draw debates that run and
// debates that are refused. No fuzz target: a trial is a whole debate
// (about 50 ms), too slow for scripts/fuzz's budget of executions.
func TestRestrictedNeverReachesExternal(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			ran, refused := 0, 0
			for trial := 0; trial < 60; trial++ {
				switch restrictedTrial(t, rng) {
				case trialRan:
					ran++
				case trialRefused:
					refused++
				}
			}
			if ran == 0 || refused == 0 {
				t.Errorf("the trials must include debates that ran (%d) and that were refused (%d)", ran, refused)
			}
		})
	}
}

// trialOutcome is how a restricted trial ended.
type trialOutcome int

const (
	trialSkipped trialOutcome = iota // moot refused the engines file itself
	trialRan
	trialRefused
)

// restrictedTrial draws an engines file and a panel from rng and starts a
// debate of the restricted fixture bug with them. It fails t when an
// external engine was called, or when a refused debate is not an input
// error or wrote its folder.
func restrictedTrial(t *testing.T, rng *rand.Rand) trialOutcome {
	t.Helper()
	kinds := []string{"command", "openai", "codex", "claude", "anthropic", "replay"}
	urls := []string{"", "http://127.0.0.1:11434/v1", "http://localhost:8000/v1", "https://api.example.com/v1", "http://10.0.0.5/v1"}
	var cfgText strings.Builder
	cfgText.WriteString("engines:\n")
	names := []string{}
	for i := 0; i < 2+rng.IntN(4); i++ {
		name := fmt.Sprintf("e%d", i)
		kind := kinds[rng.IntN(len(kinds))]
		fmt.Fprintf(&cfgText, "  %s:\n    kind: %s\n", name, kind)
		switch kind {
		case "command":
			cfgText.WriteString("    command: [x]\n")
		case "replay":
			cfgText.WriteString("    cassette: c.yaml\n")
		}
		if u := urls[rng.IntN(len(urls))]; u != "" && kind != "command" && kind != "replay" {
			fmt.Fprintf(&cfgText, "    base_url: %s\n", u)
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&cfgText, "    external: %v\n", rng.IntN(2) == 0)
		}
		names = append(names, name)
	}
	cfg, err := harness.ParseConfig("moot.yaml", []byte(cfgText.String()))
	if err != nil {
		return trialSkipped // a file moot refuses never runs anything
	}
	f := newFixture(t, "8") // BUG-…-R5T6: visibility restricted
	if !f.bug.Restricted() {
		t.Fatal("the fixture bug is not restricted")
	}
	f.cfg = cfg
	f.engines = map[string]*scripted{}
	for _, n := range cfg.Order {
		f.engines[n] = &scripted{}
	}
	pick := func() string { return names[rng.IntN(len(names))] }
	s := f.setup(2, rng.IntN(2), pick(), pick())
	s.Judge = pick()
	if rng.IntN(2) == 0 {
		s.Critics = []string{pick()}
	}
	_, err = Start(context.Background(), s, f.opts(&sup{}))
	for name, eng := range f.engines {
		if len(eng.calls) > 0 && cfg.Engines[name].External {
			t.Fatalf("the restricted bug reached external engine %s (%s)\n%s", name, cfg.Engines[name].Kind, cfgText.String())
		}
	}
	if err == nil {
		return trialRan
	}
	if !bugfolder.IsInputError(err) {
		t.Fatalf("%v\n%s", err, cfgText.String())
	}
	if _, statErr := os.Stat(filepath.Join(f.bug.Dir, "debate")); !os.IsNotExist(statErr) {
		t.Fatalf("a refused debate wrote its folder\n%s", cfgText.String())
	}
	return trialRefused
}

// TestResumeCompletesTheLogOfAFinishedDebate: killed after the final
// answer was written but before its events were logged, a resume adds
// them, so the log agrees with the files; a complete log is not touched.
func TestResumeCompletesTheLogOfAFinishedDebate(t *testing.T) {
	f := newFixture(t, "7")
	if _, err := Start(context.Background(), f.setup(2, 0), f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(f.bug.Dir, "debate", "eventos.jsonl")
	full, _ := os.ReadFile(log)
	lines := strings.SplitAfter(strings.TrimSuffix(string(full), "\n"), "\n")
	cut := strings.Join(lines[:len(lines)-2], "") // drop judge_finished and debate_finished
	if !strings.Contains(lines[len(lines)-1], "debate_finished") || !strings.Contains(lines[len(lines)-2], "judge_finished") {
		t.Fatalf("unexpected log tail:\n%s", full)
	}
	os.WriteFile(log, []byte(cut), 0o600)
	res, err := Resume(context.Background(), f.bug, f.opts(&sup{}))
	if err != nil || !res.AlreadyDone {
		t.Fatalf("%v %+v", err, res)
	}
	fixed, _ := os.ReadFile(log)
	tail := string(fixed[len(cut):])
	if !strings.Contains(tail, `"type":"judge_finished"`) || !strings.Contains(tail, `"type":"debate_finished"`) || !strings.Contains(tail, "Proposta ") {
		t.Errorf("the log was not completed:\n%s", tail)
	}
	// a second resume leaves it as it is
	Resume(context.Background(), f.bug, f.opts(&sup{}))
	if again, _ := os.ReadFile(log); string(again) != string(fixed) {
		t.Error("a complete log was appended to")
	}
}

// TestSwappedEngineIsLockedToo: a swap locks what its new engine is, so a
// resume whose engines file now resolves it differently is refused.
func TestSwappedEngineIsLockedToo(t *testing.T) {
	f := newFixture(t, "7")
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round >= 1 && req.SolverID != "agente-1" || req.Round == 2 {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	s := &sup{quorum: []QuorumDecision{{Choice: QuorumSwap, SolverID: "agente-2", Engine: "b", By: "human"}}}
	res, err := Start(context.Background(), f.setup(3, 2), f.opts(s))
	if err != nil || res.Outcome != OutcomeWaiting {
		t.Fatalf("%v %+v", err, res)
	}
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false}\n  b: {kind: command, command: [y], external: false}\n  ext: {kind: command, command: [x]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.cfg = cfg
	_, err = Resume(context.Background(), f.bug, f.opts(&sup{}))
	var ece *EngineChangeError
	if !errors.As(err, &ece) || !strings.Contains(err.Error(), "engine b: argv_sha256") || !bugfolder.IsInputError(err) {
		t.Fatalf("err = %v", err)
	}
}

// TestResumeRecoversALostSetupEvent: a kill between writing problema.md and
// logging the setup (a crash trial found it) leaves a log without its
// setup event; resume recovers it from problema.md, so the log's first
// record still names P's sha256.
func TestResumeRecoversALostSetupEvent(t *testing.T) {
	f := newFixture(t, "7")
	ctx, cancel := context.WithCancel(context.Background())
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		cancel()
		return &harness.Result{Failure: harness.FailEngine, Err: "interrupted"}
	}
	if res, err := Start(ctx, f.setup(2, 0), f.opts(&sup{})); err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	log := filepath.Join(f.bug.Dir, "debate", "eventos.jsonl")
	os.WriteFile(log, nil, 0o600) // as if killed right after problema.md was written
	f.engines["a"].answer = nil
	if res, err := Resume(context.Background(), f.bug, f.opts(&sup{})); err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	raw, _ := os.ReadFile(log)
	var first struct {
		Type string `json:"type"`
		SHA  string `json:"problema_sha256"`
	}
	json.Unmarshal([]byte(strings.SplitN(string(raw), "\n", 2)[0]), &first)
	if first.Type != "setup" || first.SHA != f.debate(t).Problem.SHA256 || first.SHA == "" {
		t.Errorf("first record %+v, want the setup with problema.md's sha256", first)
	}
}

// stopsAfterRoundZero is the debate with a stop rule that ends it after
// round 0: a protocol that stops early (argue, review) on the same runner.
type stopsAfterRoundZero struct{ debate.Protocol }

func (stopsAfterRoundZero) Continue(k, r int) bool { return false }

// TestStopRuleIsTheProtocols: the runner runs rounds only while the
// protocol's stop rule says so, and its final step reads the last round
// that ran — no file of a later round, no call beyond it.
func TestStopRuleIsTheProtocols(t *testing.T) {
	f := newFixture(t, "7")
	s := f.setup(3, 2)
	s.Protocol = stopsAfterRoundZero{}
	res, err := Start(context.Background(), s, f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	d := f.debate(t)
	if len(d.Rounds) != 1 || d.Rounds[0].K != 0 {
		t.Fatalf("rounds on disk: %d, want round 0 only", len(d.Rounds))
	}
	if d.Final == nil || d.Final.Round != 0 || d.Final.Participants != 3 {
		t.Errorf("final answer: %+v", d.Final)
	}
	if calls := len(f.engines["a"].calls); calls != 4 {
		t.Errorf("%d calls, want 3 solvers in round 0 and the judge", calls)
	}
}

// renamed is the debate under another name: a second protocol.
type renamed struct{ debate.Protocol }

func (renamed) Name() string { return "debate-bis" }

// TestTheProtocolIsLocked: problema.md names a protocol other than the
// default (a debate's names none, as it always has), and a resume asked
// to run another protocol is refused (exit 2) before anything is written.
func TestTheProtocolIsLocked(t *testing.T) {
	f := newFixture(t, "7")
	if _, err := Start(context.Background(), f.setup(2, 0), f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	if d := f.debate(t); d.Problem.Protocol != "" || d.Problem.ProtocolName() != "debate" {
		t.Errorf("a debate's problema.md names protocol %q", d.Problem.Protocol)
	}
	g := newFixture(t, "7")
	s := g.setup(2, 1)
	s.Protocol = renamed{}
	opts := g.opts(&sup{})
	opts.Supervisor = &Policies{OnJudgeFailure: "cancel"}
	g.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Role == string(bugfolder.RoleJudge) {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	res, err := Start(context.Background(), s, opts)
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	d := g.debate(t)
	if d.Problem.ProtocolName() != "debate-bis" {
		t.Fatalf("problema.md names protocol %q", d.Problem.Protocol)
	}
	before := testutil.Fingerprint(t, g.bug.Dir)
	_, err = Resume(context.Background(), g.bug, g.opts(&sup{}))
	if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "runs protocol debate-bis, and the resume was asked to run debate") {
		t.Errorf("resume with another protocol: %v", err)
	}
	if testutil.Fingerprint(t, g.bug.Dir) != before {
		t.Error("a refused resume wrote something")
	}
	opts = g.opts(&sup{judge: []JudgeDecision{{Choice: JudgeHuman, Winner: "A", By: "human"}}})
	opts.Protocol = renamed{}
	if res, err := Resume(context.Background(), g.bug, opts); err != nil || res.Outcome != OutcomeDone {
		t.Errorf("resume with its own protocol: %v %+v", err, res)
	}
}

// TestJudgeEngineSwitchIsAnAmendment: "retry with another engine" at the
// judge menu reruns the judge on that engine, logs it like a swap (engine,
// identity, +1 call), records it in the judge's files, and a resume of a
// judge-failed debate keeps the new judge, locked by what it is.
func TestJudgeEngineSwitchIsAnAmendment(t *testing.T) {
	f := newFixture(t, "7")
	badJudge := func(req harness.Request, n int) *harness.Result {
		if req.Role == string(bugfolder.RoleJudge) {
			return &harness.Result{Body: "## Vencedora\n\nProposta Q\n\n## Síntese\n\nx\n"}
		}
		return nil
	}
	f.engines["a"].answer, f.engines["b"].answer = badJudge, badJudge
	s := &sup{judge: []JudgeDecision{{Choice: JudgeRetry, Engine: "b", By: "human"}}}
	res, err := Start(context.Background(), f.setup(2, 0), f.opts(s))
	if err != nil || res.Outcome != OutcomeWaiting {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s.jasked) != 2 || s.jasked[0].Engine != "a" || s.jasked[1].Engine != "b" || !slices.Contains(s.jasked[0].Engines, "b") {
		t.Fatalf("the menu names the judge and the engines it may switch to: %+v", s.jasked)
	}
	if f.engines["b"].count("juiz", 0) != 1 {
		t.Fatalf("the retry ran on b %d times", f.engines["b"].count("juiz", 0))
	}
	var dec *Event
	for i, e := range f.events {
		if e.Type == EvDecision && e.Point == "judge" {
			dec = &f.events[i]
		}
	}
	if dec == nil || dec.Engine != "b" || dec.ExtraCalls != 1 || dec.Identities["b"] == nil {
		t.Fatalf("the decision is logged with its engine, identity and +1 call: %+v", dec)
	}
	// the new judge is locked by what it is
	cfg := f.cfg
	f.cfg, _ = harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false}\n  b: {kind: command, command: [y], external: false}\n  ext: {kind: command, command: [x]}\n"))
	if _, err := Resume(context.Background(), f.bug, f.opts(&sup{})); err == nil || !strings.Contains(err.Error(), "engine b: argv_sha256") {
		t.Errorf("a changed judge engine must stop the resume: %v", err)
	}
	f.cfg = cfg
	// resumed: the judge is b now; a valid answer names b and the amendment
	f.engines["b"].answer = nil
	s2 := &sup{judge: []JudgeDecision{{Choice: JudgeRetry, By: "human"}}}
	res, err = Resume(context.Background(), f.bug, f.opts(s2))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s2.jasked) != 1 || s2.jasked[0].Engine != "b" {
		t.Fatalf("after resume the judge is b: %+v", s2.jasked)
	}
	if !strings.Contains(s2.jasked[0].Reason, "Proposta Q does not exist") {
		t.Errorf("after resume the menu lost why the judge failed: %q", s2.jasked[0].Reason)
	}
	d := f.debate(t)
	if d.Final.Engine != "b" || !strings.Contains(d.Final.Amendment, "engine a → b") {
		t.Errorf("the final answer names the judge that answered and the amendment: %+v", d.Final)
	}
}

// TestJudgeEngineSwitchOnRestricted: a restricted bug offers no external
// judge, and refuses one if asked anyway.
func TestJudgeEngineSwitchOnRestricted(t *testing.T) {
	f := newFixture(t, "8") // restricted
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Role == string(bugfolder.RoleJudge) {
			return failed(bugfolder.StatusError)
		}
		return nil
	}
	s := &sup{judge: []JudgeDecision{{Choice: JudgeRetry, Engine: "ext"}, {Choice: JudgeCancel}}}
	res, err := Start(context.Background(), f.setup(2, 0), f.opts(s))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	if slices.Contains(s.jasked[0].Engines, "ext") || f.engines["ext"].count("juiz", 0) != 0 {
		t.Fatalf("an external judge was offered or called on a restricted bug: %+v", s.jasked[0].Engines)
	}
	if len(s.jasked) != 2 {
		t.Errorf("the refusal asks again (asked %d)", len(s.jasked))
	}
}
