package judge

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// A mirrored header whose name says credential is recorded as
// "[redacted]": the judge cannot compare it with the argument, so it
// neither fails the client nor expects a refusal from the server.
func TestRedactedParamHeaderIsNotJudged(t *testing.T) {
	data, err := os.ReadFile("../../corpus/good/http-client-2026-07-28.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := findingLines(judgeBytes(data, engine.Options{}))
	for _, r := range [][2]string{
		{`"x-mcp-header":"Region"`, `"x-mcp-header":"Api-Key"`},
		{`"mcp-param-region":"us-west1"`, `"mcp-param-api-key":"[redacted]"`},
	} {
		if !bytes.Contains(data, []byte(r[0])) {
			t.Fatalf("the trace no longer holds %s", r[0])
		}
		data = bytes.ReplaceAll(data, []byte(r[0]), []byte(r[1]))
	}
	// TOOL-028 rightly warns of a secret mirrored into a header; nothing
	// else may change.
	var kept []string
	for _, line := range strings.Split(findingLines(judgeBytes(data, engine.Options{})), "\n") {
		if !strings.Contains(line, "TOOL-028") {
			kept = append(kept, line)
		}
	}
	if got := strings.Join(kept, "\n"); got != want {
		t.Errorf("findings differ once the header is redacted:\n got %s\nwant %s", got, want)
	}
}
