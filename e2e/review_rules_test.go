package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// reviewRecord is the part of review.json these tests read.
type reviewRecord struct {
	Builder       string `json:"builder"`
	BuilderFamily string `json:"builder_family"`
	Status        string `json:"status"`
	Rounds        []struct {
		Gate struct {
			Outcome  string `json:"outcome"`
			Reason   string `json:"reason"`
			Weakened bool   `json:"weakened"`
		} `json:"gate"`
	} `json:"rounds"`
}

func (tr *tribunal) record(dir string) reviewRecord {
	tr.t.Helper()
	var rec reviewRecord
	if err := json.Unmarshal([]byte(readText(tr.t, filepath.Join(dir, "review.json"))), &rec); err != nil {
		tr.t.Fatal(err)
	}
	return rec
}

// A review that cannot tell who built the change (no --builder, no
// review.builder in the engines file, no trailer naming one) is exit 2
// before any call, naming what to say; nothing is written.
func TestReviewRefusesWhenNoOneKnowsTheBuilder(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.git("commit", "--allow-empty", "-qm", "empty\n\nCo-authored-by: Grace Hopper <grace@example.org>")
	r := tr.run(append([]string{"review", "--config", tr.cfg, "--yes", "--lens", "defect"}, "--change", "HEAD~2..HEAD", "--contract", "document Total | Total has a doc comment")...)
	if r.code != 2 || !strings.Contains(r.stderr, "--builder unknown") || !strings.Contains(r.stderr, "review.builder") || !strings.Contains(r.stderr, "anthropic") {
		t.Errorf("no builder: exit %d, want 2 naming --builder, review.builder and the known families\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
		t.Errorf("a review with no builder called %v or wrote %v", tr.calls(), tr.reviews())
	}
}

// The builder comes from the change's own trailers when they name a known
// model or family, else from the engines file's review.builder; either
// excludes its family before dispatch and says where it came from.
func TestReviewLearnsTheBuilderFromTrailersOrTheEnginesFile(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.write("calc.go", calcChange+"// Total never rounds.\n")
	tr.git("commit", "-qam", "doc\n\nCo-authored-by: Claude <noreply@anthropic.com>")
	r := tr.run("review", "--config", tr.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment")
	if r.code != 0 || !strings.Contains(r.stderr, "builder Claude, from the change's commit trailers") || !strings.Contains(r.stderr, "excluded from every ladder: ext-anth") {
		t.Errorf("a trailer naming Claude: exit %d, want anthropic excluded, said\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "ext-anth/") {
			t.Errorf("the builder's family sat: %s", c)
		}
	}

	cf := newTribunal(t, juryEngines+"review:\n  builder: openai\n")
	r = cf.run("review", "--config", cf.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment")
	if r.code != 0 || !strings.Contains(r.stderr, "from the engines file's review.builder") || !strings.Contains(r.stderr, "excluded from every ladder: ext-oai") {
		t.Errorf("review.builder: exit %d\n%s", r.code, r.stderr)
	}
	if rec := cf.record(cf.only()); rec.Builder != "openai" || rec.BuilderFamily != "openai" {
		t.Errorf("recorded builder %q family %q, want openai", rec.Builder, rec.BuilderFamily)
	}

	bad := newTribunal(t, juryEngines+"review:\n  builder: unknown\n")
	if r := bad.run("review", "--config", bad.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "a | b"); r.code != 2 || !strings.Contains(r.stderr, "review.builder") {
		t.Errorf("review.builder: unknown in a file: exit %d, want 2 naming the field\n%s", r.code, r.stderr)
	}
}

// --builder unknown is recorded and every report labels the gate
// weakened: the exit line, the summary, the route table and the record's
// gate; it never reads as a plain unanimous pass.
func TestReviewWithAnUnknownBuilderIsLabelledWeakened(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review(append(change, "--builder", "unknown", "--lens", "defect", "--lens", "security")...)
	if !strings.Contains(r.stdout, "PASS — unanimous pass of 2 juror(s) — gate weakened: builder unknown") {
		t.Errorf("exit line of a weakened pass: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	for _, f := range []string{"summary.md", filepath.Join("round-1", "routes.md")} {
		if !strings.Contains(readText(t, filepath.Join(dir, f)), "builder unknown (--builder unknown)") {
			t.Errorf("%s does not say the gate is weakened", f)
		}
	}
	rec := tr.record(dir)
	if rec.Builder != "unknown" || len(rec.Rounds) != 1 || !rec.Rounds[0].Gate.Weakened {
		t.Errorf("record: builder %q, rounds %+v: want the builder unknown and the gate weakened", rec.Builder, rec.Rounds)
	}
}

// A builder that is an engine of unknown family is excluded by name: it
// never sits on its own change, even with --solo letting unknown families
// sit; a builder engine whose family is known excludes that family too.
func TestReviewExcludesTheBuilderEngineByName(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+`  builder-bot:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: builder-bot}
review:
  ladders:
    default: [builder-bot, ext-anth]
`)
	r := tr.review(append(change, "--builder", "builder-bot", "--solo", "--lens", "defect", "--lens", "security")...)
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "builder-bot/") {
			t.Errorf("the builder's own engine sat: %s", c)
		}
	}
	dir := tr.only()
	for _, lens := range []string{"defect", "security"} {
		if s := tr.seat(dir, 1, lens); s.Attempts[0].Engine != "builder-bot" || s.Attempts[0].Status != "builder-family" || s.Engine != "ext-anth" {
			t.Errorf("%s: first rung %+v seat %s, want builder-bot excluded as the builder and ext-anth seated\n%s", lens, s.Attempts[0], s.Engine, r.stderr)
		}
	}
}

// A seat or a verifier of unknown family is no proof of a cross-family
// review: such rungs are skipped before dispatch (unknown-family), so a
// lens whose only juror is one holds, and a local pass whose only
// verifier is one is UNVERIFIED; neither opens the gate. --solo lets them
// sit, and the gate is labelled weakened.
func TestReviewHoldsWithoutACrossFamilySeat(t *testing.T) {
	t.Parallel()
	engines := juryEngines + `  x-unk:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: x-unk}
review:
  ladders:
    defect: [x-unk]
    security: [loc, x-unk]
`
	tr := newTribunal(t, engines)
	r := tr.review(append(change, "--builder", "openai", "--lens", "defect", "--lens", "security")...)
	if r.code != 4 || strings.Contains(r.stdout, "PASS") {
		t.Errorf("unknown-family seat and verifier: exit %d, want 4 (hold)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "x-unk/") {
			t.Errorf("an engine of unknown family was called: %s", c)
		}
	}
	dir := tr.only()
	if d := tr.seat(dir, 1, "defect"); d.Outcome != "hold" || d.Attempts[0].Status != "unknown-family" {
		t.Errorf("defect: %+v, want a hold with x-unk unknown-family", d)
	}
	if s := tr.seat(dir, 1, "security"); s.Outcome != "hold" || !s.Unverified || s.Verifier != "" {
		t.Errorf("security: %+v, want the local pass UNVERIFIED (its only verifier is of unknown family)", s)
	}

	solo := newTribunal(t, engines)
	r = solo.review(append(change, "--builder", "openai", "--solo", "--lens", "defect", "--lens", "security")...)
	if r.code != 0 || !strings.Contains(r.stdout, "x-unk of unknown family sat by --solo") {
		t.Errorf("--solo: exit %d, want a pass labelled weakened\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A minor finding in the final round closes the gate (a pass listing one
// is a refuse, exit 4); an info finding does not (exit 0).
func TestReviewMinorFindingClosesTheGateInfoDoesNot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		jury string
		code int
	}{{"*/defect=minorpass", 4}, {"*/defect=infopass", 0}} {
		tr := newTribunal(t, juryEngines)
		tr.jury = c.jury
		r := tr.review(append(change, "--lens", "defect")...)
		if r.code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.jury, r.code, c.code, r.stdout, r.stderr)
		}
		if c.code == 4 && !strings.Contains(readText(t, filepath.Join(tr.only(), "round-1", "verdicts", "defect.json")), "a pass listing a minor finding is a refuse") {
			t.Errorf("%s: the verdict file does not say why the pass is a refuse", c.jury)
		}
	}
}

// Every default ladder ends in a local rung when the engines file has a
// local engine; without one the plan names the lenses that have no
// survival rung.
func TestReviewLaddersEndInALocalSurvivalRung(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review(append(change, "--lens", "defect", "--lens", "security")...)
	if strings.Contains(r.stderr, "no local survival rung") {
		t.Errorf("a file with a local engine: the plan says a lens lacks a survival rung\n%s", r.stderr)
	}
	dir := tr.only()
	for _, lens := range []string{"defect", "security"} {
		s := tr.seat(dir, 1, lens)
		if last := s.Attempts[len(s.Attempts)-1]; last.Engine != "loc" {
			t.Errorf("%s: the ladder ends in %s, want the local engine loc", lens, last.Engine)
		}
	}
	cloud := newTribunal(t, strings.Split(juryEngines, "  loc:")[0])
	r = cloud.review(append(change, "--lens", "defect", "--lens", "security")...)
	if !strings.Contains(r.stderr, "no local survival rung: defect, security") {
		t.Errorf("a file without a local engine: the plan does not name the lenses without a survival rung\n%s", r.stderr)
	}
}

// A weakened pass (--builder unknown) never reads as a plain pass in
// moot list: its status reads "pass (weakened)", and list --json gives
// "verdict": "pass" with "weakened": true.
func TestReviewWeakenedPassIsListedWeakened(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	if r := tr.review(append(change, "--builder", "unknown", "--lens", "defect")...); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	id := filepath.Base(tr.only())
	if e := tr.listed(id); e["verdict"] != "pass" || e["weakened"] != true {
		t.Errorf("list --json: verdict %v, weakened %v; want pass, true", e["verdict"], e["weakened"])
	}
	r := tr.run("list")
	rows := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.Contains(line, id) {
			rows++
			if !strings.Contains(line, "pass (weakened)") {
				t.Errorf("moot list reads a plain pass: %q", line)
			}
		}
	}
	if rows != 1 {
		t.Errorf("moot list shows %d row(s) of %s:\n%s", rows, id, r.stdout)
	}
	plain := newTribunal(t, juryEngines)
	if r := plain.review(append(change, "--lens", "defect")...); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if e := plain.listed(filepath.Base(plain.only())); e["verdict"] != "pass" || e["weakened"] != nil {
		t.Errorf("a plain pass: verdict %v, weakened %v", e["verdict"], e["weakened"])
	}
}
