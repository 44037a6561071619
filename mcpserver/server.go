// Package mcpserver is `moot mcp`: a Model Context Protocol server over
// stdio that lets a coding agent list the register, price a debate, run
// one (or ask a question), follow it, read its result and review a change.
// Every tool runs moot's own commands (the same binary, in the project
// folder), so an agent's run writes the same folders, passes the same
// checks and fails with the same messages as the command line; a human
// watches it in the TUI and answers its menus there (docs/mcp.md).
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the server.
type Options struct {
	// Exe is the moot binary the tools run (os.Executable in `moot mcp`).
	Exe string
	// Dir is the project folder the tools run in.
	Dir string
	// Version is moot's version, announced to the client.
	Version string
	// Config is the engines file the engineer named when starting the
	// server (moot mcp --config); "" leaves moot its default. A tool's
	// input never names one: an engines file says which commands run, so
	// the human who starts the server chooses it, never the agent.
	Config string
}

// server holds what every tool shares.
type server struct {
	moot   commander
	dir    string
	config string
}

// withConfig is a command's first words, with the server's engines file
// when the engineer named one.
func (s *server) withConfig(words ...string) []string {
	if s.config != "" {
		words = append(words, "--config", s.config)
	}
	return words
}

// New builds the MCP server with moot's tools.
func New(o Options) *mcp.Server {
	s := &server{moot: commander{exe: o.Exe, dir: o.Dir}, dir: o.Dir, config: o.Config}
	srv := mcp.NewServer(&mcp.Implementation{Name: "moot", Title: "moot: supervised LLM debates over registered bugs", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	mcp.AddTool(srv, &mcp.Tool{Name: "list", Description: listDescription}, s.list)
	mcp.AddTool(srv, &mcp.Tool{Name: "plan", Description: planDescription}, s.plan)
	mcp.AddTool(srv, &mcp.Tool{Name: "run", Description: runDescription}, s.run)
	mcp.AddTool(srv, &mcp.Tool{Name: "status", Description: statusDescription}, s.status)
	mcp.AddTool(srv, &mcp.Tool{Name: "result", Description: resultDescription}, s.result)
	mcp.AddTool(srv, &mcp.Tool{Name: "review", Description: reviewDescription}, s.review)
	return srv
}

// Serve runs the server on stdin and stdout until the client leaves or
// ctx is done.
func Serve(ctx context.Context, o Options) error {
	if o.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find moot's own binary to run the tools: %w", err)
		}
		o.Exe = exe
	}
	return serve(ctx, o, os.Stdin, os.Stdout)
}

// serve runs the server on in and out; a line that is not a JSON-RPC
// message is answered with an error and costs that line only.
func serve(ctx context.Context, o Options, stdin io.Reader, stdout io.Writer) error {
	in, out := guardedStdio(stdin, stdout)
	if err := New(o).Run(ctx, &mcp.IOTransport{Reader: in, Writer: out}); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

const instructions = `moot runs supervised LLM debates over the bugs of a Reversa register (_reversa_bugs/) and questions, and blind reviews of changes. ` +
	`Call plan before run: it shows the calls and the cost and writes nothing; run needs accept_plan: true, the explicit acceptance of that cost. ` +
	`A run writes the bug's debate/ folder as moot run does, and an engineer may watch it live in moot's terminal UI. ` +
	`When a run reaches a menu (quorum lost, the judge failed, the budget cap) it waits for a human unless the call named a policy; ` +
	`a decision on a result (approve, decline, revise) is always a human's: result says when one is pending, and only moot decide or the TUI records it.`
