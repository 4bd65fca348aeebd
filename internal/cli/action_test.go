package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// quoteCommand joins argv into a server input, quoting each word.
func quoteCommand(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + a + "'"
	}
	return strings.Join(q, " ")
}

// runAction runs `mcpverdict action` in-process in the simulated runner,
// with its working directory in the workspace as a container action's is.
func runAction(t *testing.T, r *actiontest.Runner) (int, string, time.Duration) {
	t.Helper()
	useSharedSchemas(t)
	if !r.CheckedOut() {
		r.Checkout(t)
	}
	t.Chdir(r.Workspace)
	var out, errb bytes.Buffer
	cmd := Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: r.Getenv}
	start := time.Now()
	code := cmd.Main([]string{"action"})
	return code, out.String(), time.Since(start)
}

// useSharedSchemas points the wire-schema check at the specification
// sources beside the repository, as the image's baked-in copy would be.
func useSharedSchemas(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "mcp-spec", "schema"))
	if err != nil {
		t.Fatal(err)
	}
	if spec := os.Getenv("MCPVERDICT_SPEC_DIR"); spec != "" {
		dir = filepath.Join(spec, "schema")
	}
	if os.Getenv(wireschema.EnvDir) == "" {
		if _, err := os.Stat(dir); err == nil {
			t.Setenv(wireschema.EnvDir, dir)
		}
	}
}

// The action drives the real server-everything from npm in a simulated
// runner, within 15 seconds, and publishes every report.
func TestActionOnServerEverything(t *testing.T) {
	api := actiontest.NewGitHubAPI(t)
	store := actiontest.NewArtifactService(t)
	r := actiontest.NewRunner(t, false)
	r.UseGitHubAPI(api)
	r.UseArtifactService(store)
	r.SetInput("server", quoteCommand(peers.Everything(t)))
	r.SetInput("fail-on", "should")
	code, log, took := runAction(t, r)
	t.Logf("simulated action run on server-everything: %s", took.Round(time.Millisecond))
	if took > 15*time.Second {
		t.Errorf("the action took %s, over 15 s", took)
	}
	out := r.Outputs(t)
	checkVerdictGate(t, out["verdict"], "should", code, log)
	checkPublished(t, r, out, log)
	if ups := api.Uploads(); len(ups) != 1 || ups[0].ToolName != "mcpverdict" {
		t.Errorf("uploads %d, rejected %v", len(ups), api.Rejected())
	} else if problems := peers.SarifProblems(t, writeTemp(t, "uploaded.sarif", string(ups[0].SARIF))); len(problems) > 0 {
		t.Errorf("the uploaded SARIF fails sarif-multitool:\n%s", strings.Join(problems, "\n"))
	} else if outside := peers.NotInRepository(t, writeTemp(t, "uploaded.sarif", string(ups[0].SARIF))); len(outside) > 0 {
		t.Errorf("SARIF results code scanning cannot place:\n%s", strings.Join(outside, "\n"))
	}
	if len(store.Names()) != 1 || out["artifact-id"] == "" {
		t.Errorf("artifacts %v, artifact-id %q, rejected %v", store.Names(), out["artifact-id"], store.Rejected())
	}
}

// checkVerdictGate holds the exit status to the verdict under fail-on.
func checkVerdictGate(t *testing.T, verdict, failOn string, code int, log string) {
	t.Helper()
	want := 0
	switch {
	case verdict == "fail", verdict == "pass-with-warnings" && failOn == "should":
		want = 1
	case verdict == "incomplete":
		want = 3
	}
	if verdict == "" || code != want {
		t.Fatalf("verdict %q under fail-on %s: exit %d, want %d\n%s", verdict, failOn, code, want, log)
	}
}

// checkPublished holds the outputs, the summary, the annotations and the
// JSON report to what the action promises.
func checkPublished(t *testing.T, r *actiontest.Runner, out map[string]string, log string) {
	t.Helper()
	for _, k := range []string{"sarif", "junit", "summary", "report"} {
		if _, err := os.Stat(filepath.Join(r.Workspace, out[k])); err != nil || filepath.IsAbs(out[k]) {
			t.Errorf("output %s = %q: %v", k, out[k], err)
		}
	}
	for _, tr := range strings.Split(out["traces"], "\n") {
		if _, err := os.Stat(filepath.Join(r.Workspace, tr)); err != nil {
			t.Errorf("trace output %q: %v", tr, err)
		}
	}
	if !strings.Contains(r.Summary(t), "mcpverdict: "+out["verdict"]) {
		t.Errorf("job summary lacks the verdict:\n%.600s", r.Summary(t))
	}
	if out["warned"] != "0" && !strings.Contains(log, "::warning file=") {
		t.Errorf("%s warnings but no warning annotation on a file:\n%s", out["warned"], log)
	}
	checkReportSchema(t, filepath.Join(r.Workspace, out["report"]))
}

func checkReportSchema(t *testing.T, path string) {
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
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inst, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("%s does not match the published schema: %v", path, err)
	}
}

// The example server passes: the gate opens under fail-on must, and the
// SARIF upload carries no result.
func TestActionOnTheExampleServer(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	api := actiontest.NewGitHubAPI(t)
	r := actiontest.NewRunner(t, false)
	r.UseGitHubAPI(api)
	r.SetInput("server", quoteCommand([]string{os.Args[0], "example-server"}))
	r.SetInput("artifact", "false")
	code, log, _ := runAction(t, r)
	out := r.Outputs(t)
	checkVerdictGate(t, out["verdict"], "must", code, log)
	checkPublished(t, r, out, log)
	if len(api.Uploads()) != 1 {
		t.Errorf("uploads %d, rejected %v", len(api.Uploads()), api.Rejected())
	}
}

// Recorded traces in the workspace are judged; findings point at them.
func TestActionJudgesTracesInTheWorkspace(t *testing.T) {
	r := actiontest.NewRunner(t, false)
	dir := filepath.Join(r.Workspace, "recordings")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(corpusFile("violations/base-request-id-reuse.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "session.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.SetInput("traces", "recordings/**/*.jsonl")
	r.SetInput("sarif-upload", "false")
	r.SetInput("artifact", "false")
	code, log, _ := runAction(t, r)
	out := r.Outputs(t)
	if code != 1 || out["verdict"] != "fail" || out["traces"] != "recordings/session.jsonl" {
		t.Fatalf("exit %d, outputs %v\n%s", code, out, log)
	}
	if !strings.Contains(log, "::error file=recordings/session.jsonl,line=6,title=BASE-005") {
		t.Errorf("no annotation on the trace line:\n%s", log)
	}
	sarif, _ := os.ReadFile(filepath.Join(r.Workspace, out["sarif"]))
	if !strings.Contains(string(sarif), `"uri": "recordings/session.jsonl"`) {
		t.Errorf("SARIF locations do not point at the trace")
	}
}

func TestActionRefusesMissingInputs(t *testing.T) {
	r := actiontest.NewRunner(t, false)
	code, log, _ := runAction(t, r)
	if code != 2 || strings.Count(log, "::error") != 1 || !strings.Contains(log, "nothing to check") {
		t.Errorf("exit %d\n%s", code, log)
	}
	r.SetInput("traces", "nowhere/*.jsonl")
	code, log, _ = runAction(t, r)
	if code != 2 || !strings.Contains(log, `traces glob "nowhere/*.jsonl" matches no file`) {
		t.Errorf("exit %d\n%s", code, log)
	}
}

// The probe input: the read-only liar's definition and source in the
// workspace. The probe's violation fails the gate, shows in the job
// summary, as an annotation on the line declaring the tool and in the
// uploaded SARIF, and its verdicts are in the ledger.
func TestActionProbesTheToolAnnotations(t *testing.T) {
	asMcpverdict(t)
	api := actiontest.NewGitHubAPI(t)
	r := actiontest.NewRunner(t, false)
	r.UseGitHubAPI(api)
	liar := filepath.Join("..", "..", "corpus", "probe", "fixtures", "readonly-liar")
	for from, to := range map[string]string{"probe.toml": "mcp/probe.toml", "seed.sql": "mcp/seed.sql", "server.go": "server/main.go"} {
		data, err := os.ReadFile(filepath.Join(liar, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(r.Workspace, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r.Workspace, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.SetInput("server", quoteCommand([]string{os.Args[0], "example-server"}))
	r.SetInput("probe", "mcp/probe.toml")
	r.SetInput("artifact", "false")
	code, log, _ := runAction(t, r)
	out := r.Outputs(t)
	if code != 1 || out["verdict"] != "fail" {
		t.Fatalf("exit %d, verdict %q: the probe's violation must fail the gate\n%s", code, out["verdict"], log)
	}
	checkPublished(t, r, out, log)
	// The liar breaks readOnlyHint, destructiveHint and idempotentHint
	// (sequentially and concurrently): its fixture's truth.
	if out["probe-violations"] != "4" {
		t.Errorf("output probe-violations = %q, want 4", out["probe-violations"])
	}
	if _, err := os.Stat(filepath.Join(r.Workspace, out["probe-reports"])); err != nil || !strings.HasSuffix(out["probe-reports"], "probe/mcp/probe-report.json") {
		t.Errorf("output probe-reports = %q: %v", out["probe-reports"], err)
	}
	if s := r.Summary(t); !strings.Contains(s, "### Tool annotations probed: `mcp`") || !strings.Contains(s, "| `get_item` | ❌ VIOLATION") {
		t.Errorf("the job summary lacks the probe:\n%.2000s", s)
	}
	src, _ := os.ReadFile(filepath.Join(r.Workspace, "server", "main.go"))
	if want := fmt.Sprintf("::error file=server/main.go,line=%d,title=probe/read_only", declaringLine(t, src, "get_item")); !strings.Contains(log, want) {
		t.Errorf("no annotation at the tool's declaration:\n%s", log)
	}
	if ups := api.Uploads(); len(ups) != 1 || !strings.Contains(string(ups[0].SARIF), `"ruleId": "probe/read_only"`) {
		t.Errorf("the uploaded SARIF lacks the probe's result (uploads %d, rejected %v)", len(ups), api.Rejected())
	} else if problems := peers.SarifProblems(t, writeTemp(t, "uploaded.sarif", string(ups[0].SARIF))); len(problems) > 0 {
		t.Errorf("the uploaded SARIF fails sarif-multitool:\n%s", strings.Join(problems, "\n"))
	} else if outside := peers.NotInRepository(t, writeTemp(t, "uploaded.sarif", string(ups[0].SARIF))); len(outside) > 0 {
		t.Errorf("SARIF results code scanning cannot place:\n%s", strings.Join(outside, "\n"))
	}
	ledger := filepath.Join(r.Workspace, out["ledger"])
	code, stdout, stderr := runCLI(t, "ledger", "verify", "--ledger", ledger, "--expected-head", filepath.Join(r.Workspace, out["head"]))
	if code != 0 || !strings.Contains(stdout, `"probe_verdict":5`) {
		t.Errorf("ledger verify: exit %d\n%s%s", code, stdout, stderr)
	}
}
