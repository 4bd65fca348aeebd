package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// checkEverythingTasks runs check on the real server-everything and reads
// its JSON report and the outcome of each TASK clause.
func checkEverythingTasks(t *testing.T, args ...string) (*judge.Report, map[string]judge.Outcome) {
	t.Helper()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	argv := append([]string{"check", "--server", quoteCommand(peers.Everything(t)), "--revision", "2025-11-25",
		"--out", filepath.Join(dir, "out"), "--json", report}, args...)
	code, _, stderr := runCLI(t, argv...)
	if code > 1 {
		t.Fatalf("check exited %d:\n%s", code, stderr)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep judge.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]judge.Outcome{}
	for _, r := range rep.Runs {
		for _, c := range r.Clauses {
			if c.Clause.Area == "TASK" {
				outcomes[c.Clause.ID] = c.Outcome
			}
		}
	}
	return &rep, outcomes
}

// A default check of server-everything, which declares tasks, judges the
// tasks extension beside the verdict: tasks/list and an unknown task, with
// no tool called under the read-only policy, and nothing fails.
func TestCheckJudgesTasksOfServerEverything(t *testing.T) {
	rep, outcomes := checkEverythingTasks(t)
	if len(rep.Extensions) != 1 || rep.Extensions[0].Name != "tasks" || rep.Extensions[0].Counted {
		t.Fatalf("extensions %+v: want tasks, not counted", rep.Extensions)
	}
	if ext := rep.Extensions[0]; ext.Totals.Fail > 0 || ext.Totals.Warn > 0 || ext.Totals.Pass == 0 {
		t.Errorf("tasks extension totals %+v: want passes and no fail or warn", ext.Totals)
	}
	if outcomes["TASK-059"] != judge.Pass {
		t.Errorf("TASK-059 (unknown task id refused) is %s, want pass", outcomes["TASK-059"])
	}
}

// With --call all the driver runs the task-requiring tool as a task to its
// end; --extension tasks counts the extension, and still nothing fails.
func TestCheckRunsATaskOnServerEverything(t *testing.T) {
	rep, outcomes := checkEverythingTasks(t, "--call", "all", "--extension", "tasks")
	if rep.Verdict == judge.VerdictFail || len(rep.Extensions) != 1 || !rep.Extensions[0].Counted {
		t.Fatalf("verdict %s, extensions %+v: want no fail, tasks counted", rep.Verdict, rep.Extensions)
	}
	if ext := rep.Extensions[0]; ext.Totals.Fail > 0 || ext.Totals.Warn > 0 {
		t.Errorf("tasks extension totals %+v: want no fail or warn", ext.Totals)
	}
	for _, id := range []string{"TASK-020", "TASK-021", "TASK-032", "TASK-034", "TASK-036", "TASK-037", "TASK-050", "TASK-051", "TASK-058"} {
		if outcomes[id] != judge.Pass {
			t.Errorf("%s is %s, want pass", id, outcomes[id])
		}
	}
}
