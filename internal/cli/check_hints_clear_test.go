package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// A reused --out must not show an earlier run's probe sessions or report
// beside this run's; files check does not write there stay.
func TestClearProbeOutputsRemovesOnlyWhatCheckWrites(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, probeSessionDir, "old-session.jsonl")
	keep := filepath.Join(dir, "notes.md")
	for _, path := range []string{stale, keep, filepath.Join(dir, probeReportJSON), filepath.Join(dir, probeReportText)} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := clearProbeOutputs(dir); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{probeSessionDir, probeReportJSON, probeReportText} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s survived: %v", gone, err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file check does not write was removed: %v", err)
	}
}
