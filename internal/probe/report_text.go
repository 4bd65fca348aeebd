package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// WriteJSON writes the report as indented JSON, the format
// probe-report.schema.json describes.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report for a person: the run's conditions, a table
// of every (tool, test) verdict, why each verdict that is not a pass came
// out as it did, and the expectation check.
func WriteText(w io.Writer, rep *Report) error {
	var b strings.Builder
	writeHeader(&b, rep)
	writeTable(&b, rep)
	writeFooter(&b, rep)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHeader(b *strings.Builder, rep *Report) {
	fmt.Fprintf(b, "probe %s  (%d runs, %d concurrent attempts per mode, %d sessions)\n", rep.Definition.Name, rep.Runs, rep.ConcurrentAttempts, rep.Sessions.Count)
	fmt.Fprintf(b, "  definition: %s (sha256 %s%s)\n", rep.Definition.Path, short(rep.Definition.SHA256), gitLine(rep.Provenance.Definition))
	if s := rep.Provenance.Server; s.Name != "" {
		fmt.Fprintf(b, "  server: %s\n", serverLine(s))
	}
	if rep.Provenance.Harness != "" {
		fmt.Fprintf(b, "  harness: %s\n", rep.Provenance.Harness)
	}
	fmt.Fprintf(b, "  reset: %s\n", resetLine(rep.Reset))
	fmt.Fprintf(b, "  coverage: %s\n", coverageLine(rep.Coverage))
	fmt.Fprintf(b, "  network sandbox: %s\n", sandboxLine(rep.Sandbox))
	if rep.Reset.Verified {
		fmt.Fprintf(b, "  control sessions: %s\n", controlLine(rep.Control))
	}
	b.WriteString("\n")
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func resetLine(r ResetCheck) string {
	switch {
	case r.Error != "":
		return "failed: " + r.Error
	case r.Verified:
		return "verified (two resets from the seed compared equal)"
	}
	return fmt.Sprintf("UNVERIFIED: two resets differ in %d record(s); no session was run", len(r.Differences))
}

func coverageLine(c Coverage) string {
	if c.Complete {
		return "complete"
	}
	return "incomplete: unobserved " + strings.Join(c.Unobserved, "; ")
}

func sandboxLine(s SandboxInfo) string {
	if s.Available {
		return "yes: every connection attempt of the control, once and twice sessions recorded"
	}
	return "no (" + s.Reason + "): open-world claims are inconclusive"
}

func controlLine(c ControlReport) string {
	stable := "stable"
	if !c.Stable {
		stable = "UNSTABLE between runs"
	}
	parts := []string{stable, "start-up changed " + countsLine(c.StartupChanges)}
	if n := len(c.NetworkAttempts); n > 0 {
		parts = append(parts, fmt.Sprintf("%d connection attempt(s) at start-up", n))
	}
	return strings.Join(parts, "; ")
}

func countsLine(m map[definition.Category]definition.Counts) string {
	var parts []string
	for _, c := range definition.Categories {
		parts = append(parts, fmt.Sprintf("%s %d", c, m[c].Total()))
	}
	return strings.Join(parts, ", ")
}

func writeTable(b *strings.Builder, rep *Report) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	expect := rep.Expectations != nil
	header := "  tool\ttest\tdeclared\tverdict\tobserved"
	if expect {
		header += "\texpected"
	}
	fmt.Fprintln(tw, header)
	for _, t := range rep.Tools {
		for _, tr := range t.Tests {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s:%s\t%s%s\n", wiretext.Quote(t.Tool), tr.Test, declaredText(tr.Declared), tr.Verdict, tr.Primary, wiretext.Visible(tr.Observed), expectedCell(expect, tr))
		}
	}
	tw.Flush()
	b.WriteString("\n")
	for _, t := range rep.Tools {
		writeWhy(b, t)
	}
}

func declaredText(h definition.Hint) string {
	if h.Value == definition.HintMalformed {
		return "malformed " + h.Raw
	}
	return string(h.Value)
}

func expectedCell(expect bool, tr TestResult) string {
	switch {
	case !expect || tr.Matched == nil:
		return ""
	case *tr.Matched:
		return "\tok"
	}
	return "\tMISMATCH (expected " + tr.Expected + ")"
}

// writeWhy explains each verdict that is not a plain pass or a plain
// absence of anything to judge.
func writeWhy(b *strings.Builder, t ToolReport) {
	for _, tr := range t.Tests {
		if (tr.Verdict == definition.Pass || tr.Verdict == definition.NotApplicable) && len(tr.Secondary) == 0 {
			continue
		}
		fmt.Fprintf(b, "  %s %s: %s", wiretext.Quote(t.Tool), tr.Test, wiretext.Visible(tr.Detail))
		if len(tr.Secondary) > 0 {
			fmt.Fprintf(b, " [also: %s]", wiretext.Visible(joinReasons(tr.Secondary)))
		}
		b.WriteString("\n")
	}
	for _, c := range t.Cases {
		if c.Concurrent != nil {
			fmt.Fprintf(b, "  %s concurrent attempts: %s\n", c.ID, modesLine(c.Concurrent))
		}
	}
}

func joinReasons(rs []definition.Reason) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

func modesLine(c *ConcurrentEvidence) string {
	var parts []string
	for _, m := range []string{definition.ModeSingleConnection, definition.ModeTwoProcess} {
		mc := c.Modes[m]
		parts = append(parts, fmt.Sprintf("%s %d/%d diverged, %d overlapped, %d errored", m, mc.Diverged, mc.Attempts, mc.Overlapped, mc.Errored))
	}
	return strings.Join(parts, "; ")
}

func writeFooter(b *strings.Builder, rep *Report) {
	for _, in := range rep.Nondeterminism {
		fmt.Fprintf(b, "  nondeterminism: %s differed between runs in %s\n", in.Session, categoriesText(in.Categories))
	}
	if e := rep.Expectations; e != nil {
		fmt.Fprintf(b, "  expectations: %d/%d matched\n", e.Matched, e.Checked)
		for _, m := range e.Mismatches {
			fmt.Fprintf(b, "    mismatch: %s\n", m)
		}
	}
	if p := rep.Protocol; p != nil {
		fmt.Fprintf(b, "  protocol: %d session traces judged against the clauses (findings against the server): %s%s\n", p.Traces, p.Verdict, clausesLine(p))
	}
	fmt.Fprintf(b, "  verdicts: %s\n", summaryLine(rep.Summary))
	if rep.Sessions.TraceDir != "" {
		fmt.Fprintf(b, "  traces: %s\n", rep.Sessions.TraceDir)
	}
}

func categoriesText(cs []definition.Category) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

func summaryLine(m map[string]int) string {
	var parts []string
	for _, v := range definition.Verdicts {
		if n := m[string(v)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n))
		}
	}
	return strings.Join(parts, ", ")
}

func clausesLine(p *ProtocolReport) string {
	var parts []string
	for _, l := range []struct {
		word   string
		counts []ClauseCount
	}{{"failed", p.Failed}, {"warned", p.Warned}} {
		for _, c := range l.counts {
			parts = append(parts, fmt.Sprintf("%s %s in %d", c.Clause, l.word, c.Traces))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + "; see mcpverdict validate)"
}

// gitLine says which commit the definition was read at.
func gitLine(g provenance.GitState) string {
	switch {
	case g.Commit == "":
		return ""
	case g.Dirty:
		return ", at commit " + short(g.Commit) + " with uncommitted changes"
	}
	return ", at commit " + short(g.Commit)
}

// serverLine is the server as it named itself; every part is the server's
// own text, so each is quoted.
func serverLine(s provenance.ServerIdentity) string {
	line := wiretext.Quote(s.Name)
	if s.Version != "" {
		line += " " + wiretext.Quote(s.Version)
	}
	if s.SDK != "" {
		line += ", SDK " + wiretext.Quote(s.SDK)
	}
	if s.ProtocolVersion != "" {
		line += ", protocol " + wiretext.Quote(s.ProtocolVersion)
	}
	return line
}
