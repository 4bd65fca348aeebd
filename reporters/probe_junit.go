package reporters

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// writeProbeJUnit writes a probe run on its own as JUnit XML: a testsuite per
// tool, a testcase per (tool, test). A violation, an unverified reset or a
// fixture verdict other than its recorded truth is a failure; an
// inconclusive or not-applicable verdict is skipped with its reason; a
// pass or an over-declaration passes, the latter noted in system-out.
func writeProbeJUnit(w io.Writer, rep *probe.Report) error {
	suites := junit.Testsuites{Name: "mcpverdict probe " + xmlSafe(rep.Definition.Name)}
	for i, t := range rep.Tools {
		suites.AddSuite(probeSuite(i, rep, t))
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	return suites.WriteXML(w)
}

func probeSuite(id int, rep *probe.Report, t probe.ToolReport) junit.Testsuite {
	s := junit.Testsuite{Name: xmlSafe(rep.Definition.Name + " " + t.Tool), ID: id, Time: "0", File: xmlSafe(rep.Definition.Path)}
	for _, name := range []string{probe.ReadOnlyHint, probe.DestructiveHint, probe.IdempotentHint, probe.OpenWorldHint} {
		s.AddProperty(name, declaredWord(t.Contract.Hint(name)))
	}
	for _, tr := range t.Tests {
		s.AddTestcase(probeCase(rep, t.Tool, tr))
	}
	return s
}

func probeCase(rep *probe.Report, tool string, tr probe.TestResult) junit.Testcase {
	tc := junit.Testcase{
		Name:      xmlSafe(fmt.Sprintf("%s %s (%s %s)", tool, tr.Test, tr.Hint, declaredWord(tr.Declared))),
		Classname: xmlSafe("mcpverdict.probe." + rep.Definition.Name + "." + tool),
		Time:      "0",
	}
	verdict := fmt.Sprintf("%s:%s", tr.Verdict, tr.Primary)
	detail := xmlSafe(probeCaseDetail(tr))
	switch {
	case tr.Matched != nil && !*tr.Matched:
		tc.Failure = &junit.Result{Message: xmlSafe(clip("expected "+tr.Expected+", got "+verdict, 300)), Type: "expectation", Data: detail}
	case tr.Verdict == probe.Violation || tr.Verdict == probe.ResetUnverified:
		tc.Failure = &junit.Result{Message: xmlSafe(clip(verdict+": "+tr.Detail, 300)), Type: string(tr.Verdict), Data: detail}
	case tr.Verdict == probe.Inconclusive || tr.Verdict == probe.NotApplicable:
		tc.Skipped = &junit.Result{Message: xmlSafe(clip(verdict+": "+tr.Detail, 300))}
	default:
		tc.SystemOut = &junit.Output{Data: detail}
	}
	return tc
}

func probeCaseDetail(tr probe.TestResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: %s:%s\nobserved: %s\ndetail: %s\n", tr.Verdict, tr.Primary, tr.Observed, tr.Detail)
	if len(tr.Secondary) > 0 {
		fmt.Fprintf(&b, "also: %s\n", joinReasons(tr.Secondary))
	}
	if len(tr.ProducedBy) > 0 {
		fmt.Fprintf(&b, "produced by: %s\n", strings.Join(tr.ProducedBy, ", "))
	}
	if tr.Expected != "" {
		fmt.Fprintf(&b, "expected: %s\n", tr.Expected)
	}
	return b.String()
}
