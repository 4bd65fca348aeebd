package reporters

import (
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// visibleReport is the report every human and CI format renders: a copy in
// which each string that may hold bytes from the wire (a finding's
// message, a reason, a note, why a run is incomplete, a request id, the
// session, a schema error and where it points, the trace path a trace
// named) has its control characters, line ends and escapes written
// visibly (wiretext.Visible). A finding therefore stays on its line,
// changes nothing on a terminal and cannot begin a workflow command,
// whatever the server under test sent. The JSON report keeps the bytes.
//
// The rows of extensions not asked for are left out: they are listed apart
// (extensionRuns), beside the verdict they are not counted in.
func visibleReport(rep *judge.Report) *judge.Report {
	out := *rep
	out.Runs = make([]judge.Run, len(rep.Runs))
	for i, r := range rep.Runs {
		out.Runs[i] = visibleRun(r)
	}
	return countedOnly(&out)
}

func visibleRun(r judge.Run) judge.Run {
	v := wiretext.Visible
	r.Trace, r.Incomplete, r.Ending = v(r.Trace), v(r.Incomplete), v(r.Ending)
	r.Notes = visibleAll(r.Notes)
	clauses := make([]judge.ClauseResult, len(r.Clauses))
	for i, c := range r.Clauses {
		c.Reason = v(c.Reason)
		if len(c.Findings) > 0 {
			fs := make([]judge.Finding, len(c.Findings))
			for j, f := range c.Findings {
				f.Message, f.Trace, f.Session = v(f.Message), v(f.Trace), v(f.Session)
				fs[j] = f
			}
			c.Findings = fs
		}
		clauses[i] = c
	}
	r.Clauses = clauses
	if len(r.Unanswered) > 0 {
		us := make([]judge.Unanswered, len(r.Unanswered))
		for i, u := range r.Unanswered {
			u.ID = v(u.ID)
			us[i] = u
		}
		r.Unanswered = us
	}
	r.Wire.NotChecked = v(r.Wire.NotChecked)
	if len(r.Wire.Invalid) > 0 {
		ws := make([]judge.WireFinding, len(r.Wire.Invalid))
		for i, f := range r.Wire.Invalid {
			f.Error, f.Pointer, f.Definition, f.Trace = v(f.Error), v(f.Pointer), v(f.Definition), v(f.Trace)
			ws[i] = f
		}
		r.Wire.Invalid = ws
	}
	return r
}

func visibleAll(list []string) []string {
	if len(list) == 0 {
		return list
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = wiretext.Visible(s)
	}
	return out
}
