package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// Traces an earlier step recorded are not in the checkout, so a finding
// from them goes where a reviewer sees it: the server's entry (here the
// line of package.json that names it), else the workflow step that ran
// the action; the trace line goes into the related locations.
func TestActionPlacesFindingsOfUncommittedTraces(t *testing.T) {
	for _, c := range []struct {
		name     string
		files    map[string]string
		wantFile string
		wantLine int
	}{
		{"package.json", map[string]string{"package.json": "{\n  \"name\": \"srv\",\n  \"main\": \"dist/index.js\"\n}\n"}, "package.json", 3},
		{"nothing but the workflow", nil, ".github/workflows/mcp.yml", actiontest.WorkflowStepLine},
	} {
		t.Run(c.name, func(t *testing.T) {
			api := actiontest.NewGitHubAPI(t)
			r := actiontest.NewRunner(t, false)
			r.UseGitHubAPI(api)
			for name, body := range c.files {
				if err := os.WriteFile(filepath.Join(r.Workspace, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r.Checkout(t)
			recorded := filepath.Join(r.Workspace, "recorded")
			os.MkdirAll(recorded, 0o755)
			trace, _ := os.ReadFile(corpusFile("violations/base-request-id-reuse.jsonl"))
			os.WriteFile(filepath.Join(recorded, "session.jsonl"), trace, 0o644)
			r.SetInput("traces", "recorded/*.jsonl")
			code, log, _ := runAction(t, r)
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, log)
			}
			if want := fmt.Sprintf("::error file=%s,line=%d,", c.wantFile, c.wantLine); !strings.Contains(log, want) {
				t.Errorf("no annotation %q:\n%s", want, log)
			}
			ups := api.Uploads()
			if len(ups) != 1 {
				t.Fatalf("uploads %d, rejected %v", len(ups), api.Rejected())
			}
			sarifPath := writeTemp(t, "uploaded.sarif", string(ups[0].SARIF))
			if outside := peers.NotInRepository(t, sarifPath); len(outside) > 0 {
				t.Errorf("SARIF results code scanning cannot place:\n%s", strings.Join(outside, "\n"))
			}
			checkFirstResult(t, ups[0].SARIF, c.wantFile, c.wantLine, "recorded/session.jsonl")
		})
	}
}

// checkFirstResult holds the first SARIF result to its location and its
// related location, the trace.
func checkFirstResult(t *testing.T, data []byte, file string, line int, trace string) {
	t.Helper()
	type loc struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
			Region           struct{ StartLine int } `json:"region"`
		} `json:"physicalLocation"`
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations        []loc `json:"locations"`
				RelatedLocations []loc `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) == 0 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("no SARIF result: %v", err)
	}
	res := log.Runs[0].Results[0]
	if got := res.Locations[0].PhysicalLocation; got.ArtifactLocation.URI != file || got.Region.StartLine != line {
		t.Errorf("first result at %s:%d, want %s:%d", got.ArtifactLocation.URI, got.Region.StartLine, file, line)
	}
	if len(res.RelatedLocations) == 0 || res.RelatedLocations[0].PhysicalLocation.ArtifactLocation.URI != trace {
		t.Errorf("related locations %+v, want the trace %s", res.RelatedLocations, trace)
	}
}
