package argue

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

func personaBody(conf string) string {
	return "## Argument\n\nCaching cuts latency (log: 40 ms).\n\n## Rebuttal\n\nStaleness is rare.\n\n## Concessions\n\nA stale coupon can overcharge.\n\n## Confidence\n\n" + conf + "\n\n## What would change my mind\n\nCoupons changing every minute.\n"
}

// TestCountAndFormula: the plan counts the most calls the cap allows
// (personas and the scorer every round, and the synthesizer) and says the
// debate may stop earlier.
func TestCountAndFormula(t *testing.T) {
	// the stop rules hold from round 2: under a cap of 0 or 1 the formula
	// does not say the debate may stop earlier
	for _, tc := range []struct {
		n, r, want int
		early      string
	}{{2, 2, 10, "may stop earlier"}, {3, 4, 21, "may stop earlier"}, {2, 0, 4, "every round runs"}, {2, 1, 7, "every round runs"}} {
		s := engine.Setup{N: tc.n, R: tc.r}
		if got := (Protocol{}).Count(s).Total; got != tc.want {
			t.Errorf("N=%d R=%d: %d calls, want %d", tc.n, tc.r, got, tc.want)
		}
		f := Protocol{}.Formula(s)
		if !strings.HasPrefix(f, "at most ") || !strings.Contains(f, fmt.Sprintf("= %d calls", tc.want)) || !strings.Contains(f, tc.early) {
			t.Errorf("formula %q, want %q", f, tc.early)
		}
	}
	// one round is no plural
	if got := capReason(0); got != "round-cap: the one round ran (round 0)" {
		t.Errorf("capReason(0) = %q", got)
	}
}

// TestValidatePersona: the five sections in order, and a confidence from
// 0.0 to 1.0 (a percentage or a word is refused).
func TestValidatePersona(t *testing.T) {
	c := engine.Call{Lang: bugfolder.EN, Role: RolePersona}
	for _, tc := range []struct {
		name, body, want string
	}{
		{"valid", personaBody("0.7"), ""},
		{"percentage", personaBody("70%"), "not a percentage"},
		{"out of range", personaBody("1.5"), "from 0.0 to 1.0"},
		{"word", personaBody("high"), "holds no number"},
		{"no concessions", strings.Replace(personaBody("0.5"), "## Concessions\n\nA stale coupon can overcharge.\n\n", "", 1), "lacks the section ## Concessions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems := Protocol{}.Validate(c, tc.body)
			got := strings.Join(problems, "; ")
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}

// scorerCall is the scorer's call over two personas' answers.
func scorerCall() engine.Call {
	return engine.Call{Lang: bugfolder.EN, Role: RoleScorer, Nonce: "N0NCE", P: "Q?",
		Earlier: []engine.SnapshotEntry{{ID: "agente-1", Body: personaBody("0.6")}, {ID: "agente-2", Body: personaBody("0.4") + "x"}}}
}

// TestScorer: the scorer sees labels, never ids; strict JSON is mapped
// back to the personas with the protocol's weights; prose, a missing label,
// an unknown field or a score out of 0–10 is a scorer failure.
func TestScorer(t *testing.T) {
	c := scorerCall()
	prompt := Protocol{}.Prompt(c)
	if strings.Contains(prompt, "agente-") {
		t.Errorf("the scorer's prompt names a persona id:\n%s", prompt)
	}
	labels := scorerLabels(c.Lang, c.Earlier)
	full := `{"evidence": 10, "novelty": 10, "concession": 10, "coherence": 10, "rebuttal": 10, "calibration": 10}`
	zero := `{"evidence": 0, "novelty": 0, "concession": 0, "coherence": 0, "rebuttal": 0, "calibration": 0}`
	good := fmt.Sprintf(`{"scores": {"A": %s, "B": %s}, "new_arguments": false}`, full, zero)
	if _, problems := (Protocol{}).Validate(c, fmt.Sprintf(`{"scores": {"A": %s, "B": %s}, "new_arguments": false, "x": [{"a": 1}, {"a": 2}]}`, full, zero)); strings.Contains(strings.Join(problems, ";"), "twice") {
		t.Errorf("the same key in two objects of a list is not a duplicate: %v", problems)
	}
	body, problems := Protocol{}.Validate(c, good)
	if len(problems) > 0 {
		t.Fatalf("valid scores refused: %v", problems)
	}
	f, ok := readScoreFile(body)
	if !ok || f.Weighted[labels[0].ID] != 80 || f.Weighted[labels[1].ID] != 0 || f.NewArgument || f.Labels["A"] != labels[0].ID {
		t.Errorf("scores by persona: %+v", f)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"prose", "A scored well, B less.", "not the scorer's JSON object"},
		{"text after", good + " thanks", "text after the JSON object"},
		{"missing label", fmt.Sprintf(`{"scores": {"A": %s}, "new_arguments": true}`, full), "no score for B"},
		{"out of range", strings.Replace(good, `"evidence": 10`, `"evidence": 11`, 1), "A.evidence is 11:"},
		{"unknown field", strings.Replace(good, `"new_arguments"`, `"winner": "A", "new_arguments"`, 1), "unknown field"},
		{"no new_arguments", fmt.Sprintf(`{"scores": {"A": %s, "B": %s}}`, full, zero), `lacks "new_arguments"`},
		{"unknown label", fmt.Sprintf(`{"scores": {"A": %s, "B": %s, "C": %s}, "new_arguments": true}`, full, zero, zero), `"C" is not a label`},
		{"a score in quotes", strings.Replace(good, `"evidence": 10`, `"evidence": "7"`, 1), `A.evidence is "7": give a number`},
		{"new_arguments twice", strings.Replace(good, `"new_arguments": false`, `"new_arguments": false, "new_arguments": true`, 1), `"new_arguments" is given twice`},
		{"a criterion twice", strings.Replace(good, `"evidence": 10`, `"evidence": 10, "evidence": 2`, 1), `"evidence" is given twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems := Protocol{}.Validate(c, tc.body)
			if !strings.Contains(strings.Join(problems, "; "), tc.want) {
				t.Errorf("problems %v, want %q", problems, tc.want)
			}
		})
	}
	if _, problems := (Protocol{}).Validate(c, "```json\n"+good+"\n```"); len(problems) > 0 {
		t.Errorf("a fenced JSON object is refused: %v", problems)
	}
}

// round builds one round's valid answers: each persona's confidence, and
// the scorer's file when isNew is not nil.
func round(confs map[string]string, isNew *bool) engine.RoundAnswers {
	ra := engine.RoundAnswers{}
	for id, c := range confs {
		ra[id] = personaBody(c)
	}
	if isNew != nil {
		ra["critic-1"] = fmt.Sprintf(`{"scores": {"agente-1": {}}, "weighted": {"agente-1": 50, "agente-2": 40}, "labels": {}, "new_arguments": %v}`, *isNew)
	}
	return ra
}

// TestStopRules: convergence needs every confidence to move < 0.1 in each
// of the last two rounds; null production two rounds with nothing new;
// neither stops before round 2, and convergence wins when both hold.
func TestStopRules(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name   string
		rounds []engine.RoundAnswers
		want   string
	}{
		{"convergence", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes),
			round(map[string]string{"agente-1": "0.55", "agente-2": "0.75"}, &yes),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.72"}, &yes)}, StopConvergence},
		{"a move of exactly 0.1 is not less than 0.1 (0.5 → 0.6 → 0.7)", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.5"}, &yes),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.5"}, &yes),
			round(map[string]string{"agente-1": "0.7", "agente-2": "0.5"}, &yes)}, ""},
		{"a move of exactly 0.1 is not less than 0.1 (0.7 → 0.8 → 0.9)", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.7", "agente-2": "0.5"}, &yes),
			round(map[string]string{"agente-1": "0.8", "agente-2": "0.5"}, &yes),
			round(map[string]string{"agente-1": "0.9", "agente-2": "0.5"}, &yes)}, ""},
		{"one persona still moving", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes),
			round(map[string]string{"agente-1": "0.55", "agente-2": "0.6"}, &yes),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.6"}, &yes)}, ""},
		{"null production", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.2", "agente-2": "0.9"}, &yes),
			round(map[string]string{"agente-1": "0.4", "agente-2": "0.7"}, &no),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.5"}, &no)}, StopNullProduction},
		{"one stale round", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.2", "agente-2": "0.9"}, &no),
			round(map[string]string{"agente-1": "0.4", "agente-2": "0.7"}, &yes),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.5"}, &no)}, ""},
		{"an unscored round is not null production", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.2", "agente-2": "0.9"}, &yes),
			round(map[string]string{"agente-1": "0.4", "agente-2": "0.7"}, nil),
			round(map[string]string{"agente-1": "0.6", "agente-2": "0.5"}, &no)}, ""},
		{"a persona absent from the last round", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8", "agente-3": "0.2"}, &yes),
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8", "agente-3": "0.2"}, &yes),
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes)}, ""},
		{"a persona that never answered", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes),
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes),
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes)}, ""},
		{"a persona missing a round", []engine.RoundAnswers{
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes),
			round(map[string]string{"agente-1": "0.5"}, &yes),
			round(map[string]string{"agente-1": "0.5", "agente-2": "0.8"}, &yes)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := len(tc.rounds) - 1
			panel := []string{"agente-1", "agente-2"}
			if _, ok := tc.rounds[0]["agente-3"]; ok || strings.Contains(tc.name, "never answered") {
				panel = append(panel, "agente-3")
			}
			choice, reason := Protocol{}.Stop(k, 5, panel, tc.rounds)
			if choice != tc.want || (choice == "") != (reason == "") {
				t.Errorf("stop %q (%s), want %q", choice, reason, tc.want)
			}
			if c, _ := (Protocol{}).Stop(1, 5, panel, tc.rounds[:2]); c != "" {
				t.Errorf("stopped after round 1: %s", c)
			}
			// the cap's last round: a rule that holds is recorded, else the cap
			capWant := tc.want
			if capWant == "" {
				capWant = StopRoundCap
			}
			if c, reason := (Protocol{}).Stop(k, k, panel, tc.rounds); c != capWant || !strings.HasPrefix(reason, capWant+":") {
				t.Errorf("at the cap: stop %q (%s), want %q", c, reason, capWant)
			}
		})
	}
}

// finalInput is a two-persona debate stopped by convergence after round 1,
// agente-2 absent from the last round.
func finalInput() engine.FinalInput {
	yes := true
	return engine.FinalInput{Lang: bugfolder.EN, P: "### Question\n\nCache?\n", N: 2, Panel: []string{"agente-1", "agente-2"},
		Answers: map[string]string{"agente-1": personaBody("0.7")}, Missing: map[string]bugfolder.Status{"agente-2": bugfolder.StatusTimeout},
		Lenses: map[string]bugfolder.Lens{"agente-1": {Name: "formalist", Text: "Persona formalist — domain: maths.\nPart: adversarial"}, "agente-2": {Name: "skeptic", Text: "Persona skeptic — domain: failures."}},
		Last:   1, R: 3, StopReason: "convergence: test",
		Rounds: []engine.RoundAnswers{round(map[string]string{"agente-1": "0.6", "agente-2": "0.3"}, &yes), round(map[string]string{"agente-1": "0.7"}, nil)}}
}

func synthBody() string {
	var b strings.Builder
	for _, h := range synthesis {
		b.WriteString(h.In(bugfolder.EN) + "\n\ntext\n\n")
	}
	return b.String()
}

// TestSynthesis: the prompt states why the debate stopped and names the
// absent persona; a synthesis needs all eight sections; the head says the
// rounds and the termination; a human choice invents nothing.
func TestSynthesis(t *testing.T) {
	step := Protocol{}.Final(finalInput())
	prompt := step.Prompt()
	for _, want := range []string{"stopped after round 1: convergence: test", "skeptic, round 1: ABSENT (timeout)", "## Nuanced conclusion", "skeptic: no valid argument"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("synthesizer prompt lacks %q", want)
		}
	}
	doc, problems := step.Accept(synthBody())
	if len(problems) > 0 || !strings.Contains(doc.Head, "Rounds: 0 to 1 (cap: 3 after round 0). Termination: convergence: test") {
		t.Errorf("accept: %v, head %q", problems, doc.Head)
	}
	if _, problems := step.Accept(strings.Replace(synthBody(), "## Open questions", "## Other", 1)); len(problems) == 0 {
		t.Error("a synthesis without open questions was accepted")
	}
	if _, ok := step.Human("skeptic", 2); ok {
		t.Error("a human chose an absent persona")
	}
	if d, ok := step.Human("formalist", 2); !ok || !strings.Contains(d.Body, "Not produced: the synthesizer failed 2 time(s)") {
		t.Errorf("human choice: %v %q", ok, d.Body)
	}
}

// TestArtifacts: per persona its concessions and confidence trajectory,
// per round its scores (an unscored round says so), the summary with the
// stop rule, and the transcript with the synthesis once written.
func TestArtifacts(t *testing.T) {
	files := Protocol{}.Artifacts(finalInput(), "## Agreement\n\nyes\n")
	for path, want := range map[string]string{
		"personas/formalist/confidence.json":  `"confidence": 0.7`,
		"personas/formalist/concessions.json": `"text": "A stale coupon can overcharge."`,
		"personas/skeptic/confidence.json":    `"confidence": 0.3`,
		"scoring/round_000.json":              `"scored": true`,
		"scoring/round_001.json":              `"scored": false`,
		"scoring/summary.json":                `"stop_rule": "convergence"`,
		"transcript.md":                       "#### Agreement",
	} {
		if !strings.Contains(string(files[path]), want) {
			t.Errorf("%s lacks %q:\n%s", path, want, files[path])
		}
	}
}

// TestPromptsGolden keeps the persona's, the scorer's and the
// synthesizer's prompts in both languages.
func TestPromptsGolden(t *testing.T) {
	for _, l := range []bugfolder.Lang{bugfolder.PT, bugfolder.EN} {
		var all strings.Builder
		lens := bugfolder.Lens{Name: "formalist", Text: "Persona formalist — domain: maths.\nPart: adversarial, side 1 of 2"}
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, Role: RolePersona, ID: "agente-1", N: 2, R: 2, Round: 0, P: "Q?\n", Lens: lens}) + "\n=====\n")
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, Role: RolePersona, ID: "agente-1", N: 2, R: 2, Round: 1, P: "Q?\n", Nonce: "N0NCE", Lens: lens,
			Snapshot: []engine.SnapshotEntry{{ID: "agente-1", Own: true, Body: "mine"}, {ID: "agente-2", Body: "theirs"}}}) + "\n=====\n")
		sc := scorerCall()
		sc.Lang = l
		all.WriteString(Protocol{}.Prompt(sc) + "\n=====\n")
		in := finalInput()
		in.Lang = l
		s := Protocol{}.Final(in).(*synthesizer)
		s.nonce = "N0NCE"
		all.WriteString(s.Prompt())
		t.Run(l.String(), func(t *testing.T) { golden.RequireEqual(t, []byte(all.String())) })
	}
}

// FuzzScores feeds model output (outside input) to the score parser and
// the persona's validator: they never panic; accepted scores are within
// 0–10 and weigh at most 80; an accepted answer, rewritten, is accepted.
func FuzzScores(f *testing.F) {
	f.Add(`{"scores": {"A": {"evidence": 1, "novelty": 2, "concession": 3, "coherence": 4, "rebuttal": 5, "calibration": 6}}, "new_arguments": true}`)
	f.Add("```json\n{\"scores\": {}, \"new_arguments\": false}\n```")
	f.Add(`{"scores": {"A": {"evidence": 1e309}}}`)
	f.Add(personaBody("0.5"))
	f.Fuzz(func(t *testing.T, body string) {
		sc, problems := ParseScores(body, []string{"A"})
		if len(problems) == 0 {
			for _, v := range sc.Scores["A"] {
				if v < 0 || v > 10 {
					t.Errorf("accepted score %v", v)
				}
			}
			if w := sc.Scores["A"].Weighted(); w < 0 || w > maxWeighted {
				t.Errorf("weighted %v", w)
			}
		}
		c := engine.Call{Lang: bugfolder.PT, Role: RolePersona}
		if out, problems := (Protocol{}).Validate(c, body); len(problems) == 0 {
			if _, again := (Protocol{}).Validate(c, out); len(again) > 0 {
				t.Errorf("an accepted answer, rewritten, is refused: %v", again)
			}
		}
		_ = confidences(engine.RoundAnswers{"agente-1": body})
	})
}

// TestReadView: the front ends' view reads back what Artifacts wrote:
// trajectories, scores, the concession log by round, the stop rule.
func TestReadView(t *testing.T) {
	dir := t.TempDir()
	for rel, b := range (Protocol{}).Artifacts(finalInput(), "") {
		if b == nil {
			continue // a file to remove
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	v, ok := ReadView(dir)
	if !ok || v.Rule != StopConvergence || v.Rounds != 2 || len(v.Personas) != 2 || v.Personas[0].Name != "formalist" ||
		len(v.Personas[0].Confidence) != 2 || len(v.Personas[0].Scores) != 1 || v.Personas[0].Scores[0] != (Point{Round: 0, Value: 50}) || v.Personas[0].Confidence[1].Round != 1 || len(v.Concessions) != 3 || v.Concessions[0].Round != 0 {
		t.Errorf("view: %+v", v)
	}
}

// TestSummaryRounds: scoring/summary.json gives each score and confidence
// its round, so a round without one (unscored, the persona absent) is
// seen as absent, not shifted; weighted_mean is the mean of the rounds
// scored, rounded, and null while none is.
func TestSummaryRounds(t *testing.T) {
	yes := true
	in := finalInput()
	in.Rounds = []engine.RoundAnswers{
		round(map[string]string{"agente-1": "0.6", "agente-2": "0.3"}, nil),
		round(map[string]string{"agente-1": "0.7"}, &yes),
		round(map[string]string{"agente-1": "0.8"}, &yes),
	}
	in.Rounds[2]["critic-1"] = `{"scores": {"agente-1": {}}, "weighted": {"agente-1": 41.25}, "labels": {}, "new_arguments": true}`
	var s struct {
		ByPersona map[string]struct {
			Weighted   []Point  `json:"weighted_by_round"`
			Mean       *float64 `json:"weighted_mean"`
			Confidence []Point  `json:"confidence_by_round"`
		} `json:"by_persona"`
	}
	if err := json.Unmarshal((Protocol{}).Artifacts(in, "")["scoring/summary.json"], &s); err != nil {
		t.Fatal(err)
	}
	a1, a2 := s.ByPersona["agente-1"], s.ByPersona["agente-2"]
	if want := []Point{{Round: 1, Value: 50}, {Round: 2, Value: 41.25}}; !slices.Equal(a1.Weighted, want) {
		t.Errorf("agente-1 weighted_by_round %v, want %v", a1.Weighted, want)
	}
	if a1.Mean == nil || *a1.Mean != 45.63 {
		t.Errorf("agente-1 weighted_mean %v, want 45.63", a1.Mean)
	}
	if want := []Point{{Round: 0, Value: 0.6}, {Round: 1, Value: 0.7}, {Round: 2, Value: 0.8}}; !slices.Equal(a1.Confidence, want) {
		t.Errorf("agente-1 confidence_by_round %v, want %v", a1.Confidence, want)
	}
	if a2.Mean != nil || len(a2.Weighted) != 0 || !slices.Equal(a2.Confidence, []Point{{Round: 0, Value: 0.3}}) {
		t.Errorf("agente-2, never scored: %+v", a2)
	}
}

// TestParseConfidence: a confidence from 0.0 to 1.0 in any of the ways a
// model writes it — ".7" without its leading zero included — is read; a
// value out of range, a percentage or no number is refused.
func TestParseConfidence(t *testing.T) {
	for _, tc := range []struct {
		text string
		want float64
		ok   bool
	}{
		{"0.7", 0.7, true}, {".7", 0.7, true}, {",7 — the log is clear", 0.7, true}, {"0,65", 0.65, true},
		{"1", 1, true}, {"0", 0, true}, {"1.0", 1, true}, {"about .85, given the log", 0.85, true},
		{"1.5", 0, false}, {"-.2", 0, false}, {"-0.1", 0, false}, {"70%", 0, false}, {"high", 0, false}, {".", 0, false},
	} {
		v, err := parseConfidence(tc.text)
		if (err == nil) != tc.ok || (tc.ok && v != tc.want) {
			t.Errorf("parseConfidence(%q) = %v, %v; want %v (ok %v)", tc.text, v, err, tc.want, tc.ok)
		}
	}
}

// TestPersonaReflectsOnItsOwnArgument: from round 1 a persona's prompt
// holds its own argument of the round before (docs/protocols/argue.md, reflection:
// recall one's earlier arguments, update belief), fenced as its own, with
// its stated confidence, and the others' published arguments; a persona
// without a valid answer is named absent. The rebuttal asks for
// refinements or a middle ground.
func TestPersonaReflectsOnItsOwnArgument(t *testing.T) {
	own := strings.Replace(personaBody("0.45"), "Caching cuts latency", "OWN-ARGUMENT-TEXT", 1)
	theirs := strings.Replace(personaBody("0.8"), "Caching cuts latency", "THEIR-ARGUMENT-TEXT", 1)
	for _, tc := range []struct {
		l         bugfolder.Lang
		ownFence  string
		reflect   string
		middleWay string
	}{
		{bugfolder.EN, "BEGIN agente-1 (your previous argument)", "(reflection)", "middle ground"},
		{bugfolder.PT, "INÍCIO agente-1 (seu argumento anterior)", "(reflexão)", "meio-termo"},
	} {
		prompt := Protocol{}.Prompt(engine.Call{Lang: tc.l, Role: RolePersona, ID: "agente-1", N: 3, R: 2, Round: 1, P: "Q?\n", Nonce: "N0NCE",
			Snapshot: []engine.SnapshotEntry{{ID: "agente-1", Own: true, Body: own}, {ID: "agente-2", Body: theirs}, {ID: "agente-3", Missing: true, Status: bugfolder.StatusTimeout}}})
		for _, want := range []string{"OWN-ARGUMENT-TEXT", tc.ownFence, tc.reflect, tc.middleWay, "THEIR-ARGUMENT-TEXT", "0.45", "agente-3: "} {
			if !strings.Contains(prompt, want) {
				t.Errorf("%s: the prompt lacks %q:\n%s", tc.l, want, prompt)
			}
		}
	}
}

// TestLonePersonaIsToldItsOpponentIsOut: a persona whose opponent left
// the debate (a quorum menu's continue) is told who is out and why, and
// that nothing was published to rebut, instead of an empty section.
func TestLonePersonaIsToldItsOpponentIsOut(t *testing.T) {
	for _, tc := range []struct {
		l    bugfolder.Lang
		want []string
	}{
		{bugfolder.EN, []string{"agente-2: out of the debate after failing", "No other persona published an argument"}},
		{bugfolder.PT, []string{"agente-2: fora do debate depois de falhar", "Nenhum outro participante publicou argumento"}},
	} {
		prompt := Protocol{}.Prompt(engine.Call{Lang: tc.l, Role: RolePersona, ID: "agente-1", N: 2, R: 2, Round: 2, P: "Q?\n", Nonce: "N0NCE",
			Snapshot: []engine.SnapshotEntry{{ID: "agente-1", Own: true, Body: personaBody("0.6")}},
			Out:      []engine.SnapshotEntry{{ID: "agente-2", Missing: true, Status: bugfolder.StatusError}}})
		for _, want := range tc.want {
			if !strings.Contains(prompt, want) {
				t.Errorf("%s: the prompt lacks %q:\n%s", tc.l, want, prompt)
			}
		}
	}
	both := Protocol{}.Prompt(engine.Call{Lang: bugfolder.EN, Role: RolePersona, ID: "agente-1", N: 2, R: 2, Round: 1, P: "Q?\n", Nonce: "N0NCE",
		Snapshot: []engine.SnapshotEntry{{ID: "agente-1", Own: true, Body: personaBody("0.6")}, {ID: "agente-2", Body: personaBody("0.7")}}})
	if strings.Contains(both, "No other persona published") || strings.Contains(both, "out of the debate") {
		t.Errorf("a persona with a published opponent is told it has none:\n%s", both)
	}
}

// TestSynthesizerReadsTheTranscript: the synthesizer reads every round's
// arguments, each under its persona and round — so its strongest
// arguments can say who and which round — not only the last round's; a
// persona absent from the last round is named ABSENT with its status.
func TestSynthesizerReadsTheTranscript(t *testing.T) {
	in := finalInput()
	in.Rounds[0]["agente-2"] = strings.Replace(personaBody("0.3"), "Caching cuts latency", "SKEPTIC-ROUND-0-ARGUMENT", 1)
	prompt := Protocol{}.Final(in).Prompt()
	for _, want := range []string{"Transcript: every round's arguments (rounds 0 to 1)", "## Round 0", "BEGIN skeptic, round 0", "SKEPTIC-ROUND-0-ARGUMENT",
		"BEGIN formalist, round 0", "BEGIN formalist, round 1", "skeptic, round 1: ABSENT (timeout)"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the synthesizer's prompt lacks %q:\n%s", want, prompt)
		}
	}
	if est := (Protocol{}).PromptOverhead(engine.Setup{Lang: bugfolder.EN, N: 3, R: 2}, RoleSynthesizer); est < 3*2*ExpectedPersonaTokens {
		t.Errorf("the plan prices the synthesizer's prompt at %d tokens of overhead, less than the earlier rounds it reads", est)
	}
}

// TestScorerJudgesNoveltyAgainstEarlierRounds: from round 1 on the scorer
// reads every earlier round's arguments — anonymized like the round it
// scores, labelled by round, never by persona id or name, fenced — and is
// told to judge novelty and new_arguments against them without scoring
// them; round 0 has none. The plan prices them: a scorer call's overhead
// holds R·N/2 persona answers (the average over rounds 0..R).
func TestScorerJudgesNoveltyAgainstEarlierRounds(t *testing.T) {
	c := scorerCall()
	c.Round = 2
	c.History = [][]engine.SnapshotEntry{
		{{ID: "agente-1", Body: "ROUND-0-PRAGMATIST", Lens: bugfolder.Lens{Name: "pragmatist"}}, {ID: "agente-2", Body: "ROUND-0-SKEPTIC", Lens: bugfolder.Lens{Name: "skeptic"}}},
		{{ID: "agente-1", Body: "ROUND-1-PRAGMATIST", Lens: bugfolder.Lens{Name: "pragmatist"}}},
	}
	prompt := Protocol{}.Prompt(c)
	for _, want := range []string{"compare this round with the earlier rounds' arguments", "Arguments of the earlier rounds (0 to 1): only to judge novelty, do not score them",
		"## Round 0", "## Round 1", "ROUND-0-PRAGMATIST", "ROUND-0-SKEPTIC", "ROUND-1-PRAGMATIST", "<<<BEGIN r0-A N0NCE>>>", "<<<BEGIN r0-B N0NCE>>>", "<<<BEGIN r1-A N0NCE>>>", "Labels of this round: A, B\n"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the scorer's prompt lacks %q:\n%s", want, prompt)
		}
	}
	for _, bad := range []string{"agente-", "pragmatist", "skeptic"} {
		if strings.Contains(prompt, bad) {
			t.Errorf("the scorer's prompt names %q:\n%s", bad, prompt)
		}
	}
	if i, j := strings.Index(prompt, "ROUND-0-PRAGMATIST"), strings.Index(prompt, "Caching cuts latency"); i < j {
		t.Error("the earlier rounds come before the round scored")
	}
	c.Round, c.History = 0, nil
	if p := (Protocol{}).Prompt(c); strings.Contains(p, "earlier rounds") {
		t.Errorf("round 0's scorer is told of earlier rounds:\n%s", p)
	}
	s := engine.Setup{Lang: bugfolder.EN, N: 2, R: 4}
	base := (Protocol{}).PromptOverhead(engine.Setup{Lang: bugfolder.EN, N: 2, R: 0}, RoleScorer)
	if est := (Protocol{}).PromptOverhead(s, RoleScorer); est < base+2*4*ExpectedPersonaTokens/2 {
		t.Errorf("the plan prices a scorer call at %d tokens of overhead, less than the earlier rounds it reads on average (%d + %d)", est, base, 2*4*ExpectedPersonaTokens/2)
	}
}

// TestReasonTextInPortuguese: a Portuguese document reads moot's stop
// reasons in Portuguese; an English one and an unknown reason stay as
// written.
func TestReasonTextInPortuguese(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{capReason(0), "limite de rodadas: a única rodada rodou (rodada 0)"},
		{capReason(2), "limite de rodadas: as 3 rodadas rodaram (0 a 2)"},
		{"convergence: every persona's confidence moved less than 0.1 in rounds 1 and 2", "convergência: a confiança de cada persona mudou menos de 0,1 nas rodadas 1 e 2"},
		{"null-production: the scorer found no new argument or evidence in rounds 2 and 3", "produção nula: o avaliador não encontrou argumento nem evidência nova nas rodadas 2 e 3"},
		{"manual: stopped by human after round 1", "manual: parado por um humano após a rodada 1"},
		{"manual: stopped by human after round 1 (round 2, in flight when the stop was asked, lost its quorum)", "manual: stopped by human after round 1 (round 2, in flight when the stop was asked, lost its quorum)"},
		{"a reason of someone else's", "a reason of someone else's"},
	} {
		if got := reasonText(bugfolder.PT, c.in); got != c.want {
			t.Errorf("reasonText(PT, %q) = %q, want %q", c.in, got, c.want)
		}
		if got := reasonText(bugfolder.EN, c.in); got != c.in {
			t.Errorf("reasonText(EN, %q) = %q, want it unchanged", c.in, got)
		}
	}
}

// TestEveryPromptOfAnArgueBeginsWithTheSameBlockHoldingP: every persona's
// prompt of every round (its persona and reading order its own), the
// scorer's and the synthesizer's begin with the same bytes holding P.
func TestEveryPromptOfAnArgueBeginsWithTheSameBlockHoldingP(t *testing.T) {
	in := finalInput()
	var prompts []string
	for round := 0; round <= 2; round++ {
		for _, id := range in.Panel {
			c := engine.Call{Lang: bugfolder.EN, Role: RolePersona, ID: id, N: 2, R: 2, Round: round, P: in.P, Nonce: "n" + id, Lens: in.Lenses[id]}
			if round > 0 {
				c.Snapshot = []engine.SnapshotEntry{{ID: id, Own: true, Body: personaBody("0.5")}, {ID: "agente-9", Body: personaBody("0.6")}}
			}
			prompts = append(prompts, Protocol{}.Prompt(c))
		}
		sc := scorerCall()
		sc.P, sc.Round = in.P, round
		prompts = append(prompts, Protocol{}.Prompt(sc))
	}
	prompts = append(prompts, Protocol{}.Final(in).Prompt())
	testutil.RequireSharedPrefix(t, prompts, in.P, engine.SharedEnd)
}
