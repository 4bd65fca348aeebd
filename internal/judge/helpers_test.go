package judge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// judgeBytes reads data as one trace and judges it. It takes no testing.TB
// so that a benchmark's loop pays for nothing but the judging.
func judgeBytes(data []byte, opts engine.Options) *engine.Report {
	r := trace.NewReader(bytes.NewReader(data), "trace.jsonl")
	return engine.Judge([]engine.Input{{Name: "trace.jsonl", Next: r.Next}}, opts)
}

// judgedJSON is the report on data under revs, as JSON.
func judgedJSON(t testing.TB, data []byte, revs []string) []byte {
	return reportJSON(t, judgeBytes(data, engine.Options{Revisions: revs}))
}

func reportJSON(t testing.TB, rep *engine.Report) []byte {
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
