package judge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
)

// The wire check's findings, and so the whole report, are the same with
// one worker and with four, on every corpus trace and on a long trace whose
// invalid results span many batches.
func TestWireReportIsTheSameWhateverTheWorkers(t *testing.T) {
	schemas := corpusSchemas(t)
	long := repeatedInvalidTrace(t, 3*engine.WireBatchSize+17)
	cases := map[string][]byte{"long": long}
	for _, ct := range judgetest.LoadCorpus(t) {
		data, err := os.ReadFile(ct.Path)
		if err != nil {
			t.Fatal(err)
		}
		cases[ct.Dir+"/"+ct.Name] = data
	}
	for name, data := range cases {
		one := reportJSON(t, judgeBytes(data, Options{Schemas: schemas, WireWorkers: 1}))
		four := reportJSON(t, judgeBytes(data, Options{Schemas: schemas, WireWorkers: 4}))
		if !bytes.Equal(one, four) {
			t.Errorf("%s: the report with four wire workers differs from the one with one", name)
		}
	}
	rep := judgeBytes(long, Options{Schemas: schemas, WireWorkers: 4})
	w := rep.Runs[0].Wire
	if w.Messages != 2+2*(3*engine.WireBatchSize+17) || len(w.Invalid) < 3*engine.WireBatchSize {
		t.Fatalf("the long trace checked %d messages with %d findings; want every result found invalid", w.Messages, len(w.Invalid))
	}
	for i := 1; i < len(w.Invalid); i++ {
		if w.Invalid[i].Seq < w.Invalid[i-1].Seq {
			t.Fatalf("findings out of order: seq %d after %d", w.Invalid[i].Seq, w.Invalid[i-1].Seq)
		}
	}
}

// repeatedInvalidTrace is the discovery of a 2026-07-28 session and then n
// tools/list calls, each answered with a result its schema refuses.
func repeatedInvalidTrace(t *testing.T, n int) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(judgetest.CorpusRoot(t), "violations", "wire-2025-result-judged-as-2026.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var events []map[string]any
	for _, line := range strings.Split(string(src), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	var out bytes.Buffer
	out.WriteString("# revision: 2026-07-28\n")
	seq := 0
	write := func(ev map[string]any, id int) {
		ev["seq"] = seq
		seq++
		if id >= 0 {
			ev["payload"].(map[string]any)["id"] = id
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(b, '\n'))
	}
	write(events[0], -1)
	write(events[1], -1)
	for i := range n {
		write(events[2], i+1)
		write(events[3], i+1)
	}
	return out.Bytes()
}
