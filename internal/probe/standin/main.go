// Command standin stands in for mcpverdict as the probe's {self} in tests:
// it has only the two subcommands the probe re-runs, `probe fixture-server
// NAME` and `probe sandbox ...`, so it starts in a few milliseconds where
// the full mcpverdict spends more initializing everything else, and the
// fixture suite starts well over a thousand processes.
package main

import (
	"fmt"
	"os"

	"github.com/mcpverdict/mcpverdict/corpus/probe/fixtures"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

func main() {
	args := os.Args[1:]
	switch {
	case len(args) == 3 && args[0] == "probe" && args[1] == "fixture-server":
		os.Exit(fixtures.Run(args[2]))
	case len(args) >= 2 && args[0] == "probe" && args[1] == "sandbox":
		os.Exit(probe.SandboxMain(args[2:]))
	}
	fmt.Fprintln(os.Stderr, "usage: standin probe fixture-server NAME | probe sandbox ...")
	os.Exit(2)
}
