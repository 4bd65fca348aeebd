package calibrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scenario the suite did not finish (no readable checks.json) is kept as
// inconclusive rather than failing the whole calibration; a run in which no
// scenario finished still fails.
func TestCollectKeepsUnfinishedScenariosInconclusive(t *testing.T) {
	results := t.TempDir()
	finished := filepath.Join(results, "server-ping-2026-11-30T02-51-46-009Z")
	unfinished := filepath.Join(results, "server-tasks-lifecycle-2026-11-30T02-51-47-010Z")
	for _, dir := range []string{finished, unfinished} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(finished, "checks.json"), []byte(`[{"id":"ping","status":"SUCCESS"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	scenarios, err := collect(results, map[string]string{})
	if err != nil || len(scenarios) != 2 {
		t.Fatalf("collect = %d scenarios, %v; want 2, nil", len(scenarios), err)
	}
	outcomes, diffs, err := compare("s", suiteRun{Name: "r"}, []scenario{scenarios[1]})
	if scenarios[1].Name != "tasks-lifecycle" || !scenarios[1].Unreadable || err != nil || len(diffs) != 0 || !outcomes[0].Inconclusive {
		t.Errorf("the unfinished scenario: %+v, outcomes %+v, diffs %v, err %v", scenarios[1], outcomes, diffs, err)
	}

	if err := os.Remove(filepath.Join(finished, "checks.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := collect(results, map[string]string{}); err == nil || !strings.Contains(err.Error(), "no scenario left a readable checks.json") {
		t.Errorf("a run with no finished scenario: err = %v", err)
	}
}
