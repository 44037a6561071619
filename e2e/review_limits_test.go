package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// jsonEvents reads a --json stream as the one typed event schema, failing
// on a line that is not an event of it.
func jsonEvents(t *testing.T, stdout string) []bugfolder.Event {
	t.Helper()
	var evs []bugfolder.Event
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var ev bugfolder.Event
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("not an event of the schema: %v: %s", err, line)
		}
		evs = append(evs, ev)
	}
	return evs
}

// pricedLadder is juryEngines with a price on both external engines and
// one ladder of them for every lens.
func pricedLadder() string {
	priced := strings.ReplaceAll(juryEngines, "    family: anthropic\n", "    family: anthropic\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	priced = strings.ReplaceAll(priced, "    family: openai\n", "    family: openai\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	return priced + "review:\n  ladders:\n    default: [ext-anth, ext-oai]\n"
}

// --on-budget answers a review's cap as it answers a debate's, with the
// exit codes docs/cli.md gives: ask (no one to ask headless) and stop end
// the round at the cap, exit 4, status budget_cut; cancel is exit 3,
// status cancelled. The answer is a decision event (point budget) of the
// one schema in --json and in the review's log; every answer leaves the
// second lens uncalled, and a resume with a raised cap passes.
func TestReviewOnBudgetAnswersAsForADebate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer, status string
		code           int
		decision       bool
	}{
		{"ask", "budget_cut", 4, false},
		{"stop", "budget_cut", 4, true},
		{"cancel", "cancelled", 3, true},
	} {
		t.Run(c.answer, func(t *testing.T) {
			t.Parallel()
			tr := newTribunal(t, pricedLadder())
			args := append(append([]string{"review", "--config", tr.cfg, "--parallel", "1"}, change...), "--lens", "alpha: read it whole.", "--lens", "bravo: read it whole.")
			tokens, _ := planFigures(t, tr.runB(append(args, "--json")...))
			r := tr.runB(append(args, "--yes", "--json", "--max-tokens", fmt.Sprint(tokens/2+1), "--on-budget", c.answer)...)
			if r.code != c.code {
				t.Fatalf("--on-budget %s: exit %d, want %d\n%s", c.answer, r.code, c.code, r.stderr)
			}
			if n := len(tr.calls()); n != 1 {
				t.Fatalf("%d calls under a cap that pays one: %v", n, tr.calls())
			}
			var decisions []bugfolder.Event
			for _, ev := range jsonEvents(t, r.stdout) {
				if ev.Type == bugfolder.EvDecision && ev.Point == bugfolder.PointBudget {
					decisions = append(decisions, ev)
				}
			}
			switch {
			case c.decision && (len(decisions) != 1 || decisions[0].Choice != c.answer || decisions[0].By != "policy"):
				t.Errorf("budget decisions %+v: want one %s by policy", decisions, c.answer)
			case !c.decision && len(decisions) != 0:
				t.Errorf("budget decisions %+v: no one was asked, none is logged", decisions)
			}
			dir := tr.only()
			if st := tr.record(dir); st.Status != c.status {
				t.Errorf("status %q, want %q", st.Status, c.status)
			}
			if logged := readText(t, filepath.Join(dir, "eventos.jsonl")); c.decision && !strings.Contains(logged, `"point":"budget"`) {
				t.Errorf("the review's log has no budget decision:\n%s", logged)
			}
			if r := tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes", "--max-tokens", "1000000"); r.code != 0 {
				t.Fatalf("resume with a raised cap: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if n := len(tr.calls()); n != 2 {
				t.Errorf("%d calls in all: the lens that sat is never called again (%v)", n, tr.calls())
			}
		})
	}
}

// --round-timeout bounds a review's round as a debate's: a juror still
// open when it passes ends as timeout (call_finished status timeout), the
// rungs after it are not started (no time left), and the lens holds (exit 4) long
// before the juror's own limit. Resumed without the limit, a new round
// seats the lens.
func TestReviewRoundTimeoutEndsAJurorStillOpen(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	tr.jury = "ext-anth/*=hang"
	start := time.Now()
	r := tr.review(append(change, "--lens", "defect", "--round-timeout", "2s", "--json")...)
	if took := time.Since(start); took > 45*time.Second {
		t.Errorf("the round took %s under --round-timeout 2s", took)
	}
	if r.code != 4 {
		t.Fatalf("exit %d, want 4 (the lens held)\n%s", r.code, r.stderr)
	}
	timedOut := 0
	for _, ev := range jsonEvents(t, r.stdout) {
		if ev.Type == bugfolder.EvCallFinished && ev.Status == bugfolder.StatusTimeout {
			timedOut++
		}
	}
	if timedOut == 0 {
		t.Errorf("no call ended as timeout:\n%s", r.stdout)
	}
	dir := tr.only()
	s := tr.seat(dir, 1, "defect")
	if s.Outcome != "hold" || len(s.Attempts) != 2 || !strings.Contains(s.Attempts[1].Reason, "--round-timeout") {
		t.Errorf("defect's seat %+v: want a hold, its second rung not called for want of time", s)
	}
	if calls := tr.calls(); len(calls) != 1 || !strings.HasPrefix(calls[0], "ext-anth/") {
		t.Errorf("calls %v: only the juror that hung was started; the round had no time left for the next", calls)
	}
	tr.jury = ""
	if r := tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes"); r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --debate-timeout bounds a review's run as a debate's: when it passes,
// the calls in flight stop, the round is cancelled resumable (exit 3,
// the limit named), and moot resume continues it: the lens that sat is
// kept, the one cut is called, and the gate opens.
func TestReviewRunTimeoutStopsTheRoundResumable(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	tr.jury = "*/defect@1=hang"
	r := tr.review(append(change, "--lens", "defect", "--lens", "security", "--debate-timeout", "3s")...)
	if r.code != 3 || !strings.Contains(r.stderr, "--debate-timeout") {
		t.Fatalf("exit %d, want 3 naming the limit\n%s", r.code, r.stderr)
	}
	dir := tr.only()
	if st := tr.record(dir); st.Status != "cancelled" {
		t.Errorf("status %q, want cancelled", st.Status)
	}
	tr.jury = ""
	if r := tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes"); r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	seen := map[string]int{}
	for _, call := range tr.calls() {
		seen[strings.Split(call, "/")[1]]++
	}
	if seen["security"] != 1 {
		t.Errorf("calls by lens %v: security sat once and is kept", seen)
	}
}

// A time limit on a review given as zero or negative is exit 2 naming the
// flag and what to give, before anything is called or written.
func TestReviewRefusesANonPositiveRoundOrRunLimit(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	for _, c := range [][]string{{"--round-timeout", "0s"}, {"--debate-timeout", "-1s"}} {
		r := tr.review(append(append([]string{}, change...), append(c, "--lens", "defect")...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c[0]+" ") || !strings.Contains(r.stderr, "positive duration") {
			t.Errorf("%v: exit %d, want 2 naming the flag\n%s", c, r.code, r.stderr)
		}
	}
	if len(tr.reviews()) != 0 || len(tr.calls()) != 0 {
		t.Error("written or called")
	}
}

// Jurors of command engines with a price and no max_output_tokens, each
// writing ≈60,000 words before its verdict, never take a review's spend
// past its dollar cap: the plan warns that they state no max answer, each
// call is admitted on a juror's expected answer and its answer held to it,
// priced as cut, with a warning — as a debate holds such an engine.
func TestReviewCapHoldsForJurorsWithoutAMaxAnswer(t *testing.T) {
	t.Parallel()
	const capUSD = 0.05
	tr := newTribunal(t, pricedJury())
	tr.jury = "*/*=verbose"
	r := tr.review(append(change, "--lens", "defect", "--lens", "security", "--max-usd", fmt.Sprint(capUSD), "--parallel", "1", "--json")...)
	if r.code != 4 && r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "ext-anth, ext-oai state no max answer size") {
		t.Errorf("the plan does not warn of the engines without a max answer:\n%s", r.stderr)
	}
	evs := jsonEvents(t, r.stdout)
	spent, cut := 0.0, 0
	for _, ev := range evs {
		switch {
		case ev.Type == bugfolder.EvCallFinished:
			spent += ev.CostUSD
		case ev.Type == bugfolder.EvWarning && strings.Contains(ev.Text, "its answer is held to its expected size"):
			cut++
		}
	}
	if spent > capUSD || spent == 0 {
		t.Errorf("spent $%.4f under a cap of $%.2f", spent, capUSD)
	}
	if cut == 0 || cut != len(tr.calls()) {
		t.Errorf("%d answer(s) said cut of %d call(s)", cut, len(tr.calls()))
	}
}
