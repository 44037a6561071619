package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// botEngine is an engine of unknown family (no family:, no known model).
const botEngine = `  builder-bot:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: builder-bot}
`

// privEngine is an engine serving a private model moot's catalogue does
// not know, of family openai.
const privEngine = `  ext-priv:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: ext-priv}
    model: my-private-7b
    family: openai
`

// What a review says of its builder is true: a --builder its change's
// Model: trailer contradicts is warned of before any call and logged; a
// model of an engine of the file is a builder (that engine and its
// family); a --builder naming nothing lists the families and the engines;
// an engine builder is said as an engine, never as a family; --solo says
// what it let sit, and no message claims no builder was declared.
func TestReviewSaysTrulyWhoBuiltTheChange(t *testing.T) {
	t.Parallel()
	t.Run("trailer contradicts --builder", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines)
		tr.write("calc.go", calcChange+"// Total never rounds.\n")
		tr.git("commit", "-qam", "round\n\nModel: gpt-5")
		r := tr.review(append(change, "--builder", "anthropic", "--lens", "defect")...)
		const want = "--builder anthropic (family anthropic), but the change's commit trailers name gpt-5 (family openai)"
		i, plan := strings.Index(r.stderr, want), strings.Index(r.stderr, "Review plan")
		if r.code != 0 || i < 0 || plan < 0 || i > plan {
			t.Fatalf("exit %d, want 0 and the contradiction said before the plan\n%s", r.code, r.stderr)
		}
		if log := readText(t, filepath.Join(tr.only(), "eventos.jsonl")); !strings.Contains(log, `"type":"warning"`) || !strings.Contains(log, "name gpt-5 (family openai)") {
			t.Errorf("no warning event logs the contradiction:\n%s", log)
		}
	})
	t.Run("a model of an engine of the file", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines+privEngine)
		r := tr.review(append(change, "--builder", "my-private-7b", "--lens", "defect")...)
		if r.code != 0 {
			t.Fatalf("exit %d, want the model accepted\n%s", r.code, r.stderr)
		}
		if sum := readText(t, filepath.Join(tr.only(), "summary.md")); !strings.Contains(sum, "Builder: ext-priv (engine, family openai)") {
			t.Errorf("the summary does not name the builder's engine:\n%s", sum)
		}
		for _, c := range tr.calls() {
			if strings.HasPrefix(c, "ext-priv/") || strings.HasPrefix(c, "ext-oai/") {
				t.Errorf("the builder's engine or family sat: %s", c)
			}
		}
	})
	t.Run("a builder that names nothing", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines)
		r := tr.review(append(change, "--builder", "zzz", "--lens", "defect")...)
		if r.code != 2 || !strings.Contains(r.stderr, "anthropic") || !strings.Contains(r.stderr, "ext-anth, ext-oai, loc") {
			t.Errorf("exit %d, want 2 listing the families and the engines\n%s", r.code, r.stderr)
		}
	})
	t.Run("an engine of unknown family", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines+botEngine)
		r := tr.review(append(change, "--builder", "builder-bot", "--lens", "defect")...)
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		dir := tr.only()
		for _, f := range []string{"summary.md", filepath.Join("round-1", "routes.md")} {
			text := readText(t, filepath.Join(dir, f))
			if !strings.Contains(text, "Builder: builder-bot (engine, family unknown)") || strings.Contains(text, "Builder family: builder-bot") {
				t.Errorf("%s says the builder's engine as a family:\n%s", f, text)
			}
		}
		if !strings.Contains(r.stderr, "builder builder-bot (engine, family unknown)") || strings.Contains(r.stderr, "family builder-bot") {
			t.Errorf("moot's messages say the builder's engine as a family:\n%s", r.stderr)
		}
	})
	t.Run("--solo lets an unknown family sit", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines+botEngine+"review:\n  ladders:\n    default: [builder-bot, ext-anth]\n")
		r := tr.review(append(change, "--builder", "openai", "--solo", "--lens", "defect")...)
		if strings.Contains(r.stderr, "--solo unused") || strings.Contains(r.stderr, "no builder was declared") {
			t.Errorf("a false message:\n%s", r.stderr)
		}
		if !strings.Contains(r.stderr, "engines of unknown family may sit (builder-bot)") || !strings.Contains(r.stderr, "gate weakened: builder-bot of unknown family sat by --solo") {
			t.Errorf("--solo's effect is not said:\n%s", r.stderr)
		}
	})
}
