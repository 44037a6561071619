package engine_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/debate"
)

// TestFamilyRefusals is the judge family rule: a final step (or argue's
// scorer) of a panel member's vendor family is refused, naming the family
// and both engines; an unknown family never clashes; --allow-same-family
// lifts the rule.
func TestFamilyRefusals(t *testing.T) {
	cfg, err := harness.ParseConfig("moot.yaml", []byte(`engines:
  claude-a: {kind: claude}
  sonnet: {kind: command, command: [x], model: claude-sonnet-4}
  gpt: {kind: openai, base_url: "http://127.0.0.1:1/v1", model: gpt-5}
  mine: {kind: command, command: [x], family: OpenAI}
  plain: {kind: command, command: [x]}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		s       Setup
		refused []string // words the refusal names; nil: none
	}{
		{"judge of a solver's family", Setup{Protocol: debate.Protocol{}, Solvers: []string{"gpt", "sonnet"}, Judge: "claude-a"}, []string{"anthropic", "claude-a", "sonnet"}},
		{"declared family clashes with a model's", Setup{Protocol: debate.Protocol{}, Solvers: []string{"gpt"}, Judge: "mine"}, []string{"openai", "mine", "gpt"}},
		{"other families", Setup{Protocol: debate.Protocol{}, Solvers: []string{"gpt", "gpt"}, Judge: "sonnet"}, nil},
		{"unknown family never clashes", Setup{Protocol: debate.Protocol{}, Solvers: []string{"plain", "plain"}, Judge: "plain"}, nil},
		{"a critic is no judge", Setup{Protocol: debate.Protocol{}, Solvers: []string{"gpt"}, Critics: []string{"mine"}, Judge: "sonnet"}, nil},
		{"allowed", Setup{Protocol: debate.Protocol{}, Solvers: []string{"sonnet"}, Judge: "claude-a", AllowSameFamily: true}, nil},
		{"argue's scorer judges too", Setup{Protocol: argue.Protocol{}, Solvers: []string{"gpt"}, Critics: []string{"mine"}, Judge: "sonnet"}, []string{"scorer", "openai", "mine", "gpt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FamilyRefusals(tc.s, cfg)
			if tc.refused == nil {
				if len(got) > 0 {
					t.Fatalf("refused: %v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("refusals %v, want one", got)
			}
			for _, w := range tc.refused {
				if !strings.Contains(got[0], w) {
					t.Errorf("%q does not name %s", got[0], w)
				}
			}
		})
	}
}

// TestJudgeRetryKeepsTheFamilyRule: the judge menu's retry on another
// engine is refused (a warning, the menu again) when that engine is of a
// solver's family, as the plan refused it at setup.
func TestJudgeRetryKeepsTheFamilyRule(t *testing.T) {
	f := newFixture(t, "7")
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false, model: claude-sonnet-4}\n  b: {kind: command, command: [x], external: false, family: anthropic}\n  c: {kind: command, command: [x], external: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.cfg = cfg
	f.engines = map[string]*scripted{"a": {}, "b": {}, "c": {answer: func(req harness.Request, n int) *harness.Result {
		return &harness.Result{Body: "## Vencedora\n\nProposta Z\n"}
	}}}
	s := &sup{judge: []JudgeDecision{{Choice: JudgeRetry, Engine: "b", By: "human"}, {Choice: JudgeCancel, By: "human"}}}
	st := f.setup(2, 0)
	st.Judge = "c"
	res, err := Start(context.Background(), st, f.opts(s))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	if len(s.jasked) != 2 || len(f.engines["b"].calls) != 0 {
		t.Fatalf("menus %d, calls on b %d", len(s.jasked), len(f.engines["b"].calls))
	}
	warned := false
	for _, e := range f.events {
		warned = warned || (e.Type == EvWarning && strings.Contains(e.Text, "anthropic") && strings.Contains(e.Text, "--allow-same-family"))
	}
	if !warned {
		t.Error("no warning names the family")
	}
}
