// Package cli is moot's command line: it parses commands, loads the
// register and the engines file, and hands work to the engine (headless) or
// the TUI. Exit codes follow docs/cli.md.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
)

// Exit codes (docs/cli.md).
const (
	ExitOK        = 0
	ExitInternal  = 1
	ExitUsage     = 2
	ExitCancelled = 3
	ExitNeedHuman = 4
)

// Version is moot's version, set at build time with
// -ldflags "-X github.com/reversa/moot/cli.Version=v1.2.3".
var Version = ""

// version returns the build's version: the ldflags value, else the module
// version or VCS revision recorded by the Go toolchain, else "dev".
func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}

// exitError carries a chosen exit code up to Main.
type exitError struct {
	code int
	err  error
	// quiet is set when the message was already printed.
	quiet bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErr is bad usage: exit 2.
func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// withCode wraps err with an exit code.
func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// env is what commands need from the process, so tests can run them in
// process with their own streams and working folder.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cwd    string
	getenv func(string) string
	// resumeConfig is this command's explicit --config, repeated in the
	// `moot resume` advice it prints.
	resumeConfig string
	// reservedQuestions are the question folders the TUI's wizard
	// reserved (askForWizard): those no debate started in are removed.
	reservedQuestions []string
	// uiSend sends to the TUI runProgram runs (nil before it runs): a
	// review the wizard started asks its budget menu through it.
	uiSend func(tea.Msg)
}

// Main runs moot with args (without the program name) and returns the
// exit code.
func Main(args []string) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "moot: cannot read the working folder: %v\n", err)
		return ExitInternal
	}
	// everything moot prints (warnings, progress, the exit line, list,
	// show) passes the one sanitizer, whichever name it formats
	e := &env{stdin: os.Stdin, stdout: termsafe.NewWriter(os.Stdout), stderr: termsafe.NewWriter(os.Stderr), cwd: cwd, getenv: os.Getenv}
	// descendants of engines that leave their process group are reparented
	// to moot, and whatever is still its child when it leaves is killed
	_ = harness.BecomeSubreaper()
	defer harness.KillChildren()
	// the calls' scratch folders are removed off the calls' paths; none
	// outlives moot
	defer harness.WaitRemovals()
	return run(e, args)
}

// run executes one command line in an env and maps its error to an exit code.
func run(e *env, args []string) int {
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	err := root.Execute()
	return report(e, err)
}

// report prints err (once) and returns its exit code.
func report(e *env, err error) int {
	if err == nil {
		return ExitOK
	}
	var xe *exitError
	if errors.As(err, &xe) {
		if !xe.quiet && xe.err != nil {
			fmt.Fprintf(e.stderr, "moot: %s\n", termsafe.Text(xe.err.Error()))
		}
		return xe.code
	}
	if bugfolder.IsInputError(err) {
		fmt.Fprintf(e.stderr, "moot: %s\n", termsafe.Text(err.Error()))
		return ExitUsage
	}
	if isCobraUsage(err) {
		fmt.Fprintf(e.stderr, "moot: %s\n(moot help shows the commands and flags)\n", termsafe.Text(err.Error()))
		return ExitUsage
	}
	fmt.Fprintf(e.stderr, "moot: internal error: %s\n", termsafe.Text(err.Error()))
	return ExitInternal
}

// isCobraUsage recognises cobra's own usage errors (unknown command or flag,
// wrong number of arguments).
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "requires at most", "requires exactly", "bad flag syntax", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

const rootLong = `moot runs supervised LLM debates over the bugs of a Reversa bug register
(_reversa_bugs/<context>/bugs/<ID>/): N independent solvers answer in round 0
and R more rounds, each reading only the frozen snapshot of the last, then an
isolated, anonymizing judge writes the final synthesis. Every step is written
into the bug's debate/ folder in the protocol's format, so any debate can be
resumed or audited.

BUG is a path to a bug folder, a bug ID, or a display number, looked up under
the first _reversa_bugs/ found in the working folder or above it.

Exit codes: 0 done, 1 moot failed, 2 bad usage/config/input (nothing written),
3 cancelled (kept, resumable), 4 needs a human decision (kept, resumable).`

func newRoot(e *env) *cobra.Command {
	var browserConfig string
	root := &cobra.Command{
		Use:           "moot",
		Short:         "Supervised LLM debates over registered bugs",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBrowser(e, browserConfig)
		},
		Version: version(),
	}
	// the browser's engines file, as run's: the wizard's engines and a
	// resume (r) use it
	root.Flags().StringVar(&browserConfig, "config", "", "engines file (default: moot.yaml in the _reversa_bugs/ root, then $XDG_CONFIG_HOME/moot/moot.yaml)")
	root.SetVersionTemplate("moot {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("%v (see moot help %s)", err, c.Name())
	})
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(
		newListCmd(e),
		newShowCmd(e),
		newPlanCmd(e),
		newRunCmd(e),
		newResumeCmd(e),
		newAskCmd(e),
		newEnginesCmd(e),
		newDemoCmd(e),
		newTrustCmd(e),
		newDecideCmd(e),
		newTranscriptCmd(e),
		newReviewCmd(e),
		newMCPCmd(e),
		&cobra.Command{
			Use:   "version",
			Short: "Print moot's version",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				fmt.Fprintf(e.stdout, "moot %s\n", version())
				return nil
			},
		},
	)
	return root
}
