package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func (c *Command) contractCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contract",
		Short: "Lock the tools' contracts, so that a run shows when one changes",
		Long: `contract keeps a lockfile of the contract of every tool a server lists (its
declaration and the hash of it). Write it with 'contract lock' and commit it;
'check --contract' then reports every tool added, removed or changed since,
field by field, and 'evidence validate --declared' reads the same file.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(c.contractLockCmd())
	return cmd
}

type contractLockFlags struct {
	server      string
	output      string
	recipe      string
	stepTimeout time.Duration
}

func (c *Command) contractLockCmd() *cobra.Command {
	var f contractLockFlags
	cmd := &cobra.Command{
		Use:   "lock [--server CMD | TRACE...] [-o mcp-contract.json]",
		Short: "Record every tool's contract in a lockfile",
		Long: `lock records the contract of every tool the server lists: its declaration,
kept whole so that a later change can be shown field by field, and its hash
under the recipe (3 by default). It lists the tools by starting --server (or
the built-in example server) and asking, or reads them from recorded traces.
The lockfile is a declaration manifest in mcp-evidence-validator's format, so
evidence validate --declared reads it too. Commit it; check --contract then
reports every change against it.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the lockfile is written"),
			exitcode.Means(exitcode.Usage, "bad invocation, no tools found, or an output that cannot be written"),
		),
		Example: `  mcpverdict contract lock --server "node dist/index.js" -o mcp-contract.json
  mcpverdict contract lock -o mcp-contract.json traces/*.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runContractLock(cmd.Context(), &f, args)
		},
	}
	cmd.Flags().StringVar(&f.server, "server", "", "the stdio server command to list tools from (default: the built-in example server)")
	cmd.Flags().StringVarP(&f.output, "output", "o", "mcp-contract.json", "where to write the lockfile")
	cmd.Flags().StringVar(&f.recipe, "recipe", string(evidence.LockRecipe), "the contract recipe: 1, 2 or 3")
	cmd.Flags().DurationVar(&f.stepTimeout, "step-timeout", 10*time.Second, "how long each request may take before the server counts as hung")
	return cmd
}

func (c *Command) runContractLock(ctx context.Context, f *contractLockFlags, traces []string) error {
	recipe, err := evidence.ParseRecipe(f.recipe)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--recipe: %w", err))
	}
	if f.server != "" && len(traces) > 0 {
		return exitcode.New(exitcode.Usage, "give --server or traces, not both")
	}
	if len(traces) == 0 {
		if traces, err = c.recordToolList(ctx, f); err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(traces[0]))
	}
	server, tools, err := toolsFromTraces(traces)
	if err != nil {
		return err
	}
	lock, err := evidence.Lock(server, tools, recipe)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if err := evidence.WriteLock(f.output, lock); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	locked, _ := lock.Get("tools")
	fmt.Fprintf(c.Stderr, "mcpverdict: locked %d tools under recipe %s in %s\n", len(locked.Items), recipe, f.output)
	return nil
}

// recordToolList drives the server (calling no tool) into a temporary trace.
func (c *Command) recordToolList(ctx context.Context, f *contractLockFlags) ([]string, error) {
	argv, err := c.serverArgv(f.server)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "mcpverdict-lock-")
	if err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot make a temporary directory: %v", err)
	}
	tracePath := filepath.Join(dir, "session-stdio-2025-11-25.jsonl")
	opts := driver.Options{Revision: "2025-11-25", Call: driver.CallNone, StepTimeout: f.stepTimeout}
	if err := c.driveStdio(ctx, argv, tracePath, opts); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return []string{tracePath}, nil
}

func toolsFromTraces(paths []string) (string, []canon.Value, error) {
	var server string
	var tools []canon.Value
	for _, p := range paths {
		events, err := trace.ReadFile(p)
		if err != nil && len(events) == 0 {
			return "", nil, exitcode.New(exitcode.Usage, "cannot read the trace %s: %v", p, err)
		}
		if server == "" {
			server = evidence.ServerName(events)
		}
		tools = append(tools, evidence.ServedTools(events)...)
	}
	if len(tools) == 0 {
		return "", nil, exitcode.New(exitcode.Usage, "no tools/list result in %v: nothing to lock", paths)
	}
	return server, tools, nil
}
