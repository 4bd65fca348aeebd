package merge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/hostile"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// A job of the server that attacks whoever prints what it says, in a
// folder whose name tries the same tricks, merges into reports where none
// of it acts: no workflow command but the github format's own, no raw
// control byte, well-formed XML and JSON, no markup in the summary, and
// the page's only scripts its own.
func TestHostileJobStaysEscapedInEveryFormat(t *testing.T) {
	node := peers.Require(t)
	t.Setenv(reexecEnv, "1")
	root := t.TempDir()
	name := "evil ::error::forged `|` <img src=x onerror=alert(1)> *bold* [link](x) & ::warning::"
	job := filepath.Join(root, name)
	code, _, stderr := runCLI(t, "check", "--server", node+" "+filepath.Join(hostile.Dir(), "hostile.cjs"), "--out", job, "--call", "all")
	if code != 0 && code != 1 {
		t.Fatalf("check of the hostile server exited %d: %.3000s", code, stderr)
	}
	alpha, _, _ := fleet(t)
	out := filepath.Join(root, "merged")
	code, stdout, stderr := runCLI(t, "merge", job, alpha, "--out", out)
	if code != 0 && code != 1 {
		t.Fatalf("merge exited %d: %s", code, stderr)
	}
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
		hostile.CheckCommands(t, "merge "+what, []byte(text))
		hostile.CheckVisible(t, "merge "+what, []byte(text))
	}
	for _, f := range []string{"report.json", "report.txt", "mcpverdict.sarif", "junit.xml", "summary.md", "annotations.txt", "report.html", "ledger.ndjson"} {
		data := read(t, filepath.Join(out, f))
		hostile.CheckVisible(t, f, data)
		switch f {
		case "annotations.txt":
			hostile.CheckAnnotations(t, f, data)
		case "junit.xml":
			hostile.CheckXML(t, f, data)
		case "report.json", "mcpverdict.sarif", "ledger.ndjson":
			hostile.CheckJSON(t, f, data)
			hostile.CheckCommands(t, f, data)
		default:
			hostile.CheckCommands(t, f, data)
		}
		if f == "summary.md" && strings.Contains(string(data), "<script") {
			t.Errorf("summary.md: raw HTML from a job")
		}
		if f == "report.html" && strings.Count(string(data), "<script") != 2 {
			t.Errorf("report.html: %d script elements, want the data and the page's own script", strings.Count(string(data), "<script"))
		}
	}
	if _, err := os.Stat(filepath.Join(out, "jobs", name, "ledger.ndjson")); err != nil {
		t.Errorf("the hostile job's ledger was not copied: %v", err)
	}
	if code, vout, verr := verify(t, out); code != 0 {
		t.Errorf("ledger verify of the merged ledger exited %d:\n%s%s", code, vout, verr)
	}
}
