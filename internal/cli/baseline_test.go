package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/reporters"
)

var (
	goodTrace      = corpusFile("good/base-session-2025-11-25.jsonl")
	violationTrace = corpusFile("violations/base-request-id-reuse.jsonl")
)

// baselineOf writes the JSON report of validate on a trace, as an earlier
// run would have left it.
func baselineOf(t *testing.T, trace string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.json")
	if code, _, stderr := runCLI(t, "validate", "--format", "json", "-o", path, trace); code > 1 {
		t.Fatalf("validate %s: exit %d: %s", trace, code, stderr)
	}
	return path
}

// --fail-on new fails on a clause that passed in the baseline and not on
// one that failed there already; the plain verdict fails on both.
func TestValidateFailsOnlyOnNewFailures(t *testing.T) {
	good, bad := baselineOf(t, goodTrace), baselineOf(t, violationTrace)
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"new failure", []string{"validate", "--baseline", good, "--fail-on", "new", violationTrace}, 1,
			[]string{"since the baseline " + good, "NEW       BASE-005 (MUST NOT, 2025-11-25): pass -> fail", "mcpverdict: notice: 1 new failure(s) since the baseline"}},
		{"known failure", []string{"validate", "--baseline", bad, "--fail-on", "new", violationTrace}, 0,
			[]string{"0 clauses new, 0 clauses fixed", "no new failure", "FAIL           BASE-005"}},
		{"known failure under must", []string{"validate", "--baseline", bad, violationTrace}, 1, []string{"no new failure"}},
		{"fixed", []string{"validate", "--baseline", bad, "--fail-on", "new", goodTrace}, 0,
			[]string{"FIXED     BASE-005 (MUST NOT, 2025-11-25): fail -> pass"}},
		{"no baseline", []string{"validate", "--fail-on", "new", violationTrace}, 1,
			[]string{"mcpverdict: notice: --fail-on new has no baseline to compare with: every failure counts, as with --fail-on must"}},
		{"bad fail-on", []string{"validate", "--fail-on", "should", violationTrace}, 2, []string{`unknown --fail-on "should"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			for _, want := range tc.want {
				if !strings.Contains(out+errOut, want) {
					t.Errorf("no %q in\nstdout: %s\nstderr: %s", want, out, errOut)
				}
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, errOut)
			}
		})
	}
}

// A baseline that cannot be read, is not a report, was written by another
// version or is of another server is one notice naming the file: the run
// goes on, its exit status the verdict's, its reports saying why no delta
// is shown.
func TestValidateGoesOnWithoutABadBaseline(t *testing.T) {
	good := baselineOf(t, goodTrace)
	cases := map[string]struct {
		path, want string
	}{
		"missing":        {filepath.Join(t.TempDir(), "gone.json"), "cannot read baseline"},
		"directory":      {t.TempDir(), "is not a report file"},
		"malformed":      {writeTemp(t, "torn.json", `{"tool":"mcpverdict","runs":[`), "is not JSON mcpverdict reads"},
		"not a report":   {writeTemp(t, "other.json", `{"name":"package.json"}`), "is not an mcpverdict report"},
		"other version":  {rewriteReport(t, good, func(r map[string]any) { r["version"] = "0.0.1" }), "was written by mcpverdict 0.0.1 and this is"},
		"another server": {rewriteReport(t, good, func(r map[string]any) { setServer(r, "someone-else") }), "is a report of server someone-else and this run checked corpus-server"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			md := filepath.Join(t.TempDir(), "summary.md")
			code, out, errOut := runCLI(t, "validate", "--baseline", tc.path, "--fail-on", "new", "--markdown", md, violationTrace)
			if code != 1 {
				t.Errorf("exit %d, want the verdict's 1\nstderr: %s", code, errOut)
			}
			notices := strings.Split(strings.TrimSpace(errOut), "\n")
			if len(notices) != 2 || !strings.HasPrefix(notices[0], "mcpverdict: notice: baseline not compared: ") ||
				!strings.Contains(notices[0], tc.path) || !strings.Contains(notices[0], tc.want) {
				t.Errorf("stderr is not a notice naming %s and %q:\n%s", tc.path, tc.want, errOut)
			}
			if !strings.Contains(out, "baseline not compared: ") || !strings.Contains(out, "FAIL           BASE-005") {
				t.Errorf("report:\n%s", out)
			}
			summary, _ := os.ReadFile(md)
			if !strings.Contains(string(summary), "> Baseline not compared: ") {
				t.Errorf("summary:\n%s", summary)
			}
		})
	}
}

func rewriteReport(t *testing.T, path string, edit func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	edit(rep)
	data, _ = json.Marshal(rep)
	return writeTemp(t, "edited.json", string(data))
}

func setServer(rep map[string]any, name string) {
	for _, r := range rep["runs"].([]any) {
		r.(map[string]any)["server"] = map[string]any{"name": name}
	}
}

// The reports of a run with a baseline are what their real consumers
// accept: report.json matches its published schema, and the SARIF log
// (with baselineState on its results) passes the SARIF Multitool.
func TestBaselineReportsPassTheirValidators(t *testing.T) {
	dir := t.TempDir()
	report, sarif := filepath.Join(dir, "report.json"), filepath.Join(dir, "report.sarif")
	code, _, errOut := runCLI(t, "validate", "--baseline", baselineOf(t, goodTrace), "--json", report, "--sarif", sarif, violationTrace)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(report)
	if !bytes.Contains(data, []byte(`"baseline": {`)) {
		t.Fatalf("report.json has no baseline:\n%s", data)
	}
	matchReportSchema(t, data)
	log, _ := os.ReadFile(sarif)
	if !bytes.Contains(log, []byte(`"baselineState": "new"`)) {
		t.Errorf("no result is new in\n%s", log)
	}
	if problems := peers.SarifProblems(t, sarif); len(problems) > 0 {
		t.Errorf("sarif-multitool validate:\n%s", strings.Join(problems, "\n"))
	}
}

func matchReportSchema(t *testing.T, data []byte) {
	t.Helper()
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(reporters.ReportSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Errorf("report.json does not match report.schema.json: %v", err)
	}
}

// check of the example server against the report of an earlier check of
// it: nothing is new, --fail-on new passes, and report.json says so.
func TestCheckComparesWithAnEarlierCheck(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	first := t.TempDir()
	if code, _, errOut := runCLI(t, "check", "--out", first); code != 0 {
		t.Fatalf("first check: exit %d: %s", code, errOut)
	}
	second := t.TempDir()
	code, stdout, errOut := runCLI(t, "check", "--out", second, "--baseline", filepath.Join(first, "report.json"), "--fail-on", "new")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errOut)
	}
	if !strings.HasPrefix(stdout, "since the baseline "+filepath.Join(first, "report.json")) || !strings.Contains(stdout, "0 clauses new") {
		t.Errorf("report does not lead with the delta:\n%s", stdout)
	}
	data, _ := os.ReadFile(filepath.Join(second, "report.json"))
	var rep struct {
		Baseline struct {
			Ignored string `json:"ignored"`
			New     []any  `json:"new"`
		} `json:"baseline"`
	}
	if err := json.Unmarshal(data, &rep); err != nil || rep.Baseline.Ignored != "" || len(rep.Baseline.New) != 0 {
		t.Errorf("report.json baseline %+v (%v)", rep.Baseline, err)
	}
	matchReportSchema(t, data)
}
