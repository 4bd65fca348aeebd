package cli

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/traceinput"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// judgeFlags are the options every command that judges traces shares.
type judgeFlags struct {
	revisions []string
	party     string
	strict    bool
	// extensions are the extensions counted in the verdict (--extension).
	extensions []string
	format     string
	all        bool
	output     string
	maxLine    int
	schemaDir  string
	// files names the file each format is also written to (--sarif FILE,
	// --junit FILE, ...): one run writes every report it is asked for.
	files    map[string]*string
	category string
	// probes are the tool-annotation probe reports check --probe shows
	// beside the clauses; validate has none.
	probes []*probe.Report
	// serverCommand is the command of the server a check ran, which names
	// its entry file; exampleServer is set when that server is the one
	// built into mcpverdict, whose findings belong in no user's file.
	serverCommand []string
	exampleServer bool
	baselineFlags
}

func (f *judgeFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.revisions, "revision", nil, "judge under this revision instead of the one the trace declares (repeatable: "+strings.Join(spec.Revisions, ", ")+")")
	cmd.Flags().StringVar(&f.party, "party", "", `count only findings against this party toward the verdict: "server" or "client"`)
	cmd.Flags().BoolVar(&f.strict, "strict", false, "warnings (SHOULD findings) fail the verdict too")
	cmd.Flags().StringArrayVar(&f.extensions, "extension", nil, "count this extension's clauses in the verdict, totals and exit status; without it they are judged and reported beside the verdict (repeatable: "+strings.Join(spec.Extensions, ", ")+")")
	cmd.Flags().StringVar(&f.format, "format", "text", "report format: "+strings.Join(reporters.Names(), ", "))
	cmd.Flags().BoolVar(&f.all, "all", false, "list every clause with its outcome, not only those that need attention")
	cmd.Flags().StringVarP(&f.output, "output", "o", "", "write the report to FILE instead of standard output")
	cmd.Flags().IntVar(&f.maxLine, "max-line", trace.DefaultMaxLine, "longest trace line accepted, in bytes")
	cmd.Flags().StringVar(&f.schemaDir, "schema-dir", "", "directory holding REVISION/schema.json for the wire-schema check (else $"+wireschema.EnvDir+", the image's copy, the user cache)")
	f.registerFiles(cmd)
	f.registerBaseline(cmd)
}

func (f *judgeFlags) options() (judge.Options, error) {
	opts := judge.Options{Revisions: distinct(f.revisions), Strict: f.strict, Extensions: distinct(f.extensions), Version: Version()}
	for _, name := range f.extensions {
		if !spec.KnownExtension(name) {
			return opts, exitcode.New(exitcode.Usage, "unknown --extension %q: choose one of %s", name, strings.Join(spec.Extensions, ", "))
		}
	}
	if err := f.checkFiles(); err != nil {
		return opts, err
	}
	if err := f.checkFailOn(); err != nil {
		return opts, err
	}
	for _, rev := range f.revisions {
		if !spec.KnownRevision(rev) {
			return opts, exitcode.New(exitcode.Usage, "unknown --revision %q: choose one of %s", rev, strings.Join(spec.Revisions, ", "))
		}
	}
	switch f.party {
	case "", "server", "client":
		opts.Party = spec.Party(f.party)
	default:
		return opts, exitcode.New(exitcode.Usage, `unknown --party %q: choose "server" or "client"`, f.party)
	}
	return opts, nil
}

func (c *Command) validateCmd() *cobra.Command {
	var f judgeFlags
	var ev validateEvidenceFlags
	cmd := &cobra.Command{
		Use:   "validate [flags] TRACE...",
		Short: "Judge recorded traces clause by clause against the MCP specification",
		Long: `validate reads traces (JSON Lines, as capture writes them) and judges each
under the revision its session negotiated: one row per normative clause, each
pass, fail, warn, not observed, not applicable or excluded with its reason.

A trace may be a file, a FIFO, a pipe or /dev/stdin: what cannot be read
twice is read once, into a temporary copy, and the reports name it as given.

` + baselineHelp + exitcode.Section(
			exitcode.Lookup(exitcode.OK),
			exitcode.Means(exitcode.Fail, "a clause failed (or warned, with --strict)"+failHelp),
			exitcode.Means(exitcode.Usage, "bad invocation, nothing judgeable, a trace that is not a file, a pipe or a character device (a directory, a socket), or an output that could not be written"),
			exitcode.Lookup(exitcode.Malformed),
		),
		Example: `  mcpverdict validate session.jsonl
  mcpverdict validate --party server --format json -o report.json traces/*.jsonl
  mcpverdict validate --sarif out/report.sarif --junit out/junit.xml --markdown out/summary.md traces/*.jsonl
  mcpverdict validate --baseline base/report.json --fail-on new traces/*.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runValidate(&f, args, &ev, startRun(cmd))
		},
	}
	f.register(cmd)
	ev.register(cmd)
	return cmd
}

func (c *Command) runValidate(f *judgeFlags, paths []string, ev *validateEvidenceFlags, start runStart) error {
	opts, err := c.judgeOptions(f)
	if err != nil {
		return err
	}
	rep, err := reporters.Get(f.format)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	traces, cleanup, err := traceinput.Open(paths)
	if err != nil {
		return err
	}
	defer cleanup()
	report, err := judgeInputs(traces, opts, f.maxLine)
	if err != nil {
		return err
	}
	drift, err := ev.drift(c, traceinput.Paths(traces), report)
	if err != nil {
		return err
	}
	c.compareBaseline(f, report)
	if err := c.writeReport(rep, report, f); err != nil {
		return err
	}
	led, err := ev.writeLedger(c, traces, report, drift, start)
	if err != nil {
		return err
	}
	if err := c.writeHTMLFiles(report, f, led, drift); err != nil {
		return err
	}
	return c.status(f, report)
}

// judgeFiles opens every trace file and judges them together.
func judgeFiles(paths []string, opts judge.Options, maxLine int) (*judge.Report, error) {
	inputs := make([]traceinput.Input, len(paths))
	for i, p := range paths {
		inputs[i] = traceinput.Input{Name: p, Path: p}
	}
	return judgeInputs(inputs, opts, maxLine)
}

// judgeInputs reads every trace, named as given, and judges them together.
func judgeInputs(traces []traceinput.Input, opts judge.Options, maxLine int) (*judge.Report, error) {
	inputs := make([]judge.Input, 0, len(traces))
	for _, t := range traces {
		f, err := os.Open(t.Path)
		if err != nil {
			return nil, exitcode.New(exitcode.Usage, "cannot read trace %s: %v", t.Name, unwrapPath(err))
		}
		defer f.Close()
		r := trace.NewReader(f, t.Name)
		r.SetMaxLine(maxLine)
		inputs = append(inputs, judge.Input{Name: t.Name, Next: r.Next})
	}
	report := judge.Judge(inputs, opts)
	// One empty trace among several is listed as incomplete; when every
	// trace is empty there is no report to give.
	for _, run := range report.Runs {
		if run.Incomplete != judge.NoMessages {
			return report, nil
		}
	}
	if len(report.Runs) == 0 {
		return report, nil
	}
	return nil, exitcode.New(exitcode.Usage, "%s: nothing to judge: the trace holds no MCP message", report.Runs[0].Trace)
}

// writeReport renders the report whole before writing it, so that a failed
// render never leaves a partial report behind; a file is written through a
// temporary file and renamed. Every per-format file asked for is written
// too.
func (c *Command) writeReport(rep reporters.Reporter, report *judge.Report, f *judgeFlags) error {
	opts := c.reportOptions(report, f)
	var buf bytes.Buffer
	if err := rep.Write(&buf, f.document(report), opts); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if f.output == "" {
		if _, err := c.Stdout.Write(buf.Bytes()); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	} else if err := outfile.WriteFileAll(f.output, buf.Bytes()); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	return c.writeFormatFiles(report, f, opts)
}

func writeRendered(rep reporters.Reporter, doc *reporters.Document, path string, opts reporters.Options) error {
	var buf bytes.Buffer
	if err := rep.Write(&buf, doc, opts); err != nil {
		return err
	}
	return outfile.WriteFileAll(path, buf.Bytes())
}

// reportStatus maps a verdict to the exit status.
func reportStatus(r *judge.Report) error {
	if r.Incomplete() {
		return exitWithMessageless(exitcode.Malformed)
	}
	if r.Verdict == judge.VerdictFail {
		return exitWithMessageless(exitcode.Fail)
	}
	return nil
}

func exitWithMessageless(code int) error { return exitWith(code) }

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// distinct keeps the first of each repeated value: a revision named twice
// is judged once.
func distinct(values []string) []string {
	var out []string
	for _, v := range values {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
