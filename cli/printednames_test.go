package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reversa/moot/internal/testutil"
)

// terminalControl reports the first byte or rune of out that could drive
// a terminal (ESC, BEL or another C0 control but newline and tab, DEL, a
// C1 control, a byte that is not UTF-8), or -1.
func terminalControl(out string) int {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && n == 1,
			r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return i
		}
		i += n
	}
	return -1
}

// nameOf makes s a file name's part: no slash, no NUL, not empty.
func nameOf(s string) string {
	s = strings.NewReplacer("/", "_", "\x00", "_").Replace(s)
	if len(s) > 80 {
		s = s[:80]
	}
	return "x" + s
}

// hostileRegister is the sample register with evil in every name moot
// prints: a bug folder's name (with a loose front-matter field, so the
// warnings name its path), a title, a committed lock's host and command, a
// question's folder, a lens file's and a persona file's name.
func hostileRegister(t *testing.T, evil string) string {
	t.Helper()
	dir := testutil.CopyTree(t, "sample")
	bugs := filepath.Join(dir, "_reversa_bugs", "checkout", "bugs")
	old := filepath.Join(bugs, "BUG-20260702-Q2R8-frete-arredondado")
	bug := filepath.Join(bugs, "BUG-20260702-Q2R8-"+nameOf(evil))
	if err := os.Rename(old, bug); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(bug, "bug.md")
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	title, _ := json.Marshal("Frete " + evil)
	s := strings.Replace(string(b), "display_number: 5", `display_number: "#5"`, 1)
	s = replaceLine(s, "title: ", "title: "+string(title))
	write(t, md, s)
	lock, _ := json.Marshal(map[string]any{"pid": 1, "host": "h" + evil, "command": "moot run " + evil, "started_at": "2026-01-01T00:00:00Z"})
	write(t, filepath.Join(bug, "debate", ".moot.lock"), string(lock))
	q := filepath.Join(dir, ".moot", "debates", "20261202-"+nameOf(evil))
	if err := os.MkdirAll(q, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".moot", "lenses", nameOf(evil)+".md"), "x\n")
	write(t, filepath.Join(dir, ".moot", "personas", nameOf(evil)+".md"), "---\nname: cache\ndomain: caching\nprecision: 0.5\nresilience: 0.5\nfragility: 0.5\n---\nx\n")
	return dir
}

func replaceLine(s, prefix, line string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = line
			break
		}
	}
	return strings.Join(lines, "\n")
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// FuzzPrintedNamesNeverDriveTheTerminal puts the fuzzer's text in every
// name and field moot prints (folder and file names, front matter, a lock's
// host) and runs the commands that print them: no escape sequence or
// control character reaches stdout or stderr.
func FuzzPrintedNamesNeverDriveTheTerminal(f *testing.F) {
	for _, s := range []string{
		"\x1b]0;TITLE\a\x1b]52;c;QkZPTERFUg==\a",
		"\a\x1b]2;t\x1b\\\x1b[2J\x1b[6n",
		"\u009b2J\u009d0;t\u009c",
		"\u202e\u2066bidi\r\x7f\x08",
		"\xff\xfe\x1b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, evil string) {
		dir := hostileRegister(t, evil)
		for _, args := range [][]string{
			{"list"},
			{"list", "--all"},
			{"show", "5"},
			{"show", "5", "--problem"},
			{"plan", "5", "--mode", "diagnosis", "--lens", "defect"},
			{"plan", "7", "--mode", "diagnosis", "--lens", nameOf(evil)},
			{"run", "5", "--mode", "diagnosis"},
			{"resume", "5"},
			{"transcript", "5"},
			{"ask", "Should we cache coupons?"},
			{"ask", "Is the session policy right?", "--evidence", filepath.Join(dir, "_reversa_bugs", "checkout", "bugs", "BUG-20260702-Q2R8-"+nameOf(evil), "bug.md")},
		} {
			_, out, errOut := moot(t, dir, args...)
			for stream, text := range map[string]string{"stdout": out, "stderr": errOut} {
				if i := terminalControl(text); i >= 0 {
					t.Errorf("moot %s: %s carries a terminal control at %d: %q", strings.Join(args, " "), stream, i, text[max(0, i-60):min(len(text), i+60)])
				}
			}
		}
	})
}
