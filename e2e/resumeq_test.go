//go:build linux

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal of 80×24: the side moot reads and
// writes, and the side the test reads its screen from and types into.
func openPty(t *testing.T) (term, ctl *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { ctl.Close() })
	fd := int(ctl.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}); err != nil {
		t.Fatal(err)
	}
	return term, ctl
}

// screen collects what moot writes to the terminal.
type screen struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func (s *screen) has(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.out.Bytes(), []byte(what))
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// mootOnTerminal runs moot in the project on a pseudo-terminal until the
// screen shows until (or it ends), then types keys and waits for it to
// end; it returns what the screen showed and the exit code.
func (p *project) mootOnTerminal(until string, keys string, args ...string) (string, int) {
	p.t.Helper()
	return p.mootOnTerminalIn("", until, keys, args...)
}

// mootOnTerminalIn is mootOnTerminal in dir (the project when "").
func (p *project) mootOnTerminalIn(dir, until string, keys string, args ...string) (string, int) {
	p.t.Helper()
	term, ctl := openPty(p.t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := p.cmd(ctx, args...)
	if dir != "" {
		c.Dir = dir
	}
	c.Stdin, c.Stdout, c.Stderr = term, term, term
	c.Env = append(c.Env, "TERM=xterm-256color")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	sc := &screen{}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ctl.Read(buf)
			sc.mu.Lock()
			sc.out.Write(buf[:n])
			sc.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := c.Start(); err != nil {
		p.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !sc.has(until) {
		select {
		case err := <-done:
			return sc.String(), exitCode(p.t, err)
		case <-ctx.Done():
			p.t.Fatalf("moot %v never showed %q:\n%s", args, until, sc)
		case <-tick.C:
		}
	}
	if _, err := ctl.WriteString(keys); err != nil {
		p.t.Fatal(err)
	}
	select {
	case err := <-done:
		return sc.String(), exitCode(p.t, err)
	case <-ctx.Done():
		p.t.Fatalf("moot %v did not end after %q:\n%s", args, keys, sc)
	}
	return "", 0
}

// exitCode is a finished command's exit code.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	if e, ok := err.(interface{ ExitCode() int }); ok {
		return e.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// moot resume QUESTION on a terminal opens the live view, as for a bug;
// it resumes headless (and so asks for --yes before any call, exit 4)
// only with --headless or without a terminal.
func TestResumeQuestionOnATerminal(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	id, _ := p.askedQuestion()
	r := p.moot("resume", id)
	if r.code != 4 || !strings.Contains(r.stdout, "Run again with --yes") {
		t.Fatalf("without a terminal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "--yes") { // the advice is given once
		t.Errorf("the error repeats the advice on stdout: %s", r.stderr)
	}
	out, code := p.mootOnTerminal("Run again with --yes", "", "resume", id, "--headless")
	if code != 4 || strings.Contains(out, "\x1b[?1049h") {
		t.Fatalf("--headless on a terminal: exit %d, the UI opened:\n%q", code, out)
	}
	// the UI opens (the alternate screen, the question's debate); ctrl+c leaves it
	out, code = p.mootOnTerminal("coupon", "\x03", "resume", id)
	if !strings.Contains(out, "\x1b[?1049h") || strings.Contains(out, "Run again with --yes") {
		t.Fatalf("on a terminal, resume did not open the UI (exit %d):\n%q", code, out)
	}
	if code == 4 {
		t.Errorf("on a terminal: exit 4, the headless refusal")
	}
}

// askedQuestion asks the tradeoff question (its synthesizer failing,
// cancelled) and returns its ID and folder.
func (p *project) askedQuestion() (string, string) {
	p.t.Helper()
	p.Plan = "synthesizer#1=invalid"
	p.moot(askArgs("--on-judge-failure", "cancel")...).mustExit(p.t, 3)
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-should-we-cache-coupon-lookups"))
	if len(dirs) != 1 {
		p.t.Fatalf("question folders: %v", dirs)
	}
	p.Plan = ""
	return filepath.Base(dirs[0]), dirs[0]
}

// moot with no arguments, on a terminal, in a project with questions and
// no _reversa_bugs/ opens the browser on its questions; with neither it
// still ends at once, exit 2, saying no register was found.
func TestBrowserWithQuestionsOnly(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	id, dir := p.askedQuestion()
	only := filepath.Join(t.TempDir(), "only-questions")
	if err := os.MkdirAll(filepath.Join(only, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(only, ".moot", "debates", id), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	out, code := p.mootOnTerminalIn(only, "Should we cache", "q")
	if code != 0 || !strings.Contains(out, "only-questions/.moot/debates") {
		t.Fatalf("moot in a project with questions only: exit %d\n%q", code, out)
	}
	empty := filepath.Join(t.TempDir(), "nothing")
	if err := os.MkdirAll(filepath.Join(empty, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	out, code = p.mootOnTerminalIn(empty, "no _reversa_bugs/ folder found", "")
	if code != 2 {
		t.Fatalf("moot with neither bugs nor questions: exit %d\n%q", code, out)
	}
}
