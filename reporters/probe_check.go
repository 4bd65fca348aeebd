package reporters

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// This file renders the probe reports a clause report carries (check
// --probe, Options.Probes) in the human formats and as annotations; SARIF
// and JUnit reuse the probe's own renderings (probe_sarif.go,
// probe_junit.go).

// verdictOrder lists the probe verdicts from the most to the least urgent,
// for counts and summaries.
var verdictOrder = []probe.Outcome{probe.Violation, probe.ResetUnverified, probe.Inconclusive, probe.OverDeclared, probe.Pass, probe.NotApplicable}

// probeAttention says whether a verdict is listed without --all: the
// verdicts SARIF reports as results.
func probeAttention(v probe.Outcome) bool {
	_, ok := probeLevels[v]
	return ok
}

// probeConditions says in one line what the run could and could not test.
func probeConditions(rep *probe.Report) string {
	parts := []string{fmt.Sprintf("%d runs, %d concurrent attempts per mode, %d sessions", rep.Runs, rep.ConcurrentAttempts, rep.Sessions.Count)}
	switch {
	case rep.Reset.Error != "":
		parts = append(parts, "reset failed: "+rep.Reset.Error)
	case !rep.Reset.Verified:
		parts = append(parts, "reset UNVERIFIED")
	default:
		parts = append(parts, "reset verified")
	}
	if rep.Sandbox.Available {
		parts = append(parts, "network sandbox on")
	} else {
		parts = append(parts, "no network sandbox ("+rep.Sandbox.Reason+")")
	}
	if !rep.Coverage.Complete {
		parts = append(parts, "coverage incomplete (unobserved: "+strings.Join(rep.Coverage.Unobserved, "; ")+")")
	}
	return strings.Join(parts, "; ")
}

// probeCounts is the report's summary in verdict order: "1 VIOLATION, 3 PASS".
func probeCounts(rep *probe.Report) string {
	var parts []string
	for _, v := range verdictOrder {
		if n := rep.Summary[string(v)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	if len(parts) == 0 {
		return "no verdict"
	}
	return strings.Join(parts, ", ")
}

// probeLine is one verdict in one line: tool, test, declaration, verdict,
// reasons and detail.
func probeLine(tool string, tr *probe.TestResult) string {
	return fmt.Sprintf("%s: %s:%s", probeSubject(tool, tr), tr.Verdict, probeWhy(tr))
}

// probeSubject names what a verdict is about: "get_item read_only
// (readOnlyHint true)".
func probeSubject(tool string, tr *probe.TestResult) string {
	return fmt.Sprintf("%s %s (%s %s)", tool, tr.Test, tr.Hint, declaredWord(tr.Declared))
}

// probeWhy gives a verdict's reasons and detail, and for a fixture the
// truth it missed.
func probeWhy(tr *probe.TestResult) string {
	s := fmt.Sprintf("%s: %s", tr.Primary, tr.Detail)
	if len(tr.Secondary) > 0 {
		s += " (also: " + joinReasons(tr.Secondary) + ")"
	}
	if tr.Matched != nil && !*tr.Matched {
		s += " [expected " + tr.Expected + "]"
	}
	return s
}

// writeProbeText lists each probe's verdicts that need attention (every
// verdict with --all) before the verdict line of the text report.
func writeProbeText(w *bufio.Writer, probes []*probe.Report, opts Options) {
	for _, rep := range probes {
		fmt.Fprintf(w, "probe %s (%s): %s\n", wiretext.Visible(rep.Definition.Name), wiretext.Visible(rep.Definition.Path), probeCounts(rep))
		fmt.Fprintf(w, "  %s\n", wiretext.Visible(probeConditions(rep)))
		for _, t := range rep.Tools {
			for i := range t.Tests {
				if tr := &t.Tests[i]; opts.All || probeAttention(tr.Verdict) {
					fmt.Fprintf(w, "  %-16s %s: %s\n", tr.Verdict, wiretext.Visible(probeSubject(t.Tool, tr)), wiretext.Visible(probeWhy(tr)))
				}
			}
		}
	}
}

var probeIcons = map[probe.Outcome]string{
	probe.Violation: "❌", probe.ResetUnverified: "⛔", probe.Inconclusive: "❔",
	probe.OverDeclared: "🔽", probe.Pass: "✅", probe.NotApplicable: "➖",
}

// writeProbeSummary gives each probe a section of the job summary: its
// conditions, a table of every tool's verdicts and the verdicts that need
// attention with their reasons.
func writeProbeSummary(md *budget, rep *probe.Report, max int) {
	md.add(fmt.Sprintf("### Tool annotations probed: %s (%s)\n\n%s. %s.\n\n", markdownCode(rep.Definition.Name),
		markdownCode(rep.Definition.Path), markdownText(probeCounts(rep)), markdownText(probeConditions(rep))))
	md.add("| tool | " + strings.Join(probe.Tests, " | ") + " |\n|---" + strings.Repeat("|---", len(probe.Tests)) + "|\n")
	for _, t := range rep.Tools {
		cells := make([]string, len(probe.Tests))
		for i, test := range probe.Tests {
			cells[i] = "–"
			for _, tr := range t.Tests {
				if tr.Test == test {
					cells[i] = probeIcons[tr.Verdict] + " " + string(tr.Verdict)
				}
			}
		}
		md.add(fmt.Sprintf("| %s | %s |\n", markdownCode(t.Tool), strings.Join(cells, " | ")))
	}
	md.add("\n")
	var lines []string
	for _, t := range rep.Tools {
		for i := range t.Tests {
			if tr := &t.Tests[i]; probeAttention(tr.Verdict) {
				lines = append(lines, fmt.Sprintf("- %s %s\n", probeIcons[tr.Verdict], markdownText(probeLine(t.Tool, tr))))
			}
		}
	}
	for i, l := range lines {
		if i == max {
			md.add(fmt.Sprintf("- … and %d more (probe-report.json lists them all)\n", len(lines)-max))
			break
		}
		md.add(l)
	}
	md.add("\n")
}

// probeJSON is a probe report as the JSON clause report carries it: the
// verdicts without their evidence, which probe-report.json holds.
type probeJSON struct {
	Definition probe.DefinitionInfo  `json:"definition"`
	Failed     bool                  `json:"failed"`
	Summary    map[string]int        `json:"summary"`
	Reset      probe.ResetCheck      `json:"reset"`
	Sandbox    probe.SandboxInfo     `json:"sandbox"`
	Coverage   probe.Coverage        `json:"coverage"`
	TraceDir   string                `json:"trace_dir,omitempty"`
	Verdicts   []probe.VerdictRecord `json:"verdicts"`
}

func probesJSON(probes []*probe.Report) []probeJSON {
	out := make([]probeJSON, len(probes))
	for i, rep := range probes {
		out[i] = probeJSON{
			Definition: rep.Definition, Failed: rep.Failed(), Summary: rep.Summary, Reset: rep.Reset,
			Sandbox: rep.Sandbox, Coverage: rep.Coverage, TraceDir: rep.Sessions.TraceDir, Verdicts: rep.Verdicts(),
		}
		if out[i].Verdicts == nil {
			out[i].Verdicts = []probe.VerdictRecord{}
		}
		if out[i].Summary == nil {
			out[i].Summary = map[string]int{}
		}
	}
	return out
}
