package reporters

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/hostile"
)

// Whatever string a peer puts in a finding, a reason, a note, a request id,
// a schema error or why a trace is incomplete, every format's output is
// valid, holds no raw control byte (JSON apart, which keeps the bytes,
// escaping what JSON must), and holds no workflow command but the github
// format's own annotations.
func FuzzReportsEscapeWireText(f *testing.F) {
	for _, s := range []string{"\n::error::x", "::add-mask::s", "\x1b]0;t\x07", "]]><x/>", "\xff\xfe", "| a | `b` *c*", "\u202e\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rep := syntheticReport()
		r := &rep.Runs[0]
		r.Clauses[0].Findings[0].Message = s
		r.Clauses[6].Reason = s
		r.Notes = []string{s}
		r.Unanswered[0].ID = s
		r.Wire.Invalid[0].Error = s
		rep.Runs[1].Incomplete = s
		for _, format := range Names() {
			out := render(t, format, rep, Options{Repo: testRepo()})
			if format != "json" {
				hostile.CheckVisible(t, format, out)
			}
			switch format {
			case "github":
				hostile.CheckAnnotations(t, format, out)
			case "junit":
				hostile.CheckXML(t, format, out)
			case "json", "sarif":
				hostile.CheckJSON(t, format, out)
			default:
				hostile.CheckCommands(t, format, out)
			}
			if t.Failed() {
				t.FailNow()
			}
		}
	})
}
