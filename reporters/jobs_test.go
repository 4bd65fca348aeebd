package reporters

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/e2e/hostile"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// hostileJobs are the rows of a merged report whose strings try every
// trick a table, a terminal, a runner or a page falls for.
func hostileJobs() []JobRow {
	return []JobRow{
		{Name: "::error::forged | `x` <script>alert(1)</script>", Servers: []string{"srv\n::warning::two\x1b[31m | *b*", "plain 1.0"},
			Verdict: judge.VerdictFail, Totals: judge.Totals{Pass: 3, Fail: 2, Warn: 1}, Head: "sha256:" + strings.Repeat("a", 64), Signed: true},
		{Name: "quiet", Servers: []string{}, Verdict: judge.VerdictPass, Totals: judge.Totals{Pass: 7}},
	}
}

func renderJobs(t *testing.T, format string) []byte {
	t.Helper()
	doc := ForClauses(syntheticReport())
	doc.Jobs = hostileJobs()
	rep, err := Get(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The summary's table of jobs has a row per job, each of exactly its
// cells, whatever a job's strings hold.
func TestJobsMarkdownKeepsEachRowWhole(t *testing.T) {
	md := string(renderJobs(t, "markdown"))
	_, table, ok := strings.Cut(md, "### Jobs (2)\n\n")
	if !ok {
		t.Fatalf("no table of jobs:\n%.1500s", md)
	}
	rows := strings.Split(strings.SplitN(table, "\n\n", 2)[0], "\n")
	if len(rows) != 4 {
		t.Fatalf("%d table lines, want a header, a rule and 2 rows:\n%s", len(rows), strings.Join(rows, "\n"))
	}
	for _, r := range rows[2:] {
		if cells := strings.Count(r, "|") - strings.Count(r, `\|`); cells != 8 {
			t.Errorf("row %q has %d cell bars, want 8", r, cells)
		}
	}
	if !strings.Contains(rows[2], "❌ fail | 3 | 2 | 1 | `sha256:aaaa") || !strings.Contains(rows[2], "(signed)") || !strings.Contains(rows[3], "| quiet |  | ✅ pass | 7 | 0 | 0 | none |") {
		t.Errorf("rows:\n%s", strings.Join(rows[2:], "\n"))
	}
	if strings.Contains(md, "<script") {
		t.Error("raw markup from a job")
	}
	hostile.CheckCommands(t, "markdown", []byte(md))
	hostile.CheckVisible(t, "markdown", []byte(md))
}

// The text report lists each job on a line of its own, made visible.
func TestJobsTextIsALinePerJob(t *testing.T) {
	text := renderJobs(t, "text")
	hostile.CheckCommands(t, "text", text)
	hostile.CheckVisible(t, "text", text)
	if !strings.Contains(string(text), "jobs: 2\n") || !strings.Contains(string(text), "  quiet: no server named: pass (7 pass, 0 fail, 0 warn), no ledger\n") {
		t.Errorf("text:\n%s", text)
	}
}

// The page's table of jobs is markup mcpverdict wrote, the jobs' strings
// text in it.
func TestJobsHTMLIsEscaped(t *testing.T) {
	page := string(renderJobs(t, "html"))
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d script elements, want the data and the page's own script", n)
	}
	if !strings.Contains(page, `<section id="jobs"`) || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the table of jobs is missing, or a job's name is not escaped")
	}
	hostile.CheckVisible(t, "html", []byte(page))
}

// The JSON report carries the rows as the schema says.
func TestJobsJSONMatchesTheSchema(t *testing.T) {
	data := renderJobs(t, "json")
	var got struct {
		Jobs []JobRow `json:"jobs"`
	}
	if err := json.Unmarshal(data, &got); err != nil || len(got.Jobs) != 2 || got.Jobs[0].Name != hostileJobs()[0].Name {
		t.Fatalf("jobs: %+v (%v)", got.Jobs, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := compileReportSchema(t).Validate(inst); err != nil {
		t.Errorf("a report with jobs does not match the schema: %v", err)
	}
}
