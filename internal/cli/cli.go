// Package cli is the mcpverdict command line: one cobra command per
// subcommand, built afresh for each invocation over injected standard streams
// so that tests run it in-process exactly as main does.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// Command runs mcpverdict with the streams and environment it is given.
type Command struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// rawStderr is Stderr before Main guarded it: the one stream that must
	// pass a wrapped server's stderr on byte for byte (capture stdio).
	rawStderr io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Context, when set, bounds long-running subcommands; nil means Background.
	Context context.Context
}

// Main runs the command line args (without the program name) and returns the
// exit status.
func (c *Command) Main(args []string) int {
	collectLessOften()
	// Everything mcpverdict says on stderr may quote the peer under test,
	// and a CI runner reads workflow commands from it: every line is
	// guarded (wiretext.Guard), whatever a message forgot to quote.
	guarded := wiretext.Guard(c.Stderr)
	defer guarded.Flush()
	run := *c
	run.rawStderr, run.Stderr = c.Stderr, guarded
	return run.main(args)
}

func (c *Command) main(args []string) int {
	root := c.root()
	root.SetArgs(args)
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitcode.OK
	}
	var silent *silentExit
	if !errors.As(err, &silent) {
		fmt.Fprintf(c.Stderr, "mcpverdict: %s\n", wiretext.Visible(firstLine(err.Error())))
	}
	return exitcode.Of(err)
}

func (c *Command) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpverdict",
		Short: "Check that an MCP server does what the specification and its own declarations say",
		Long: `mcpverdict records MCP sessions byte for byte, judges them clause by clause
against the specification revision they negotiated, and reports with evidence
an auditor can check.

The commands that judge (validate and check) exit with one of the statuses
below. The other commands give the same codes the narrower meanings their own
help lists, except capture stdio, which exits with the wrapped server's own
status.

` + exitcode.Section(exitcode.Table()...),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       VersionString(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetIn(c.Stdin)
	root.SetOut(c.Stdout)
	root.SetErr(c.Stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return exitcode.New(exitcode.Usage, "%v (see %s --help)", err, cmd.CommandPath())
	})
	root.AddCommand(
		c.versionCmd(),
		c.captureCmd(),
		c.exampleServerCmd(),
		c.validateCmd(),
		c.requirementsCmd(),
		c.checkCmd(),
		c.actionCmd(),
		c.schemaCmd(),
		c.ledgerCmd(),
		c.evidenceCmd(),
		c.contractCmd(),
		c.probeCmd(),
		c.serveCmd(),
		c.mergeCmd(),
	)
	for _, sub := range root.Commands() {
		sub.Args = wrapArgs(sub.Args)
	}
	return root
}

// Tree returns the command tree as the binary builds it, with what cobra
// adds only when it executes (the completion command, --version), for the
// reference pages in docs/cli/ (go run ./internal/devtools/gencli).
func Tree() *cobra.Command {
	c := &Command{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	root := c.root()
	root.InitDefaultVersionFlag()
	root.InitDefaultCompletionCmd()
	return root
}

// silentExit ends the command with a status and no message of its own, for
// commands (capture) whose status belongs to someone else.
type silentExit struct{ code int }

func (s *silentExit) Error() string { return fmt.Sprintf("exit status %d", s.code) }

func exitWith(code int) error {
	if code == 0 {
		return nil
	}
	return &exitcode.Error{Code: code, Err: &silentExit{code: code}}
}

// wrapArgs makes positional-argument errors exit with the usage status.
func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		return nil
	}
	return func(cmd *cobra.Command, args []string) error {
		return exitcode.Wrap(exitcode.Usage, check(cmd, args))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// serverStderr is where capture stdio passes the wrapped server's stderr:
// unchanged, as the server wrote it, since the wrapper is transparent.
func (c *Command) serverStderr() io.Writer {
	if c.rawStderr != nil {
		return c.rawStderr
	}
	return c.Stderr
}
