package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestNewOnAQuestionSpellsOutMootAsk: n on a question's row starts no
// wizard (a question's folder holds one debate); the footer says how to
// debate it again — the moot ask command, its protocols and the question —
// at 80 and 140 columns.
func TestNewOnAQuestionSpellsOutMootAsk(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			addQuestions(t, f.proj)
			m := loadBrowser(t, f, sz[0], sz[1])
			m = keys(t, m, "/", "s", "h", "a", "r", "d", "enter", "n")
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"ask it again: moot ask"})
			if drawnScreen(m) != "browser" {
				t.Fatalf("n on a question left the browser:\n%s", text)
			}
			if sz[0] >= 140 && !strings.Contains(text, "'Should we shard the orders table?'") {
				t.Errorf("the footer does not name the question:\n%s", text)
			}
		})
	}
}

// TestNewOnAQuestionAdvisesACommandThatRuns: the moot ask n advises on a
// question carries what the question's protocol requires, so it runs as
// printed: a tradeoff's two options, a council's lenses; an argue (or an
// older question) needs only the question.
func TestNewOnAQuestionAdvisesACommandThatRuns(t *testing.T) {
	t.Parallel()
	q := "Should we retry webhooks?"
	for _, tc := range []struct {
		p    *bugfolder.ProblemFile
		want string
	}{
		{&bugfolder.ProblemFile{Protocol: "tradeoff", Lenses: map[string]bugfolder.Lens{"agente-1": {Name: "A", Text: "Retry forever"}, "agente-2": {Name: "B", Text: "Give up after 3 tries & alert"}}},
			"moot ask --protocol tradeoff --option-a 'Retry forever' --option-b 'Give up after 3 tries & alert' -- 'Should we retry webhooks?'"},
		{&bugfolder.ProblemFile{Protocol: "council", Lenses: map[string]bugfolder.Lens{"agente-2": {Name: "cost"}, "agente-1": {Name: "security"}}},
			"moot ask --protocol council --lens security --lens cost -- 'Should we retry webhooks?'"},
		{&bugfolder.ProblemFile{Protocol: "argue"}, "moot ask -- 'Should we retry webhooks?'"},
		{nil, "moot ask -- 'Should we retry webhooks?'"},
	} {
		if got := questionNewAdvice(q, tc.p); !strings.HasSuffix(got, ": "+tc.want) {
			t.Errorf("advice %q, want it to end with %q", got, tc.want)
		}
	}
}
