// Command moot runs supervised LLM debates over the bugs of a Reversa bug
// register. See README.md and `moot help`.
package main

import (
	"os"

	"github.com/reversa/moot/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
