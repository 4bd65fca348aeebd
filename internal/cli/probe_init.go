package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

func (c *Command) probeInitCmd() *cobra.Command {
	var server, out, seed string
	var force bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "init --server CMD -o DEF.toml",
		Short: "Start a server, list its tools and write a definition to fill in",
		Long: `init starts the server once, lists its tools and writes a probe definition:
the command, an adapter (read from --seed when given: its kind, region and
the key that identifies a record; else placeholders), and one [[tools]] entry
per tool with a placeholder for every required argument and the hints the
tool declared as a comment. Every placeholder starts with TODO(, and a
definition holding one refuses to load, so the skeleton cannot run before you
decide what it compares.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the definition is written"),
			exitcode.Means(exitcode.Usage, "bad invocation, an existing file without --force, a server that does not start or list its tools, or an output that cannot be written"),
		),
		Example: `  mcpverdict probe init --server "node dist/index.js" -o probe.toml
  mcpverdict probe init --server "node dist/index.js" --seed memory.jsonl -o probe.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return exitcode.New(exitcode.Usage, "probe init needs -o DEF.toml")
			}
			if _, err := os.Stat(out); err == nil && !force {
				return exitcode.New(exitcode.Usage, "%s exists; pass --force to replace it", out)
			}
			argv, err := c.serverArgv(server)
			if err != nil {
				return err
			}
			text, err := probe.Init(cmd.Context(), argv, probe.InitOptions{Timeout: timeout, Seed: seed, Output: out})
			if err != nil {
				return exitcode.New(exitcode.Usage, "probe init: %v", err)
			}
			if err := outfile.WriteFileAll(out, text); err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			fmt.Fprintf(c.Stderr, "mcpverdict: wrote %s; replace its TODO( values, then run 'mcpverdict probe verify-reset %s'\n", out, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "the stdio server command (quotes group words; no shell expansion); default: the built-in example server")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the definition file to write")
	cmd.Flags().StringVar(&seed, "seed", "", "the state to reset from (.jsonl/.ndjson, .json, .sql, or a folder): the adapter's kind is inferred from it and, for JSON and JSON Lines, its region and key from its records")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing file")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long start-up, initialize and listing may take")
	return cmd
}

func (c *Command) probeVerifyResetCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify-reset DEF.toml",
		Short: "Seed the definition's state twice and check the two snapshots are identical",
		Long: `verify-reset loads the definition (strictly: a bad key, a placeholder left in,
a seed that fails or a mask that matches nothing is an error naming the file
and key), seeds its state into two fresh directories and compares the
normalized snapshots.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the two snapshots are identical"),
			exitcode.Means(exitcode.Fail, "they differ: every probe verdict would be RESET_UNVERIFIED"),
			exitcode.Means(exitcode.Usage, "bad invocation, a bad definition, or a seeded state that cannot be observed"),
		),
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			def, err := probe.Load(args[0])
			if err != nil {
				return probeError(err)
			}
			check, err := probe.VerifyReset(def)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			return c.reportReset(def, check)
		},
	}
}

func (c *Command) reportReset(def *probe.Definition, check probe.ResetCheck) error {
	switch {
	case check.Error != "":
		return exitcode.New(exitcode.Usage, "%s: the seeded state cannot be observed: %s", def.Path, check.Error)
	case check.Verified:
		fmt.Fprintf(c.Stdout, "%s: reset verified: two resets from the seed left identical state\n", def.Path)
		return nil
	}
	fmt.Fprintf(c.Stdout, "%s: reset UNVERIFIED: two resets differ in %d record(s)\n", def.Path, len(check.Differences))
	for _, d := range check.Differences {
		fmt.Fprintf(c.Stdout, "  %s %s %s: %s -> %s\n", d.Region, d.Kind, d.Key, d.Before, d.After)
	}
	return exitWith(exitcode.Fail)
}
