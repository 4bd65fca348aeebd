package action

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// compareAsTheCLIDoes gives the fake command line's reports the delta
// check and validate compute for --baseline.
func compareAsTheCLIDoes(args []string, rep *judge.Report) *baseline.Delta {
	i := slices.Index(args, "--baseline")
	if i < 0 || i+1 >= len(args) {
		return nil
	}
	base, err := baseline.Load(args[i+1])
	if err != nil {
		return &baseline.Delta{Report: args[i+1], Ignored: err.Error()}
	}
	return baseline.Compare(args[i+1], base, baseline.Current{Report: rep})
}

func baselineArg(args []string) string {
	if i := slices.Index(args, "--baseline"); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// reportJSON is rep as report.json holds it.
func reportJSON(t *testing.T, rep *judge.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := (reporters.JSON{}).Write(&buf, reporters.ForClauses(rep), reporters.Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// passing is the report with its failing clause passing: the baseline of
// a change that broke it.
func passing() *judge.Report {
	rep := report(judge.VerdictPassWithWarnings)
	rep.Runs[0].Clauses = slices.Clone(rep.Runs[0].Clauses)
	rep.Runs[0].Clauses[0].Outcome, rep.Runs[0].Clauses[0].Findings = judge.Pass, nil
	return rep
}

func TestFailOnNewGatesOnlyOnNewFailures(t *testing.T) {
	cases := []struct {
		name     string
		baseline *judge.Report
		code     int
		log      string
	}{
		{"a failure the baseline had", report(judge.VerdictFail), 0, ""},
		{"a failure the baseline did not have", passing(), 1, "mcpverdict: 1 new failure(s) since the baseline"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var path string
			res := simulate(t, &fakeCLI{rep: report(judge.VerdictFail), code: 1}, func(r *actiontest.Runner) {
				path = filepath.Join(r.Workspace, "base", "report.json")
				writeFile(t, path, reportJSON(t, tc.baseline))
				r.SetInput("baseline", "base/report.json")
				r.SetInput("fail-on", "new")
				r.SetInput("sarif-upload", "false")
			})
			if res.code != tc.code || !strings.Contains(res.log, tc.log) {
				t.Errorf("exit %d, want %d\n%s", res.code, tc.code, res.log)
			}
			if s := res.runner.Summary(t); !strings.Contains(s, "### Since the baseline") {
				t.Errorf("the summary does not lead with the delta:\n%s", s)
			}
		})
	}
}

func TestFailOnNewWithoutABaselineGatesAsMust(t *testing.T) {
	res := simulate(t, &fakeCLI{rep: report(judge.VerdictFail), code: 1}, func(r *actiontest.Runner) {
		r.SetInput("fail-on", "new")
		r.SetInput("sarif-upload", "false")
	})
	if res.code != 1 || !strings.Contains(res.log, "::notice title=mcpverdict::fail-on new has no baseline to compare with") {
		t.Errorf("exit %d\n%s", res.code, res.log)
	}
}

// A baseline the command line could not compare is a notice saying why;
// the gate is the verdict's.
func TestAnIgnoredBaselineIsANotice(t *testing.T) {
	older := report(judge.VerdictPass)
	older.Version = "0.1.0"
	res := simulate(t, &fakeCLI{rep: report(judge.VerdictFail), code: 1}, func(r *actiontest.Runner) {
		writeFile(t, filepath.Join(r.Workspace, "old.json"), reportJSON(t, older))
		r.SetInput("baseline", "old.json")
		r.SetInput("fail-on", "new")
		r.SetInput("sarif-upload", "false")
	})
	if res.code != 1 || !strings.Contains(res.log, "::notice title=mcpverdict::") || !strings.Contains(res.log, "was written by mcpverdict 0.1.0") {
		t.Errorf("exit %d\n%s", res.code, res.log)
	}
}

// A baseline in the output directory is read before the run replaces the
// reports there.
func TestABaselineInTheOutputDirectoryIsKeptAside(t *testing.T) {
	cli := &fakeCLI{rep: report(judge.VerdictFail), code: 1}
	res := simulate(t, cli, func(r *actiontest.Runner) {
		writeFile(t, filepath.Join(r.Workspace, "mcpverdict-out", reportFile), reportJSON(t, report(judge.VerdictFail)))
		r.SetInput("baseline", "mcpverdict-out/report.json")
		r.SetInput("fail-on", "new")
		r.SetInput("sarif-upload", "false")
	})
	if res.code != 0 || strings.Contains(baselineArg(cli.args), "mcpverdict-out") {
		t.Errorf("exit %d, --baseline %q\n%s", res.code, baselineArg(cli.args), res.log)
	}
}

// zipOf is an output directory's artifact holding report.json.
func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// baseRun is a successful run on the base branch that uploaded the
// job's report artifact (and one of another job).
func baseRun(t *testing.T, rep *judge.Report) actiontest.WorkflowRun {
	return actiontest.WorkflowRun{ID: 901, Branch: "main", Workflow: "mcp.yml", Conclusion: "success", Artifacts: []actiontest.RunArtifact{
		{ID: 11, Name: "mcpverdict-other-job-everything", Zip: zipOf(t, map[string][]byte{reportFile: reportJSON(t, passing())})},
		{ID: 12, Name: "mcpverdict-mcp-everything", Zip: zipOf(t, map[string][]byte{reportFile: reportJSON(t, rep), "summary.md": []byte("#")})},
	}}
}

// baseline: auto reads the newest successful run of this workflow on the
// base branch through the REST API, downloads this job's artifact and
// compares with the report.json inside.
func TestBaselineAutoDownloadsTheBaseBranchReport(t *testing.T) {
	api := actiontest.NewGitHubAPI(t)
	api.Runs = []actiontest.WorkflowRun{
		{ID: 950, Branch: "feature", Workflow: "mcp.yml", Conclusion: "success"},
		{ID: 940, Branch: "main", Workflow: "mcp.yml", Conclusion: "failure"},
		baseRun(t, passing()),
	}
	cli := &fakeCLI{rep: report(judge.VerdictFail), code: 1}
	res := simulate(t, cli, func(r *actiontest.Runner) {
		r.UseGitHubAPI(api)
		r.SetInput("baseline", "auto")
		r.SetInput("fail-on", "new")
		r.SetInput("sarif-upload", "false")
	})
	got, err := os.ReadFile(baselineArg(cli.args))
	if err != nil || !bytes.Equal(got, reportJSON(t, passing())) {
		t.Fatalf("--baseline %q is not the base run's report.json (%v)\n%s", baselineArg(cli.args), err, res.log)
	}
	if res.code != 1 || !strings.Contains(res.log, `mcpverdict: baseline: report.json of the artifact "mcpverdict-mcp-everything" of run 901 on main`) {
		t.Errorf("exit %d\n%s", res.code, res.log)
	}
	want := []string{
		"GET /repos/" + actiontest.Repository + "/actions/workflows/mcp.yml/runs?branch=main&per_page=1&status=success",
		"GET /repos/" + actiontest.Repository + "/actions/runs/901/artifacts?per_page=100",
		"GET /repos/" + actiontest.Repository + "/actions/artifacts/12/zip",
	}
	if got := api.Requests(); !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s\nrejected: %v", strings.Join(got, "\n"), strings.Join(want, "\n"), api.Rejected())
	}
}

// Without a run, an artifact, a report in it, a token or a working API,
// baseline: auto is one notice and the run goes on without a baseline,
// gated as fail-on must.
func TestBaselineAutoDegradesToANotice(t *testing.T) {
	noReport := baseRun(t, passing())
	noReport.Artifacts[1].Zip = zipOf(t, map[string][]byte{"summary.md": []byte("#")})
	expired := baseRun(t, passing())
	expired.Artifacts[1].Expired = true
	matrix := baseRun(t, passing())
	matrix.Artifacts[0].Name = "mcpverdict-mcp-memory"
	cases := []struct {
		name   string
		runs   []actiontest.WorkflowRun
		setup  func(*actiontest.Runner, *actiontest.GitHubAPI)
		notice string
	}{
		{"no successful run", []actiontest.WorkflowRun{{ID: 3, Branch: "main", Workflow: "mcp.yml", Conclusion: "failure"}}, nil, "no successful run of mcp.yml on main"},
		{"no artifact", []actiontest.WorkflowRun{{ID: 4, Branch: "main", Workflow: "mcp.yml", Conclusion: "success"}}, nil, "run 4 has no unexpired artifact mcpverdict-mcp of this job"},
		{"expired", []actiontest.WorkflowRun{expired}, nil, "run 901 has no unexpired artifact"},
		{"no report in the zip", []actiontest.WorkflowRun{noReport}, nil, `the artifact "mcpverdict-mcp-everything" of run 901: holds no report.json`},
		{"a matrix", []actiontest.WorkflowRun{matrix}, nil, "run 901 has an artifact per server (mcpverdict-mcp-everything, mcpverdict-mcp-memory)"},
		{"no token", nil, func(r *actiontest.Runner, _ *actiontest.GitHubAPI) { r.SetInput("token", "") }, "no token to read the base branch's runs with"},
		{"no base branch", nil, func(r *actiontest.Runner, _ *actiontest.GitHubAPI) { r.Unset("GITHUB_BASE_REF") }, "no base branch"},
		{"refused", nil, func(_ *actiontest.Runner, api *actiontest.GitHubAPI) {
			api.RefuseActions, api.Message = 403, "Resource not accessible by integration"
		}, "403 Forbidden: Resource not accessible by integration"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := actiontest.NewGitHubAPI(t)
			api.Runs = tc.runs
			cli := &fakeCLI{rep: report(judge.VerdictFail), code: 1}
			res := simulate(t, cli, func(r *actiontest.Runner) {
				r.UseGitHubAPI(api)
				r.SetInput("baseline", "auto")
				r.SetInput("fail-on", "new")
				r.SetInput("sarif-upload", "false")
				if tc.setup != nil {
					tc.setup(r, api)
				}
			})
			if !strings.Contains(res.log, "::notice title=mcpverdict::baseline auto: ") || !strings.Contains(res.log, tc.notice) {
				t.Errorf("no notice %q:\n%s", tc.notice, res.log)
			}
			if res.code != 1 || baselineArg(cli.args) != "" {
				t.Errorf("exit %d (want 1, as must), --baseline %q", res.code, baselineArg(cli.args))
			}
		})
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
