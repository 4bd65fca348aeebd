// Command mcpverdict checks that an MCP server does what the specification and
// its own declarations say. See the README for the subcommands.
package main

import (
	"os"

	"github.com/mcpverdict/mcpverdict/internal/cli"
)

func main() {
	cmd := cli.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	os.Exit(cmd.Main(os.Args[1:]))
}
