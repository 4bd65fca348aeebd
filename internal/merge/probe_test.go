package merge_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/merge"
)

// A job that probed the read-only liar (check --probe) brings its probe
// verdicts into the merged reports: the summary's table of the tool's
// hints, the JSON's probes and a SARIF result, and its failure into the
// merged verdict; a job folder missing the probe's report is refused.
func TestMergeKeepsEachJobsProbeVerdicts(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	alpha, _, _ := fleet(t)
	liar := filepath.Join(filepath.Dir(alpha), "liar")
	def := filepath.Join("..", "..", "corpus", "probe", "fixtures", "readonly-liar", "probe.toml")
	if code, _, stderr := runCLI(t, "check", "--out", liar, "--revision", "2025-11-25", "--probe", def, "--probe-attempts", "1"); code != 1 {
		t.Fatalf("check --probe of the read-only liar exited %d, want 1: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "merged")
	if code, _, stderr := runCLI(t, "merge", alpha, liar, "--out", out); code != 1 {
		t.Fatalf("merge exited %d, want 1 (the probe's violation): %s", code, stderr)
	}
	summary := string(read(t, filepath.Join(out, "summary.md")))
	if !strings.Contains(summary, "### Tool annotations probed: `readonly-liar`") || !strings.Contains(summary, "| `get_item` | ❌ VIOLATION") {
		t.Errorf("the merged summary lacks the probe's verdicts:\n%.2000s", summary)
	}
	var rep struct {
		Probes []struct {
			Failed bool `json:"failed"`
		} `json:"probes"`
	}
	if err := json.Unmarshal(read(t, filepath.Join(out, "report.json")), &rep); err != nil || len(rep.Probes) != 1 || !rep.Probes[0].Failed {
		t.Errorf("report.json's probes: %+v (%v), want the liar's failed probe", rep.Probes, err)
	}
	if !strings.Contains(string(read(t, filepath.Join(out, "mcpverdict.sarif"))), `"ruleId": "probe/`) {
		t.Error("the merged SARIF has no probe result")
	}
	checkSchema(t, filepath.Join(out, "report.json"))

	if err := os.Remove(filepath.Join(liar, merge.ProbeReportFile("readonly-liar"))); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(t.TempDir(), "merged")
	code, _, stderr := runCLI(t, "merge", alpha, liar, "--out", out2)
	if code != 2 || !strings.Contains(stderr, "lists the probe readonly-liar but") || !strings.Contains(stderr, "download the job's whole artifact") {
		t.Errorf("a job missing its probe report: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Error("a merged folder was written")
	}
}
