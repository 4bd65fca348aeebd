package judge

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Judging the whole corpus in one call gives the same report whether the
// traces are judged one after the other or four at once, each with its own
// wire-schema workers: the runs stay in the order of the inputs.
func TestTracesJudgedAtOnceReportAsOneAfterTheOther(t *testing.T) {
	schemas := corpusSchemas(t)
	var files [][]byte
	var names []string
	for _, ct := range judgetest.LoadCorpus(t) {
		data, err := os.ReadFile(ct.Path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
		names = append(names, ct.Dir+"/"+ct.Name+".jsonl")
	}
	judgeAll := func(workers int) []byte {
		inputs := make([]engine.Input, len(files))
		for i, data := range files {
			inputs[i] = engine.Input{Name: names[i], Next: trace.NewReader(bytes.NewReader(data), names[i]).Next}
		}
		return reportJSON(t, engine.Judge(inputs, engine.Options{Schemas: schemas, TraceWorkers: workers, WireWorkers: workers}))
	}
	one, four := judgeAll(1), judgeAll(4)
	if !bytes.Equal(one, four) {
		t.Fatal("the report on traces judged four at once differs from the one judged one after the other")
	}
	if len(files) < 100 || !bytes.Contains(one, []byte(names[len(names)-1])) {
		t.Fatalf("judged %d traces; the corpus reading is broken", len(files))
	}
}
