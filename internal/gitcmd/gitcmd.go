// Package gitcmd runs git for moot (the review's envelope and test gate,
// the name of the person deciding): the one place every git call goes
// through. It bounds a call, keeps git's own words for the error, and
// runs git with the repository's configuration neutralised: no hooks, no
// signature programs, no clean/smudge/process filters, no fsmonitor, no
// external diff or textconv, no pager, no transport. A repository's
// .git/config is as hostile as its files (a folder handed over, an
// archive), and reading a change must never run a program it names.
package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Timeout bounds each git call: a wedged git must not hang a review.
const Timeout = 2 * time.Minute

// neutral is the configuration every git call is given, over anything the
// repository (or an include it names) sets. The values are passed through
// GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, so no key or value is parsed from a
// "key=value" argument.
var neutral = [][2]string{
	{"core.hooksPath", os.DevNull},     // no hook (post-checkout of a worktree moot adds)
	{"core.fsmonitor", "false"},        // no fsmonitor hook on index reads
	{"core.pager", "cat"},              // no pager program
	{"log.showSignature", "false"},     // log never verifies a signature…
	{"gpg.program", ""},                // …and no signature program is named
	{"gpg.openpgp.program", ""},        //
	{"gpg.x509.program", ""},           //
	{"gpg.ssh.program", ""},            //
	{"core.alternateRefsCommand", ""},  //
	{"protocol.allow", "never"},        // no transport (a lazy fetch, a submodule)
	{"submodule.recurse", "false"},     //
	{"core.sshCommand", ""},            //
	{"uploadpack.packObjectsHook", ""}, //
	{"credential.helper", ""},          // no credential program
	{"core.askPass", ""},               //
	{"gc.auto", "0"},                   // no background gc or maintenance
	{"maintenance.auto", "false"},      //
	{"color.ui", "false"},              // plain output, as moot parses it
}

// programKeys are the suffixes of driver settings (filter.<driver>.clean,
// diff.<driver>.textconv, merge.<driver>.driver) that name a program: each
// one the configuration defines is blanked (an empty command is no
// filter), and a filter is never required.
var programKeys = map[string]string{
	".clean": "", ".smudge": "", ".process": "", ".required": "false",
	".textconv": "", ".command": "", ".driver": "",
}

// driverKeysRE selects the driver settings programKeys blanks, and
// core.worktree (which moot refuses: see ErrRedirected).
const driverKeysRE = `^((filter|diff|merge)\..*\.(clean|smudge|process|required|textconv|command|driver)|core\.worktree)$`

// ErrRedirected is a git configuration that sets core.worktree: git would
// read and name the files of another folder (any folder of the machine)
// as the repository's, so moot refuses to run git there.
var ErrRedirected = errors.New("sets core.worktree, which points git at another folder's files; moot reads a change only in the work tree it runs in: remove the setting (git config --unset core.worktree)")

// diffFlags are given to the commands that can diff: no external diff, no
// textconv, whatever the configuration or the attributes say.
var diffFlags = map[string][]string{
	"diff": {"--no-ext-diff", "--no-textconv"},
	"log":  {"--no-ext-diff", "--no-textconv", "--no-show-signature"},
	"show": {"--no-ext-diff", "--no-textconv", "--no-show-signature"},
}

// drivers caches, per folder, the driver settings its configuration
// defines, or ErrRedirected (one `git config` read per folder and process).
var drivers sync.Map // dir → [][2]string or error

// Output runs git with args in dir, its configuration neutralised, and
// returns its stdout. The error names the command and dir and carries
// git's last line on stderr.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return Input(ctx, dir, nil, args...)
}

// Input is Output with stdin.
func Input(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("git in %s: no command", dir)
	}
	extra := neutral
	ds, err := driverSettings(ctx, dir)
	switch {
	case errors.Is(err, ErrRedirected):
		return nil, fmt.Errorf("the git configuration of %s %w", dir, err)
	case err == nil:
		extra = append(append([][2]string(nil), neutral...), ds...)
	}
	full := append([]string{"--no-pager", args[0]}, diffFlags[args[0]]...)
	full = append(full, args[1:]...)
	return run(ctx, dir, stdin, extra, full)
}

// driverSettings lists the configuration's driver settings that name a
// program (programKeys), each paired with its neutral value.
func driverSettings(ctx context.Context, dir string) ([][2]string, error) {
	if v, ok := drivers.Load(dir); ok {
		if err, ok := v.(error); ok {
			return nil, err
		}
		return v.([][2]string), nil
	}
	out, err := run(ctx, dir, nil, neutral, []string{"--no-pager", "config", "--null", "--name-only", "--get-regexp", driverKeysRE})
	if err != nil {
		// exit 1 is "no such key": no driver is defined
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return nil, err
		}
		out = nil
	}
	var ds [][2]string
	for _, k := range strings.Split(string(out), "\x00") {
		k = strings.TrimSpace(k)
		if k == "core.worktree" {
			drivers.Store(dir, ErrRedirected)
			return nil, ErrRedirected
		}
		for suffix, v := range programKeys {
			if k != "" && strings.HasSuffix(k, suffix) {
				ds = append(ds, [2]string{k, v})
			}
		}
	}
	drivers.Store(dir, ds)
	return ds, nil
}

// runError is a failed git call: its message, and the process's error.
type runError struct {
	msg string
	err error
}

func (e *runError) Error() string { return e.msg }
func (e *runError) Unwrap() error { return e.err }

// run runs git with args in dir and settings as its command-line
// configuration.
func run(ctx context.Context, dir string, stdin io.Reader, settings [][2]string, args []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = environ(settings)
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg == "" {
			msg = err.Error()
		}
		cmdName := args[0]
		if cmdName == "--no-pager" && len(args) > 1 {
			cmdName = args[1]
		}
		return out, &runError{msg: fmt.Sprintf("git %s in %s: %s", cmdName, dir, msg), err: err}
	}
	return out, nil
}

// environ is moot's environment without the variables that would hand
// git a program or settings of their own (an external diff, a pager,
// inherited -c settings; the user's choice of configuration files,
// GIT_CONFIG_GLOBAL and GIT_CONFIG_NOSYSTEM, stays), plus settings as
// git's command-line configuration.
func environ(settings [][2]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_CONFIG_COUNT", strings.HasPrefix(name, "GIT_CONFIG_KEY_"),
			strings.HasPrefix(name, "GIT_CONFIG_VALUE_"), name == "GIT_CONFIG_PARAMETERS",
			name == "GIT_EXTERNAL_DIFF", name == "GIT_PAGER", name == "PAGER",
			name == "GIT_SSH", name == "GIT_SSH_COMMAND", name == "GIT_ASKPASS", name == "GIT_EDITOR":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_NO_LAZY_FETCH=1",
		"GIT_CONFIG_COUNT="+strconv.Itoa(len(settings)))
	for i, s := range settings {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+s[0], "GIT_CONFIG_VALUE_"+n+"="+s[1])
	}
	return env
}
