package merge

import (
	"path"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// verdictRank orders verdicts from best to worst: the merged verdict is the
// worst job's. A failure outranks an incomplete job, as check keeps a
// failed verdict failed when a session could not be driven: a MUST broken
// anywhere is what the merged verdict says first.
var verdictRank = map[judge.Verdict]int{
	judge.VerdictPass: 0, judge.VerdictPassWithWarnings: 1, judge.VerdictIncomplete: 2, judge.VerdictFail: 3,
}

// Combine is one clause report of every job's runs, in the order the jobs
// were given: totals summed, the verdict the worst job's, each extension's
// verdict summed the same way beside it. Each trace is
// named as JOB/FILE, the job's folder and the file in it, so that two jobs'
// sessions of one name stay apart and a reader finds each beside its job.
func Combine(jobs []*Job) *judge.Report {
	out := &judge.Report{Tool: "mcpverdict", Verdict: judge.VerdictPass, Runs: []judge.Run{}}
	for i, j := range jobs {
		if i == 0 {
			out.Version, out.Party = j.Report.Version, j.Report.Party
		}
		out.Strict = out.Strict || j.Report.Strict
		for _, r := range j.Report.Runs {
			out.Runs = append(out.Runs, jobRun(j.Name, r))
		}
		out.Totals = addTotals(out.Totals, j.Report.Totals)
		out.Extensions = judge.MergeExtensions(out.Extensions, j.Report.Extensions)
		if verdictRank[j.Report.Verdict] > verdictRank[out.Verdict] {
			out.Verdict = j.Report.Verdict
		}
	}
	return out
}

// jobRun is a run with its trace paths named inside the job's folder.
func jobRun(job string, r judge.Run) judge.Run {
	r.Trace = JobPath(job, r.Trace)
	r.Clauses = append([]judge.ClauseResult(nil), r.Clauses...)
	for i := range r.Clauses {
		c := &r.Clauses[i]
		c.Findings = append([]judge.Finding(nil), c.Findings...)
		for k := range c.Findings {
			c.Findings[k].Trace = JobPath(job, c.Findings[k].Trace)
		}
	}
	r.Wire.Invalid = append([]judge.WireFinding(nil), r.Wire.Invalid...)
	for k := range r.Wire.Invalid {
		r.Wire.Invalid[k].Trace = JobPath(job, r.Wire.Invalid[k].Trace)
	}
	return r
}

// JobPath names a file a job's report names as the job's folder and the
// file's base name: what the downloaded artifact holds. An empty path stays
// empty.
func JobPath(job, p string) string {
	if p == "" {
		return ""
	}
	return path.Join(job, filepath.Base(filepath.FromSlash(p)))
}

func addTotals(a, b judge.Totals) judge.Totals {
	return judge.Totals{
		Pass: a.Pass + b.Pass, Fail: a.Fail + b.Fail, Warn: a.Warn + b.Warn, NotObserved: a.NotObserved + b.NotObserved,
		NotApplicable: a.NotApplicable + b.NotApplicable, Excluded: a.Excluded + b.Excluded,
	}
}

// Status is the exit status check gives a report of the merged verdict:
// a run whose trace could not be read whole exits Malformed, a failed
// verdict (a MUST failure in any job, or a job's failed probe) Fail, a job
// whose server could not be driven Usage, as that job's check did.
func Status(rep *judge.Report) int {
	for _, r := range rep.Runs {
		if r.Incomplete != "" {
			return exitcode.Malformed
		}
	}
	switch rep.Verdict {
	case judge.VerdictFail:
		return exitcode.Fail
	case judge.VerdictIncomplete:
		return exitcode.Usage
	}
	return exitcode.OK
}
