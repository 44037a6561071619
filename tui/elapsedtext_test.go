package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/humantime"
)

// TestElapsedReadsAsListWritesIt: the header's elapsed figure is written
// as moot list and moot show write it (internal/humantime), to the same
// precision: a debate that ran 332 ms reads "332ms", never "0s".
func TestElapsedReadsAsListWritesIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ran  time.Duration
		want string
	}{
		{332 * time.Millisecond, "332ms"},
		{7400 * time.Millisecond, "7.4s"},
		{151 * time.Second, "2m31s"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			bug := f.bug(t, "6")
			dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
			t0 := fixedNow.Add(-time.Hour)
			ev := func(typ string, at time.Time) string {
				return `{"type":"` + typ + `","time":"` + at.Format(time.RFC3339Nano) + `"}` + "\n"
			}
			log := ev("setup", t0) + ev("debate_finished", t0.Add(tc.ran))
			if err := os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(log), 0o600); err != nil {
				t.Fatal(err)
			}
			deb, err := bugfolder.ReadDebate(dir, bug.Register.Lang)
			if err != nil {
				t.Fatal(err)
			}
			listed, _ := deb.Elapsed()
			got := viewFromFiles(bug, deb, readFolderFacts(deb)).elapsedText(fixedNow)
			if got != tc.want || got != humantime.Duration(listed) {
				t.Errorf("the header says %q; moot list says %q; want %q", got, humantime.Duration(listed), tc.want)
			}
		})
	}
}
