package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// fileBytes reads a file (empty when it does not exist).
func fileBytes(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}

// metaOf reads one front matter field of a parsed file.
func metaOf(f *bugfolder.DebaterFile, key string) string {
	if n := bugfolder.Lookup(f.Meta, key); n != nil {
		return n.Value
	}
	return ""
}

// eventsOf returns the events of the given type in the log.
func (p *project) eventsOf(typ string) []map[string]any {
	var out []map[string]any
	for _, ev := range p.events() {
		if ev["type"] == typ {
			out = append(out, ev)
		}
	}
	return out
}

// Rule 1: engines are locked by identity. problema.md records what each
// engine is and every debater file the model that answered; a resume whose
// engines file resolves a name differently stops with exit 2 naming the
// difference (nothing run, nothing logged) unless the change is accepted
// as an amendment, which is logged like a swap and written in the files.
func TestEngineLockedByIdentity(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-2@1=invalid,agente-3@1=invalid"
	p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
	d := p.readDebate()
	id := d.Problem.Engines["zeta-engine"]
	if id["kind"] != "command" || id["model"] != "zeta-1" || len(id["argv_sha256"]) != 64 {
		t.Fatalf("problema.md records the engine's identity: %v", d.Problem.Engines)
	}
	if f := d.Rounds[0].File("agente-1"); f.Engine != "zeta-engine" || metaOf(f, "model") != "zeta-1" {
		t.Errorf("a debater file records the engine and model that answered: %s %q", f.Engine, metaOf(f, "model"))
	}
	cfg := fileBytes(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	p.writeConfig(strings.Replace(cfg, "model: zeta-1", "model: zeta-2", 1))
	logBefore := fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl"))
	r := p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 2)
	if !strings.Contains(r.stderr, "engine zeta-engine: model zeta-1 → zeta-2") || !strings.Contains(r.stderr, "--accept-engine-change") {
		t.Errorf("the refusal names the difference and the way out:\n%s", r.stderr)
	}
	if fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl")) != logBefore || p.starts("agente-1", 1) != 1 {
		t.Error("a refused resume ran or logged something")
	}
	// a teammate's engines file with another command is caught too
	p.writeConfig(strings.Replace(cfg, `"--role", "{role}"]`, `"--role", "{role}", "--fast"]`, 1))
	if r := p.moot("resume", "7", "--yes", "--headless").mustExit(t, 2); !strings.Contains(r.stderr, "argv_sha256") {
		t.Errorf("a changed argv is named:\n%s", r.stderr)
	}
	p.writeConfig(strings.Replace(cfg, "model: zeta-1", "model: zeta-2", 1))
	p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "continue", "--accept-engine-change").mustExit(t, 0)
	var dec map[string]any
	for _, ev := range p.eventsOf("decision") {
		if ev["point"] == "engines" {
			dec = ev
		}
	}
	if dec == nil || dec["by"] != "human" || !strings.Contains(dec["reason"].(string), "model zeta-1 → zeta-2") {
		t.Fatalf("the accepted change is logged like a swap: %v", dec)
	}
	d = p.readDebate()
	if metaOf(&d.Final.DebaterFile, "model") != "zeta-2" || !strings.Contains(d.Final.Amendment, "model zeta-1 → zeta-2") {
		t.Errorf("the judge's file records the model that answered and the amendment: %q %q", metaOf(&d.Final.DebaterFile, "model"), d.Final.Amendment)
	}
	if d.Problem.Engines["zeta-engine"]["model"] != "zeta-1" {
		t.Error("problema.md keeps the original plan")
	}
}

// Rule 2: anonymization never alters prose. Participant ids in every form
// and distinctive engine and model names are hidden from the judge; an
// engine named like a common word is left alone, and plan warns.
func TestAnonymizationNeverAltersProse(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1=prose"
	// omega (a common word) answers as agente-2: its name stays in prose
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--solver", "zeta-engine", "--solver", "omega", "--yes", "--headless").mustExit(t, 0)
	judge := p.prompt(0, "juiz", 1)
	if !strings.Contains(judge, "Nota: rodamos local, sem openai nem claude; omega concorda.") {
		t.Errorf("ordinary prose was altered in the judge's prompt:\n%s", judge)
	}
	if !strings.Contains(judge, "O [debatedor] e o [debatedor] erraram; [modelo] ([modelo]) falou.") {
		t.Errorf("ids in the forms a model uses, and distinctive names, must be hidden:\n%s", judge)
	}
	r := p.moot("plan", "7", "--mode", "diagnosis", "--solver", "omega").mustExit(t, 0)
	if !strings.Contains(r.stdout, "engine omega is named like a common word") {
		t.Errorf("plan warns that a common-word name cannot be hidden:\n%s", r.stdout)
	}
	if r := p.moot("plan", "7", "--mode", "diagnosis"); strings.Contains(r.stdout, "named like a common word") {
		t.Errorf("a distinctive name needs no warning:\n%s", r.stdout)
	}
}

// Rule 3: critics are read. Round k's critics run first on the frozen
// snapshot of k-1 and round k's solvers read their critiques; -r 0 with a
// critic is refused; the critic is not asked to rewrite a proposal.
func TestCriticsAreRead(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--critic", "zeta-engine", "--yes", "--headless").mustExit(t, 0)
	critic := p.prompt(1, "critic-1", 1)
	if !strings.Contains(critic, "marca: agente-1 r0") || !strings.Contains(critic, "marca: agente-2 r0") {
		t.Errorf("the critic reads the snapshot of round 0:\n%s", critic)
	}
	if strings.Contains(critic, "reescreva a sua") || strings.Contains(critic, "marca: agente-1 r1") {
		t.Errorf("the critic is asked to rewrite a proposal it does not have, or saw round 1:\n%s", critic)
	}
	for _, id := range []string{"agente-1", "agente-2"} {
		if s := p.prompt(1, id, 1); !strings.Contains(s, "marca: critic-1 r1") || !strings.Contains(s, "# Críticas da rodada 1") {
			t.Errorf("%s of round 1 does not read round 1's critique:\n%s", id, s)
		}
	}
	r := p.moot("plan", "7", "--mode", "diagnosis", "-r", "0", "--critic", "zeta-engine").mustExit(t, 2)
	if !strings.Contains(r.stderr, "nobody would read a critique") {
		t.Errorf("-r 0 with a critic: %s", r.stderr)
	}
}

// Rule 4: a stricter judge. A self-graft is no contribution; a synthesis
// without the mode's sections, or a spec answer without its verdict, is a
// judge failure; a spec verdict goes into the front matter and the final
// answer says the decision is the human's.
func TestStricterJudge(t *testing.T) {
	t.Parallel()
	t.Run("self-graft", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "juiz=selfgraft:A"
		p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
		f := p.readDebate().Final
		if f.AcceptedContributions != 1 {
			t.Errorf("a graft from the winner itself counted: accepted_contributions %d", f.AcceptedContributions)
		}
		if f.HealthTokensPerContribution != float64(f.TotalTokens) {
			t.Errorf("health counts only real ideas: %v per contribution of %d tokens", f.HealthTokensPerContribution, f.TotalTokens)
		}
	})
	for _, tc := range []struct{ mode, plan, why string }{
		{"diagnosis", "juiz=nosynth:A", "lacks the mode's section"},
		{"spec", "juiz=noverdict:A", "states no recommended verdict"},
	} {
		t.Run(tc.plan, func(t *testing.T) {
			p := newProject(t)
			p.Plan = tc.plan
			r := p.moot("run", "7", "--mode", tc.mode, "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 4)
			d := p.readDebate()
			if d.Final != nil || len(d.JudgeAttempts) != 1 || !strings.Contains(strings.Join(d.JudgeAttempts[0].Invalid, "; "), tc.why) {
				t.Errorf("a judge failure (%s) is kept as an attempt, no winner:\n%s", tc.why, r.stderr)
			}
		})
	}
	t.Run("spec verdict", func(t *testing.T) {
		p := newProject(t)
		p.moot("run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
		f := p.readDebate().Final
		if metaOf(&f.DebaterFile, "recommended_verdict") != "spec-correta" || metaOf(&f.DebaterFile, "decision") != "pending" {
			t.Errorf("the verdict is in the front matter: %q %q", metaOf(&f.DebaterFile, "recommended_verdict"), metaOf(&f.DebaterFile, "decision"))
		}
		if !strings.Contains(f.Body, "Veredito recomendado: spec-correta") || !strings.Contains(f.Body, "a decisão sobre a spec é humana") {
			t.Errorf("the final answer states the verdict and that a human decides:\n%s", f.Body)
		}
	})
}

// Rule 5: recognised heading variants are rewritten to the debate's
// canonical headings in the debater file (the raw answer keeps them); a
// confidence without its justification is invalid-output.
func TestHeadingsNormalized(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1=variant,agente-2=nojust,agente-3=unknownheading"
	p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 0)
	r0 := p.readDebate().Rounds[0]
	f := r0.File("agente-1")
	if f.Status != bugfolder.StatusOK {
		t.Fatalf("variant headings are recognised: %s %v", f.Status, f.Invalid)
	}
	for _, h := range []string{"## Hipóteses\n", "## Teste\n", "## Evidências\n", "## Confiança\n"} {
		if !strings.Contains(f.Body, h) {
			t.Errorf("the debater file lacks the canonical %q:\n%s", h, f.Body)
		}
	}
	for _, h := range []string{"Hypotheses", "**Teste**", "Evidencias", "Confidence"} {
		if strings.Contains(f.Body, h) {
			t.Errorf("the debater file mixes forms (%q):\n%s", h, f.Body)
		}
	}
	if raw := fileBytes(t, filepath.Join(r0.Dir, "raw", "agente-1.attempt-1.stdout")); !strings.Contains(raw, "## 1. Hypotheses") {
		t.Errorf("the raw answer keeps what the model wrote:\n%s", raw)
	}
	if g := r0.File("agente-2"); g.Status != bugfolder.StatusInvalidOutput || !strings.Contains(strings.Join(g.Invalid, ";"), "justification") {
		t.Errorf("a confidence without its sentence: %s %v", g.Status, g.Invalid)
	}
	if g := r0.File("agente-3"); g.Status != bugfolder.StatusInvalidOutput || !strings.Contains(strings.Join(g.Invalid, ";"), "## Observações extras: not a section of the protocol") {
		t.Errorf("an unrecognised heading: %s %v", g.Status, g.Invalid)
	}
}

// Rule 6: human decisions stay decidable and clean.
func TestHumanDecisionsStayDecidable(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "juiz=judgebad"
	r := p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
	if !strings.Contains(r.stderr, "moot resume BUG-20260715-A7K3 --winner A") || !strings.Contains(r.stderr, "--on-judge-failure retry") {
		t.Errorf("the advice says exactly what to run:\n%s", r.stderr)
	}
	log := filepath.Join(p.debate(), "eventos.jsonl")
	before := fileBytes(t, log)
	if r := p.moot("resume", "7", "--winner", "Z", "--headless").mustExit(t, 2); !strings.Contains(r.stderr, "names no proposal") {
		t.Errorf("a bad label: %s", r.stderr)
	}
	if fileBytes(t, log) != before {
		t.Error("a refused --winner appended to the log")
	}
	// a cancelled judge failure is still open: resume asks again (exit 4
	// headless), and --winner answers it without --yes
	p.moot("resume", "7", "--yes", "--headless").mustExit(t, 4)
	p.moot("resume", "7", "--winner", "b", "--headless").mustExit(t, 0)
	d := p.readDebate()
	if d.Final.DecidedBy != "human" || d.Final.Winner != "B" {
		t.Fatalf("decided by %q, winner %q", d.Final.DecidedBy, d.Final.Winner)
	}
	synth := d.Final.Body[strings.Index(d.Final.Body, "## Síntese"):]
	if strings.Contains(synth, "## Crítica às demais propostas") || !strings.Contains(synth, "## Hipóteses") || !strings.Contains(synth, "## Confiança") {
		t.Errorf("the human winner's synthesis is its mode sections without its critique:\n%s", synth)
	}
	if p.starts("juiz", 1) != 1 {
		t.Error("a human choice made a model call")
	}
}

// Rule 7: counts and records tell the truth.
func TestCountsTellTheTruth(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1@0#1=notfound,juiz#1=notfound,juiz#2=judgebad"
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
	// 2 solvers + 1 retried start + 3 judge attempts (one retried start,
	// one invalid answer, one valid)
	const made = 6
	fin := p.eventsOf("debate_finished")
	if len(fin) != 1 || fin[0]["calls"] != float64(made) {
		t.Errorf("debate_finished counts the calls made: %v", fin)
	}
	var list []map[string]any
	json.Unmarshal([]byte(p.moot("list", "--json").stdout), &list)
	for _, e := range list {
		if e["bug_id"] == "BUG-20260715-A7K3" && e["calls"] != float64(made) {
			t.Errorf("list --json calls %v, want %d", e["calls"], made)
		}
	}
	if out := p.moot("show", "7").stdout; !strings.Contains(out, "6 model calls") {
		t.Errorf("show counts the calls made:\n%s", out)
	}
	judge := filepath.Join(p.debate(), "juiz")
	if _, err := os.Stat(filepath.Join(judge, "tentativa-2.md")); err != nil {
		t.Errorf("the failed judge attempt is numbered like its raw output (attempt 2): %v", err)
	}
	if _, err := os.Stat(filepath.Join(judge, "raw", "juiz.attempt-2.stdout")); err != nil {
		t.Error(err)
	}
	if setup := p.eventsOf("setup"); len(setup) != 1 || setup[0]["path"] != "debate" {
		t.Errorf("events store paths relative to the bug: %v", setup)
	}

	// convergencia.md exists after a round 0 that lost its quorum, and a
	// changed P is caught without the event log
	q := newProject(t)
	q.Plan = "agente-1@0=invalid,agente-2@0=invalid"
	q.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
	if conv := fileBytes(t, filepath.Join(q.debate(), "convergencia.md")); !strings.Contains(conv, "| 0 |") {
		t.Errorf("convergencia.md after round 0 lost its quorum:\n%s", conv)
	}
	os.Remove(filepath.Join(q.debate(), "eventos.jsonl"))
	pm := filepath.Join(q.debate(), "problema.md")
	os.Chmod(pm, 0o600)
	os.WriteFile(pm, []byte(strings.Replace(fileBytes(t, pm), "## P\n\n", "## P\n\nIgnore the bug.\n", 1)), 0o400)
	if r := q.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 2); !strings.Contains(r.stderr, "p_sha256") {
		t.Errorf("a changed P without the event log: %s", r.stderr)
	}
}

// Rule 8: an engine with project access could read debate/ (the other
// participants' files, round 0's blind): it is refused, nothing written.
func TestProjectAccessRefused(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	cfg := fileBytes(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	p.writeConfig(strings.Replace(cfg, "defaults:", "  cx:\n    kind: codex\n    project_access: read-only\ndefaults:", 1))
	for _, args := range [][]string{
		{"plan", "7", "--mode", "diagnosis", "--solver", "cx"},
		{"run", "7", "--mode", "diagnosis", "--judge", "cx", "--yes", "--headless"},
	} {
		if r := p.moot(args...).mustExit(t, 2); !strings.Contains(r.stderr, "project_access: read-only, so it could read the debate folder") {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
	if _, err := os.Stat(p.debate()); err == nil {
		t.Error("a refused debate wrote its folder")
	}
}

// Rule 9: a restricted bug's answers are not streamed by --json (output
// events carry their size), and each call's scratch folder with its copy
// of P is owner-only and removed, nothing left in the temp folder.
func TestRestrictedStaysInside(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	tmp := t.TempDir()
	cwdLog := filepath.Join(t.TempDir(), "cwd.log")
	p.env = append(p.env, "TMPDIR="+tmp, "FAKE_CWDLOG="+cwdLog)
	r := p.moot("run", "8", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--json").mustExit(t, 0)
	outputs := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if ev["type"] == "output" {
			outputs++
			if _, ok := ev["text"]; ok || ev["bytes"] == nil {
				t.Errorf("a restricted answer was streamed: %v", ev)
			}
		}
	}
	if outputs == 0 || strings.Contains(r.stdout, "## Hipóteses") || strings.Contains(r.stdout, "marca:") {
		t.Errorf("%d output events; stdout carries answer text:\n%s", outputs, r.stdout)
	}
	lines := strings.Split(strings.TrimSpace(fileBytes(t, cwdLog)), "\n")
	if len(lines) != 3 {
		t.Fatalf("calls seen: %q", lines)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 || f[1] != "700" || f[2] != "true" || !strings.HasPrefix(f[0], tmp) {
			t.Errorf("a call's scratch folder must be owner-only and hold P: %q", l)
			continue
		}
		if _, err := os.Stat(f[0]); err == nil {
			t.Errorf("scratch folder %s was left behind", f[0])
		}
	}
	// nor any other: the call folders made ahead of the calls included
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("the temp folder holds %d entries after the run, the first %s", len(ents), ents[0].Name())
	}
}
