package reporters

import "github.com/mcpverdict/mcpverdict/internal/judge"

// htmlExtension is one extension's verdict in report.html and, when it was
// not asked for, its rows that need attention (the page lists a counted
// extension's rows with the others).
type htmlExtension struct {
	Name     string       `json:"name"`
	Verdict  string       `json:"verdict"`
	Headline string       `json:"headline"`
	Clauses  []htmlClause `json:"clauses"`
}

func htmlExtensions(doc *Document) []htmlExtension {
	out := []htmlExtension{}
	runs := extensionRuns(doc.Clauses)
	for _, v := range doc.Clauses.Extensions {
		e := htmlExtension{Name: v.Name, Verdict: string(v.Verdict), Headline: extensionHeadline(v), Clauses: []htmlClause{}}
		for _, er := range runs {
			for _, c := range er.rows(v.Name) {
				if c.Outcome != judge.Fail && c.Outcome != judge.Warn {
					continue
				}
				hc := htmlClause{ID: ClauseRuleID(c.Clause), Level: string(c.Clause.Level), Outcome: string(c.Outcome),
					URL: c.Clause.URL, Quote: c.Clause.Quote, Findings: []htmlFinding{}}
				for _, f := range c.Findings {
					hc.Findings = append(hc.Findings, htmlFinding{Run: runIndex(doc.Clauses, er.Trace), Line: f.Line, Clause: hc.ID, Party: string(f.Party), Message: f.Message})
				}
				e.Clauses = append(e.Clauses, hc)
			}
		}
		out = append(out, e)
	}
	return out
}

// runIndex is the index of the run over trace, for a finding's link.
func runIndex(rep *judge.Report, trace string) int {
	for i, r := range rep.Runs {
		if visibleRun(judge.Run{Trace: r.Trace}).Trace == trace {
			return i
		}
	}
	return 0
}
