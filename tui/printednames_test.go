package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
)

// evilName is a name carrying a window title, an OSC 52 clipboard write,
// a screen clear and a C1 control.
const evilName = "x\a\x1b]52;c;UVRJVExF\a\x1b]0;QTITLE-PWN\a\x1b[2J\u009b6n"

// moot's own colours (SGR) are the only sequences a frame may hold.
var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// controlIn returns the first terminal control of s (SGR aside), or "".
func controlIn(s string) string {
	s = sgrRE.ReplaceAllString(s, "")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return s[max(0, i-40):min(len(s), i+40)]
		}
		i += n
	}
	return ""
}

// TestTheScreenAndWindowTitleNeverCarryANamesEscapes: a question's folder
// name and a bug folder's name, title and committed lock carry escape
// sequences; the browser, the opened debate and the terminal's window
// title (OSC 2, where a BEL in the name would end the title and run what
// follows) show them as text.
func TestTheScreenAndWindowTitleNeverCarryANamesEscapes(t *testing.T) {
	f := newFixture(t)
	bugs := filepath.Join(f.proj, "_reversa_bugs", "checkout", "bugs")
	bug := filepath.Join(bugs, "BUG-20260702-Q2R8-"+evilName)
	if err := os.Rename(filepath.Join(bugs, "BUG-20260702-Q2R8-frete-arredondado"), bug); err != nil {
		t.Fatal(err)
	}
	lock, _ := json.Marshal(map[string]any{"pid": 1, "host": "h" + evilName, "started_at": "2026-01-01T00:00:00Z"})
	if err := os.WriteFile(filepath.Join(bug, "debate", bugfolder.LockFile), lock, 0o600); err != nil {
		t.Fatal(err)
	}
	m := openBug(t, f, "5", 120, 30)
	v := m.View()
	if c := controlIn(v.Content); c != "" {
		t.Errorf("the debate's frame carries a terminal control: %q", c)
	}
	if c := controlIn(v.WindowTitle); c != "" {
		t.Errorf("the window title carries a terminal control: %q", c)
	}

	opts, qbug := questionFixture(t, "20261201-which-cache-policy-wins")
	proj := qbug.Register.Project
	evilQ := filepath.Join(proj, ".moot", "debates", "20261202-"+evilName)
	if err := os.Rename(qbug.Dir, evilQ); err != nil {
		t.Fatal(err)
	}
	qbug = bugfolder.QuestionBug(proj, evilQ, nil)
	qbug.Register = &bugfolder.Register{Root: proj, Project: proj, Lang: bugfolder.EN}
	qm := openQuestion(t, opts, qbug, 120, 40)
	qv := qm.View()
	if !strings.Contains(qv.WindowTitle, "20261202-x") {
		t.Fatalf("the window title does not name the question: %q", qv.WindowTitle)
	}
	if c := controlIn(qv.WindowTitle); c != "" {
		t.Errorf("the window title carries the question folder's escapes: %q", c)
	}
	if c := controlIn(qv.Content); c != "" {
		t.Errorf("the question's frame carries a terminal control: %q", c)
	}
}

// TestTheBrowserNeverReadsAHugeLock: a committed 1 GB debate/.moot.lock
// (git stores the zeros in about 1 MB) is looked at every second while the
// browser is open; its holder is read capped, never whole.
func TestTheBrowserNeverReadsAHugeLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), bugfolder.LockFile)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if !holderAlive(p) {
		t.Error("an unreadable lock must count as alive (the debate's own read decides)")
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("reading a 1 GB lock's holder allocated %d MB", grew>>20)
	}
}
