package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// argueArgs asks the sample question with argue (the default), headless.
func argueArgs(extra ...string) []string {
	return append([]string{"ask", "Should we cache coupon lookups?", "--yes", "--headless", "--lang", "en"}, extra...)
}

// argueDir is the one argue question folder of the project.
func (p *project) argueDir() string {
	p.t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-should-we-cache-coupon-lookups"))
	if len(dirs) != 1 {
		p.t.Fatalf("question folders: %v", dirs)
	}
	return dirs[0]
}

// summaryOf reads scoring/summary.json.
func summaryOf(t *testing.T, dir string) (s struct {
	Rounds   int    `json:"rounds"`
	Stopped  string `json:"stop_rule"`
	Reason   string `json:"stop_reason"`
	Unscored []int  `json:"unscored_rounds"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "scoring", "summary.json"))), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Each mode runs end to end: its personas and their parts are frozen in
// problema.md, every persona's prompt carries its part, and the debate
// writes its files and synthesis.
func TestArgueModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		args  []string
		parts []string
	}{
		{"adversarial (default for two, personas chosen)", nil, []string{"name: pragmatist", "name: skeptic", "adversarial, side 1 of 2", "adversarial, side 2 of 2"}},
		{"panel", []string{"--persona", "formalist", "--persona", "economist", "--persona", "user-advocate"}, []string{"panel, one of 3 angles", "name: user-advocate"}},
		{"socratic", []string{"--style", "socratic", "--questioner", "skeptic", "--defender", "pragmatist"}, []string{"socratic questioner", "socratic defender"}},
		{"devils-advocate", []string{"--advocate", "empiricist", "--persona", "empiricist", "--persona", "economist"}, []string{"devil's advocate — argue AGAINST", "the position's holder"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = []string{"FAKE_PROMPTS=" + filepath.Join(p.dir, "prompts")}
			r := p.moot(argueArgs(append([]string{"-r", "1"}, tc.args...)...)...).mustExit(t, 0)
			dir := p.argueDir()
			prob := readFile(t, filepath.Join(dir, "problema.md"))
			for _, want := range append([]string{"protocol: argue", "question: Should we cache coupon lookups?"}, tc.parts...) {
				if !strings.Contains(prob, want) {
					t.Errorf("problema.md lacks %q:\n%s", want, prob)
				}
			}
			if prompt := p.prompt(1, "agente-1", 1); !strings.Contains(prompt, "Part: ") || strings.Contains(prompt, "Part: "+tc.parts[len(tc.parts)-1]) && strings.Contains(prompt, "Part: "+tc.parts[len(tc.parts)-2]) {
				t.Errorf("agente-1's prompt does not carry its own part only:\n%s", prompt)
			}
			for _, f := range []string{"resposta-final.md", "transcript.md", "scoring/round_000.json", "scoring/round_001.json", "scoring/summary.json"} {
				if !exists(filepath.Join(dir, f)) {
					t.Errorf("%s not written", f)
				}
			}
			if !strings.Contains(r.stdout+r.stderr, "done: ") {
				t.Errorf("output:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// Each stop rule ends the debate and is recorded in the log, the summary,
// the final answer's head and the headless output: the cap after R+1
// rounds, convergence and null production after round 2 (no round 3
// runs) — also when round 2 is the default cap's last round, where the
// rule, not the cap, is recorded — and a manual stop (resume --stop)
// after the last complete round.
func TestArgueStopRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fake, rule string
		rounds           int
		args             []string
	}{
		{"round cap", "", "round-cap", 3, []string{"-r", "2"}},
		{"convergence", "converge", "convergence", 3, []string{"-r", "5"}},
		{"null production", "stale", "null-production", 3, []string{"-r", "5"}},
		{"convergence on the default cap's last round", "converge", "convergence", 3, nil},
		{"null production on the cap's last round", "stale", "null-production", 3, []string{"-r", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = []string{"FAKE_ARGUE=" + tc.fake}
			r := p.moot(argueArgs(tc.args...)...).mustExit(t, 0)
			dir := p.argueDir()
			s := summaryOf(t, dir)
			if s.Stopped != tc.rule || s.Rounds != tc.rounds {
				t.Errorf("summary: %+v, want %s after %d rounds", s, tc.rule, tc.rounds)
			}
			if exists(filepath.Join(dir, "rodada-3")) {
				t.Error("a round ran after the stop")
			}
			final := readFile(t, filepath.Join(dir, "resposta-final.md"))
			if !strings.Contains(final, "Termination: "+tc.rule) {
				t.Errorf("final head lacks the termination:\n%s", final)
			}
			if !strings.Contains(r.stderr, "stopped after round 2 (moot): "+tc.rule) {
				t.Errorf("headless output lacks the stop:\n%s", r.stderr)
			}
			if log := readFile(t, filepath.Join(dir, "eventos.jsonl")); !strings.Contains(log, `"point":"stop"`) || !strings.Contains(log, `"choice":"`+tc.rule+`"`) {
				t.Errorf("the stop is not logged as %s:\n%s", tc.rule, log)
			}
		})
	}
	// a stop rule recorded before the synthesizer failed stays the reason
	// when the engineer then stops by hand: resume --stop never overwrites it
	t.Run("resume --stop keeps a recorded rule", func(t *testing.T) {
		p := newProject(t)
		p.env = []string{"FAKE_ARGUE=converge"}
		p.Plan = "synthesizer=invalid"
		p.moot(argueArgs("--on-judge-failure", "cancel")...).mustExit(t, 3)
		dir := p.argueDir()
		p.Plan = ""
		p.moot("resume", filepath.Base(dir), "--stop", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
		if s := summaryOf(t, dir); s.Stopped != "convergence" || s.Rounds != 3 {
			t.Errorf("summary: %+v, want convergence after 3 rounds", s)
		}
		if final := readFile(t, filepath.Join(dir, "resposta-final.md")); !strings.Contains(final, "Termination: convergence") {
			t.Errorf("final head:\n%s", final)
		}
	})
	t.Run("manual", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "agente-1@1=fail"
		p.moot(argueArgs("--on-quorum-loss", "cancel")...).mustExit(t, 3)
		dir := p.argueDir()
		p.Plan = ""
		p.moot("resume", filepath.Base(dir), "--stop", "--yes", "--headless").mustExit(t, 0)
		s := summaryOf(t, dir)
		if s.Stopped != "manual" || s.Rounds != 1 || !strings.Contains(s.Reason, "stopped by human after round 0") {
			t.Errorf("summary: %+v", s)
		}
		if p.starts("agente-1", 1) != 1 {
			t.Error("the manual stop ran round 1 again")
		}
	})
	// round 0 incomplete: --stop is refused before anything is written and
	// before the cost question (no resumed event: the debate stays
	// cancelled); the cancelled debate's summary says cancelled, not running
	t.Run("stop refused before round 0 is complete", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "agente-1@0=fail"
		p.moot(argueArgs("--on-quorum-loss", "cancel")...).mustExit(t, 3)
		dir := p.argueDir()
		if s := summaryOf(t, dir); s.Reason != "cancelled" {
			t.Errorf("summary of a cancelled debate: %+v, want stop_reason cancelled", s)
		}
		if tr := readFile(t, filepath.Join(dir, "transcript.md")); !strings.Contains(tr, "## Termination\n\ncancelled") {
			t.Errorf("transcript.md of a cancelled debate:\n%s", tr)
		}
		p.Plan = ""
		before := testutil.Fingerprint(t, dir)
		for _, args := range [][]string{{"--stop", "--headless"}, {"--stop", "--yes", "--headless"}} {
			r := p.moot(append([]string{"resume", filepath.Base(dir)}, args...)...).mustExit(t, 2)
			if !strings.Contains(r.stderr, "--stop: round 0 is not complete") || strings.Contains(r.stdout, "Run again with --yes") {
				t.Errorf("resume %v:\n%s%s", args, r.stdout, r.stderr)
			}
		}
		if testutil.Fingerprint(t, dir) != before {
			t.Error("a refused --stop wrote something")
		}
		if got := p.moot("list").mustExit(t, 0).stdout; !strings.Contains(got, "cancelled") {
			t.Errorf("the debate is no longer cancelled:\n%s", got)
		}
	})
	t.Run("stop refused on a debate", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "judge=invalid"
		p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
		r := p.moot("resume", "7", "--stop", "--yes", "--headless").mustExit(t, 2)
		if !strings.Contains(r.stderr, "never stops early") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
	})
}

// A failed persona is never simulated: the quorum menu asks (continue
// goes on without it), the synthesis is degraded and names it absent, and
// the run says so where it is watched.
func TestArgueFailedPersona(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-2@1=invalid"
	p.env = []string{"FAKE_PROMPTS=" + filepath.Join(p.dir, "prompts")}
	r := p.moot(argueArgs("--on-quorum-loss", "continue")...).mustExit(t, 0)
	dir := p.argueDir()
	final := readFile(t, filepath.Join(dir, "resposta-final.md"))
	if !strings.Contains(final, "degraded: true") {
		t.Errorf("final answer not degraded:\n%s", final)
	}
	if out := r.stdout + r.stderr; !strings.Contains(out, "the final answer is degraded: 1 of 2 personas took part (out: agente-2)") {
		t.Errorf("the run does not say its final answer is degraded:\n%s", out)
	}
	if prompt := p.prompt(2, "juiz", 1); !strings.Contains(prompt, "ABSENT (invalid-output)") {
		t.Errorf("the synthesizer's prompt does not name the absent persona:\n%s", prompt)
	}
	if p.starts("agente-2", 2) != 0 {
		t.Error("a dropped persona ran again")
	}
}

// A scorer that answers prose is a scorer failure through the quorum
// menu: retry scores the round; continue leaves it unscored, recorded.
func TestArgueFailedScorer(t *testing.T) {
	t.Parallel()
	t.Run("retry", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "scorer@1#1=invalid"
		r := p.moot(argueArgs("--on-quorum-loss", "retry")...).mustExit(t, 0)
		// a scorer's failure in its own words: the personas' quorum holds
		if !strings.Contains(r.stderr, "the scorer failed in round 1 (scorer-1); the quorum of personas holds (2 valid, 2 needed)") || strings.Contains(r.stderr, "quorum lost") {
			t.Errorf("the scorer's failure did not reach the menu in its words:\n%s", r.stderr)
		}
		if log := readFile(t, filepath.Join(p.argueDir(), "eventos.jsonl")); !strings.Contains(log, `"role":"scorer"`) {
			t.Errorf("the log does not say the scorer failed:\n%s", log)
		}
		if s := summaryOf(t, p.argueDir()); len(s.Unscored) != 0 {
			t.Errorf("unscored rounds after a retry: %v", s.Unscored)
		}
		// the failed attempt was made and paid for: every finished call the
		// log records, the scorer's failed attempt included, counts in the
		// headless total, show and the final answer's front matter
		id := filepath.Base(p.argueDir())
		p.question = "should-we-cache-coupon-lookups"
		total, failed := 0, 0
		for _, ev := range p.events() {
			if ev["type"] == "call_finished" {
				n := int(ev["tokens_in"].(float64) + ev["tokens_out"].(float64))
				total += n
				if ev["solver_id"] == "critic-1" && ev["status"] == "invalid-output" {
					failed = n
				}
			}
		}
		if failed == 0 {
			t.Fatal("the log records no failed scorer attempt")
		}
		if want := fmt.Sprintf("total_tokens: %d\n", total); !strings.Contains(readFile(t, filepath.Join(p.argueDir(), "resposta-final.md")), want) {
			t.Errorf("the final answer's total is not every attempt's %d tokens (the failed scorer's %d)", total, failed)
		}
		if out := p.moot("show", id).mustExit(t, 0).stdout; !strings.Contains(out, "| spent | "+humanInt(total)+" tokens") {
			t.Errorf("show lacks the scorer's failed attempt (%d tokens in all):\n%s", total, out)
		}
		if !strings.Contains(r.stderr, "done: 11 calls, "+humanInt(total)+" tokens") {
			t.Errorf("the headless total lacks the scorer's failed attempt (%d tokens in all):\n%s", total, r.stderr)
		}
	})
	// no persona answered: the scorer is not called over nothing; the
	// quorum menu asks first, and the scorer scores the round once the
	// retried personas answered
	t.Run("no persona answered", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "agente-1@1#1=invalid,agente-2@1#1=invalid"
		r := p.moot(argueArgs("--on-quorum-loss", "retry", "-r", "1")...).mustExit(t, 0)
		if !strings.Contains(r.stderr, "quorum lost in round 1: 0 valid") || strings.Contains(r.stderr, "failed: agente-1, agente-2, scorer-1") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		if n := p.starts("critic-1", 1); n != 1 {
			t.Errorf("the scorer ran %d times in round 1, want once (after the retry)", n)
		}
		rs := readFile(t, filepath.Join(p.argueDir(), "scoring", "round_001.json"))
		if !strings.Contains(rs, `"scored": true`) || !strings.Contains(rs, `"agente-1": 54.5`) || !strings.Contains(rs, `"agente-2": 54.5`) {
			t.Errorf("round 1 is not scored over both personas:\n%s", rs)
		}
	})
	t.Run("cancel, then continue without the score", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "scorer@1=invalid"
		r := p.moot(argueArgs("--on-quorum-loss", "ask")...).mustExit(t, 4)
		if !strings.Contains(r.stderr, "the scorer failed in round 1 (the quorum of personas holds) and no human to ask") || strings.Contains(r.stderr, "quorum lost") {
			t.Errorf("a scorer's failure with no human to ask is told as a quorum loss:\n%s", r.stderr)
		}
		dir := p.argueDir()
		p.moot("resume", filepath.Base(dir), "--yes", "--headless", "--on-quorum-loss", "cancel").mustExit(t, 3)
		r = p.moot("resume", filepath.Base(dir), "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 0)
		if strings.Contains(r.stderr, "out of the debate: scorer-1") {
			t.Errorf("continue says the scorer is out of the debate, yet it scores the next round:\n%s", r.stderr)
		}
		if !strings.Contains(readFile(t, filepath.Join(dir, "scoring", "round_002.json")), `"scored": true`) {
			t.Error("the scorer did not score the round after the continue")
		}
		s := summaryOf(t, dir)
		if len(s.Unscored) != 1 || s.Unscored[0] != 1 {
			t.Errorf("unscored rounds: %v", s.Unscored)
		}
		if !strings.Contains(readFile(t, filepath.Join(dir, "scoring", "round_001.json")), `"scored": false`) {
			t.Error("round_001.json does not say it was not scored")
		}
	})
}

// A SIGKILL mid-debate loses nothing: resume runs what has no file, never
// a finished call, and ends with the synthesis and every file.
func TestArgueResumeAfterKill(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=300"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, argueArgs()...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var dir string
	waitFor(t, "round 0 scored", 30*time.Second, func() bool {
		// the file is rewritten as each call lands: scored once the scorer's has
		ms, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*", "scoring", "round_000.json"))
		if len(ms) != 1 {
			return false
		}
		var rs struct{ Scored bool }
		if b, err := os.ReadFile(ms[0]); err != nil || json.Unmarshal(b, &rs) != nil || !rs.Scored {
			return false
		}
		dir = filepath.Dir(filepath.Dir(ms[0]))
		return true
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	if exists(filepath.Join(dir, "resposta-final.md")) {
		t.Skip("the run finished before the kill")
	}
	p.env = nil
	p.moot("resume", filepath.Base(dir), "--yes", "--headless").mustExit(t, 0)
	for _, id := range []string{"agente-1", "agente-2", "critic-1"} {
		if n := p.starts(id, 0); n != 1 {
			t.Errorf("%s ran %d times in round 0", id, n)
		}
	}
	if s := summaryOf(t, dir); s.Stopped != "round-cap" || s.Rounds != 3 {
		t.Errorf("summary after resume: %+v", s)
	}
}

// moot transcript prints the whole argue debate; transcript.md holds every
// round's arguments with their scores, the termination and the synthesis.
func TestArgueTranscript(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot(argueArgs("--persona", "formalist", "--persona", "skeptic", "-r", "1")...).mustExit(t, 0)
	dir := p.argueDir()
	// moot transcript prints argue's own transcript.md (the rounds with
	// their scores, the termination, the synthesis), not a bug debate's
	// round files; the summary names the style and the termination
	out := p.moot("transcript", filepath.Base(dir)).mustExit(t, 0).stdout
	for _, want := range []string{"Should we cache coupon lookups?", "# Debate transcript (argue)", "### formalist — score 54.5/80", "## Termination\n\nround-cap",
		"#### Nuanced conclusion", "#### Concessions", "argue · style adversarial", "| termination | round-cap: all 2 rounds ran (0 to 1) (rounds 0 to 1 ran; cap 1 after round 0) |"} {
		if !strings.Contains(out, want) {
			t.Errorf("moot transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"new_arguments"`) || strings.Contains(out, "names no winner moot can read") {
		t.Errorf("moot transcript prints argue as a bug debate:\n%s", out)
	}
	tr := readFile(t, filepath.Join(dir, "transcript.md"))
	for _, want := range []string{"## Round 0", "## Round 1", "### formalist — score 54.5/80", "## Termination\n\nround-cap", "## Synthesis", "#### Nuanced conclusion"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript.md lacks %q:\n%s", want, tr)
		}
	}
	for _, f := range []string{"personas/formalist/concessions.json", "personas/skeptic/confidence.json"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v (owner-only expected)", f, err, fi)
		}
	}
	if got := p.list()[filepath.Base(dir)]; got.Protocol == nil || *got.Protocol != "argue" {
		t.Errorf("list --json: %+v", got)
	}
	show := p.moot("show", filepath.Base(dir)).mustExit(t, 0).stdout
	for _, want := range []string{"Should we cache coupon lookups?", "argue · style adversarial · N=2", "| termination | round-cap", "| transcript | `.moot/debates/",
		"none: argue writes a nuanced synthesis, not a winner · 2 of 2 personas took part"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
}

// TestArgueSynthesizerFailureAdvice: after the synthesizer failed, what
// moot prints (headless, show) offers its retry and never moot decide,
// which refuses an argue debate; the retry it names works.
func TestArgueSynthesizerFailureAdvice(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "synthesizer=invalid"
	r := p.moot(argueArgs("-r", "0", "--on-judge-failure", "cancel")...).mustExit(t, 3)
	id := filepath.Base(p.argueDir())
	show := p.moot("show", id).mustExit(t, 0).stdout
	for name, out := range map[string]string{"ask": r.stderr, "show": show} {
		if strings.Contains(out, "moot decide") || !strings.Contains(out, "moot resume "+id+" --yes --on-judge-failure retry") {
			t.Errorf("%s's advice:\n%s", name, out)
		}
	}
	if r := p.moot("resume", id, "--winner", "A").mustExit(t, 2); strings.Contains(r.stderr, "moot decide") {
		t.Errorf("--winner's refusal:\n%s", r.stderr)
	}
	p.Plan = ""
	p.moot("resume", id, "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
	if !exists(filepath.Join(p.argueDir(), "resposta-final.md")) {
		t.Error("the advised retry wrote no synthesis")
	}
}

// moot demo --protocol argue plays the recorded argue offline: the scorer
// rates each round, the debate stops on convergence after round 2, and
// the synthesis and argue's files are written in a folder it names.
func TestDemoArgue(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"MOOT_REPLAY_SPEED=50", "TMPDIR=" + t.TempDir()}
	r := p.moot("demo", "--protocol", "argue").mustExit(t, 0)
	if !strings.Contains(r.stderr, "stopped after round 2 (moot): convergence") {
		t.Errorf("demo output lacks the convergence stop:\n%s", r.stderr)
	}
	_, after, ok := strings.Cut(r.stdout, "written: ")
	dir, _, _ := strings.Cut(after, " (")
	if !ok || !exists(filepath.Join(dir, "resposta-final.md")) || !exists(filepath.Join(dir, "scoring", "summary.json")) {
		t.Fatalf("demo stdout:\n%s", r.stdout)
	}
	if final := readFile(t, filepath.Join(dir, "resposta-final.md")); !strings.Contains(final, "## Nuanced conclusion") || !strings.Contains(final, "Termination: convergence") {
		t.Errorf("final answer:\n%s", final)
	}
	if s := summaryOf(t, dir); s.Rounds != 3 || len(s.Unscored) != 0 {
		t.Errorf("summary: %+v", s)
	}
}

// TestArgueLiveFiles: argue's own files move with each call, not once a
// round, so the live view shows confidences and scores as they arrive:
// when a persona's call_finished event is out, scoring/summary.json holds
// its confidence for that round; when the scorer's is out, the round's
// scores of every persona.
func TestArgueLiveFiles(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=30"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := p.cmd(ctx, argueArgs("--json", "-r", "1")...)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev struct {
			Type, Role, Status string
			Round              int
			SolverID           string `json:"solver_id"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type != "call_finished" || ev.Status != "ok" {
			continue
		}
		var sum struct {
			ByPersona map[string]struct {
				Confidence []struct{ Round int } `json:"confidence_by_round"`
				Weighted   []struct{ Round int } `json:"weighted_by_round"`
			} `json:"by_persona"`
		}
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join(p.argueDir(), "scoring", "summary.json"))), &sum); err != nil {
			t.Fatal(err)
		}
		switch ev.Role {
		case "persona":
			if c := sum.ByPersona[ev.SolverID].Confidence; len(c) != ev.Round+1 || c[len(c)-1].Round != ev.Round {
				t.Errorf("round %d, %s answered: summary.json holds its confidences %+v, want rounds 0 to %d", ev.Round, ev.SolverID, c, ev.Round)
			}
		case "scorer":
			for id, ps := range sum.ByPersona {
				if len(ps.Weighted) != ev.Round+1 {
					t.Errorf("round %d scored: summary.json holds %d scores of %s, want %d", ev.Round, len(ps.Weighted), id, ev.Round+1)
				}
			}
		}
		checked[ev.Role]++
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("moot ask: %v", err)
	}
	if checked["persona"] != 4 || checked["scorer"] != 2 {
		t.Errorf("checked %v, want 4 persona calls and 2 scorer calls (two personas, rounds 0 and 1)", checked)
	}
}

// TestArgueInterrupt: headless, the first Ctrl-C asks an argue debate to
// stop after the round in flight and synthesize it (said on stderr, exit
// 0, the stop logged as manual); a second Ctrl-C cancels instead (exit 3,
// resumable, no synthesis).
func TestArgueInterrupt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		signals int
		code    int
		final   bool
	}{{"once: stop and synthesize", 1, 0, true}, {"twice: cancel", 2, 3, false}} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = []string{"FAKE_DELAY_MS=200"}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c := p.cmd(ctx, argueArgs("--json", "-r", "2")...)
			var stderr strings.Builder
			c.Stderr = &stderr
			out, err := c.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			sent := 0
			var reason string
			for sc.Scan() {
				var ev struct{ Type, Role, Reason string }
				if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "debate_finished" {
					reason = ev.Reason
				}
				if json.Unmarshal(sc.Bytes(), &ev) != nil || sent == tc.signals {
					continue
				}
				// the first while round 0's personas are in flight, a second
				// (two signals at once may arrive as one) once one answered
				if sent == 0 && ev.Type == "call_started" && ev.Role == "persona" || sent == 1 && ev.Type == "call_finished" {
					if err := c.Process.Signal(os.Interrupt); err != nil {
						t.Fatal(err)
					}
					sent++
				}
			}
			err = c.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, stderr.String())
			}
			dir := p.argueDir()
			if got := exists(filepath.Join(dir, "resposta-final.md")); got != tc.final {
				t.Errorf("synthesis written: %v, want %v", got, tc.final)
			}
			if exists(filepath.Join(dir, "rodada-1")) || exists(filepath.Join(dir, "round-1")) {
				t.Error("a round ran after the interrupt")
			}
			if tc.final {
				if !strings.Contains(stderr.String(), "stops after the round in flight") {
					t.Errorf("stderr does not say what the interrupt does:\n%s", stderr.String())
				}
				if s := summaryOf(t, dir); s.Stopped != "manual" {
					t.Errorf("stop rule %q, want manual (%s)", s.Stopped, s.Reason)
				}
			} else if !strings.Contains(reason, "moot resume") || strings.Contains(reason, "--stop") {
				// round 0 is not complete: resume --stop would refuse
				t.Errorf("the cancel reason offers a stop with nothing to synthesize, or no resume: %q", reason)
			}
		})
	}
}

// TestArgueInterruptThenQuorumLoss: a Ctrl-C asked while round 1 runs is
// not lost when that round then loses its quorum (a persona fails): the
// debate stops after round 0, the last complete round, and synthesizes it
// (exit 0, a manual stop recorded), without asking the quorum menu.
func TestArgueInterruptThenQuorumLoss(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=200"}
	p.Plan = "agente-1@1=fail"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := p.cmd(ctx, argueArgs("--json", "-r", "2")...)
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sent := false
	for sc.Scan() {
		var ev struct {
			Type, Role string
			Round      int
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || sent {
			continue
		}
		if ev.Type == "call_started" && ev.Role == "persona" && ev.Round == 1 {
			if err := c.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	err = c.Wait()
	if err != nil {
		t.Fatalf("moot ask: %v\n%s", err, stderr.String())
	}
	dir := p.argueDir()
	if !exists(filepath.Join(dir, "resposta-final.md")) {
		t.Fatal("no synthesis after the stop")
	}
	s := summaryOf(t, dir)
	if s.Stopped != "manual" || s.Rounds != 1 || !strings.Contains(s.Reason, "after round 0") {
		t.Errorf("summary: %+v, want a manual stop after round 0", s)
	}
	if exists(filepath.Join(dir, "rodada-2")) {
		t.Error("a round ran after the stop")
	}
	// round 1 was written live, then discarded: no score file of it stays
	// beside a summary that counts one round
	if exists(filepath.Join(dir, "scoring", "round_001.json")) {
		t.Errorf("scoring/round_001.json of the discarded round is left beside a summary of %d round(s)", s.Rounds)
	}
	if !exists(filepath.Join(dir, "scoring", "round_000.json")) {
		t.Error("scoring/round_000.json is gone")
	}
}

// TestArgueResumeCost: the cost prompt of a resume counts what argue will
// really call: after a stop is recorded only the synthesizer (never the
// rounds the stop cut off), with --stop only the synthesizer, and without
// a stop the rest of the rounds up to the cap — the scorer included, round
// 0's too — said to be a maximum.
func TestArgueResumeCost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fake, plan, policy string
		args, resume             []string
		want                     string
	}{
		{"stopped by convergence, the synthesizer failed", "converge", "synthesizer=invalid", "--on-judge-failure",
			[]string{"--persona", "formalist", "--persona", "skeptic", "--persona", "economist", "-r", "5"}, nil, "needs 1 more call (the synthesizer)"},
		{"a persona failed, resume --stop", "", "agente-1@1=fail", "--on-quorum-loss", nil, []string{"--stop"}, "needs 1 more call (the synthesizer)"},
		{"a persona failed, resume", "", "agente-1@1=fail", "--on-quorum-loss", nil, nil, "needs at most 5 more call(s)"},
		{"round 0 unscored, resume", "", "scorer@0=fail", "--on-quorum-loss", []string{"-r", "1"}, nil, "needs at most 5 more call(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = []string{"FAKE_ARGUE=" + tc.fake}
			p.Plan = tc.plan
			p.moot(argueArgs(append(tc.args, tc.policy, "cancel")...)...).mustExit(t, 3)
			p.Plan = ""
			r := p.moot(append([]string{"resume", filepath.Base(p.argueDir()), "--headless"}, tc.resume...)...).mustExit(t, 4)
			if !strings.Contains(r.stdout, tc.want) {
				t.Errorf("resume's cost prompt, want %q:\n%s", tc.want, r.stdout)
			}
		})
	}
}

// TestArguePersonaChooser: with no --persona, the project's own personas
// are candidates beside the library's, matched by whole words, and ask
// says which two it chose and why; a persona file with a field it does not
// know is refused (exit 2) naming the file and the field, nothing written.
func TestArguePersonaChooser(t *testing.T) {
	t.Parallel()
	write := func(p *project, body string) {
		dir := filepath.Join(p.dir, ".moot", "personas")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "promo-lead.md"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	good := "---\ndomain: coupon promotions\nprecision: 0.5\nresilience: 0.7\nfragility: 0.4\n---\nYou argue from how promotions are run.\n"
	t.Run("a project persona is chosen", func(t *testing.T) {
		p := newProject(t)
		write(p, good)
		r := p.moot(argueArgs("-r", "0")...).mustExit(t, 0)
		if !strings.Contains(r.stderr, `personas chosen for the question: promo-lead [.moot/personas/promo-lead.md] (the question says "coupon") against pragmatist (it says "should")`) {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		if prob := readFile(t, filepath.Join(p.argueDir(), "problema.md")); !strings.Contains(prob, "name: promo-lead") {
			t.Errorf("problema.md does not freeze the chosen project persona:\n%s", prob)
		}
	})
	t.Run("an unknown field is refused where the persona is used", func(t *testing.T) {
		p := newProject(t)
		write(p, strings.Replace(good, "domain:", "colour: blue\ndomain:", 1))
		r := p.moot(argueArgs("-r", "0", "--persona", "promo-lead", "--persona", "skeptic")...).mustExit(t, 2)
		if !strings.Contains(r.stderr, "promo-lead.md") || !strings.Contains(r.stderr, "colour") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		if dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*")); len(dirs) != 0 {
			t.Errorf("written: %v", dirs)
		}
		// a question that does not name it is not blocked: the file is
		// named in a warning and left out of the automatic choice
		r = p.moot(argueArgs("-r", "0")...).mustExit(t, 0)
		if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "promo-lead.md") || strings.Contains(r.stderr, "chosen for the question: promo-lead") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
	})
}

// humanInt writes n with thousands commas, as moot prints tokens.
func humanInt(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The scorer judges novelty against what was raised: from round 1 on its
// prompt carries every earlier round's arguments, anonymized and labelled
// by round, never a persona's id; round 0's has none.
func TestArgueScorerReadsEarlierRounds(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot(argueArgs("-r", "2")...).mustExit(t, 0)
	p.question = "should-we-cache-coupon-lookups"
	r2 := p.prompt(2, "critic-1", 1)
	for _, want := range []string{"Arguments of the earlier rounds (0 to 1)", "## Round 0", "## Round 1", "<<<BEGIN r0-A ", "<<<BEGIN r0-B ", "<<<BEGIN r1-A ", "<<<BEGIN r1-B "} {
		if !strings.Contains(r2, want) {
			t.Errorf("round 2's scorer prompt lacks %q:\n%s", want, r2)
		}
	}
	// (the fake's answers carry a "marca: agente-i rK" line of their own:
	// the answers' text, not moot's labels)
	if strings.Contains(r2, "BEGIN agente-") || strings.Contains(r2, "pragmatist") || strings.Contains(r2, "skeptic") {
		t.Errorf("round 2's scorer prompt names a persona:\n%s", r2)
	}
	if r0 := p.prompt(0, "critic-1", 1); strings.Contains(r0, "earlier rounds") {
		t.Errorf("round 0's scorer prompt reads earlier rounds:\n%s", r0)
	}
}
