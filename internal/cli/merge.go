package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/merge"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

func (c *Command) mergeCmd() *cobra.Command {
	var out, category string
	cmd := &cobra.Command{
		Use:   "merge DIR... [--out DIR]",
		Short: "Fold the output folders of a workflow's matrix jobs into one report and one ledger",
		Long: `merge reads the output folder of each job of a matrix (the action's
output-dir, or check's --out, downloaded as artifacts), each folder's base
name naming its job, and writes into --out one report in every format
(report.json, report.txt, mcpverdict.sarif, junit.xml, summary.md with a row
per job, annotations.txt, report.html) and one ledger whose blocks name each
job's ledger head and signed bundle. Each job's report, ledger, head and
bundle are copied under --out/jobs/JOB/, so that 'ledger verify' on the
merged ledger verifies every job's chain beneath it. On GitHub Actions the
summary is added to the job summary.

Nothing is written unless every folder reads as a job's, every job's
ledger reaches its head, and every job's report says the verdict and totals
its ledger recorded.

` + exitcode.Section(
			exitcode.Lookup(exitcode.OK),
			exitcode.Means(exitcode.Fail, "a job's verdict is a failure (a MUST clause failed, or a probe), or a job's ledger does not reach its head or does not record its report's verdict"),
			exitcode.Means(exitcode.Usage, "a folder that is no job's output folder, a report that does not read, two jobs of one name, an output not written, or a job whose server could not be driven"),
			exitcode.Means(exitcode.Malformed, "a job's trace could not be read whole"),
		),
		Example: `  mcpverdict merge artifacts/* --out merged
  mcpverdict ledger verify --ledger merged/ledger.ndjson --expected-head merged/ledger.head`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runMerge(args, out, category, startRun(cmd))
		},
	}
	cmd.Flags().StringVar(&out, "out", "mcpverdict-merged", "the folder to write the merged reports and ledger into")
	cmd.Flags().StringVar(&category, "category", "", `the merged SARIF analysis category (default "mcpverdict/merged")`)
	return cmd
}

func (c *Command) runMerge(dirs []string, out, category string, start runStart) error {
	jobs, err := merge.Load(dirs)
	if err != nil {
		return err
	}
	res, err := merge.Write(jobs, merge.Options{Out: out, Provenance: c.provenance(start), Category: category})
	if err != nil {
		return err
	}
	if _, err := c.Stdout.Write(res.Files["text"]); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if err := merge.AppendSummary(c.getenv("GITHUB_STEP_SUMMARY"), res.Files["markdown"]); err != nil {
		fmt.Fprintf(c.Stderr, "mcpverdict: warning: %s\n", wiretext.Visible(err.Error()))
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: merged %d jobs into %s: %s; ledger head: %s (%s/%s)\n",
		len(jobs), wiretext.Visible(out), res.Report.Verdict, res.Head, wiretext.Visible(out), merge.HeadFile)
	return exitWith(res.Status)
}
