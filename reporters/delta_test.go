package reporters

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
)

// hostileDelta holds, where a baseline file or the server behind it chose
// the text, a line end, a terminal escape, a workflow command, markup and
// a table cell's end.
func hostileDelta() *baseline.Delta {
	evil := "x\n::error::owned\x1b[31m<script>alert(1)</script>|`"
	return &baseline.Delta{Report: "base/" + evil + ".json", Version: evil, Verdict: "fail",
		New:       []baseline.ClauseChange{},
		Fixed:     []baseline.ClauseChange{},
		Contracts: []baseline.ContractChange{{Clause: "CONTRACT-001", Change: "new", Message: "tool " + evil + " changed"}},
		Probes:    []baseline.ProbeChange{{Definition: evil, Tool: evil, Test: "read_only", Then: "PASS", Now: "VIOLATION"}},
	}
}

// Every format shows the delta's strings as text: no line of its own, no
// escape reaching a terminal, no markup where the format has markup.
func TestTheDeltaIsShownNeverObeyed(t *testing.T) {
	for _, format := range []string{"text", "markdown", "html", "junit", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			r, _ := Get(format)
			doc := ForClauses(syntheticReport())
			doc.Baseline, doc.ReadTrace = hostileDelta(), readFromModule
			var buf bytes.Buffer
			if err := r.Write(&buf, doc, goldenOptions()); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if format == "html" {
				out = strings.Replace(out, htmlScript, "", 1)
			}
			for _, bad := range []string{"\x1b", "\n::error::owned", "<script>alert"} {
				if strings.Contains(out, bad) && (bad != "<script>alert" || format != "text") { // text is no markup
					t.Errorf("%s output holds %q", format, bad)
				}
			}
			if format != "github" && !strings.Contains(out, "owned") {
				t.Errorf("%s output does not show the delta at all", format)
			}
		})
	}
	var md bytes.Buffer
	doc := ForClauses(syntheticReport())
	doc.Baseline = hostileDelta()
	_ = (Markdown{}).Write(&md, doc, Options{})
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| contract |") && strings.Count(line, "|")-strings.Count(line, `\|`) != 5 {
			t.Errorf("a contract row's cells are not its own: %s", line)
		}
	}
}
