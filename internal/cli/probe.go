package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/corpus/probe/fixtures"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

func (c *Command) probeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "Check each tool's readOnlyHint, destructiveHint, idempotentHint and openWorldHint against what it does",
		Long: `probe runs a server's tools against observable state (SQLite databases, files,
JSON and JSON Lines documents) from a verified reset and says, with evidence,
whether each declared hint holds. A TOML definition names the server, its
state and the tools to call; 'probe init' writes one to fill in.

The usual order is 'probe init' to write the definition, 'probe verify-reset'
to check its state resets the same way twice, then 'probe run'; each lists its
exit status. 'check --probe DEF.toml' runs the same probe after its sessions.`,
	}
	cmd.AddCommand(c.probeInitCmd(), c.probeVerifyResetCmd(), c.probeRunCmd(), c.probeSchemaCmd(),
		c.probeSandboxCmd(), c.probeFixtureServerCmd())
	return cmd
}

// probeError maps a probe error to its exit status: every error before a
// verdict (a *probe.DefError naming the file and key, bad options, an
// unwritable folder) is bad input, and no verdict is claimed.
func probeError(err error) error { return exitcode.Wrap(exitcode.Usage, err) }

func (c *Command) probeSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the probe's JSON report",
		Long: `schema prints the JSON Schema (draft 2020-12) that the report of 'probe run
--format json', and probe-report.json, conform to; 'schema print
probe-report' prints the same document.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := c.Stdout.Write(probe.ReportSchema)
			return exitcode.Wrap(exitcode.Usage, err)
		},
	}
}

// probeSandboxCmd is the network sandbox the probe runs servers in: the
// probe re-runs mcpverdict with it, so it is hidden from help.
func (c *Command) probeSandboxCmd() *cobra.Command {
	return &cobra.Command{
		Use: "sandbox --log FILE -- COMMAND [ARGS...] | --check", Hidden: true,
		Short:              "Run a command in a fresh network namespace recording every connection attempt",
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			return exitWith(probe.SandboxMain(args))
		},
	}
}

// probeFixtureServerCmd serves one of the probe's fixture servers, which
// their definitions start as {self}; hidden from help.
func (c *Command) probeFixtureServerCmd() *cobra.Command {
	return &cobra.Command{
		Use: "fixture-server NAME", Hidden: true,
		Short: "Serve one of the probe's fixture servers over stdio",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return exitWith(fixtures.Run(args[0]))
		},
	}
}
