// Command genregister writes a generated register of N bugs, each with a
// finished debate, for trying the browser and `moot list` at scale
// (scripts/tmux-browser):
//
//	go run ./internal/genregister [-shape recorded|hand|mixed] DIR N
//
// The hand shape has hand-written final answers without the summary
// fields (no winner_solver, no totals) and no event log.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/reversa/moot/internal/testutil"
)

func main() {
	shapeName := flag.String("shape", "recorded", "recorded, hand (final answers without summary fields) or mixed")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: genregister [-shape recorded|hand|mixed] DIR N")
		os.Exit(2)
	}
	shape, err := testutil.ParseShape(*shapeName)
	if err != nil {
		fmt.Fprintf(os.Stderr, "genregister: %v\n", err)
		os.Exit(2)
	}
	n, err := strconv.Atoi(flag.Arg(1))
	if err != nil || n < 1 {
		fmt.Fprintf(os.Stderr, "genregister: N must be a positive number, not %q\n", flag.Arg(1))
		os.Exit(2)
	}
	if err := testutil.GenerateRegisterShape(flag.Arg(0), n, shape); err != nil {
		fmt.Fprintf(os.Stderr, "genregister: %v\n", err)
		os.Exit(1)
	}
}
