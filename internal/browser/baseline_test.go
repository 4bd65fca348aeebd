package browser

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportLeadsWithTheBaseline: a run compared with a baseline opens
// with what changed, above the verdict, with the new failure in its table.
func TestReportLeadsWithTheBaseline(t *testing.T) {
	dir := t.TempDir()
	base, path := filepath.Join(dir, "base.json"), filepath.Join(dir, "report.html")
	mcpverdict(t, 0, "validate", "--format", "json", "-o", base, filepath.Join(moduleRoot(), "corpus/good/base-session-2025-11-25.jsonl"))
	mcpverdict(t, 1, "validate", "--baseline", base, "--fail-on", "new", "--html", path, "-o", filepath.Join(dir, "report.txt"),
		filepath.Join(moduleRoot(), "corpus/violations/base-request-id-reuse.jsonl"))
	p := newPage(t, fileOnly(path))
	p.open("file://"+path, "body[data-ready=true]")
	if got := p.text("#baseline h2"); got != "Since the baseline" {
		t.Errorf("heading %q", got)
	}
	if row := p.text("#baseline tr:nth-child(2)"); !strings.Contains(row, "BASE-005") || !strings.Contains(row, "fail") {
		t.Errorf("the first change is %q, not the new BASE-005 failure", row)
	}
	if got := p.text("#verdict"); got != "fail" {
		t.Errorf("verdict %q", got)
	}
	p.screenshot("since-baseline")
}
