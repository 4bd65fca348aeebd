package cli

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/action"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

func (c *Command) actionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "action",
		Short: "Run as the GitHub Action: inputs from INPUT_*, context from GITHUB_*",
		Long: `action is the entrypoint of the container action (action.yml). It reads the
inputs (INPUT_SERVER, INPUT_URL, INPUT_TRACES, INPUT_FAIL-ON, ...) and the
workflow context (GITHUB_*), runs check (or validate, for traces) with every
report written into the output directory, appends the job summary, prints the
annotations, uploads the SARIF file to code scanning and the output directory
as an artifact where it can, writes the step outputs, and exits with the
status fail-on gives the verdict.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the gate passed"),
			exitcode.Means(exitcode.Fail, "the gate failed"),
			exitcode.Means(exitcode.Usage, "bad inputs or nothing judgeable (or a server that could not be driven)"),
			exitcode.Means(exitcode.Malformed, "a trace that could not be read whole"),
		),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			getenv := c.getenv
			if c.Getenv == nil {
				getenv = action.WithholdRunnerSecrets()
			}
			code := action.Run(cmd.Context(), action.Env{
				Getenv: getenv,
				Stdout: c.Stdout,
				Stderr: c.Stderr,
				HTTP:   &http.Client{Timeout: 2 * time.Minute},
				Run:    c.runNested,
			})
			return exitWith(code)
		},
	}
}

// runNested runs another mcpverdict command in this process, with this
// command's environment.
func (c *Command) runNested(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub := &Command{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: c.Getenv, Context: ctx}
	return sub.Main(args)
}
