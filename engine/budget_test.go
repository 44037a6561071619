package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// exact makes every scripted engine of f report what moot estimates for
// the call (the prompt's tokens in, the role's expected answer out), so
// a budget's check is exact and the guarantee can be measured.
func exact(f *fixture) {
	for _, e := range f.engines {
		e.answer = func(req harness.Request, n int) *harness.Result {
			out := debate.ExpectedSolverTokens
			if req.Role == string(bugfolder.RoleJudge) {
				out = debate.ExpectedJudgeTokens
			}
			return &harness.Result{Body: validBody(req), TokensIn: bugfolder.EstimateTokens(len(req.Prompt)), TokensOut: out}
		}
	}
}

// spent sums the tokens every finished call recorded.
func (f *fixture) spent() (tokens, calls int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.events {
		if e.Type == EvCallFinished && !e.Retrying {
			tokens += e.TokensIn + e.TokensOut
			calls++
		}
	}
	return tokens, calls
}

// budgetSup answers the budget menu with a script (and is a Supervisor).
type budgetSup struct {
	sup
	answers []BudgetDecision
	asked   []BudgetReach
}

func (s *budgetSup) BudgetReached(ctx context.Context, b BudgetReach) (BudgetDecision, error) {
	s.asked = append(s.asked, b)
	if len(s.answers) == 0 {
		return BudgetDecision{}, ErrNeedHuman
	}
	d := s.answers[0]
	s.answers = s.answers[1:]
	return d, nil
}

// TestBudgetNeverOvershoots: for caps from too small for round 0 to more
// than the whole debate, with three calls in flight at once and the stop
// policy, the recorded spend never passes the cap (every engine reports
// exactly its estimate, so in-flight estimates are what they spend); a
// cut debate's final answer reads the last complete round and says the
// budget cut it, with the cap and the spend.
func TestBudgetNeverOvershoots(t *testing.T) {
	full := newFixture(t, "7")
	exact(full)
	if res, err := Start(context.Background(), full.setup(3, 2), full.opts(&sup{})); err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("uncapped: %v %+v", err, res)
	}
	total, _ := full.spent()
	cuts := map[int]int{} // the round the final step read, by cap
	for _, frac := range []float64{0.2, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 1.05} {
		cap := int(float64(total) * frac)
		t.Run(fmt.Sprintf("cap %d of %d", cap, total), func(t *testing.T) {
			f := newFixture(t, "7")
			exact(f)
			s := f.setup(3, 2)
			s.Budget = Budget{MaxTokens: cap}
			res, err := Start(context.Background(), s, f.opts(&Policies{OnBudget: "stop"}))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := f.spent()
			if got > cap {
				t.Errorf("spent %d tokens over a cap of %d", got, cap)
			}
			d := f.debate(t)
			switch {
			case res.Outcome == OutcomeDone && d.Final.BudgetCut:
				body := d.Final.Body
				if !strings.Contains(body, "Cortado pelo orçamento") || !strings.Contains(body, fmt.Sprintf("%d tokens", cap)) {
					t.Errorf("the cut answer does not say the cap:\n%s", body)
				}
				cuts[d.Final.Round]++
				if d.Final.Round >= 2 {
					t.Errorf("a cut debate's final step read round %d, the last", d.Final.Round)
				}
			case res.Outcome == OutcomeDone:
				if frac < 1 {
					t.Errorf("a cap of %.0f%% of the debate did not cut it", frac*100)
				}
			case res.Outcome == OutcomeWaiting:
				if !strings.Contains(res.Reason, "budget") {
					t.Errorf("waiting for %q", res.Reason)
				}
			default:
				t.Errorf("outcome %s: %s", res.Outcome, res.Reason)
			}
		})
	}
	t.Logf("final steps on round 0 and 1 after a cut: %v", cuts)
	if cuts[0]+cuts[1] == 0 {
		t.Errorf("no cap cut the debate and still wrote a final answer: %v", cuts)
	}
}

// TestBudgetMenuAnswers: cancel keeps the debate resumable (exit 3), a
// Supervisor that cannot be asked stops it waiting (exit 4); a resume
// with a higher cap continues it to the end; a raise from the menu is
// logged and goes on; the cap is frozen in problema.md.
func TestBudgetMenuAnswers(t *testing.T) {
	small := Budget{MaxTokens: 9000}
	tests := []struct {
		name    string
		answers []BudgetDecision
		want    Outcome
	}{
		{"cancel", []BudgetDecision{{Choice: BudgetCancel, By: "human"}}, OutcomeCancelled},
		{"no human", nil, OutcomeWaiting},
		{"raise", []BudgetDecision{{Choice: BudgetRaise, Cap: Budget{MaxTokens: 1 << 30}, By: "human"}}, OutcomeDone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			exact(f)
			s := f.setup(3, 1)
			s.Budget = small
			bs := &budgetSup{answers: tc.answers}
			res, err := Start(context.Background(), s, f.opts(bs))
			if err != nil || res.Outcome != tc.want {
				t.Fatalf("%v %+v", err, res)
			}
			if len(bs.asked) != 1 || bs.asked[0].Cap != small || bs.asked[0].NextTokens == 0 {
				t.Fatalf("asked %+v", bs.asked)
			}
			if tc.answers != nil { // the log says the reached budget in the menu's words (the spend as it is at the answer: TestBudgetDecisionLogsWhatTheHumanSaw)
				var reasons []string
				for _, ev := range f.debate(t).Events {
					if ev.Type == EvDecision && ev.Point == bugfolder.PointBudget {
						reasons = append(reasons, ev.Reason)
					}
				}
				want := bs.asked[0].Text()
				head, tail := want[:strings.Index(want, "; spent")], want[strings.Index(want, "; the next call"):]
				if len(reasons) == 0 || !strings.HasPrefix(reasons[0], head) || !strings.HasSuffix(reasons[0], tail) {
					t.Errorf("the budget decision logs %q, want %q with the spend of the answer", reasons, want)
				}
			}
			raw, _ := os.ReadFile(filepath.Join(f.bug.Dir, "debate", "problema.md"))
			if !strings.Contains(string(raw), "max_tokens: 9000") {
				t.Errorf("problema.md does not freeze the cap:\n%s", raw)
			}
			if tc.want == OutcomeDone {
				if d := f.debate(t); d.Final.BudgetCut {
					t.Error("a raised cap cut the debate")
				}
				return
			}
			// resume keeps the cap: without a raise it stops there again
			res, err = Resume(context.Background(), f.bug, f.opts(&sup{}))
			if err != nil || res.Outcome != OutcomeWaiting {
				t.Fatalf("resume without a raise: %v %+v", err, res)
			}
			o := f.opts(&sup{})
			o.Budget = Budget{MaxTokens: 1 << 30}
			res, err = Resume(context.Background(), f.bug, o)
			if err != nil || res.Outcome != OutcomeDone {
				t.Fatalf("resume with a raise: %v %+v", err, res)
			}
			d := f.debate(t)
			if d.Final.BudgetCut || d.Final.Round != 1 {
				t.Errorf("after the raise: cut %v, round %d", d.Final.BudgetCut, d.Final.Round)
			}
			raised := false
			for _, ev := range d.Events {
				raised = raised || ev.Type == EvDecision && ev.Point == bugfolder.PointBudget && ev.Choice == "raise" && ev.MaxTokens == 1<<30
			}
			if !raised {
				t.Error("the raise is not logged")
			}
		})
	}
}

// TestBudgetReachText: the one wording of a reached budget — the cap, the
// spend, the calls in flight, the call held back (named when known) and
// what is kept for the final step; a dollar cap speaks dollars with each
// figure's tokens.
func TestBudgetReachText(t *testing.T) {
	tests := []struct {
		name  string
		reach BudgetReach
		want  string
	}{
		{"a token cap", BudgetReach{Cap: Budget{MaxTokens: 40000}, SpentTokens: 30000, FlightTokens: 4000, NextTokens: 7000, Who: "agente-2", FinalWord: "judge"},
			"cap 40,000 tokens; spent 30,000 tokens; the calls in flight ≈4,000 tokens; the next call (agente-2) ≈7,000 tokens"},
		{"a dollar cap, with the final step's share kept", BudgetReach{Cap: Budget{MaxUSD: 0.5, MaxTokens: 40000}, SpentUSD: 0.31, SpentTokens: 30000,
			FlightUSD: 0.04, FlightTokens: 4000, NextUSD: 0.07, NextTokens: 7000, KeepUSD: 0.1, KeepTokens: 10000, Who: "agente-2", FinalWord: "synthesizer"},
			"cap $0.50 and 40,000 tokens; spent $0.31 and 30,000 tokens; the calls in flight ≈$0.04 (4,000 tokens); the next call (agente-2) ≈$0.07 (7,000 tokens); kept for the synthesizer ≈$0.10 (10,000 tokens)"},
		{"nobody named, no final word", BudgetReach{Cap: Budget{MaxTokens: 9000}, SpentTokens: 8000, NextTokens: 2000, KeepTokens: 500},
			"cap 9,000 tokens; spent 8,000 tokens; the calls in flight ≈0 tokens; the next call ≈2,000 tokens; kept for the final step ≈500 tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.reach.Text(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestBudgetCallWaitsForCallsInFlight: a call that does not fit only
// because of the worst cases of the calls in flight waits for them to end
// and then runs; the budget menu is not asked, and the spend stays under
// the cap.
func TestBudgetCallWaitsForCallsInFlight(t *testing.T) {
	// the estimates of a round-0 call and of the final step, as a cap of
	// one token reports them
	dry := newFixture(t, "7")
	exact(dry)
	s := dry.setup(3, 0)
	s.Budget = Budget{MaxTokens: 1}
	probe := &budgetSup{}
	if _, err := Start(context.Background(), s, dry.opts(probe)); err != nil || len(probe.asked) == 0 {
		t.Fatalf("no budget check: %v %+v", err, probe.asked)
	}
	next, keep := probe.asked[0].NextTokens, probe.asked[0].KeepTokens

	f := newFixture(t, "7")
	exact(f)
	var mu sync.Mutex
	inFlight, most := 0, 0
	for _, e := range f.engines {
		answer := e.answer
		e.answer = func(req harness.Request, n int) *harness.Result {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			defer func() {
				mu.Lock()
				inFlight--
				mu.Unlock()
			}()
			return answer(req, n)
		}
	}
	asked := &budgetSup{}
	s = f.setup(3, 0)
	limit := 2*next + next/2 + keep // two calls fit at once, the third waits
	s.Budget = Budget{MaxTokens: limit}
	res, err := Start(context.Background(), s, f.opts(asked))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"agente-1", "agente-2", "agente-3"} {
		if f.engines["a"].count(id, 0) != 1 {
			t.Errorf("%s did not run once in round 0", id)
		}
	}
	for _, b := range asked.asked {
		if !b.Final { // the judge, after the round, may not fit: that is asked
			t.Errorf("the menu was asked for %s although the calls in flight made room: %+v", b.Who, b)
		}
	}
	if most > 2 {
		t.Errorf("%d calls ran at once under a cap that fits two", most)
	}
	if res.Tokens > limit {
		t.Errorf("spent %d tokens, cap %d", res.Tokens, limit)
	}
}
