package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// The --fail-on values: must fails on the verdict, new only on what
// failed since the baseline.
const (
	failOnMust = "must"
	failOnNew  = "new"
)

// baselineHelp is what check's and validate's help say of --baseline.
const baselineHelp = `--baseline REPORT.json compares the run with an earlier run's report.json
(the base branch's, a release's, a committed one): every report then leads
with what changed, the clauses that fail now and passed or were not observed
then, those fixed, the contract findings and probe verdicts that moved; and
--fail-on new exits 1 only on what is new. A baseline that cannot be read,
or that another mcpverdict version or another server's run wrote, is a
notice; the run goes on without a delta.

`

// failHelp is the exit status 1 line of check's and validate's help.
const failHelp = "; with --fail-on new, only a failure that is new since --baseline"

// baselineFlags compare the run with an earlier run's report.
type baselineFlags struct {
	baseline string
	failOn   string
	// delta is what changed since the baseline, once compared.
	delta *baseline.Delta
}

func (f *baselineFlags) registerBaseline(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.baseline, "baseline", "", "compare with `REPORT.json`, the report of an earlier run (the base branch's, a release's): the reports lead with what is new, what is fixed, which contracts and probe verdicts moved")
	cmd.Flags().StringVar(&f.failOn, "fail-on", failOnMust, "when to exit 1: must, when the verdict fails; new, only when something fails that did not in --baseline (without one, as must)")
}

func (f *baselineFlags) checkFailOn() error {
	if f.failOn != failOnMust && f.failOn != failOnNew {
		return exitcode.New(exitcode.Usage, `unknown --fail-on %q: choose "must" or "new"`, f.failOn)
	}
	return nil
}

// document is the Document every report of the run renders: the clause
// report, the probes run with it and the delta since the baseline.
func (f *judgeFlags) document(report *judge.Report) *reporters.Document {
	doc := reporters.ForClauses(report, f.probes...)
	doc.Baseline = f.delta
	return doc
}

// compareBaseline compares the finished report with --baseline. A
// baseline that cannot be read or compared is a one-line notice, and the
// reports say why no delta is shown: it never stops the run.
func (c *Command) compareBaseline(f *judgeFlags, report *judge.Report) {
	if f.baseline == "" {
		return
	}
	base, err := baseline.Load(f.baseline)
	if err != nil {
		f.delta = &baseline.Delta{Report: f.baseline, Ignored: err.Error(),
			New: []baseline.ClauseChange{}, Fixed: []baseline.ClauseChange{}, Contracts: []baseline.ContractChange{}, Probes: []baseline.ProbeChange{}}
	} else {
		f.delta = baseline.Compare(f.baseline, base, baseline.Current{Report: report, Probes: f.probes, Servers: baseline.ServersOf(report)})
	}
	if !f.delta.Compared() {
		c.notice("baseline not compared: %s", f.delta.Ignored)
	}
}

// status maps the report to the exit status under --fail-on: new fails
// only on new failures, when a baseline was compared; else the verdict
// decides. A trace that could not be read whole exits 3 either way.
func (c *Command) status(f *judgeFlags, report *judge.Report) error {
	if f.failOn != failOnNew || report.Incomplete() {
		return reportStatus(report)
	}
	if !f.delta.Compared() {
		c.notice("--fail-on new has no baseline to compare with: every failure counts, as with --fail-on must")
		return reportStatus(report)
	}
	if n := f.delta.NewFailures(); n > 0 {
		c.notice("%d new failure(s) since the baseline %s", n, f.delta.Report)
		return exitWithMessageless(exitcode.Fail)
	}
	return nil
}

// notice is one line on standard error, shown as it was (it may quote a
// file's contents).
func (c *Command) notice(format string, args ...any) {
	fmt.Fprintln(c.Stderr, wiretext.Visible("mcpverdict: notice: "+fmt.Sprintf(format, args...)))
}
