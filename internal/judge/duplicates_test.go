package judge

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// A name repeated inside a message, where no JSON-RPC member is in doubt,
// is noted once with its line and the reading the judge used, and fails
// no clause; the BASE-002 corpus trace holds the case that fails. Names
// inside members are read where the wire schema is checked, and not
// without it.
func TestRepeatedNestedNameIsNoted(t *testing.T) {
	data, err := os.ReadFile("../../corpus/violations/base-response-duplicate-id.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"id":1,"id":2,`), []byte(`"id":2,`), 1)
	if notes := judgeBytes(data, engine.Options{}).Runs[0].Notes; len(notes) != 0 {
		t.Errorf("without the wire schema, notes %q; want none", notes)
	}
	rep := judgeBytes(data, engine.Options{Schemas: corpusSchemas(t)})
	if rep.Verdict != "pass" {
		t.Fatalf("verdict %s, want pass: a repeated title breaks no clause", rep.Verdict)
	}
	notes := strings.Join(rep.Runs[0].Notes, "\n")
	for _, want := range []string{"line 10:", `"title" more than once`, "the judge read the last"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
