// Command refmoot runs the reference orchestrator (internal/refmoot) as
// its own process, so that the end-to-end benchmark compares two started
// processes: it reads a run (the engine's argv and environment, the
// folder, the stages with every call's prompt) as JSON from the file
// named by its one argument, runs it, and exits 0, or 1 with the error.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/reversa/moot/internal/refmoot"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "refmoot:", err)
		os.Exit(1)
	}
}

// run reads the run's JSON file and runs it.
func run(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: refmoot RUN.json")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return fmt.Errorf("read the run: %w", err)
	}
	var cfg refmoot.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return fmt.Errorf("read the run %s: %w", args[0], err)
	}
	return refmoot.Run(context.Background(), cfg)
}
