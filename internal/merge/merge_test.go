package merge_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/merge"
	"github.com/mcpverdict/mcpverdict/reporters"
)

var mergedFiles = []string{"report.json", "report.txt", "mcpverdict.sarif", "junit.xml", "summary.md", "annotations.txt", "report.html", "ledger.ndjson", "ledger.head"}

// Two real check runs of the example server and a validate of a trace
// breaking a MUST clause merge into one report in every format with a row
// per job, the verdict and exit status of the failing job, and a ledger
// that verifies down to every job's chain.
func TestMergeRealJobs(t *testing.T) {
	alpha, beta, gamma := fleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	code, stdout, stderr := runCLI(t, "merge", alpha, beta, gamma, "--out", out)
	if code != 1 {
		t.Fatalf("merge exited %d, want 1 (gamma fails a MUST clause); stderr:\n%s", code, stderr)
	}
	for _, f := range mergedFiles {
		if info, err := os.Stat(filepath.Join(out, f)); err != nil || info.Size() == 0 {
			t.Errorf("merged folder lacks %s (%v)", f, err)
		}
	}
	var rep struct {
		judge.Report
		Jobs []reporters.JobRow `json:"jobs"`
	}
	if err := json.Unmarshal(read(t, filepath.Join(out, "report.json")), &rep); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, filepath.Join(out, "report.json"))
	if rep.Verdict != judge.VerdictFail || len(rep.Jobs) != 3 {
		t.Fatalf("verdict %s with %d jobs, want fail with 3", rep.Verdict, len(rep.Jobs))
	}
	var runs int
	var fails int
	for i, name := range []string{"alpha", "beta", "gamma"} {
		job := jobReport(t, filepath.Join(filepath.Dir(alpha), name))
		runs += len(job.Runs)
		fails += job.Totals.Fail
		row := rep.Jobs[i]
		if row.Name != name || row.Verdict != job.Verdict || row.Totals != job.Totals || row.Head != strings.TrimSpace(string(read(t, filepath.Join(filepath.Dir(alpha), name, "ledger.head")))) {
			t.Errorf("job row %d: %+v, want job %s as its report and head say", i, row, name)
		}
	}
	if len(rep.Runs) != runs || rep.Totals.Fail != fails || fails == 0 {
		t.Errorf("merged %d runs, %d failures; the jobs have %d and %d", len(rep.Runs), rep.Totals.Fail, runs, fails)
	}
	if !strings.HasPrefix(rep.Runs[0].Trace, "alpha/session-") {
		t.Errorf("first run's trace %q, want it named inside job alpha", rep.Runs[0].Trace)
	}
	summary := string(read(t, filepath.Join(out, "summary.md")))
	for _, want := range []string{"### Jobs (3)", "| alpha | mcpverdict-example", "| gamma |", "❌ fail"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	if !strings.Contains(stdout, "jobs: 3") || !strings.Contains(stdout, "verdict: fail") {
		t.Errorf("stdout is not the merged text report:\n%s", stdout)
	}
	code, vout, verr := runCLI(t, "ledger", "verify", "--ledger", filepath.Join(out, "ledger.ndjson"), "--expected-head", filepath.Join(out, "ledger.head"))
	if code != 0 || !strings.Contains(vout, "jobs: 3") {
		t.Fatalf("ledger verify exited %d:\n%s%s", code, vout, verr)
	}
}

// The merged SARIF passes the SARIF Multitool, and a real JUnit consumer
// reads in the merged JUnit the sum of what it reads in each job's.
func TestMergedSARIFAndJUnitPassTheConsumers(t *testing.T) {
	alpha, beta, gamma := fleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	if code, _, stderr := runCLI(t, "merge", alpha, beta, gamma, "--out", out); code != 1 {
		t.Fatalf("merge exited %d: %s", code, stderr)
	}
	if problems := peers.SarifProblems(t, filepath.Join(out, "mcpverdict.sarif")); len(problems) > 0 {
		t.Errorf("sarif-multitool validate:\n%s", strings.Join(problems, "\n"))
	}
	var want peers.JUnit
	for _, dir := range []string{alpha, beta, gamma} {
		rep := jobReport(t, dir)
		var buf bytes.Buffer
		if err := (reporters.JUnit{}).Write(&buf, reporters.ForClauses(rep), reporters.Options{}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "junit.xml")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		c := peers.JUnitCounts(t, path)
		want = peers.JUnit{Total: want.Total + c.Total, Passed: want.Passed + c.Passed, Failed: want.Failed + c.Failed, Errors: want.Errors + c.Errors, Skipped: want.Skipped + c.Skipped}
	}
	if got := peers.JUnitCounts(t, filepath.Join(out, "junit.xml")); got != want || got.Failed == 0 {
		t.Errorf("merged JUnit reads %+v, the jobs' together %+v", got, want)
	}
}

// Jobs that all pass merge to a pass and exit 0; on a runner the merged
// summary is added to the job summary, after what the job wrote there.
func TestPassingJobsExitZeroAndFillTheJobSummary(t *testing.T) {
	alpha, beta, _ := fleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	summary := filepath.Join(t.TempDir(), "step-summary.md")
	write(t, summary, []byte("earlier step\n"))
	if code, _, stderr := runCLIEnv(t, map[string]string{"GITHUB_STEP_SUMMARY": summary}, "merge", alpha, beta, "--out", out); code != 0 {
		t.Fatalf("merge of two passing jobs exited %d: %s", code, stderr)
	}
	if !strings.Contains(string(read(t, filepath.Join(out, "report.txt"))), "verdict: pass") {
		t.Error("report.txt does not say pass")
	}
	if got, want := string(read(t, summary)), "earlier step\n"+string(read(t, filepath.Join(out, "summary.md"))); got != want {
		t.Errorf("the job summary holds %.300q, want the earlier step's line then summary.md", got)
	}
	page := string(read(t, filepath.Join(out, "report.html")))
	if !strings.Contains(page, `<section id="jobs"`) || strings.Contains(page, `"unreadable"`) {
		t.Error("report.html lacks the table of jobs, or a run's timeline that the job's folder holds")
	}
}

func jobReport(t *testing.T, dir string) *judge.Report {
	t.Helper()
	var rep judge.Report
	if err := json.Unmarshal(read(t, filepath.Join(dir, merge.ReportFile)), &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func checkSchema(t *testing.T, path string) {
	t.Helper()
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(reporters.ReportSchema))
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("%s does not match report.schema.json: %v", path, err)
	}
}
