package merge

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

func job(name string, v judge.Verdict, incomplete string) *Job {
	run := judge.Run{Trace: "out/" + name + ".jsonl", Incomplete: incomplete, Totals: judge.Totals{Pass: 2, Fail: 1}}
	return &Job{Name: name, Report: &judge.Report{Tool: "mcpverdict", Version: "1", Verdict: v, Runs: []judge.Run{run}, Totals: run.Totals}}
}

// The merged verdict is the worst job's, a failure before an incomplete
// job, and the exit status is check's for that report.
func TestCombineVerdictAndStatus(t *testing.T) {
	cases := []struct {
		name   string
		jobs   []*Job
		want   judge.Verdict
		status int
	}{
		{"all pass", []*Job{job("a", judge.VerdictPass, ""), job("b", judge.VerdictPass, "")}, judge.VerdictPass, exitcode.OK},
		{"a warning", []*Job{job("a", judge.VerdictPass, ""), job("b", judge.VerdictPassWithWarnings, "")}, judge.VerdictPassWithWarnings, exitcode.OK},
		{"one fails", []*Job{job("a", judge.VerdictPass, ""), job("b", judge.VerdictFail, "")}, judge.VerdictFail, exitcode.Fail},
		{"a failure outranks an undriven job", []*Job{job("a", judge.VerdictIncomplete, ""), job("b", judge.VerdictFail, "")}, judge.VerdictFail, exitcode.Fail},
		{"an undriven job", []*Job{job("a", judge.VerdictIncomplete, ""), job("b", judge.VerdictPass, "")}, judge.VerdictIncomplete, exitcode.Usage},
		{"a trace not read whole", []*Job{job("a", judge.VerdictPass, ""), job("b", judge.VerdictIncomplete, "line 3: not JSON")}, judge.VerdictIncomplete, exitcode.Malformed},
	}
	for _, c := range cases {
		rep := Combine(c.jobs)
		if rep.Verdict != c.want || Status(rep) != c.status {
			t.Errorf("%s: verdict %s, status %d; want %s, %d", c.name, rep.Verdict, Status(rep), c.want, c.status)
		}
		if rep.Totals.Pass != 4 || rep.Totals.Fail != 2 || len(rep.Runs) != 2 {
			t.Errorf("%s: totals %+v over %d runs, want the two jobs' summed", c.name, rep.Totals, len(rep.Runs))
		}
		if rep.Runs[1].Trace != "b/b.jsonl" {
			t.Errorf("%s: the second run's trace is %q, want it named inside job b", c.name, rep.Runs[1].Trace)
		}
	}
}
