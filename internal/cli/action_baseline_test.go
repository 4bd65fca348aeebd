package cli

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
)

// artifactWith is an output directory's artifact zip holding report.
func artifactWith(t *testing.T, report string) []byte {
	t.Helper()
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("report.json")
	w.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The action, with baseline: auto and fail-on: new, compares the traces it
// judges with the report the base branch's last successful run uploaded
// (through the stand-in REST API): a failure that run did not have fails
// the step, one it had does not; the summary leads with the delta and the
// SARIF upload marks the result new.
func TestActionComparesWithTheBaseBranch(t *testing.T) {
	cases := []struct {
		name, base string
		code       int
		state      string
	}{
		{"new failure", goodTrace, 1, `"baselineState": "new"`},
		{"known failure", violationTrace, 0, `"baselineState": "unchanged"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := actiontest.NewGitHubAPI(t)
			api.Runs = []actiontest.WorkflowRun{{ID: 77, Branch: "main", Workflow: "mcp.yml", Conclusion: "success",
				Artifacts: []actiontest.RunArtifact{{ID: 5, Name: "mcpverdict-mcp-corpus-server", Zip: artifactWith(t, baselineOf(t, tc.base))}}}}
			r := actiontest.NewRunner(t, false)
			r.UseGitHubAPI(api)
			data, err := os.ReadFile(violationTrace)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.Workspace, "session.jsonl"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			r.SetInput("traces", "session.jsonl")
			r.SetInput("baseline", "auto")
			r.SetInput("fail-on", "new")
			r.SetInput("artifact", "false")
			code, log, _ := runAction(t, r)
			out := r.Outputs(t)
			if code != tc.code || out["verdict"] != "fail" {
				t.Fatalf("exit %d (want %d), verdict %q\n%s", code, tc.code, out["verdict"], log)
			}
			if s := r.Summary(t); !strings.Contains(s[:strings.Index(s, "| trace |")], "### Since the baseline") {
				t.Errorf("the summary does not lead with the delta:\n%s", s)
			}
			ups := api.Uploads()
			if len(ups) != 1 || !bytes.Contains(ups[0].SARIF, []byte(tc.state)) {
				t.Errorf("uploads %d, rejected %v; want a result %s", len(ups), api.Rejected(), tc.state)
			}
		})
	}
}
