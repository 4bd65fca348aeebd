package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/reporters"
)

type checkFlags struct {
	judgeFlags
	server      string
	outDir      string
	call        string
	stepTimeout time.Duration
	evidence    evidenceFlags
}

func (c *Command) checkCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [--server CMD] [flags]",
		Short: "Drive a server through every capability it declares, record the session, judge it and report",
		Long: `check starts the server (stdio), drives it with mcpverdict's own client through
every capability the server declares, records the session byte for byte, judges
it clause by clause and prints the report. With no --server it checks the
example server built into mcpverdict.

Everything lands in --out: the trace (and its .stderr), report.json and
report.txt. Exit status as validate: 0 pass, 1 a clause failed, 2 bad
invocation or the server could not be driven, 3 a malformed trace.`,
		Example: `  mcpverdict check
  mcpverdict check --server "npx -y @modelcontextprotocol/server-everything"
  mcpverdict check --server "python server.py" --call all --party server`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runCheck(cmd.Context(), &f, startRun(cmd))
		},
	}
	f.judgeFlags.register(cmd)
	f.evidence.register(cmd)
	cmd.Flags().Lookup("output").Usage = "also write the report in --format to FILE"
	cmd.Flags().StringVar(&f.server, "server", "", "the stdio server command to check (default: the built-in example server)")
	cmd.Flags().StringVar(&f.outDir, "out", "mcpverdict-out", "directory for the traces and reports")
	cmd.Flags().StringVar(&f.call, "call", "read-only", "which tools to call: read-only (declared readOnlyHint: true), all, none")
	cmd.Flags().DurationVar(&f.stepTimeout, "step-timeout", 10*time.Second, "how long each request may take before the server counts as hung")
	return cmd
}

func (c *Command) runCheck(ctx context.Context, f *checkFlags, start runStart) error {
	opts, err := c.judgeOptions(&f.judgeFlags)
	if err != nil {
		return err
	}
	argv, err := c.serverArgv(f.server)
	if err != nil {
		return err
	}
	policy, err := callPolicy(f.call)
	if err != nil {
		return err
	}
	revision := spec.Newest()
	if len(f.revisions) > 0 {
		revision = f.revisions[0]
	}
	if len(f.revisions) == 0 {
		revision = "2025-11-25" // the handshake every released server speaks
	}
	tracePath := filepath.Join(f.outDir, "session-stdio-"+revision+".jsonl")
	if err := c.driveStdio(ctx, argv, tracePath, driver.Options{Revision: revision, Call: policy, StepTimeout: f.stepTimeout}); err != nil {
		return err
	}
	report, err := judgeFiles([]string{tracePath}, opts, f.maxLine)
	if err != nil {
		return err
	}
	if err := c.writeCheckReports(report, f); err != nil {
		return err
	}
	drift, err := c.recordEvidence(&f.evidence, f.outDir, []string{tracePath}, report, start)
	if err != nil {
		return err
	}
	if err := reportStatus(report); err != nil {
		return err
	}
	return driftStatus(drift)
}

func (c *Command) serverArgv(server string) ([]string, error) {
	if server == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, exitcode.New(exitcode.Usage, "cannot find the mcpverdict binary to run its example server: %v", err)
		}
		return []string{exe, "example-server"}, nil
	}
	argv, err := splitCommand(server)
	if err != nil || len(argv) == 0 {
		return nil, exitcode.New(exitcode.Usage, "--server %q is not a command line: %v", server, err)
	}
	return argv, nil
}

func callPolicy(s string) (driver.CallPolicy, error) {
	switch p := driver.CallPolicy(s); p {
	case driver.CallReadOnly, driver.CallAll, driver.CallNone:
		return p, nil
	}
	return "", exitcode.New(exitcode.Usage, `unknown --call %q: choose "read-only", "all" or "none"`, s)
}

// driveStdio runs the server through the capture wrapper, the driver on the
// client side of the wrapper's pipes, and writes the trace.
func (c *Command) driveStdio(ctx context.Context, argv []string, tracePath string, opts driver.Options) error {
	tf, err := createTrace(tracePath)
	if err != nil {
		return err
	}
	defer tf.Close()
	stderrLog, err := os.Create(tracePath + ".stderr")
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot write %s: %v", tracePath+".stderr", unwrapPath(err))
	}
	defer stderrLog.Close()
	w := trace.NewWriter(tf)
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		status, err := capture.RunStdio(ctx, capture.StdioConfig{
			Command: argv, Stdin: toServerR, Stdout: fromServerW, StderrLog: stderrLog, Recorder: w,
			CloseGrace: 2 * time.Second, TermGrace: 2 * time.Second,
		})
		fromServerW.Close()
		if err == nil && status.Code != 0 && status.Signal == "" {
			err = fmt.Errorf("the server exited with status %d (see %s.stderr)", status.Code, tracePath)
		}
		done <- err
	}()
	opts.Progress = func(step string) { fmt.Fprintf(c.Stderr, "mcpverdict: %s: %s\n", filepath.Base(tracePath), step) }
	res, driveErr := driver.Run(ctx, driver.NewStdioConn(toServerW, fromServerR), opts)
	runErr := <-done
	w.Close()
	for _, n := range res.Notes {
		fmt.Fprintf(c.Stderr, "mcpverdict: note: %s\n", n)
	}
	return c.driveOutcome(tracePath, driveErr, runErr)
}

func (c *Command) driveOutcome(tracePath string, driveErr, runErr error) error {
	if driveErr == nil {
		if runErr != nil {
			fmt.Fprintf(c.Stderr, "mcpverdict: note: %v\n", runErr)
		}
		return nil
	}
	if runErr != nil {
		driveErr = fmt.Errorf("%w; %v", driveErr, runErr)
	}
	if strings.Contains(driveErr.Error(), "handshake") || driveErr == driver.ErrHung {
		fmt.Fprintf(c.Stderr, "mcpverdict: the session ended early: %v (trace: %s)\n", driveErr, tracePath)
		return nil // the trace is still judged: what the server did is evidence
	}
	return exitcode.New(exitcode.Usage, "could not drive the server: %v (trace: %s)", driveErr, tracePath)
}

// writeCheckReports prints the chosen format and keeps report.json and
// report.txt in the output directory.
func (c *Command) writeCheckReports(report *judge.Report, f *checkFlags) error {
	for name, file := range map[string]string{"json": "report.json", "text": "report.txt"} {
		rep, _ := reporters.Get(name)
		if err := writeRendered(rep, report, filepath.Join(f.outDir, file), f.all); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	rep, err := reporters.Get(f.format)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	return c.writeReport(rep, report, &f.judgeFlags)
}
