package cli

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/mcpserver"
)

const mcpLong = `Serve moot's tools to a coding agent (Claude Code, Codex, Gemini CLI…) over
the Model Context Protocol, on stdin and stdout: list, plan, run, status, result
and review (docs/mcp.md). Every tool runs moot's own commands in the project
folder (--dir, default the working folder) with the engines file you name
(--config; an agent's call never names one, since an engines file says which
commands run), so an agent's run writes the same
folders and passes the same checks as yours: plan writes nothing, run needs the
plan accepted in the call (accept_plan, as --yes), and a restricted or closed
bug is refused with the command line's message.

Supervision stays human: an engineer watches an agent's run live in moot's
terminal UI; at a menu (quorum lost, judge failed, budget cap) the run waits
for the engineer (moot, or moot resume) unless the call named a policy; and a
decision on a result is recorded only with moot decide or the TUI.

Register it with the agent, for example:
  claude mcp add moot -- moot mcp
  codex mcp add moot -- moot mcp`

func newMCPCmd(e *env) *cobra.Command {
	var dir, config string
	cmd := &cobra.Command{
		Use:   "mcp [--dir PROJECT] [--config FILE]",
		Short: "Serve moot's tools to coding agents over MCP (stdio)",
		Long:  mcpLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				dir = e.cwd
			}
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(e.cwd, dir)
			}
			// every tool runs moot in it: a folder that is not there would
			// fail each call with "fork/exec …: no such file or directory"
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return usageErr("--dir %s: not a folder; give the project folder the tools run in", dir)
			}
			if config != "" {
				if !filepath.IsAbs(config) {
					config = filepath.Join(e.cwd, config)
				}
				if fi, err := os.Stat(config); err != nil || !fi.Mode().IsRegular() {
					return usageErr("--config %s: not a file; give the engines file the tools use", config)
				}
			}
			ctx, cancel := signalContext()
			defer cancel()
			return mcpserver.Serve(ctx, mcpserver.Options{Dir: dir, Config: config, Version: version()})
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the project folder the tools run in (default: the working folder)")
	cmd.Flags().StringVar(&config, "config", "", "the engines file every tool uses (default: the register's moot.yaml, else yours); an agent never names one")
	return cmd
}
