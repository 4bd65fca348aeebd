package reporters

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// Text is the human report: what needs attention, each finding with its
// clause, party, place, the quote and the link.
type Text struct{}

var _ Reporter = Text{}

func init() { register(Text{}) }

// Name is "text".
func (Text) Name() string { return "text" }

func (Text) Write(w io.Writer, doc *Document, opts Options) error {
	if doc.Clauses == nil {
		return errNoClauses("text")
	}
	rep := visibleReport(doc.Clauses)
	bw := bufio.NewWriter(w)
	var head strings.Builder
	writeDeltaText(&head, visibleDelta(doc.Baseline))
	bw.WriteString(head.String())
	for i := range rep.Runs {
		writeRun(bw, &rep.Runs[i], opts)
	}
	writeProbeText(bw, doc.Probes, opts)
	bw.WriteString(jobsText(doc.Jobs))
	writeExtensionsText(bw, doc, opts)
	fmt.Fprintf(bw, "verdict: %s%s\n", rep.Verdict, scopeNote(rep))
	return bw.Flush()
}

func scopeNote(rep *judge.Report) string {
	var parts []string
	if rep.Party != "" {
		parts = append(parts, "findings against the "+rep.Party+" only")
	}
	if rep.Strict {
		parts = append(parts, "warnings fail (--strict)")
	}
	if n := wireInvalid(rep); n > 0 && rep.Verdict == judge.VerdictFail && rep.Totals.Fail == 0 && !(rep.Strict && rep.Totals.Warn > 0) {
		parts = append(parts, "no clause failed: "+wireBreaks(n))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func writeRun(w *bufio.Writer, r *judge.Run, opts Options) {
	fmt.Fprintf(w, "%s: revision %s (%s)\n", r.Trace, r.Revision, sourceWords(r.RevisionSource))
	if r.Incomplete != "" {
		fmt.Fprintf(w, "  INCOMPLETE  %s\n", r.Incomplete)
	}
	for i := range r.Clauses {
		writeClause(w, &r.Clauses[i], opts)
	}
	writeUnanswered(w, r)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  NOTE  %s\n", n)
	}
	writeWire(w, &r.Wire, opts)
	t := r.Totals
	fmt.Fprintf(w, "totals: %d pass, %d fail, %d warn, %d not observed, %d not applicable, %d excluded",
		t.Pass, t.Fail, t.Warn, t.NotObserved, t.NotApplicable, t.Excluded)
	if n := invalidMessages(r.Wire.Invalid, ""); n > 0 {
		fmt.Fprintf(w, "; %s", wireBreaks(n))
	}
	w.WriteByte('\n')
}

// wireBreaks says how many messages break the wire schema.
func wireBreaks(n int) string {
	if n == 1 {
		return "1 message breaks the wire schema"
	}
	return fmt.Sprintf("%d messages break the wire schema", n)
}

// wireInvalid counts the messages of a report that break the wire schema,
// held against its party scope, as the verdict counts them.
func wireInvalid(rep *judge.Report) int {
	n := 0
	for _, r := range rep.Runs {
		n += invalidMessages(r.Wire.Invalid, rep.Party)
	}
	return n
}

// invalidMessages counts the messages the findings concern (a message
// breaks the schema in as many places as it has problems), of one party or
// of both ("").
func invalidMessages(findings []judge.WireFinding, party string) int {
	seen := map[string]bool{}
	for _, f := range findings {
		if party == "" || string(f.Party) == party {
			seen[fmt.Sprintf("%s\x00%d\x00%d", f.Trace, f.Line, f.Seq)] = true
		}
	}
	return len(seen)
}

func sourceWords(source string) string {
	switch source {
	case judge.SourceNegotiated:
		return "negotiated in the trace"
	case judge.SourceMeta:
		return "declared in request _meta"
	case judge.SourceHeader:
		return "declared in the MCP-Protocol-Version header"
	case judge.SourceFlag:
		return "chosen with --revision"
	case judge.SourceRequested:
		return "asked for in the client's initialize, which was never answered"
	case judge.SourceProposed:
		return "proposed in the client's initialize, answered with a version that is no revision"
	}
	return "the trace declares none"
}

func writeClause(w *bufio.Writer, c *judge.ClauseResult, opts Options) {
	attention := c.Outcome == judge.Fail || c.Outcome == judge.Warn
	if !attention && !opts.All {
		return
	}
	fmt.Fprintf(w, "  %-14s %s (%s)\n", strings.ToUpper(string(c.Outcome)), c.Clause.ID, c.Clause.Level)
	writeFindings(w, c.Findings, maxFindings(opts))
	if c.Reason != "" && !attention {
		fmt.Fprintf(w, "        why:  %s\n", c.Reason)
	}
	if attention || opts.All {
		fmt.Fprintf(w, "        spec: %q\n        see:  %s\n", c.Clause.Quote, c.Clause.URL)
	}
}

func writeFindings(w *bufio.Writer, fs []judge.Finding, max int) {
	for i, f := range fs {
		if i == max {
			fmt.Fprintf(w, "        ... and %d more (--format json lists them all)\n", len(fs)-max)
			return
		}
		fmt.Fprintf(w, "        [%s] %s:%d (seq %d): %s\n", f.Party, f.Trace, f.Line, f.Seq, f.Message)
	}
}

// maxFindings is how many findings a clause shows: every one under
// --all, which promises everything.
func maxFindings(opts Options) int {
	switch {
	case opts.MaxFindings > 0:
		return opts.MaxFindings
	case opts.All:
		return math.MaxInt
	}
	return 20
}

func writeUnanswered(w *bufio.Writer, r *judge.Run) {
	if len(r.Unanswered) == 0 {
		return
	}
	fmt.Fprintf(w, "  NOTE  %d request(s) had no response when the trace ended (%s); noted, not judged:\n", len(r.Unanswered), r.Ending)
	for i, u := range r.Unanswered {
		if i == 10 {
			fmt.Fprintf(w, "        ... and %d more\n", len(r.Unanswered)-10)
			return
		}
		fmt.Fprintf(w, "        %s %q id %s at line %d (seq %d)\n", u.Party, u.Method, u.ID, u.Line, u.Seq)
	}
}

func writeWire(w *bufio.Writer, wire *judge.WireResult, opts Options) {
	switch {
	case wire.NotApplicable != "":
		fmt.Fprintf(w, "wire schema: not applicable (%s)\n", wire.NotApplicable)
	case !wire.Checked && wire.NotChecked == "":
		w.WriteString("wire schema: not checked\n")
	case !wire.Checked:
		fmt.Fprintf(w, "wire schema: not checked (%s)\n", wire.NotChecked)
	case len(wire.Invalid) == 0:
		fmt.Fprintf(w, "wire schema: pass (%d messages valid)\n", wire.Valid)
	default:
		fmt.Fprintf(w, "wire schema: fail (%d of %d messages valid)\n", wire.Valid, wire.Messages)
		for i, f := range wire.Invalid {
			if i == maxFindings(opts) {
				fmt.Fprintf(w, "        ... and %d more (--format json lists them all)\n", len(wire.Invalid)-i)
				break
			}
			fmt.Fprintf(w, "        [%s] %s:%d (seq %d): %s at %q: %s\n", f.Party, f.Trace, f.Line, f.Seq, f.Definition, f.Pointer, f.Error)
		}
	}
}
