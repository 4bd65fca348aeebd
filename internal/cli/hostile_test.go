package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/hostile"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// check and validate on a server that attacks whoever prints what it
// says: nothing on stdout or stderr, in the text report or in any other
// report is a workflow command the server wrote or a raw control byte, the
// github annotations are mcpverdict's own commands and nothing more, and
// the XML and JSON reports stay well formed.
func TestHostileServer(t *testing.T) {
	node := peers.Require(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	reports := map[string]string{"json": "report.json", "text": "report.txt", "sarif": "r.sarif", "junit": "junit.xml", "markdown": "summary.md", "github": "annotations.txt", "html": "r.html"}
	args := []string{"check", "--server", node + " " + filepath.Join(hostile.Dir(), "hostile.cjs"), "--out", out, "--call", "all", "--probe-rejections"}
	for format, name := range reports {
		args = append(args, "--"+format, filepath.Join(dir, name))
	}
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 && code != 1 {
		t.Fatalf("check exited %d, want a verdict; stderr:\n%.3000s", code, stderr)
	}
	checkPrinted(t, "check", stdout, stderr)
	for format, name := range reports {
		checkReport(t, "check --"+format, format, readBytes(t, filepath.Join(dir, name)))
	}
	traces, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	if len(traces) == 0 {
		t.Fatal("check recorded no trace")
	}
	for format := range reports {
		_, stdout, stderr := runCLI(t, append([]string{"validate", "--format", format}, traces...)...)
		checkReport(t, "validate --format "+format, format, []byte(stdout))
		checkPrinted(t, "validate --format "+format, "", stderr)
	}
}

func checkPrinted(t *testing.T, what, stdout, stderr string) {
	t.Helper()
	for name, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
		hostile.CheckCommands(t, what+" "+name, []byte(text))
		hostile.CheckVisible(t, what+" "+name, []byte(text))
	}
	for _, line := range strings.Split(stderr, "\n") {
		if len(line) > 4096 {
			t.Errorf("%s stderr: a line of %d bytes", what, len(line))
		}
	}
}

func checkReport(t *testing.T, what, format string, data []byte) {
	t.Helper()
	if len(data) == 0 {
		t.Errorf("%s wrote nothing", what)
		return
	}
	hostile.CheckVisible(t, what, data)
	switch format {
	case "github":
		hostile.CheckAnnotations(t, what, data)
	case "junit":
		hostile.CheckXML(t, what, data)
	case "json", "sarif":
		hostile.CheckJSON(t, what, data)
	case "html":
		checkHTMLPage(t, what, data)
	default:
		hostile.CheckCommands(t, what, data)
	}
	if format == "markdown" && strings.Contains(string(data), "<script") {
		t.Errorf("%s: raw HTML from the server", what)
	}
}

// checkHTMLPage: the page holds its data and its own script and no other
// element the server could have opened, and the data is JSON.
func checkHTMLPage(t *testing.T, what string, data []byte) {
	t.Helper()
	hostile.CheckCommands(t, what, data)
	page := string(data)
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%s: %d script elements, want the data and the page's own script", what, n)
	}
	_, rest, _ := strings.Cut(page, `<script type="application/json" id="report-data">`)
	body, _, _ := strings.Cut(rest, "</script>")
	hostile.CheckJSON(t, what+" data", []byte(body))
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
