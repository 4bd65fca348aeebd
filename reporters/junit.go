package reporters

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// JUnit writes a JUnit XML report for CI test views: a testsuite per trace
// and revision, a testcase per clause. A failed clause is a failure with
// every finding; a warning passes with the warning in system-out (a failure
// under --strict); a clause not observed, not applicable or excluded is
// skipped with its reason.
type JUnit struct{}

var _ Reporter = JUnit{}

func init() { register(JUnit{}) }

// Name is "junit".
func (JUnit) Name() string { return "junit" }

func (JUnit) Write(w io.Writer, doc *Document, opts Options) error {
	if doc.probeOnly() {
		return writeProbeJUnit(w, doc.Probes[0])
	}
	rep := visibleReport(doc.Clauses)
	suites := junit.Testsuites{Name: "mcpverdict"}
	delta := visibleDelta(doc.Baseline)
	for i := range rep.Runs {
		suite := junitSuite(i, &rep.Runs[i], rep.Strict)
		markNew(&suite, &rep.Runs[i], delta)
		suites.AddSuite(suite)
	}
	for _, s := range junitExtensionSuites(len(suites.Suites), doc) {
		suites.AddSuite(s)
	}
	for _, p := range doc.Probes {
		for _, t := range p.Tools {
			suites.AddSuite(probeSuite(len(suites.Suites), p, t))
		}
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	return suites.WriteXML(w)
}

func junitSuite(id int, r *judge.Run, strict bool) junit.Testsuite {
	s := junit.Testsuite{Name: xmlSafe(fmt.Sprintf("%s [%s]", r.Trace, r.Revision)), ID: id, Time: "0", File: xmlSafe(r.Trace)}
	s.AddProperty("revision", r.Revision)
	s.AddProperty("revision_source", r.RevisionSource)
	s.AddProperty("sessions", fmt.Sprint(r.Sessions))
	if r.Transport != "" {
		s.AddProperty("transport", r.Transport)
	}
	if r.Incomplete != "" {
		s.AddTestcase(junit.Testcase{Name: "trace read whole", Classname: junitClass(r.Revision, "TRACE"), Time: "0",
			Error: &junit.Result{Message: xmlSafe(clip(r.Incomplete, 200)), Type: "incomplete", Data: xmlSafe(r.Incomplete)}})
	}
	for i := range r.Clauses {
		s.AddTestcase(clauseCase(&r.Clauses[i], strict))
	}
	s.AddTestcase(wireCase(r))
	if notes := runNotes(r); notes != "" {
		s.SystemOut = &junit.Output{Data: xmlSafe(notes)}
	}
	return s
}

func junitClass(revision, area string) string { return "mcpverdict." + revision + "." + area }

func clauseCase(c *judge.ClauseResult, strict bool) junit.Testcase {
	cl := c.Clause
	tc := junit.Testcase{
		Name:      xmlSafe(fmt.Sprintf("%s (%s): %s", cl.ID, cl.Level, clip(cl.Quote, 100))),
		Classname: junitClass(cl.Revision, cl.Area),
		Time:      "0",
	}
	switch c.Outcome {
	case judge.Fail:
		tc.Failure = findingsResult(c, "fail")
	case judge.Warn:
		if strict {
			tc.Failure = findingsResult(c, "warn")
		} else {
			tc.SystemOut = &junit.Output{Data: xmlSafe("warning: " + findingsText(c))}
		}
	case judge.NotObserved, judge.NotApplicable, judge.Excluded:
		tc.Skipped = &junit.Result{Message: xmlSafe(string(c.Outcome) + ": " + c.Reason)}
	}
	return tc
}

func findingsResult(c *judge.ClauseResult, kind string) *junit.Result {
	msg := fmt.Sprintf("%d finding(s)", len(c.Findings))
	if len(c.Findings) > 0 {
		msg = c.Findings[0].Message
		if len(c.Findings) > 1 {
			msg = fmt.Sprintf("%s (and %d more)", msg, len(c.Findings)-1)
		}
	}
	return &junit.Result{Message: xmlSafe(clip(msg, 300)), Type: kind + " " + string(c.Clause.Level), Data: xmlSafe(findingsText(c))}
}

func findingsText(c *judge.ClauseResult) string {
	var b strings.Builder
	for _, f := range c.Findings {
		fmt.Fprintf(&b, "[%s] %s:%d (seq %d): %s\n", f.Party, f.Trace, f.Line, f.Seq, f.Message)
	}
	fmt.Fprintf(&b, "spec: %q\nsee:  %s\n", c.Clause.Quote, c.Clause.URL)
	return b.String()
}

func wireCase(r *judge.Run) junit.Testcase {
	tc := junit.Testcase{Name: "wire schema: every message valid against " + r.Revision + " schema.json", Classname: junitClass(r.Revision, "WIRE"), Time: "0"}
	switch {
	case r.Wire.NotApplicable != "":
		tc.Skipped = &junit.Result{Message: xmlSafe("not applicable: " + r.Wire.NotApplicable)}
	case !r.Wire.Checked:
		tc.Skipped = &junit.Result{Message: xmlSafe("not checked: " + r.Wire.NotChecked)}
	case len(r.Wire.Invalid) > 0:
		var b strings.Builder
		for _, f := range r.Wire.Invalid {
			fmt.Fprintf(&b, "[%s] %s:%d (seq %d): %s at %q: %s\n", f.Party, f.Trace, f.Line, f.Seq, f.Definition, f.Pointer, f.Error)
		}
		msg := fmt.Sprintf("%d of %d messages valid", r.Wire.Valid, r.Wire.Messages)
		tc.Failure = &junit.Result{Message: msg, Type: "wire-schema", Data: xmlSafe(b.String())}
	}
	return tc
}

// runNotes gathers what the run noted without judging: notes and requests
// left unanswered.
func runNotes(r *judge.Run) string {
	var b strings.Builder
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, u := range r.Unanswered {
		fmt.Fprintf(&b, "unanswered: %s %q id %s at line %d (seq %d)\n", u.Party, u.Method, u.ID, u.Line, u.Seq)
	}
	return b.String()
}
