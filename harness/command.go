package harness

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/safefs"
)

// command runs any executable: the prompt on stdin, the answer on stdout.
type command struct {
	cfg  *EngineConfig
	opts Options
}

func newCommand(e *EngineConfig, o Options) *command { return &command{cfg: e, opts: o} }

// expand fills the placeholders of one argument.
func expand(arg string, req Request) string {
	return strings.NewReplacer(
		"{role}", string(req.Role),
		"{solver_id}", req.SolverID,
		"{round}", strconv.Itoa(req.Round),
		"{bug_id}", req.BugID,
		"{mode}", string(req.Mode),
		"{lens}", req.Lens,
		"{protocol}", req.Protocol,
	).Replace(arg)
}

// commandBaseEnv are the variables of moot's environment a command engine
// keeps by default, besides inheritEnv: who and where the user is.
var commandBaseEnv = []string{"HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TERM"}

// commandEnv is a command engine's environment before moot's own MOOT_*
// variables and its env entries: a minimal one (PATH, locale, proxies,
// certificates, HOME, USER…), its api_key_env, and the variables its
// env_passthrough names. Never the rest of moot's environment: another
// engine's key or a cloud credential stays out of reach.
func commandEnv(e *EngineConfig) []string {
	keep := func(name string) bool {
		if slices.Contains(inheritEnv, name) || slices.Contains(commandBaseEnv, name) || name == e.APIKeyEnv {
			return true
		}
		for _, p := range e.EnvPassthrough {
			if prefix, glob := strings.CutSuffix(p, "*"); glob && strings.HasPrefix(name, prefix) || p == name {
				return true
			}
		}
		return false
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, ok := strings.Cut(kv, "="); ok && keep(k) {
			env = append(env, kv)
		}
	}
	return env
}

// program resolves the executable: a relative path with a slash starts at
// the engines file's folder; a bare name is looked up on PATH.
func (c *command) program() string {
	p := c.cfg.Command[0]
	if strings.ContainsRune(p, '/') {
		return resolveProgram(p, c.opts.ConfigDir)
	}
	return p
}

func (c *command) Call(ctx context.Context, req Request) Result {
	argv := make([]string, len(c.cfg.Command))
	for i, a := range c.cfg.Command {
		argv[i] = expand(a, req)
	}
	argv[0] = c.program()
	env := append(commandEnv(c.cfg),
		"MOOT_ROLE="+string(req.Role),
		"MOOT_SOLVER_ID="+req.SolverID,
		"MOOT_ROUND="+strconv.Itoa(req.Round),
		"MOOT_BUG_ID="+req.BugID,
		"MOOT_MODE="+string(req.Mode),
		"MOOT_LENS="+req.Lens,
		"MOOT_PROTOCOL="+req.Protocol,
	)
	for k, v := range c.cfg.Env {
		env = append(env, k+"="+v)
	}
	scratch, err := newScratch("call")
	if err != nil {
		return errorf(FailStart, "create a scratch folder: %v", err)
	}
	defer removeLater(scratch)
	_ = placeP(scratch, req, safefs.FilePerm)
	return runProcess(ctx, proc{
		argv: argv, env: env, dir: scratch, stdin: req.promptPieces(), timeout: req.Timeout,
		grace: c.opts.Grace, cap: c.opts.OutputCap, stdout: req.Stdout, stderr: req.Stderr, onOutput: req.OnOutput, group: req.Group,
	}, plainOutput)
}

// inFlight holds the pid of every call's process still running: a
// call's end looks for what it left behind everywhere under moot but
// under the others (pid → true).
var inFlight sync.Map

// callsInFlight is inFlight as a set.
func callsInFlight() map[int]bool {
	out := map[int]bool{}
	inFlight.Range(func(k, _ any) bool {
		out[k.(int)] = true
		return true
	})
	return out
}

// proc describes one process to run under moot's rules.
type proc struct {
	argv     []string
	env      []string
	dir      string
	stdin    []string
	timeout  time.Duration
	grace    time.Duration
	cap      int64
	stdout   io.Writer
	stderr   io.Writer
	onOutput func(string)
	group    string
}

// outputParser turns a process's stdout into an answer. A streaming parser
// is fed chunks as they arrive; plainOutput is stdout verbatim.
type outputParser interface {
	// Feed receives a chunk of stdout and returns answer text to stream.
	Feed(chunk []byte) string
	// Finish returns the answer and what the tool reported about the call.
	Finish(exitCode int, stderrTail string) Result
}

type plainParser struct{ buf bytes.Buffer }

func plainOutput() outputParser { return &plainParser{} }

func (p *plainParser) Feed(chunk []byte) string {
	p.buf.Write(chunk)
	return string(chunk)
}

func (p *plainParser) Finish(exitCode int, stderrTail string) Result {
	r := Result{Body: p.buf.String()}
	code := exitCode
	r.ExitCode = &code
	switch {
	case exitCode == 0:
	case exitCode == 127:
		r.Failure = FailStart
		r.Err = "exit 127 (command not found)" + withTail(stderrTail)
	default:
		r.Failure = FailEngine
		r.Err = fmt.Sprintf("exit %d", exitCode) + withTail(stderrTail)
	}
	return r
}

// reapWithin bounds the wait for a call's killed processes to end: a
// SIGKILL ends a process as soon as it is scheduled, so only one stuck in
// the kernel (a hung network file system) can reach it.
const reapWithin = 10 * time.Second

var subreaperOnce sync.Once

// ensureSubreaper makes this process the subreaper of its orphans before
// its first call (the CLI does so at start; any other user of the harness,
// its tests too, gets it here): otherwise a descendant that left the
// call's group with setsid and lost its parent (codex's shell snapshot
// when codex gives up early) goes to init, out of the call's reach, and
// outlives the call.
func ensureSubreaper() { subreaperOnce.Do(func() { _ = BecomeSubreaper() }) }

// callTag is a unique MOOT_CALL=… environment entry for one call.
func callTag() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "MOOT_CALL=" + hex.EncodeToString(b[:])
}

func withTail(t string) string {
	if t == "" {
		return ""
	}
	return ": " + t
}

// runProcess runs a process in its own process group with a hard timeout:
// on expiry the group gets SIGTERM, then SIGKILL after the grace period.
// When the process exits, whatever is left of its group (grandchildren) is
// killed too, so nothing outlives the call. stdout and stderr are copied to
// the raw writers, each capped; the answer is bounded by the same cap.
func runProcess(ctx context.Context, p proc, newParser func() outputParser) Result {
	ensureSubreaper()
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	// a marker every descendant inherits, so one that leaves the process
	// group (setsid) is still found and killed at the end of the call
	tag := callTag()
	cmd.Env = append(slices.Clip(p.env), tag)
	if p.group != "" {
		cmd.Env = append(cmd.Env, groupTags(p.group)...)
	}
	cmd.Dir = p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// moot owns the pipes: exec's StdoutPipe would be closed by Wait while
	// output is still unread. The read ends are closed only after EOF.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return errorf(FailStart, "stdin pipe: %v", err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return errorf(FailStart, "stdout pipe: %v", err)
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		stdoutR.Close()
		stdoutW.Close()
		return errorf(FailStart, "stderr pipe: %v", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	startErr := cmd.Start()
	// the child has its copies; ours would keep the pipes open forever
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()
	if startErr != nil {
		stdin.Close()
		stdoutR.Close()
		stderrR.Close()
		return errorf(FailStart, "cannot start %s: %v", p.argv[0], unwrapExec(startErr))
	}
	defer stdoutR.Close()
	defer stderrR.Close()
	pgid := cmd.Process.Pid
	inFlight.Store(pgid, true)
	defer inFlight.Delete(pgid)
	killGroup := func(sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }

	// the prompt, then EOF (CLIs wait for it)
	go func() {
		for _, s := range p.stdin {
			if _, err := io.WriteString(stdin, s); err != nil {
				break
			}
		}
		_ = stdin.Close()
	}()

	parser := newParser()
	var (
		mu        sync.Mutex
		truncated bool
		tail      = &tailBuffer{max: 2048}
		readers   sync.WaitGroup
		overCap   = make(chan struct{})
		overOnce  sync.Once
	)
	readers.Add(2)
	go func() {
		defer readers.Done()
		raw := &cappedWriter{w: p.stdout, max: p.cap}
		var carry []byte
		buf := make([]byte, 32<<10)
		var seen int64
		for {
			n, err := stdoutR.Read(buf)
			if n > 0 {
				chunk := buf[:n]
				seen += int64(n)
				_, _ = raw.Write(chunk)
				if seen > p.cap {
					mu.Lock()
					truncated = true
					mu.Unlock()
					overOnce.Do(func() { close(overCap) })
					_, _ = io.Copy(io.Discard, stdoutR) // drain until the group is gone
					return
				}
				text := parser.Feed(chunk)
				if p.onOutput != nil && text != "" {
					// never split a UTF-8 sequence across deltas
					carry = append(carry, text...)
					cut := len(carry)
					for cut > 0 && !utf8.Valid(carry[:cut]) && len(carry)-cut < utf8.UTFMax {
						cut--
					}
					if cut > 0 {
						p.onOutput(string(carry[:cut]))
						carry = append(carry[:0], carry[cut:]...)
					}
				}
			}
			if err != nil {
				if len(carry) > 0 && p.onOutput != nil {
					p.onOutput(string(carry))
				}
				return
			}
		}
	}()
	go func() {
		defer readers.Done()
		raw := &cappedWriter{w: p.stderr, max: p.cap}
		_, _ = io.Copy(io.MultiWriter(raw, tail), stderrR)
	}()

	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()

	var timer <-chan time.Time
	if p.timeout > 0 {
		t := time.NewTimer(p.timeout)
		defer t.Stop()
		timer = t.C
	}
	var (
		werr     error
		timedOut bool
		capped   bool
		canceled bool
	)
	stop := func() {
		killGroup(syscall.SIGTERM)
		select {
		case werr = <-waitErr:
		case <-time.After(p.grace):
			killGroup(syscall.SIGKILL)
			werr = <-waitErr
		}
	}
	select {
	case werr = <-waitErr:
	case <-timer:
		timedOut = true
		stop()
	case <-overCap:
		capped = true
		killGroup(syscall.SIGKILL)
		werr = <-waitErr
	case <-ctx.Done():
		canceled = true
		stop()
	}
	// reap what the process left behind (grandchildren holding the pipes,
	// and descendants that left the group with setsid); the process itself
	// has ended, so its subtree is no longer another call's
	inFlight.Delete(pgid)
	killGroup(syscall.SIGKILL)
	killTagged(tag, reapWithin)
	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(p.grace):
		// something outside the group still holds the pipes: stop reading
		stdoutR.Close()
		stderrR.Close()
		<-done
	}

	exitCode := -1
	signaled := ""
	var ee *exec.ExitError
	switch {
	case werr == nil:
		exitCode = 0
	case errors.As(werr, &ee):
		exitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signaled = ws.Signal().String()
		}
	}
	res := parser.Finish(exitCode, tail.lastLine())
	mu.Lock()
	res.Truncated = truncated
	mu.Unlock()
	switch {
	case canceled:
		res.Failure = FailEngine
		res.Err = "interrupted: " + context.Cause(ctx).Error()
	case timedOut:
		res.Failure = FailTimeout
		res.Err = fmt.Sprintf("no answer within %s: the process group was killed", humantime.Duration(p.timeout))
	case capped:
		res.Failure = FailEngine
		res.Err = fmt.Sprintf("output exceeded the %d MiB cap; the process was killed and the first %d MiB kept in raw/", p.cap>>20, p.cap>>20)
	case exitCode < 0:
		res.Failure = FailEngine
		res.Err = fmt.Sprintf("killed by signal %s before finishing", signaled) + withTail(tail.lastLine())
	}
	return res
}

// unwrapExec shortens exec's start errors ("exec: \"x\": executable file
// not found in $PATH").
func unwrapExec(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

// cappedWriter writes at most max bytes to w (which may be nil).
type cappedWriter struct {
	w       io.Writer
	max     int64
	written int64
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if c.w == nil {
		return len(p), nil
	}
	if room := c.max - c.written; room > 0 {
		q := p
		if int64(len(q)) > room {
			q = q[:room]
		}
		n, err := c.w.Write(q)
		c.written += int64(n)
		if err != nil {
			return len(p), nil // raw output is best effort; the call goes on
		}
	}
	return len(p), nil
}

// tailBuffer keeps the last bytes written, to report an error's last line.
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

// lastLine is the last non-empty line written.
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			return strings.ToValidUTF8(l, "?")
		}
	}
	return ""
}
