package mcpserver

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// A tool's input becomes the command's flags as its struct declares them:
// a field left out adds nothing, a list repeats its flag, a zero number
// given is still given.
func TestToolInputBecomesTheCommandsFlags(t *testing.T) {
	zero, three, usd := 0, 3, 0.25
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"nothing set", Setup{}, ""},
		{"strings, lists, numbers", Setup{Mode: "repair", N: &three, R: &zero, Solvers: []string{"a", "b"}, MaxUSD: &usd},
			"--mode repair -n 3 -r 0 --solver a --solver b --max-usd 0.25"},
		{"a run's own flags, not its embedded setup", RunInput{Bug: "7", OnQuorumLoss: "continue", AcceptPlan: true, Setup: Setup{Mode: "spec"}},
			"--on-quorum-loss continue"},
		{"a review's", ReviewInput{Change: "A..B", Files: []string{"x.go"}, Builder: "openai", AcceptPlan: true},
			"--change A..B --files x.go --builder openai"},
	}
	for _, c := range cases {
		if got := strings.Join(flagArgs(c.in), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A run's events become progress messages and figures; its folder is the
// first session's, whatever a resume's event names.
func TestTallyFollowsARunsEvents(t *testing.T) {
	var tl tally
	evs := []bugfolder.Event{
		{Type: bugfolder.EvSetup, Path: "/p/debate"},
		{Type: bugfolder.EvRoundStarted, Round: 1},
		{Type: bugfolder.EvCallFinished, Round: 1, SolverID: "agente-1", Status: "ok", TokensIn: 10, TokensOut: 5, CostUSD: 0.5},
		{Type: bugfolder.EvDebateFinished, Outcome: bugfolder.OutcomeWaiting, Reason: "quorum lost"},
		{Type: bugfolder.EvResumed, Path: "debate"},
		{Type: bugfolder.EvDecision, Point: bugfolder.PointQuorum, Choice: "continue", By: "human"},
	}
	var said []string
	for _, ev := range evs {
		if m := tl.add(ev); m != "" {
			said = append(said, m)
		}
	}
	out := tl.output()
	if out.Folder != "/p/debate" || out.Round != 1 || out.Calls != 1 || out.Tokens != 15 || out.USD != 0.5 || out.Outcome != "" {
		t.Errorf("figures %+v", out)
	}
	want := "started: /p/debate|round 1 started|round 1: agente-1 ok (1 calls, 15 tokens, $0.5000)|finished: waiting|started: debate|decision at quorum: continue (by human)"
	if got := strings.Join(said, "|"); got != want {
		t.Errorf("messages\n%s\nwant\n%s", got, want)
	}
}
