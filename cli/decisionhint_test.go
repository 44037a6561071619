package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestFinalAloneSaysWhetherAResultWaitsForADecision: the end of a run
// reads back the whole debate only when its final answer may wait for a
// human decision (pending, a decision file beside it, or a final answer
// it cannot read); a plain verdict ends the run without the read.
func TestFinalAloneSaysWhetherAResultWaitsForADecision(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		mayAsk bool
	}{
		{"a verdict", map[string]string{"resposta-final.md": "---\nwinner: A\n---\n\n## Vencedor\n\nA\n"}, false},
		{"pending", map[string]string{"resposta-final.md": "---\nwinner: A\ndecision: pending\n---\n\nx\n"}, true},
		{"a decision beside it", map[string]string{"resposta-final.md": "---\nwinner: A\n---\n\nx\n", bugfolder.DecisionFile: "---\nchoice: approve\n---\n"}, true},
		{"unreadable", map[string]string{"resposta-final.md": "---\nwinner: [\n"}, true},
		{"none", map[string]string{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got := finalMayAwaitDecision(dir, bugfolder.PT); got != c.mayAsk {
				t.Errorf("finalMayAwaitDecision = %v, want %v", got, c.mayAsk)
			}
		})
	}
}
