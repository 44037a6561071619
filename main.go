// Command moot runs supervised LLM debates over the bugs of a Reversa bug
// register. See README.md and `moot help`.
package main

import (
	"embed"
	"os"

	"github.com/reversa/moot/cli"
	"github.com/reversa/moot/internal/initgc"
)

// assets are what `moot demo` needs with only the binary: the sample
// register and the recorded debate, council and argue it replays.
//
//go:embed all:testdata/sample testdata/demo/cassette.yaml testdata/demo/council-cassette.yaml testdata/demo/argue-cassette.yaml
var assets embed.FS

func main() {
	initgc.Restore()
	cli.Assets = assets
	os.Exit(cli.Main(os.Args[1:]))
}
