package judge

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// A judge is a pure function of its trace: judged again, a trace gives the
// same report to the byte. Requests the trace ends without answering come
// out of a map; two sent in one batch share their event's seq, and were
// listed in either order from run to run until they were numbered as sent.
func TestReportIsTheSameEveryRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "corpus", "violations", "trans-http-post-batch.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The trace up to the batch request, whose two elements go unanswered.
	cut := bytes.Index(data, []byte(`"seq":9,`))
	data = data[:bytes.LastIndexByte(data[:cut], '\n')+1]
	first := judgedJSON(t, data, nil)
	for range 30 {
		if again := judgedJSON(t, data, nil); !bytes.Equal(again, first) {
			t.Fatalf("the report differs from one run to the next:\n%s\n%s", first, again)
		}
	}
	got := judgeBytes(data, engine.Options{}).Runs[0].Unanswered
	if len(got) != 2 || got[0].ID != "2" || got[1].ID != "3" {
		t.Fatalf("unanswered: %+v, want ids 2 then 3, the batch's order", got)
	}
}
