package reporters

import (
	"fmt"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"
	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// extensionHeadline is an extension's verdict in one line, as the SARIF
// notifications and the Markdown summary give it.
func extensionHeadline(v judge.ExtensionVerdict) string {
	return fmt.Sprintf("extension %s: %s (%s): %s", v.Name, v.Verdict, extensionCounting(v), totalsLine(v.Totals))
}

// sarifExtensionNotes are the extensions' verdicts as notifications of
// the invocation: their findings are no results, as they count in no
// verdict unless asked for (and then they are results like any other).
func sarifExtensionNotes(rep *judge.Report) []*sarif.Notification {
	var out []*sarif.Notification
	for _, v := range rep.Extensions {
		out = append(out, sarifNote("note", extensionHeadline(v)))
	}
	return out
}

// writeExtensionsMarkdown adds a section per extension: its verdict and
// totals, then, for one not asked for, the rows that need attention.
func writeExtensionsMarkdown(md *budget, doc *Document, max int) {
	runs := extensionRuns(doc.Clauses)
	for _, v := range doc.Clauses.Extensions {
		md.add(fmt.Sprintf("### %s extension `%s`: %s\n\n%s: %s.\n\n", verdictIcons[v.Verdict], v.Name, v.Verdict,
			markdownText(capitalize(extensionCounting(v))), totalsLine(v.Totals)))
		for _, er := range runs {
			for _, c := range er.rows(v.Name) {
				if c.Outcome != judge.Fail && c.Outcome != judge.Warn {
					continue
				}
				md.add(fmt.Sprintf("- %s **%s** (%s) %s: %s\n", outcomeWord(c.Outcome), c.Clause.ID, c.Clause.Level,
					markdownCode(er.Trace), markdownText(firstFinding(c, max))))
			}
		}
		md.add("\n")
	}
}

func outcomeWord(o judge.Outcome) string { return strings.ToUpper(string(o)) }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// firstFinding is a row's first finding, and how many more it has.
func firstFinding(c judge.ClauseResult, max int) string {
	if len(c.Findings) == 0 {
		return c.Reason
	}
	f := c.Findings[0]
	msg := fmt.Sprintf("line %d: %s", f.Line, f.Message)
	if n := len(c.Findings) - 1; n > 0 && max != 1 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// junitExtensionSuites are one suite per run and extension not asked
// for: its rows are testcases whose fail and warn outcomes are written as
// output, never as failures, as they count in no verdict.
func junitExtensionSuites(first int, doc *Document) []junit.Testsuite {
	var out []junit.Testsuite
	for _, v := range doc.Clauses.Extensions {
		if v.Counted {
			continue
		}
		for _, er := range extensionRuns(doc.Clauses) {
			rows := er.rows(v.Name)
			if len(rows) == 0 {
				continue
			}
			s := junit.Testsuite{Name: xmlSafe(fmt.Sprintf("extension %s: %s", v.Name, er.Trace)), ID: first + len(out), Time: "0", File: xmlSafe(er.Trace)}
			s.AddProperty("extension", v.Name)
			s.AddProperty("counted", "false")
			s.AddProperty("verdict", string(v.Verdict))
			for i := range rows {
				tc := clauseCase(&rows[i], false)
				if tc.Failure != nil {
					tc.Failure, tc.SystemOut = nil, &junit.Output{Data: xmlSafe("fail (not counted): " + findingsText(&rows[i]))}
				}
				s.AddTestcase(tc)
			}
			out = append(out, s)
		}
	}
	return out
}
