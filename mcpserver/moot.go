package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The exit codes of moot's commands (docs/cli.md), as the tools read them.
const (
	exitOK        = 0
	exitUsage     = 2
	exitCancelled = 3
	exitNeedHuman = 4
)

// stopGrace is how long a moot command has to stop after the interrupt a
// cancelled tool call sends it, before its process group is killed.
const stopGrace = 30 * time.Second

// outcome is how a moot command ended.
type outcome struct {
	code           int
	stdout, stderr string
}

// message is the command's own words for why it stopped: its stderr
// without the "moot: " each line starts with, as the CLI printed it.
func (o outcome) message() string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(o.stderr), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "moot: ")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// lastLine is the command's last line on stderr: its exit line.
func (o outcome) lastLine() string {
	m := o.message()
	return m[strings.LastIndex(m, "\n")+1:]
}

// commander runs moot's own commands: the same binary, in the project
// folder, each in a process group of its own, so a tool does exactly what
// the command line does (its checks, its messages, its files).
type commander struct {
	exe string
	dir string
}

// run runs moot with args; each stdout line goes to onLine as it comes
// (when set). A cancelled ctx interrupts the command as Ctrl-C does, then
// kills its group after stopGrace.
func (c commander) run(ctx context.Context, args []string, onLine func(string)) (outcome, error) {
	cmd := exec.CommandContext(ctx, c.exe, args...)
	cmd.Dir = c.dir
	cmd.Stdin = nil // never the server's stdin: that is the MCP stream
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = stopGrace
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return outcome{}, fmt.Errorf("moot %s: %w", args[0], err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.E2BIG) {
			return outcome{}, fmt.Errorf("moot %s: an input is too long (%d bytes) for a command line, which carries at most 128 KiB an argument; nothing was run or written (a question is at most 16384 bytes: put the rest in an evidence file)", args[0], longest(args))
		}
		return outcome{}, fmt.Errorf("start moot %s: %w", args[0], err)
	}
	var stdout strings.Builder
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		stdout.WriteString(line + "\n")
		if onLine != nil {
			onLine(line)
		}
	}
	_, _ = io.Copy(io.Discard, out)
	err = cmd.Wait()
	// whatever the command left in its group goes with it
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	o := outcome{stdout: stdout.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		o.code = ee.ExitCode()
	case ctx.Err() != nil:
		o.code = exitCancelled
	default:
		return o, fmt.Errorf("moot %s: %w", args[0], err)
	}
	return o, nil
}

// longest is the length of the longest argument.
func longest(args []string) int {
	n := 0
	for _, a := range args {
		n = max(n, len(a))
	}
	return n
}

// flagArgs turns a tool's input into the command's flags, as its struct
// declares them: each field tagged flag:"--name" becomes that flag when
// set (a string not empty, a list once per item, a number given, a bool
// true).
func flagArgs(in any) []string {
	var args []string
	v := reflect.ValueOf(in)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		flag := t.Field(i).Tag.Get("flag")
		if flag == "" {
			continue
		}
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			if s := f.String(); s != "" {
				args = append(args, flag, s)
			}
		case reflect.Slice:
			for j := 0; j < f.Len(); j++ {
				args = append(args, flag, f.Index(j).String())
			}
		case reflect.Bool:
			if f.Bool() {
				args = append(args, flag)
			}
		case reflect.Pointer:
			if f.IsNil() {
				continue
			}
			switch e := f.Elem(); e.Kind() {
			case reflect.Int:
				args = append(args, flag, strconv.FormatInt(e.Int(), 10))
			case reflect.Float64:
				args = append(args, flag, strconv.FormatFloat(e.Float(), 'f', -1, 64))
			}
		}
	}
	return args
}
