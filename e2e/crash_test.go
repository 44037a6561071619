package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// TestCrashTrials kills moot with SIGKILL at seeded random moments of a
// debate (once or twice, the second time during the resume), resumes it,
// and checks what moot promises: every file parses, problema.md never
// changes, no finished call is run again, resposta-final.md is written, and
// the event log agrees with the files. The trials take turns at a debate
// (docs/protocols/debate.md), a tradeoff (docs/protocols/tradeoff.md) and a council (docs/protocols/council.md): every
// protocol keeps the promises.
//
// MOOT_CRASH_TRIALS sets the count (default 20; 5 with -short) and
// MOOT_CRASH_SEED the seed (default: the clock, printed for a rerun).
// scripts/crash-trials runs a longer series and prints the tally.
func TestCrashTrials(t *testing.T) {
	t.Parallel()
	n := 20
	if testing.Short() {
		n = 5
	}
	if s := os.Getenv("MOOT_CRASH_TRIALS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("MOOT_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6d6f6f74))
	passed := 0
	for i := range n {
		trial := rng.Int64()
		proto := crashProtocols[i%len(crashProtocols)]
		if t.Run(fmt.Sprintf("trial-%03d-%s", i, proto), func(t *testing.T) { crashTrial(t, trial, proto) }) {
			passed++
		}
	}
	t.Logf("crash trials: %d of %d passed (seed %d; rerun with MOOT_CRASH_SEED=%d)", passed, n, seed, seed)
}

// crashResume resumes the trial's debate (a question by its ID), or starts
// it when no problema.md was written yet.
func crashResume(p *project, proto string, rounds int) []string {
	if !exists(filepath.Join(p.debate(), "problema.md")) {
		return crashRun(proto, rounds)
	}
	target := "7"
	if p.question != "" {
		target = filepath.Base(p.debate())
	}
	return []string{"resume", target, "--yes", "--headless"}
}

// snapshot is what the files said right after a kill.
type snapshot struct {
	finished map[string]int // "round/id" → starts counted by the fake then
	sha      string         // problema.md's sha256 ("" before setup)
	final    bool
}

// crashProtocols are the protocols the trials take turns at: each on a
// bug, a tradeoff on a question (moot ask) and argue (on a question).
var crashProtocols = []string{"debate", "tradeoff", "tradeoff-question", "council", "argue"}

// crashQuestion is argue's question in the trials, and its folder's slug.
const crashQuestion, crashSlug = "Argue crash trial?", "argue-crash-trial"

// crashRun is the command that starts a trial's debate of R rounds.
func crashRun(proto string, rounds int) []string {
	if proto == "tradeoff-question" {
		return askArgs("-r", strconv.Itoa(rounds))
	}
	args := []string{"run", "7", "--mode", "diagnosis", "-r", strconv.Itoa(rounds), "--yes", "--headless"}
	if proto == "argue" {
		return []string{"ask", crashQuestion, "-r", strconv.Itoa(rounds), "--yes", "--headless"}
	}
	if proto == "tradeoff" {
		args = append(args, "--protocol", "tradeoff", "--option-a", "the discount is applied in applyDiscount only", "--option-b", "checkout is idempotent per order id")
	}
	if proto == "council" {
		args = append(args, "--protocol", "council", "--lens", "security", "--lens", "performance", "--lens", "data-integrity")
	}
	return args
}

func crashTrial(t *testing.T, seed int64, proto string) {
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	p := newProject(t)
	switch proto {
	case "tradeoff-question":
		p.question = "should-we-cache-coupon-lookups"
	case "argue":
		p.question = crashSlug
	}
	rounds := 1 + rng.IntN(2)
	delay := 20 + rng.IntN(80)
	p.env = []string{"FAKE_DELAY_MS=" + strconv.Itoa(delay)}
	kills := 1 + rng.IntN(2)
	// a debate of R rounds takes about (R+3)·(delay + a process start),
	// setup and judge included (argue: a scorer batch after every round)
	span := time.Duration((rounds+3)*(delay+60)) * time.Millisecond
	if proto == "argue" {
		span = time.Duration((2*rounds+4)*(delay+60)) * time.Millisecond
	}
	t.Logf("seed %d: %s, R=%d, %d ms per call, %d kill(s) within %s", seed, proto, rounds, delay, kills, span)
	var snaps []snapshot
	for k := 0; k < kills; k++ {
		args := crashResume(p, proto, rounds)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c := p.cmd(ctx, args...)
		if err := c.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		at := time.Duration(rng.Int64N(int64(span)))
		timer := time.AfterFunc(at, func() { _ = c.Process.Kill() })
		_ = c.Wait()
		timer.Stop()
		cancel()
		s := p.snap()
		t.Logf("kill %d at %s: %d calls finished, final %v", k+1, at, len(s.finished), s.final)
		if len(snaps) > 0 && snaps[len(snaps)-1].sha != "" && s.sha != snaps[len(snaps)-1].sha {
			t.Fatalf("problema.md changed across a kill and resume")
		}
		snaps = append(snaps, s)
	}
	// finish it
	args := crashResume(p, proto, rounds)
	p.env = nil
	p.moot(args...).mustExit(t, 0)
	p.checkInvariants(t, snaps, rounds)
	if proto != "debate" { // a debate's judge sees the proposals under shuffled labels
		clean := newProject(t)
		clean.question = p.question
		clean.moot(crashRun(proto, rounds)...).mustExit(t, 0)
		sameFiles(t, clean.debate(), p.debate())
	}
}

// sameFiles checks that an interrupted and resumed debate wrote the same
// files as an uninterrupted one: the same participant and final files with
// the same bodies (front matter holds times and attempts, which differ),
// and the same convergencia.md.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	list := func(dir string) map[string]string {
		out := map[string]string{}
		paths, _ := filepath.Glob(filepath.Join(dir, "rodada-*", "*.md"))
		paths = append(paths, filepath.Join(dir, "resposta-final.md"), filepath.Join(dir, "convergencia.md"))
		for _, f := range paths {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Errorf("read %s: %v", f, err)
				continue
			}
			body := string(b)
			if strings.HasPrefix(body, "---\n") {
				if _, rest, ok := strings.Cut(body[4:], "\n---\n"); ok {
					body = rest
				}
			}
			rel, _ := filepath.Rel(dir, f)
			out[rel] = body
		}
		return out
	}
	w, g := list(want), list(got)
	for rel, body := range w {
		if gb, ok := g[rel]; !ok {
			t.Errorf("%s: written by an uninterrupted run, missing after kills and resume", rel)
		} else if gb != body {
			t.Errorf("%s differs from an uninterrupted run's:\n%s\n--- uninterrupted ---\n%s", rel, gb, body)
		}
	}
	for rel := range g {
		if _, ok := w[rel]; !ok {
			t.Errorf("%s: written after kills and resume, not by an uninterrupted run", rel)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// snap records which calls were finished (their files exist) and how many
// times the fake had been started for each.
func (p *project) snap() snapshot {
	s := snapshot{finished: map[string]int{}}
	files, _ := filepath.Glob(filepath.Join(p.debate(), "rodada-*", "agente-*.md"))
	for _, f := range files {
		k, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(f)), "rodada-"))
		id := strings.TrimSuffix(filepath.Base(f), ".md")
		s.finished[fmt.Sprintf("%d/%s", k, id)] = p.starts(id, k)
	}
	if b, err := os.ReadFile(filepath.Join(p.debate(), "problema.md")); err == nil {
		sum := sha256.Sum256(b)
		s.sha = hex.EncodeToString(sum[:])
	}
	s.final = exists(filepath.Join(p.debate(), "resposta-final.md"))
	return s
}

func (p *project) checkInvariants(t *testing.T, snaps []snapshot, rounds int) {
	t.Helper()
	// every file parses (ReadDebate reports any it cannot read; events()
	// fails on any line that is not JSON)
	d := p.readDebate()
	evs := p.events()
	if d.State != bugfolder.StateDone || d.Final == nil {
		t.Fatalf("state %s, final %v", d.State, d.Final != nil)
	}
	if len(d.Rounds) != rounds+1 {
		t.Errorf("%d rounds, want %d", len(d.Rounds), rounds+1)
	}
	// problema.md never changed, and is what setup recorded
	for _, s := range snaps {
		if s.sha != "" && s.sha != d.Problem.SHA256 {
			t.Errorf("problema.md changed: %s at a kill, %s at the end", s.sha[:12], d.Problem.SHA256[:12])
		}
	}
	if evs[0]["type"] != "setup" || evs[0]["problema_sha256"] != d.Problem.SHA256 {
		t.Errorf("the setup event does not record problema.md's sha256: %v", evs[0])
	}
	// no call finished at a kill was started again
	for _, s := range snaps {
		for key, n := range s.finished {
			k, id, _ := strings.Cut(key, "/")
			r, _ := strconv.Atoi(k)
			if now := p.starts(id, r); now != n {
				t.Errorf("%s of round %s was finished at a kill and started %d more time(s)", id, k, now-n)
			}
		}
	}
	// the event log agrees with the files: the last call_finished of each
	// debater has the file's status, no file lacks one, no event claims a
	// call that has no file; one judge_finished naming the final's winner;
	// one debate_finished
	last := map[string]string{}
	judged, ended := 0, 0
	winner := ""
	for _, e := range evs {
		switch e["type"] {
		case "call_finished":
			if e["role"] == "judge" || e["role"] == "synthesizer" {
				continue
			}
			if errText, _ := e["error"].(string); strings.HasSuffix(errText, "(retrying once)") {
				continue
			}
			last[fmt.Sprintf("%v/%v", e["round"], e["solver_id"])] = fmt.Sprint(e["status"])
		case "judge_finished":
			judged++
			winner = fmt.Sprint(e["winner"])
		case "debate_finished":
			ended++
		}
	}
	files := 0
	for _, rd := range d.Rounds {
		for _, f := range rd.Files {
			files++
			key := fmt.Sprintf("%d/%s", rd.K, f.SolverID)
			if st, ok := last[key]; !ok || st != string(f.Status) {
				t.Errorf("%s: the file says %s, the log %q", key, f.Status, st)
			}
		}
	}
	if len(last) != files {
		t.Errorf("the log has %d finished calls, the folders %d files", len(last), files)
	}
	if judged != 1 || ended != 1 {
		t.Errorf("%d judge_finished and %d debate_finished events, want 1 each", judged, ended)
	}
	if !strings.Contains(winner, d.Final.Winner) && !strings.Contains(d.Final.Winner, winner) {
		t.Errorf("the log's winner %q is not the final's %q", winner, d.Final.Winner)
	}
}
