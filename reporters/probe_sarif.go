package reporters

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// toolAnnotationsURL is where the specification defines the four hints.
const toolAnnotationsURL = "https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations"

// probeLevels are the SARIF levels of the verdicts that need attention; a
// pass and a not-applicable verdict are not results.
var probeLevels = map[probe.Outcome]string{
	probe.Violation:       "error",
	probe.ResetUnverified: "error",
	probe.Inconclusive:    "warning",
	probe.OverDeclared:    "note",
}

// newProbeSARIFRun is the SARIF run of a probe on its own: one rule per
// hint test (probe/read_only, probe/destructive, …), one result per (tool,
// test) whose verdict needs attention, placed at the line that declares the
// tool in the repository when it can be found, else at the tool's entry in
// the probe definition.
func newProbeSARIFRun(doc *Document, opts Options) *sarif.Run {
	rep := doc.Probes[0]
	b := newSARIFBuilder("mcpverdict", doc.Version, probeCategory(rep, opts.Category), opts.Repo)
	for _, test := range probe.Tests {
		b.rules[probe.RuleID(test)] = true
		b.run.Tool.Driver.AddRule(probeRule(test))
	}
	b.addFindings(doc.Findings(opts.Repo))
	b.run.AddInvocations(probeInvocation(rep, b.dropped))
	return b.run
}

func probeCategory(rep *probe.Report, category string) string {
	if category != "" {
		return category
	}
	return "mcpverdict-probe/" + rep.Definition.Name
}

func probeRule(test string) *sarif.ReportingDescriptor {
	desc := probe.TestDescriptions[test]
	return sarif.NewRule(probe.RuleID(test)).
		WithName("McpProbe" + pascalWords(test)).
		WithShortDescription(sarif.NewMultiformatMessageString(sentence(desc))).
		WithFullDescription(sarif.NewMultiformatMessageString(sentence(desc + " Only a declaration behaviour can contradict is a claim; an absent hint is never read as false"))).
		WithHelpURI(toolAnnotationsURL).
		WithHelp(sarif.NewMultiformatMessageString(sentence(desc + " See " + toolAnnotationsURL)).WithMarkdown(markdownText(desc) + "\n\n[Tool annotations in the specification](" + toolAnnotationsURL + ")")).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error")).
		WithProperties(sarif.Properties{"tags": []string{"mcp", "tool-annotations", "probe"}, "precision": "high", "problem.severity": "error"})
}

// pascalWords turns "read_only" into "ReadOnly".
func pascalWords(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		b.WriteString(pascal(w))
	}
	return b.String()
}

func (b *sarifRun) probeResult(f *Finding) *sarif.Result {
	rep, tool, tr, level, place := f.Probe, f.Tool, f.Verdict, f.Level, f.Place
	text := fmt.Sprintf("Tool %q declares %s %s: %s:%s. %s", tool, tr.Hint, declaredWord(tr.Declared), tr.Verdict, tr.Primary, tr.Detail)
	if len(tr.Secondary) > 0 {
		text += fmt.Sprintf(" (also: %s)", joinReasons(tr.Secondary))
	}
	res := sarif.NewRuleResult(probe.RuleID(tr.Test)).
		WithLevel(level).
		WithMessage(sarif.NewTextMessage(sentence(printable(text)))).
		WithLocations([]*sarif.Location{b.location(place)})
	res.WithPartialFingerPrints(map[string]any{FingerprintKey: b.fingerprint(probe.RuleID(tr.Test), tool, string(tr.Verdict), string(tr.Primary))})
	res.Properties = sarif.Properties{
		"tool": tool, "test": tr.Test, "hint": tr.Hint, "declared": declaredWord(tr.Declared),
		"verdict": string(tr.Verdict), "primary_reason": string(tr.Primary), "definition": rep.Definition.Path,
	}
	if len(tr.Secondary) > 0 {
		res.Properties["secondary_reasons"] = joinReasons(tr.Secondary)
	}
	return res
}

func declaredWord(h probe.Hint) string {
	if h.Value == probe.HintMalformed {
		return "malformed (" + h.Raw + ")"
	}
	return string(h.Value)
}

func joinReasons(rs []probe.Reason) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// definitionLines finds the line of each tool's first `name = "..."` in
// the definition file; a file that cannot be read places every tool at 1.
func definitionLines(path string) map[string]int {
	out := map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		key, value, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.TrimSpace(key) != "name" {
			continue
		}
		name := strings.Trim(strings.TrimSpace(value), `"`)
		if _, seen := out[name]; !seen {
			out[name] = n
		}
	}
	return out
}

func probeInvocation(rep *probe.Report, dropped int) *sarif.Invocation {
	ok := rep.Reset.Error == ""
	notes := probeNotes(rep, "")
	if dropped > 0 {
		notes = append(notes, sarifNote("warning", fmt.Sprintf("%d more results were left out: a run keeps at most %d; probe-report.json has them all", dropped, maxSARIFResults)))
	}
	inv := &sarif.Invocation{ExecutionSuccessful: &ok}
	if len(notes) > 0 {
		inv.ToolExecutionNotifications = notes
	}
	return inv
}

// probeNotes are what a probe run could not test, as SARIF notifications;
// prefix names the definition when the run holds more than the probe.
func probeNotes(rep *probe.Report, prefix string) []*sarif.Notification {
	var notes []*sarif.Notification
	if !rep.Sandbox.Available {
		notes = append(notes, sarifNote("warning", prefix+"openWorldHint was not tested: "+rep.Sandbox.Reason))
	}
	if !rep.Coverage.Complete {
		notes = append(notes, sarifNote("warning", prefix+"coverage is incomplete: unobserved "+strings.Join(rep.Coverage.Unobserved, "; ")))
	}
	return notes
}
