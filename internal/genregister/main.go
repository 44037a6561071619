// Command genregister writes a generated register of N bugs, each with a
// finished debate, for trying the browser at scale (scripts/tmux-browser):
//
//	go run ./internal/genregister DIR N
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/reversa/moot/internal/testutil"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: genregister DIR N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 1 {
		fmt.Fprintf(os.Stderr, "genregister: N must be a positive number, not %q\n", os.Args[2])
		os.Exit(2)
	}
	if err := testutil.GenerateRegister(os.Args[1], n); err != nil {
		fmt.Fprintf(os.Stderr, "genregister: %v\n", err)
		os.Exit(1)
	}
}
