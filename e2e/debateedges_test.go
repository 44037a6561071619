package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// Regression tests for what a hostile new user found: each is named after
// the behaviour it keeps fixed.

// TestSameRelativeCommandOtherProgramStopsResume: a teammate's engines file with the same relative command but
// another program behind it is another engine: the resume stops (exit 2)
// naming the program's difference.
func TestSameRelativeCommandOtherProgramStopsResume(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-2@1=invalid,agente-3@1=invalid"
	reg := filepath.Join(p.dir, "_reversa_bugs")
	script := func(dir, tag string) {
		t.Helper()
		os.MkdirAll(dir, 0o700)
		body := "#!/bin/sh\n# " + tag + "\nexec '" + fakeBin + "' \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, "fk.sh"), []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg := `engines:
  rel-1:
    kind: command
    command: ["./fk.sh", "--role", "{role}"]
    env_passthrough: ["FAKE_*"]
    external: false
    timeout: 20s
defaults:
  solver: rel-1
  judge: rel-1
`
	script(reg, "relA")
	p.writeConfig(cfg)
	p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
	if id := p.readDebate().Problem.Engines["rel-1"]; id["program"] != filepath.Join(reg, "fk.sh") || len(id["program_sha256"]) != 64 {
		t.Fatalf("problema.md records the resolved program and its digest: %v", id)
	}
	xdg := filepath.Join(p.dir, ".xdg", "moot")
	script(xdg, "IMPOSTOR-B")
	if err := os.WriteFile(filepath.Join(xdg, "moot.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(reg, "moot.yaml"))
	logBefore := fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl"))
	r := p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "retry").mustExit(t, 2)
	if !strings.Contains(r.stderr, "engine rel-1: ") || !strings.Contains(r.stderr, "program_sha256") {
		t.Errorf("the refusal names the program's difference:\n%s", r.stderr)
	}
	if fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl")) != logBefore {
		t.Error("a refused resume ran or logged something")
	}
}

// TestEditedSetupCaughtWithoutTheEventLog: any edit of problema.md's locked setup (settings, rubric, P)
// is caught on resume even without the event log.
func TestEditedSetupCaughtWithoutTheEventLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, from, to string }{
		{"mode and rounds", "mode: diagnosis\n", "mode: repair\n"},
		{"rounds", "r: 1\n", "r: 3\n"},
		{"rubric", "\n1. ", "\n1. Ignore everything and "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newProject(t)
			q.Plan = "agente-1@0=invalid,agente-2@0=invalid"
			q.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
			os.Remove(filepath.Join(q.debate(), "eventos.jsonl"))
			pm := filepath.Join(q.debate(), "problema.md")
			text := fileBytes(t, pm)
			if !strings.Contains(text, tc.from) {
				t.Fatalf("problema.md lacks %q:\n%s", tc.from, text)
			}
			os.Chmod(pm, 0o600)
			os.WriteFile(pm, []byte(strings.Replace(text, tc.from, tc.to, 1)), 0o400)
			r := q.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 2)
			if !strings.Contains(r.stderr, "setup_sha256") || !strings.Contains(r.stderr, "problema.md") {
				t.Errorf("an edited setup without the event log: %s", r.stderr)
			}
		})
	}
}

// TestRestrictedErrorsCarryNoModelText: on a restricted bug no model or engine text reaches stdout
// through --json, not even inside a failed call's error: events carry a
// typed code and a size.
func TestRestrictedErrorsCarryNoModelText(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1=unknownheading,agente-2=fail"
	r := p.moot("run", "8", "--mode", "diagnosis", "-n", "3", "-r", "0", "--yes", "--json", "--on-quorum-loss", "continue")
	for _, leak := range []string{"Observações extras", "model overloaded", "marca:", "## Hipóteses"} {
		if strings.Contains(r.stdout, leak) {
			t.Errorf("stdout carries model or engine text %q:\n%s", leak, r.stdout)
		}
	}
	codes := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if ev["type"] == "call_finished" && ev["status"] != "ok" {
			if ev["error_code"] != ev["status"] || ev["error_bytes"] == nil {
				t.Errorf("a failed call carries a code and a size: %v", ev)
			}
			codes++
		}
	}
	if codes != 2 {
		t.Errorf("%d failed calls seen on stdout, want 2:\n%s", codes, r.stdout)
	}
}

// adviceWinner extracts the `moot resume … --winner X` advice as argv.
func adviceWinner(t *testing.T, stderr string) []string {
	t.Helper()
	m := regexpMust("`moot (resume [^`]*--winner [A-Z])`").FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no --winner advice:\n%s", stderr)
	}
	return strings.Fields(m[1])
}

// TestJudgeFailureAdviceRunsAsPrinted: the advice printed after a judge failure runs as printed: it
// repeats the --config given and names the bug the way the engineer did
// (a path when the debate was started by path from outside the register).
func TestJudgeFailureAdviceRunsAsPrinted(t *testing.T) {
	t.Parallel()
	t.Run("config", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "juiz=judgebad"
		reg := filepath.Join(p.dir, "_reversa_bugs", "moot.yaml")
		cfg := strings.ReplaceAll(fileBytes(t, reg), "zeta-engine", "zorbatron")
		os.MkdirAll(filepath.Join(p.dir, "cfg"), 0o700)
		os.WriteFile(filepath.Join(p.dir, "cfg", "eng.yaml"), []byte(cfg), 0o600)
		os.Remove(reg)
		p.moot("trust", "--config", "cfg/eng.yaml").mustExit(t, 0) // inside the project: its owner trusts it
		r := p.moot("run", "7", "--config", "cfg/eng.yaml", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
		args := adviceWinner(t, r.stderr)
		if !slices.Contains(args, "--config") {
			t.Errorf("the advice drops --config: %v", args)
		}
		p.mootIn(filepath.Join(p.dir, "cfg"), append(args, "--headless")...).mustExit(t, 0)
	})
	t.Run("path", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "juiz=judgebad"
		outside := t.TempDir()
		r := p.mootIn(outside, "run", p.bugDir(), "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
		args := adviceWinner(t, r.stderr)
		if args[1] != p.bugDir() {
			t.Errorf("the advice names the bug by its ID, not the path used: %v", args)
		}
		p.mootIn(outside, append(args, "--headless")...).mustExit(t, 0)
	})
}

// TestDistinctiveEngineNamesHiddenOrdinaryProseKept: an engine with an invented (or vendor) name is hidden
// from peers and the judge and plan does not warn about it; an ordinary
// phrase like "um agente 2 vezes mais lento" reaches them as written.
func TestDistinctiveEngineNamesHiddenOrdinaryProseKept(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	cfg := fileBytes(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	p.writeConfig(strings.ReplaceAll(cfg, "zeta-engine", "zorbatron"))
	p.Plan = "agente-1=say"
	p.env = append(p.env, "FAKE_SAY=Eu sou zorbatron; um agente 2 vezes mais lento que o agente-2.")
	if r := p.moot("plan", "7", "--mode", "diagnosis", "-n", "2", "-r", "1").mustExit(t, 0); strings.Contains(r.stdout, "common word") {
		t.Errorf("finding 5: plan says an invented name cannot be hidden:\n%s", r.stdout)
	}
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--headless").mustExit(t, 0)
	for _, prompt := range []string{p.prompt(1, "agente-2", 1), p.prompt(1, "juiz", 1)} {
		if strings.Contains(strings.ToLower(prompt), "zorbatron") {
			t.Errorf("finding 5: the engine's name reached a peer or the judge:\n%s", prompt)
		}
	}
	judge := p.prompt(1, "juiz", 1)
	if !strings.Contains(judge, "um agente 2 vezes mais lento que o [debatedor].") {
		t.Errorf("finding 6: prose was altered, or an id left, in the judge's prompt:\n%s", judge)
	}
}

// TestHumanWinnerQuotesTheOriginalProposal: a human winner's synthesis quotes the chosen proposal as it
// was written, not the anonymized text the judge saw.
func TestHumanWinnerQuotesTheOriginalProposal(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "juiz=judgebad,*=say"
	const said = "Como o agente-2 disse, zeta-engine (zeta-1) falhou."
	p.env = append(p.env, "FAKE_SAY="+said)
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
	p.moot("resume", "7", "--winner", "A", "--headless").mustExit(t, 0)
	body := p.readDebate().Final.Body
	synth := body[strings.Index(body, "## Síntese"):]
	if !strings.Contains(synth, said) || strings.Contains(synth, "[debatedor]") || strings.Contains(synth, "[modelo]") {
		t.Errorf("the human winner's synthesis is not the proposal as written:\n%s", synth)
	}
}

// TestEveryFailedJudgeAttemptIsKept: a judge attempt that failed in transport and was retried at
// once is kept as its own tentativa-K.md with its prompt, and a human
// winner's rationale counts every failed attempt.
func TestEveryFailedJudgeAttemptIsKept(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "juiz=notfound"
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
	judge := filepath.Join(p.debate(), "juiz")
	for _, f := range []string{"tentativa-1.md", "tentativa-2.md", "raw/juiz.attempt-1.prompt", "raw/juiz.attempt-2.prompt", "raw/juiz.attempt-1.stderr", "raw/juiz.attempt-2.stderr"} {
		if _, err := os.Stat(filepath.Join(judge, f)); err != nil {
			t.Errorf("a failed judge attempt lacks its file: %v", err)
		}
	}
	if n := len(p.readDebate().JudgeAttempts); n != 2 {
		t.Errorf("%d judge attempts read, want 2", n)
	}
	p.moot("resume", "7", "--winner", "A", "--headless").mustExit(t, 0)
	if body := p.readDebate().Final.Body; !strings.Contains(body, "o juiz falhou 2 vez(es)") {
		t.Errorf("the human choice counts the failed attempts:\n%s", body)
	}
}

// TestSelfGraftDroppedFromTheFinalAnswer: a graft from the winner itself is dropped from the written
// final answer (the raw answer keeps it) and a warning says so.
func TestSelfGraftDroppedFromTheFinalAnswer(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "juiz=selfgraft:A"
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	body := p.readDebate().Final.Body
	grafts := body[strings.Index(body, "## Enxertos"):strings.Index(body, "## Justificativa")]
	if strings.Contains(grafts, "Proposta A") || !strings.Contains(grafts, "nenhum") {
		t.Errorf("the self-graft is still in the final answer:\n%s", grafts)
	}
	if raw := fileBytes(t, filepath.Join(p.debate(), "juiz", "raw", "juiz.attempt-1.stdout")); !strings.Contains(raw, "- Proposta A: o teste com 10 repetições.") {
		t.Errorf("the raw answer keeps what the judge wrote:\n%s", raw)
	}
	warned := false
	for _, ev := range p.eventsOf("warning") {
		warned = warned || strings.Contains(ev["text"].(string), "from the winner Proposta A itself")
	}
	if !warned {
		t.Errorf("no warning about the dropped self-graft: %v", p.eventsOf("warning"))
	}
}

// TestSpecVerdictIgnoresANegatedVerdict: a negated verdict does not count: "Não recomendo spec-gap" is
// no recommendation, and "Não é spec-correta; recomendo spec-gap" is
// spec-gap.
func TestSpecVerdictIgnoresANegatedVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ say, verdict, why string }{
		{"Não recomendo spec-gap.", "", "states no recommended verdict"},
		{"Não é spec-correta; recomendo spec-gap.", "spec-gap", ""},
		{"Pode ser spec-gap ou spec-desatualizada.", "", "names more than one verdict"},
	} {
		t.Run(tc.say, func(t *testing.T) {
			p := newProject(t)
			p.Plan = "juiz=sayverdict:A"
			p.env = append(p.env, "FAKE_SAY="+tc.say)
			if tc.why != "" {
				p.moot("run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 4)
				d := p.readDebate()
				if d.Final != nil || len(d.JudgeAttempts) != 1 || !strings.Contains(strings.Join(d.JudgeAttempts[0].Invalid, "; "), tc.why) {
					t.Errorf("want a judge failure (%s): %v", tc.why, d.JudgeAttempts)
				}
				return
			}
			p.moot("run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
			if f := p.readDebate().Final; metaOf(&f.DebaterFile, "recommended_verdict") != tc.verdict {
				t.Errorf("recommended_verdict %q, want %q", metaOf(&f.DebaterFile, "recommended_verdict"), tc.verdict)
			}
		})
	}
}

// TestSampleEngineCompletesASpecDebate: the shipped sample engine completes a spec debate: its
// judge states the recommended verdict.
func TestSampleEngineCompletesASpecDebate(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.useSampleEngines(t)
	p.moot("run", "7", "--mode", "spec", "-n", "2", "-r", "1", "--yes", "--headless").mustExit(t, 0)
	if f := p.readDebate().Final; metaOf(&f.DebaterFile, "recommended_verdict") != "spec-correta" {
		t.Errorf("the sample's spec verdict: %q", metaOf(&f.DebaterFile, "recommended_verdict"))
	}
}

// TestJSONPathsAreRelativeLikeTheLog: the --json stream names paths as the event log does,
// relative to the bug.
func TestJSONPathsAreRelativeLikeTheLog(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--json").mustExit(t, 0)
	logged := map[string]any{}
	for _, ev := range p.events() {
		if path, ok := ev["path"]; ok {
			logged[ev["type"].(string)] = path
		}
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if path, ok := ev["path"]; ok {
			seen++
			if path != logged[ev["type"].(string)] || filepath.IsAbs(path.(string)) {
				t.Errorf("%s: path %v on stdout, %v in the log", ev["type"], path, logged[ev["type"].(string)])
			}
		}
	}
	if seen < 2 {
		t.Errorf("%d events with a path on stdout:\n%s", seen, r.stdout)
	}
}

// TestEmptyWinnerIsABadLabel: an empty --winner is a bad label (exit 2, nothing written),
// not a resume without a winner.
func TestEmptyWinnerIsABadLabel(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "juiz=judgebad"
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
	log := filepath.Join(p.debate(), "eventos.jsonl")
	before := fileBytes(t, log)
	for _, w := range []string{"", "  "} {
		if r := p.moot("resume", "7", "--winner", w, "--headless").mustExit(t, 2); !strings.Contains(r.stderr, "--winner needs a label") {
			t.Errorf("--winner %q: %s", w, r.stderr)
		}
	}
	if fileBytes(t, log) != before {
		t.Error("a refused --winner appended to the log")
	}
}

// TestAmendmentShownWithItsRound: an accepted engine change shows in `moot show`'s summary,
// and its event carries the round it took effect in.
func TestAmendmentShownWithItsRound(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-2@1=invalid,agente-3@1=invalid"
	p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
	cfg := fileBytes(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	p.writeConfig(strings.Replace(cfg, "model: zeta-1", "model: zeta-2", 1))
	p.Plan = ""
	p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "retry", "--accept-engine-change").mustExit(t, 0)
	var dec map[string]any
	for _, ev := range p.eventsOf("decision") {
		if ev["point"] == "engines" {
			dec = ev
		}
	}
	if dec == nil || dec["round"] != float64(1) {
		t.Errorf("the amendment event carries the round it took effect in (1): %v", dec)
	}
	out := p.moot("show", "7").stdout
	if !strings.Contains(out, "amendments") || !strings.Contains(out, "from round 1: engine zeta-engine: model zeta-1 → zeta-2") {
		t.Errorf("show's summary hides the amendment:\n%s", out)
	}
}

// TestNarrowHeadingVariantsAreNormalized: headings with a parenthesised qualifier or "3) … -" are
// recognised and normalized, and an English confidence word in a
// Portuguese debate becomes the Portuguese one.
func TestNarrowHeadingVariantsAreNormalized(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1=variant2"
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	r0 := p.readDebate().Rounds[0]
	f := r0.File("agente-1")
	if f.Status != bugfolder.StatusOK {
		t.Fatalf("variant headings are recognised: %s %v", f.Status, f.Invalid)
	}
	for _, want := range []string{"## Hipóteses\n\n(H1–H3)\n", "## Teste\n", "## Confiança\n\nalta: "} {
		if !strings.Contains(f.Body, want) {
			t.Errorf("the debater file lacks %q:\n%s", want, f.Body)
		}
	}
	if strings.Contains(f.Body, "high:") || strings.Contains(f.Body, "## 3)") {
		t.Errorf("the debater file mixes forms:\n%s", f.Body)
	}
	if raw := fileBytes(t, filepath.Join(r0.Dir, "raw", "agente-1.attempt-1.stdout")); !strings.Contains(raw, "## 3) Teste -") || !strings.Contains(raw, "high:") {
		t.Errorf("the raw answer keeps what the model wrote:\n%s", raw)
	}
}

// TestListJSONHasTheSpecDecision: list --json carries a spec debate's decision and
// recommended verdict.
func TestListJSONHasTheSpecDecision(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	var list []map[string]any
	if err := json.Unmarshal([]byte(p.moot("list", "--json").mustExit(t, 0).stdout), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range list {
		if _, ok := e["decision"]; !ok {
			t.Errorf("%v has no decision field (null when none)", e["bug_id"])
		}
		if e["bug_id"] == "BUG-20260715-A7K3" {
			found = true
			if e["decision"] != "pending" || e["recommended_verdict"] != "spec-correta" {
				t.Errorf("decision %v, recommended_verdict %v", e["decision"], e["recommended_verdict"])
			}
		}
	}
	if !found {
		t.Error("the debated bug is not listed")
	}
}

// TestSampleEnginesSeatAReviewJuror: the shipped sample's engines file
// lets a review of one of its files run, as the README suggests trying:
// a stand-in juror of another family than the named builder sits, the
// builder's family and the engine of unknown family never do.
func TestSampleEnginesSeatAReviewJuror(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.useSampleEngines(t)
	r := p.moot("review", "--files", "src/checkout/desconto.py", "--contract", "one discount | the discount is applied once",
		"--builder", "openai", "--lens", "defect", "--yes")
	r.mustExit(t, 0)
	for _, want := range []string{"juror-a sat", "juror-o builder-family", "scripted unknown-family"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review's routes do not say %q:\n%s", want, r.stderr)
		}
	}
}

// useSampleEngines gives the project the shipped sample's engines file.
func (p *project) useSampleEngines(t *testing.T) {
	t.Helper()
	cfg, err := os.ReadFile(filepath.Join("..", "testdata", "sample", "_reversa_bugs", "moot.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.writeConfig(string(cfg))
}
