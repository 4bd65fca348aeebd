package action

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// fakeCLI stands in for the command line: it writes rep in every format
// the arguments ask for and exits with code, recording its arguments.
type fakeCLI struct {
	rep  *judge.Report
	code int
	args []string
}

func (f *fakeCLI) run(_ context.Context, args []string, stdout, stderr io.Writer) int {
	f.args = args
	if f.rep == nil {
		fmt.Fprintln(stderr, "mcpverdict: --server \"x\" is not a command line")
		return f.code
	}
	doc := reporters.ForClauses(f.rep)
	doc.Baseline = compareAsTheCLIDoes(args, f.rep)
	for i := 0; i+1 < len(args); i++ {
		name := strings.TrimPrefix(args[i], "--")
		r, err := reporters.Get(name)
		if err != nil || !strings.HasPrefix(args[i], "--") {
			continue
		}
		var buf bytes.Buffer
		_ = r.Write(&buf, doc, reporters.Options{Repo: &reporters.Repository{Root: "/", WorkDir: "/"}})
		_ = os.WriteFile(args[i+1], buf.Bytes(), 0o644)
	}
	fmt.Fprintf(stdout, "verdict: %s\n", f.rep.Verdict)
	return f.code
}

// report builds a report with the given verdict, and a failing and a
// warning clause to show.
func report(v judge.Verdict) *judge.Report {
	c := func(id string, l spec.Level) *spec.Clause {
		return &spec.Clause{ID: id, Level: l, Party: spec.Server, Revision: "2025-11-25", Area: "BASE", Quote: "q", URL: "https://example.org/#" + id}
	}
	run := judge.Run{Trace: "t.jsonl", Revision: "2025-11-25", Clauses: []judge.ClauseResult{
		{Clause: c("BASE-001", spec.Must), Outcome: judge.Fail, Findings: []judge.Finding{{Party: spec.Server, Trace: "t.jsonl", Line: 2, Message: "wrong"}}},
		{Clause: c("BASE-002", spec.Should), Outcome: judge.Warn, Findings: []judge.Finding{{Party: spec.Server, Trace: "t.jsonl", Line: 3, Message: "meh"}}},
		{Clause: c("BASE-003", spec.Must), Outcome: judge.Pass},
	}, Totals: judge.Totals{Pass: 1, Fail: 1, Warn: 1}, Wire: judge.WireResult{Checked: true}}
	return &judge.Report{Tool: "mcpverdict", Version: "1.0.0", Runs: []judge.Run{run}, Totals: run.Totals, Verdict: v}
}

type result struct {
	code   int
	log    string
	runner *actiontest.Runner
}

// simulate runs the action in a simulated runner with the GitHub API and
// artifact stand-ins.
func simulate(t *testing.T, cli *fakeCLI, configure func(*actiontest.Runner)) result {
	t.Helper()
	r := actiontest.NewRunner(t, false)
	r.SetInput("server", "node dist/index.js")
	if configure != nil {
		configure(r)
	}
	var out bytes.Buffer
	code := Run(context.Background(), Env{Getenv: r.Getenv, Stdout: &out, Stderr: io.Discard, HTTP: http.DefaultClient, Run: cli.run})
	return result{code: code, log: out.String(), runner: r}
}

func TestActionPublishesEverything(t *testing.T) {
	api := actiontest.NewGitHubAPI(t)
	store := actiontest.NewArtifactService(t)
	res := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, func(r *actiontest.Runner) {
		r.UseGitHubAPI(api)
		r.UseArtifactService(store)
	})
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.log)
	}
	out := res.runner.Outputs(t)
	want := map[string]string{
		"verdict": "pass", "failed": "1", "warned": "1", "passed": "1", "sarif": "mcpverdict-out/mcpverdict.sarif",
		"junit": "mcpverdict-out/junit.xml", "summary": "mcpverdict-out/summary.md", "report": "mcpverdict-out/report.json",
		"traces": "t.jsonl", "artifact-id": "1000",
	}
	for k, v := range want {
		if out[k] != v {
			t.Errorf("output %s = %q, want %q", k, out[k], v)
		}
	}
	if s := res.runner.Summary(t); !strings.Contains(s, "mcpverdict: pass") {
		t.Errorf("summary:\n%s", s)
	}
	if !strings.Contains(res.log, "::error file=t.jsonl,line=2,") || !strings.Contains(res.log, "::warning file=t.jsonl,line=3,") {
		t.Errorf("annotations missing:\n%s", res.log)
	}
	ups := api.Uploads()
	if len(ups) != 1 || ups[0].Ref != "refs/pull/7/merge" || ups[0].CommitSHA != "fedcba9876543210fedcba9876543210fedcba98" {
		t.Fatalf("uploads %+v, rejected %v", ups, api.Rejected())
	}
	checkArtifact(t, store, "mcpverdict-mcp")
}

func checkArtifact(t *testing.T, store *actiontest.ArtifactService, name string) {
	t.Helper()
	a := store.Artifact(name)
	if a == nil || !a.Finalized {
		t.Fatalf("artifact %q: %+v (held: %v, rejected: %v)", name, a, store.Names(), store.Rejected())
	}
	zr, err := zip.NewReader(bytes.NewReader(a.Zip), int64(len(a.Zip)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, f := range zr.File {
		files[f.Name] = true
	}
	for _, f := range []string{reportFile, sarifFile, junitFile, summaryFile} {
		if !files[f] {
			t.Errorf("artifact lacks %s: %v", f, files)
		}
	}
}

func TestGatePerFailOn(t *testing.T) {
	cases := []struct {
		verdict judge.Verdict
		failOn  string
		code    int
	}{
		{judge.VerdictFail, "", 1}, {judge.VerdictFail, "must", 1}, {judge.VerdictFail, "should", 1}, {judge.VerdictFail, "never", 0},
		{judge.VerdictPassWithWarnings, "must", 0}, {judge.VerdictPassWithWarnings, "should", 1}, {judge.VerdictPassWithWarnings, "never", 0},
		{judge.VerdictPass, "should", 0},
		{judge.VerdictIncomplete, "must", 3}, {judge.VerdictIncomplete, "never", 0},
	}
	for _, tc := range cases {
		res := simulate(t, &fakeCLI{rep: report(tc.verdict), code: 1}, func(r *actiontest.Runner) {
			r.SetInput("fail-on", tc.failOn)
			r.SetInput("sarif-upload", "false")
		})
		if res.code != tc.code {
			t.Errorf("verdict %s, fail-on %q: exit %d, want %d\n%s", tc.verdict, tc.failOn, res.code, tc.code, res.log)
		}
		if res.runner.Outputs(t)["verdict"] != string(tc.verdict) {
			t.Errorf("verdict output for %s", tc.verdict)
		}
	}
}

// A refused upload is a warning with GitHub's message; the reports are
// still written and the gate still applies.
func TestRefusedUploadWarnsAndGates(t *testing.T) {
	for _, refusal := range []struct {
		status  int
		message string
	}{
		{http.StatusForbidden, "Resource not accessible by integration"},
		{http.StatusRequestEntityTooLarge, "SARIF file is too large"},
	} {
		api := actiontest.NewGitHubAPI(t)
		api.Refuse, api.Message = refusal.status, refusal.message
		res := simulate(t, &fakeCLI{rep: report(judge.VerdictFail), code: 1}, func(r *actiontest.Runner) { r.UseGitHubAPI(api) })
		if res.code != 1 {
			t.Errorf("%d: exit %d, want the gate's 1", refusal.status, res.code)
		}
		if !strings.Contains(res.log, "::warning title=mcpverdict::GitHub refused the SARIF upload ("+fmt.Sprint(refusal.status)) || !strings.Contains(res.log, refusal.message) {
			t.Errorf("%d: no warning with the API's message:\n%s", refusal.status, res.log)
		}
		if res.runner.Outputs(t)["sarif"] == "" {
			t.Errorf("%d: outputs not written", refusal.status)
		}
		if _, err := os.Stat(filepath.Join(res.runner.Workspace, "mcpverdict-out", sarifFile)); err != nil {
			t.Errorf("%d: SARIF not kept: %v", refusal.status, err)
		}
	}
}

func TestRefusedUploadFailsUnderSarifUploadTrue(t *testing.T) {
	api := actiontest.NewGitHubAPI(t)
	api.Refuse, api.Message = http.StatusForbidden, "Advanced Security must be enabled for this repository to use code scanning."
	res := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, func(r *actiontest.Runner) {
		r.UseGitHubAPI(api)
		r.SetInput("sarif-upload", "true")
	})
	if res.code != 2 || !strings.Contains(res.log, "::error title=mcpverdict::GitHub refused the SARIF upload") {
		t.Errorf("exit %d\n%s", res.code, res.log)
	}
}

func TestForkPullRequestSkipsTheUpload(t *testing.T) {
	api := actiontest.NewGitHubAPI(t)
	r := actiontest.NewRunner(t, true)
	r.SetInput("server", "node dist/index.js")
	r.UseGitHubAPI(api)
	var out bytes.Buffer
	code := Run(context.Background(), Env{Getenv: r.Getenv, Stdout: &out, Stderr: io.Discard, HTTP: http.DefaultClient, Run: (&fakeCLI{rep: report(judge.VerdictPass)}).run})
	if code != 0 || len(api.Uploads())+len(api.Rejected()) != 0 {
		t.Errorf("exit %d, uploads %d, rejected %v", code, len(api.Uploads()), api.Rejected())
	}
	if !strings.Contains(out.String(), "::notice title=mcpverdict::SARIF upload skipped: a pull request from a fork") {
		t.Errorf("no notice:\n%s", out.String())
	}
}

func TestWithoutTheArtifactServiceANoticeNamesTheStep(t *testing.T) {
	res := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, func(r *actiontest.Runner) { r.SetInput("sarif-upload", "false") })
	if !strings.Contains(res.log, "actions/upload-artifact") || !strings.Contains(res.log, "path: mcpverdict-out") {
		t.Errorf("no notice naming the upload step:\n%s", res.log)
	}
	off := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, func(r *actiontest.Runner) {
		r.SetInput("sarif-upload", "false")
		r.SetInput("artifact", "false")
	})
	if strings.Contains(off.log, "upload-artifact") {
		t.Errorf("artifact: false still talks of artifacts:\n%s", off.log)
	}
}

func TestBadInputsAreOneErrorAndExit2(t *testing.T) {
	cases := []struct {
		name   string
		inputs map[string]string
		want   string
	}{
		{"nothing to check", map[string]string{"server": ""}, "nothing to check: set the input server"},
		{"two targets", map[string]string{"url": "http://127.0.0.1:1/mcp"}, "set one of them"},
		{"glob matches nothing", map[string]string{"server": "", "traces": "recordings/**/*.jsonl"}, `traces glob "recordings/**/*.jsonl" matches no file`},
		{"fail-on", map[string]string{"fail-on": "sometimes"}, `input fail-on is "sometimes": use must, should, never`},
		{"strict", map[string]string{"strict": "yes"}, `input strict is "yes": use true or false`},
		{"party", map[string]string{"party": "host"}, `input party is "host"`},
		{"probe with traces", map[string]string{"server": "", "traces": "t.jsonl", "probe": "probe.toml"}, "the inputs client, probe-rejections and probe need server, url or client"},
	}
	for _, tc := range cases {
		cli := &fakeCLI{rep: report(judge.VerdictPass)}
		res := simulate(t, cli, func(r *actiontest.Runner) {
			for k, v := range tc.inputs {
				r.SetInput(k, v)
			}
		})
		if res.code != 2 || strings.Count(res.log, "::error") != 1 || !strings.Contains(res.log, tc.want) {
			t.Errorf("%s: exit %d\n%s", tc.name, res.code, res.log)
		}
		if cli.args != nil {
			t.Errorf("%s: the command line ran: %v", tc.name, cli.args)
		}
	}
}

func TestACommandLineThatWritesNoReportIsAnError(t *testing.T) {
	res := simulate(t, &fakeCLI{code: 2}, nil)
	if res.code != 2 || !strings.Contains(res.log, `::error title=mcpverdict::mcpverdict wrote no report (exit status 2): --server "x" is not a command line`) {
		t.Errorf("exit %d\n%s", res.code, res.log)
	}
}

// A report left by an earlier run is never read as this run's.
func TestStaleReportsAreRemoved(t *testing.T) {
	res := simulate(t, &fakeCLI{code: 2}, func(r *actiontest.Runner) {
		dir := filepath.Join(r.Workspace, "mcpverdict-out")
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, reportFile), []byte(`{"verdict":"pass"}`), 0o644)
	})
	if res.code != 2 {
		t.Errorf("exit %d: a stale report was read\n%s", res.code, res.log)
	}
}

// The artifact service's refusal is a warning with its message; the step
// goes on.
func TestRefusedArtifactWarns(t *testing.T) {
	store := actiontest.NewArtifactService(t)
	configure := func(r *actiontest.Runner) {
		r.UseArtifactService(store)
		r.SetInput("sarif-upload", "false")
	}
	first := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, configure)
	again := simulate(t, &fakeCLI{rep: report(judge.VerdictPass)}, configure)
	if first.code != 0 || first.runner.Outputs(t)["artifact-id"] == "" {
		t.Fatalf("first upload: exit %d\n%s", first.code, first.log)
	}
	if again.code != 0 || !strings.Contains(again.log, "CreateArtifact refused (409 Conflict): an artifact with this name already exists") {
		t.Errorf("exit %d\n%s", again.code, again.log)
	}
	if again.runner.Outputs(t)["artifact-id"] != "" {
		t.Error("an artifact id for a refused upload")
	}
}
