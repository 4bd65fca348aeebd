package reporters

import (
	"bufio"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// extensionRun is one run's rows of the extensions that were not asked
// for, escaped as visibleReport escapes the rest.
type extensionRun struct {
	Trace   string
	Clauses []judge.ClauseResult
}

// countedOnly drops from a visible report the rows of extensions that were
// not asked for: every format lists them apart, beside the verdict.
func countedOnly(rep *judge.Report) *judge.Report {
	for i := range rep.Runs {
		r := &rep.Runs[i]
		kept := make([]judge.ClauseResult, 0, len(r.Clauses))
		for _, c := range r.Clauses {
			if !c.Uncounted {
				kept = append(kept, c)
			}
		}
		r.Clauses = kept
	}
	return rep
}

// extensionRuns lists, run by run, the visible rows of the extensions that
// were not asked for.
func extensionRuns(rep *judge.Report) []extensionRun {
	var out []extensionRun
	for _, r := range rep.Runs {
		var rows []judge.ClauseResult
		for _, c := range r.Clauses {
			if c.Uncounted {
				rows = append(rows, c)
			}
		}
		if len(rows) > 0 {
			vr := visibleRun(judge.Run{Trace: r.Trace, Clauses: rows})
			out = append(out, extensionRun{Trace: vr.Trace, Clauses: vr.Clauses})
		}
	}
	return out
}

// extensionRows are the rows of one extension in a run.
func (e extensionRun) rows(name string) []judge.ClauseResult {
	var out []judge.ClauseResult
	for _, c := range e.Clauses {
		if c.Clause.Extension == name {
			out = append(out, c)
		}
	}
	return out
}

// extensionCounting says whether an extension's verdict is in the report's.
func extensionCounting(v judge.ExtensionVerdict) string {
	if v.Counted {
		return "counted in the verdict (--extension " + v.Name + ")"
	}
	return "not counted in the verdict; --extension " + v.Name + " counts it"
}

func totalsLine(t judge.Totals) string {
	return fmt.Sprintf("%d pass, %d fail, %d warn, %d not observed, %d not applicable, %d excluded",
		t.Pass, t.Fail, t.Warn, t.NotObserved, t.NotApplicable, t.Excluded)
}

// writeExtensionsText writes each extension's verdict and, for one not
// asked for, the rows that need attention (every row under --all).
func writeExtensionsText(w *bufio.Writer, doc *Document, opts Options) {
	runs := extensionRuns(doc.Clauses)
	for _, v := range doc.Clauses.Extensions {
		fmt.Fprintf(w, "extension %s: %s (%s)\n", v.Name, v.Verdict, extensionCounting(v))
		for _, er := range runs {
			rows := er.rows(v.Name)
			if !anyAttention(rows) && !opts.All {
				continue
			}
			fmt.Fprintf(w, "  %s:\n", er.Trace)
			for i := range rows {
				writeClause(w, &rows[i], opts)
			}
		}
		fmt.Fprintf(w, "extension %s totals: %s\n", v.Name, totalsLine(v.Totals))
	}
}

func anyAttention(rows []judge.ClauseResult) bool {
	for _, c := range rows {
		if c.Outcome == judge.Fail || c.Outcome == judge.Warn {
			return true
		}
	}
	return false
}
