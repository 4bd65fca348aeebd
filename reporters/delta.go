package reporters

import (
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// visibleDelta is the delta every human and CI format renders: its strings
// come from a file given on the command line and, through it, from the
// server a baseline was run against (tool names, contract findings), so
// they are written visibly as the report's are (visibleReport).
func visibleDelta(d *baseline.Delta) *baseline.Delta {
	if d == nil {
		return nil
	}
	v := wiretext.Visible
	out := *d
	out.Report, out.Version, out.Ignored = v(d.Report), v(d.Version), v(d.Ignored)
	out.New, out.Fixed = visibleChanges(d.New), visibleChanges(d.Fixed)
	out.Contracts = make([]baseline.ContractChange, len(d.Contracts))
	for i, c := range d.Contracts {
		c.Message = v(c.Message)
		out.Contracts[i] = c
	}
	out.Probes = make([]baseline.ProbeChange, len(d.Probes))
	for i, p := range d.Probes {
		p.Definition, p.Tool, p.Test, p.Then, p.Now = v(p.Definition), v(p.Tool), v(p.Test), v(p.Then), v(p.Now)
		out.Probes[i] = p
	}
	return &out
}

func visibleChanges(list []baseline.ClauseChange) []baseline.ClauseChange {
	out := make([]baseline.ClauseChange, len(list))
	for i, c := range list {
		c.Clause, c.Revision, c.Then, c.Now = wiretext.Visible(c.Clause), wiretext.Visible(c.Revision), wiretext.Visible(c.Then), wiretext.Visible(c.Now)
		out[i] = c
	}
	return out
}

// deltaHeadline says in one line what changed since the baseline, or why
// it was not compared.
func deltaHeadline(d *baseline.Delta) string {
	if !d.Compared() {
		return "baseline not compared: " + d.Ignored
	}
	return fmt.Sprintf("since the baseline %s (mcpverdict %s, verdict %s): %s new, %s fixed, %s, %s; %s",
		d.Report, d.Version, d.Verdict, count(len(d.New), "clause"), count(len(d.Fixed), "clause"),
		count(len(d.Contracts), "contract change"), count(len(d.Probes), "probe verdict")+" moved", newFailuresWords(d.NewFailures()))
}

func newFailuresWords(n int) string {
	if n == 0 {
		return "no new failure"
	}
	return count(n, "new failure")
}

// count is "1 clause", "2 clauses".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// deltaRow is one change as the human formats list it.
type deltaRow struct {
	Kind, What, Then, Now string
}

// deltaRows lists every change: new clauses, fixed ones, contract
// findings, probe verdicts.
func deltaRows(d *baseline.Delta) []deltaRow {
	if !d.Compared() {
		return nil
	}
	var rows []deltaRow
	for _, c := range d.New {
		rows = append(rows, deltaRow{"new", clauseWords(c), c.Then, c.Now})
	}
	for _, c := range d.Fixed {
		rows = append(rows, deltaRow{"fixed", clauseWords(c), c.Then, c.Now})
	}
	for _, c := range d.Contracts {
		then, now := "drift", "agrees"
		if c.Change == "new" {
			then, now = now, then
		}
		rows = append(rows, deltaRow{"contract", c.Clause + ": " + c.Message, then, now})
	}
	for _, p := range d.Probes {
		rows = append(rows, deltaRow{"probe", fmt.Sprintf("%s: tool %s, %s", p.Definition, p.Tool, p.Test), p.Then, p.Now})
	}
	return rows
}

func clauseWords(c baseline.ClauseChange) string {
	return fmt.Sprintf("%s (%s, %s)", c.Clause, c.Level, c.Revision)
}

// writeDeltaText is the delta at the head of the text report.
func writeDeltaText(b *strings.Builder, d *baseline.Delta) {
	if d == nil {
		return
	}
	b.WriteString(deltaHeadline(d) + "\n")
	for _, r := range deltaRows(d) {
		fmt.Fprintf(b, "  %-9s %s: %s -> %s\n", strings.ToUpper(r.Kind), r.What, r.Then, r.Now)
	}
	b.WriteString("\n")
}

// writeDeltaMarkdown is the section the job summary leads with.
func writeDeltaMarkdown(md *budget, d *baseline.Delta) {
	if d == nil {
		return
	}
	if !d.Compared() {
		md.add(fmt.Sprintf("> [!NOTE]\n> Baseline not compared: %s\n\n", markdownText(d.Ignored)))
		return
	}
	md.add(fmt.Sprintf("### Since the baseline\n\n%s new failure(s) against %s (mcpverdict %s, verdict %s).\n\n",
		iconCount(d.NewFailures()), markdownCode(d.Report), markdownText(d.Version), d.Verdict))
	rows := deltaRows(d)
	if len(rows) == 0 {
		md.add("Nothing changed.\n\n")
		return
	}
	md.add("| change | what | then | now |\n|---|---|---|---|\n")
	for _, r := range rows {
		md.add(fmt.Sprintf("| %s | %s | %s | %s |\n", r.Kind, markdownText(r.What), markdownText(r.Then), markdownText(r.Now)))
	}
	md.add("\n")
}

func iconCount(n int) string {
	if n == 0 {
		return "✅ No"
	}
	return fmt.Sprintf("❌ %d", n)
}

// deltaTitle is what the summary's heading adds when a baseline was
// compared.
func deltaTitle(d *baseline.Delta) string {
	if !d.Compared() {
		return ""
	}
	return " · " + newFailuresWords(d.NewFailures()) + " since the baseline"
}

// htmlBaseline is the delta as report.html lays it out, above the page
// the script builds: written by the template, whose escaping holds every
// string as text, it needs no script and leaves the script's hash alone.
type htmlBaseline struct {
	Title, Headline string
	Rows            []deltaRow
}

func newHTMLBaseline(d *baseline.Delta) *htmlBaseline {
	if d == nil {
		return nil
	}
	d = visibleDelta(d)
	title := "Since the baseline"
	if !d.Compared() {
		title = "Baseline not compared"
	}
	return &htmlBaseline{Title: title, Headline: deltaHeadline(d), Rows: deltaRows(d)}
}
