package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/reporters"
)

type probeRunFlags struct {
	tools     []string
	runs      int
	attempts  int
	outDir    string
	format    string
	output    string
	sarif     string
	junit     string
	category  string
	noSandbox bool
}

func (c *Command) probeRunCmd() *cobra.Command {
	var f probeRunFlags
	cmd := &cobra.Command{
		Use:   "run DEF.toml [--tool NAME[VARIANT]]... [flags]",
		Short: "Probe every tool of a definition and report each hint's verdict with its evidence",
		Long: `run resets the state from its seed twice (and stops with RESET_UNVERIFIED if
the two differ), runs control sessions (start, initialize, list, exit), calls
each tool once and twice from a clean reset in every run, and for tools
declaring idempotentHint: true puts two calls in flight at once, on one
connection and through two server processes sharing the store. Every session
is recorded as a trace under --out/probe-sessions.

The report (text, or JSON with --format json) goes to stdout; probe-report.json
and probe-report.txt land in --out. Progress goes to stderr.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "no violation"),
			exitcode.Means(exitcode.Fail, "a violation, an unverified reset, or a fixture verdict other than its recorded truth"),
			exitcode.Means(exitcode.Usage, "bad input (a definition error names the file and key) or a server that does not start: no verdict is claimed"),
		),
		Example: `  mcpverdict probe run corpus/probe/fixtures/check-then-insert/probe.toml
  mcpverdict probe run memory.toml --tool create_entities --runs 5 --out results
  mcpverdict probe run memory.toml --tool 'add_observations[new]' --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runProbe(cmd.Context(), args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.tools, "tool", nil, "probe only this tool (every variant) or NAME[VARIANT]; repeatable")
	fl.IntVar(&f.runs, "runs", probe.MinRuns, "runs of every control, once and twice session (at least 3)")
	fl.IntVar(&f.attempts, "concurrent-attempts", probe.DefaultConcurrentAttempts, "concurrent attempts per mode for each tool declaring idempotentHint: true")
	fl.StringVar(&f.outDir, "out", "mcpverdict-out", "directory for probe-report.json, probe-report.txt and the session traces")
	fl.StringVar(&f.format, "format", "text", "report format on stdout: text or json")
	fl.StringVarP(&f.output, "output", "o", "", "also write the report in --format to FILE")
	fl.StringVar(&f.sarif, "sarif", "", "also write SARIF to FILE: a rule per hint test, a result per verdict needing attention, at the tool's declaration when found")
	fl.StringVar(&f.junit, "junit", "", "also write JUnit XML to FILE: a testcase per tool and test")
	fl.StringVar(&f.category, "category", "", "the SARIF analysis category (default mcpverdict-probe/NAME)")
	fl.BoolVar(&f.noSandbox, "no-sandbox", false, "run servers without the network sandbox (open-world claims become inconclusive)")
	return cmd
}

func (c *Command) runProbe(ctx context.Context, path string, f *probeRunFlags) error {
	if f.format != "text" && f.format != "json" {
		return exitcode.New(exitcode.Usage, `unknown --format %q: choose "text" or "json"`, f.format)
	}
	def, err := probe.Load(path)
	if err != nil {
		return probeError(err)
	}
	rep, err := probe.Run(ctx, def, probe.Options{
		Harness: VersionString(),
		Runs:    f.runs, ConcurrentAttempts: f.attempts, Tools: f.tools, NoSandbox: f.noSandbox,
		TraceDir: filepath.Join(f.outDir, probeSessionDir),
		Progress: func(line string) { fmt.Fprintf(c.Stderr, "mcpverdict: probe %s\n", line) },
	})
	if err != nil {
		return probeError(err)
	}
	if err := c.writeProbeReports(rep, f); err != nil {
		return err
	}
	if rep.Failed() {
		return exitWith(exitcode.Fail)
	}
	return nil
}

// The files a probe run keeps in its output folder.
const (
	probeReportJSON = "probe-report.json"
	probeReportText = "probe-report.txt"
	probeSessionDir = "probe-sessions"
)

// writeProbeReports keeps both formats in --out and prints the chosen one.
func (c *Command) writeProbeReports(rep *probe.Report, f *probeRunFlags) error {
	rendered, err := keepProbeReport(rep, f.outDir)
	if err != nil {
		return err
	}
	if f.output != "" {
		if err := outfile.WriteFileAll(f.output, rendered[f.format]); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	if err := c.writeProbeExtras(rep, f); err != nil {
		return err
	}
	_, err = c.Stdout.Write(rendered[f.format])
	return exitcode.Wrap(exitcode.Usage, err)
}

// writeProbeExtras writes the SARIF and JUnit files asked for.
func (c *Command) writeProbeExtras(rep *probe.Report, f *probeRunFlags) error {
	extras := []struct {
		path  string
		write func(*bytes.Buffer) error
	}{
		{f.sarif, func(b *bytes.Buffer) error {
			return reporters.SARIF{}.Write(b, reporters.ForProbe(rep, Version()), reporters.Options{Repo: c.repository(), Category: f.category})
		}},
		{f.junit, func(b *bytes.Buffer) error {
			return reporters.JUnit{}.Write(b, reporters.ForProbe(rep, Version()), reporters.Options{})
		}},
	}
	for _, e := range extras {
		if e.path == "" {
			continue
		}
		var b bytes.Buffer
		if err := e.write(&b); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
		if err := outfile.WriteFileAll(e.path, b.Bytes()); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return nil
}

// keepProbeReport writes the report as JSON and text into dir and returns
// both renderings, by format name.
func keepProbeReport(rep *probe.Report, dir string) (map[string][]byte, error) {
	rendered := map[string][]byte{}
	for format, write := range map[string]func(*bytes.Buffer) error{
		"json": func(b *bytes.Buffer) error { return probe.WriteJSON(b, rep) },
		"text": func(b *bytes.Buffer) error { return probe.WriteText(b, rep) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return nil, exitcode.Wrap(exitcode.Usage, err)
		}
		rendered[format] = b.Bytes()
	}
	for format, name := range map[string]string{"json": probeReportJSON, "text": probeReportText} {
		if err := outfile.WriteFileAll(filepath.Join(dir, name), rendered[format]); err != nil {
			return nil, exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return rendered, nil
}
