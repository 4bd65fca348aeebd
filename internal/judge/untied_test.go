package judge

import (
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// A trace of streamable-HTTP messages with no request head before them
// cannot have its transport clauses judged, and its report says so with
// the line of the first such message instead of passing.
func TestUntiedHTTPEventsMakeTheRunIncomplete(t *testing.T) {
	text := `{"seq":0,"direction":"client-to-server","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"seq":1,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}
`
	r := trace.NewReader(strings.NewReader(text), "untied.jsonl")
	rep := engine.Judge([]engine.Input{{Name: "untied.jsonl", Next: r.Next}}, engine.Options{})
	if rep.Verdict != engine.VerdictIncomplete {
		t.Fatalf("verdict %s, want incomplete", rep.Verdict)
	}
	run := rep.Runs[0]
	if run.IncompleteLine != 1 || !strings.Contains(run.Incomplete, "2 streamable-HTTP events, the first at line 1,") {
		t.Errorf("incomplete at line %d: %q", run.IncompleteLine, run.Incomplete)
	}
}
