package reporters

import (
	"fmt"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// Markdown writes the job summary: the verdict, a totals table, the
// findings grouped by clause with links, the wire-schema line, notes, and
// every clause in a collapsed table. It never exceeds MaxSummaryBytes.
type Markdown struct{}

var _ Reporter = Markdown{}

func init() { register(Markdown{}) }

// Name is "markdown".
func (Markdown) Name() string { return "markdown" }

// MaxSummaryBytes is the size GitHub accepts for one step's job summary
// (1 MiB); a longer summary is refused whole, so this one is cut short
// with a note instead.
const MaxSummaryBytes = 1 << 20

func (Markdown) Write(w io.Writer, doc *Document, opts Options) error {
	if doc.Clauses == nil {
		return errNoClauses("markdown")
	}
	rep := visibleReport(doc.Clauses)
	limit := opts.MaxBytes
	if limit <= 0 || limit > MaxSummaryBytes {
		limit = MaxSummaryBytes
	}
	md := newBudget(limit)
	writeSummary(md, rep, doc, maxFindings(opts))
	_, err := io.WriteString(w, md.String())
	return err
}

var verdictIcons = map[judge.Verdict]string{
	judge.VerdictPass:             "✅",
	judge.VerdictPassWithWarnings: "⚠️",
	judge.VerdictFail:             "❌",
	judge.VerdictIncomplete:       "⛔",
	judge.VerdictNotObserved:      "➖",
}

func writeSummary(md *budget, rep *judge.Report, doc *Document, max int) {
	delta := visibleDelta(doc.Baseline)
	md.add(fmt.Sprintf("## %s mcpverdict: %s%s%s\n\n", verdictIcons[rep.Verdict], rep.Verdict, markdownText(scopeNote(rep)), deltaTitle(delta)))
	writeDeltaMarkdown(md, delta)
	if len(doc.Jobs) > 0 {
		md.add(jobsMarkdown(doc.Jobs))
	}
	writeTotals(md, rep)
	for _, p := range doc.Probes {
		writeProbeSummary(md, p, max)
	}
	for i := range rep.Runs {
		writeRunSummary(md, &rep.Runs[i], max)
	}
	writeExtensionsMarkdown(md, doc, max)
	writeFullTables(md, rep)
}

func writeTotals(md *budget, rep *judge.Report) {
	md.add("| trace | revision | pass | fail | warn | not observed | not applicable | excluded | wire schema |\n|---|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rep.Runs {
		t := r.Totals
		md.add(fmt.Sprintf("| %s | %s | %d | %d | %d | %d | %d | %d | %s |\n", markdownCode(r.Trace), r.Revision,
			t.Pass, t.Fail, t.Warn, t.NotObserved, t.NotApplicable, t.Excluded, wireWord(&r.Wire)))
	}
	if len(rep.Runs) > 1 {
		t := rep.Totals
		md.add(fmt.Sprintf("| **all** | | %d | %d | %d | %d | %d | %d | |\n", t.Pass, t.Fail, t.Warn, t.NotObserved, t.NotApplicable, t.Excluded))
	}
	md.add("\n")
}

func wireWord(w *judge.WireResult) string {
	switch {
	case w.NotApplicable != "":
		return "not applicable"
	case !w.Checked:
		return "not checked"
	case len(w.Invalid) > 0:
		return fmt.Sprintf("**fail** (%d of %d valid)", w.Valid, w.Messages)
	}
	return fmt.Sprintf("pass (%d)", w.Valid)
}

func writeRunSummary(md *budget, r *judge.Run, max int) {
	md.add(fmt.Sprintf("### %s · %s (%s)\n\n", markdownCode(r.Trace), r.Revision, sourceWords(r.RevisionSource)))
	if r.Incomplete != "" {
		md.add(fmt.Sprintf("> [!CAUTION]\n> Incomplete: %s\n\n", markdownText(r.Incomplete)))
	}
	for i := range r.Clauses {
		if c := &r.Clauses[i]; c.Outcome == judge.Fail || c.Outcome == judge.Warn {
			writeClauseFindings(md, c, max)
		}
	}
	writeWireLine(md, &r.Wire, max)
	for _, n := range r.Notes {
		md.add(fmt.Sprintf("- **Note:** %s\n", markdownText(n)))
	}
	if len(r.Unanswered) > 0 {
		md.add(fmt.Sprintf("- **Note:** %d request(s) had no response when the trace ended (%s); noted, not judged.\n", len(r.Unanswered), r.Ending))
	}
	md.add("\n")
}

func writeClauseFindings(md *budget, c *judge.ClauseResult, max int) {
	cl := c.Clause
	md.add(fmt.Sprintf("#### %s [%s](%s) (%s) · %s\n\n> %s\n\n", outcomeIcon(c.Outcome), cl.ID, cl.URL, cl.Level, c.Outcome, markdownText(cl.Quote)))
	for i, f := range c.Findings {
		if i == max {
			md.add(fmt.Sprintf("- … and %d more (report.json lists them all)\n", len(c.Findings)-max))
			break
		}
		md.add(fmt.Sprintf("- **%s** %s (seq %d): %s\n", f.Party, markdownCode(fmt.Sprintf("%s:%d", f.Trace, f.Line)), f.Seq, markdownText(f.Message)))
	}
	md.add("\n")
}

func writeWireLine(md *budget, w *judge.WireResult, max int) {
	switch {
	case w.NotApplicable != "":
		md.add(fmt.Sprintf("**Wire schema:** not applicable (%s)\n\n", markdownText(w.NotApplicable)))
		return
	case !w.Checked && w.NotChecked == "":
		md.add("**Wire schema:** not checked\n\n")
		return
	case !w.Checked:
		md.add(fmt.Sprintf("**Wire schema:** not checked (%s)\n\n", markdownText(w.NotChecked)))
		return
	case len(w.Invalid) == 0:
		md.add(fmt.Sprintf("**Wire schema:** pass (%d messages valid)\n\n", w.Valid))
		return
	}
	md.add(fmt.Sprintf("**Wire schema:** ❌ fail (%d of %d messages valid)\n\n", w.Valid, w.Messages))
	for i, f := range w.Invalid {
		if i == max {
			md.add(fmt.Sprintf("- … and %d more (report.json lists them all)\n", len(w.Invalid)-max))
			break
		}
		md.add(fmt.Sprintf("- **%s** %s (seq %d): %s at %s: %s\n", f.Party, markdownCode(fmt.Sprintf("%s:%d", f.Trace, f.Line)), f.Seq,
			markdownText(f.Definition), markdownCode(f.Pointer), markdownText(f.Error)))
	}
	md.add("\n")
}

// writeFullTables lists every clause of every run, collapsed: the part a
// reviewer opens only to see what was not observed or excluded, and why.
func writeFullTables(md *budget, rep *judge.Report) {
	for _, r := range rep.Runs {
		if !md.add(fmt.Sprintf("<details><summary>All %d clauses of %s (%s)</summary>\n\n| clause | level | outcome | reason |\n|---|---|---|---|\n",
			len(r.Clauses), markdownText(r.Trace), r.Revision)) {
			return
		}
		md.reserve("\n</details>\n\n")
		for _, c := range r.Clauses {
			md.add(fmt.Sprintf("| [%s](%s) | %s | %s %s | %s |\n", c.Clause.ID, c.Clause.URL, c.Clause.Level, outcomeIcon(c.Outcome), c.Outcome, markdownText(c.Reason)))
		}
		md.release()
	}
}

func outcomeIcon(o judge.Outcome) string {
	switch o {
	case judge.Pass:
		return "✅"
	case judge.Fail:
		return "❌"
	case judge.Warn:
		return "⚠️"
	}
	return "➖"
}
