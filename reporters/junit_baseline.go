package reporters

import (
	"fmt"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// newMark heads the failure message of a clause that did not fail in the
// baseline, so that a CI test view shows which failures are new.
const newMark = "new since the baseline: "

// markNew names the baseline on a run's suite and marks the failures of
// the clauses (and of the wire schema) that are new since it. The
// testcases keep their order and names, which the suite's cases are
// matched by.
func markNew(s *junit.Testsuite, r *judge.Run, d *baseline.Delta) {
	if d == nil {
		return
	}
	s.AddProperty("baseline", d.Report)
	if !d.Compared() {
		s.AddProperty("baseline_ignored", d.Ignored)
		return
	}
	marked := 0
	for i := range s.Testcases {
		tc := &s.Testcases[i]
		if tc.Failure == nil || !d.IsNew(r.Revision, caseClause(tc, r)) {
			continue
		}
		tc.Failure.Message = xmlSafe(newMark) + tc.Failure.Message
		marked++
	}
	s.AddProperty("baseline_new", fmt.Sprint(marked))
}

// caseClause is the clause id a testcase stands for: the wire-schema case
// stands for the wire schema.
func caseClause(tc *junit.Testcase, r *judge.Run) string {
	if tc.Classname == junitClass(r.Revision, "WIRE") {
		return baseline.WireSchema
	}
	for _, c := range r.Clauses {
		if tc.Classname == junitClass(c.Clause.Revision, c.Clause.Area) && len(tc.Name) > len(c.Clause.ID) && tc.Name[:len(c.Clause.ID)+1] == c.Clause.ID+" " {
			return c.Clause.ID
		}
	}
	return ""
}
