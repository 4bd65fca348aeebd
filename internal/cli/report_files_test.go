package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/reporters"
)

func TestValidateWritesEveryFormatAskedFor(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"sarif": "r.sarif", "junit": "junit.xml", "json": "r.json", "markdown": "summary.md", "github": "annotations.txt", "text": "r.txt",
		"html": "r.html",
	}
	args := []string{"validate", "--category", "mcpverdict/unit"}
	for format, name := range files {
		args = append(args, "--"+format, filepath.Join(dir, name))
	}
	args = append(args, corpusFile("violations/trans-http26-invalid-annotations.jsonl"))
	code, stdout, stderr := runCLI(t, args...)
	if code != 1 || !strings.Contains(stdout, "TRANS-055") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for format, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) == 0 {
			t.Errorf("--%s: %v", format, err)
		}
	}
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string } `json:"automationDetails"`
			Results           []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "r.sarif"))
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.AutomationDetails.ID != "mcpverdict/unit/" || len(run.Results) == 0 {
		t.Fatalf("automation id %q, %d results", run.AutomationDetails.ID, len(run.Results))
	}
	// The trace lies in this repository, so results point at it.
	loc := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation
	if loc.URI != "corpus/violations/trans-http26-invalid-annotations.jsonl" || loc.URIBaseID != "%SRCROOT%" {
		t.Errorf("location %+v", loc)
	}
}

func TestValidateRefusesTwoReportsInOneFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "same")
	code, _, stderr := runCLI(t, "validate", "--sarif", p, "--junit", p, corpusFile("good/http-session-2025-11-25.jsonl"))
	if code != 2 || !strings.Contains(stderr, "both write") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestValidateReportsAnUnwritableFormatFile(t *testing.T) {
	blocker := writeTemp(t, "file", "x")
	code, _, stderr := runCLI(t, "validate", "--junit", filepath.Join(blocker, "junit.xml"), corpusFile("good/http-session-2025-11-25.jsonl"))
	if code != 2 || !strings.Contains(stderr, "cannot") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestDefaultCategoryNamesTheServer(t *testing.T) {
	trace := corpusFile("good/http-session-2025-11-25.jsonl")
	out := filepath.Join(t.TempDir(), "r.sarif")
	if code, _, stderr := runCLI(t, "validate", "--format", "sarif", "-o", out, trace); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	name := provenance.ServerName(trace)
	if name == "" {
		t.Fatal("no serverInfo name read from a trace that has one")
	}
	data, _ := os.ReadFile(out)
	if want := `"id": "mcpverdict/` + reporters.Slug(name) + `/"`; !strings.Contains(string(data), want) {
		t.Errorf("no %s in the SARIF file", want)
	}
}

func TestWorkflowPath(t *testing.T) {
	for in, want := range map[string]string{
		"npx -y @modelcontextprotocol/server-everything": "npx-y-modelcontextprotocol-server-everything",
		"  ":         "server",
		"My Server!": "my-server",
	} {
		if got := reporters.Slug(in); got != want {
			t.Errorf("reporters.Slug(%q) = %q", in, got)
		}
	}
	if got := provenance.WorkflowPath("octo/repo/.github/workflows/mcp.yml@refs/pull/3/merge"); got != ".github/workflows/mcp.yml" {
		t.Errorf("workflowPath: %q", got)
	}
}

// TestValidateHTMLShowsTheLedgerHead: the page is written after the
// ledger, so that it names the head a reviewer verifies.
func TestValidateHTMLShowsTheLedgerHead(t *testing.T) {
	dir := t.TempDir()
	page, head := filepath.Join(dir, "report.html"), filepath.Join(dir, "ledger.head")
	code, _, stderr := runCLI(t, "validate", "--ledger", filepath.Join(dir, "ledger.ndjson"), "--head-out", head, "--html", page,
		corpusFile("good/http-session-2025-11-25.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want, _ := os.ReadFile(head)
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || !strings.Contains(string(data), `"ledger":{"head":"`+strings.TrimSpace(string(want))+`","signed":false}`) {
		t.Errorf("report.html does not name the ledger head %q", want)
	}
}

// TestValidateHTMLShowsTheDriftFieldByField: a tool whose description
// moved since the lockfile shows that field's locked and served values.
func TestValidateHTMLShowsTheDriftFieldByField(t *testing.T) {
	dir := t.TempDir()
	tr, lock, page := corpusFile("good/base-session-2025-11-25.jsonl"), filepath.Join(dir, "lock.json"), filepath.Join(dir, "report.html")
	if code, _, stderr := runCLI(t, "contract", "lock", "-o", lock, tr); code != 0 {
		t.Fatal(stderr)
	}
	b, _ := os.ReadFile(lock)
	if err := os.WriteFile(lock, []byte(strings.Replace(string(b), "Book a restaurant table after the user confirms.", "Book a table.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "validate", "--contract", lock, "--html", page, tr); code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	data, _ := os.ReadFile(page)
	if want := `"changes":[{"field":"description","old":"\"Book a table.\"","new":"\"Book a restaurant table after the user confirms.\""}]`; !strings.Contains(string(data), want) {
		t.Errorf("report.html has no field change %s", want)
	}
}
