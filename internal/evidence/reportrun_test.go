package evidence

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// A contract lockfile's run holds no messages: its wire schema is not
// applicable, which no report may present as a check left undone.
func TestContractRunHasNoWireSchemaToCheck(t *testing.T) {
	rep := &judge.Report{Runs: []judge.Run{{Trace: "session.jsonl", Revision: "2025-11-25", Wire: judge.WireResult{Checked: true}}}}
	AddContractRun(rep, &Drift{Lockfile: "mcp-contract.json"})
	wire := rep.Runs[len(rep.Runs)-1].Wire
	if wire.NotApplicable == "" || wire.NotChecked != "" {
		t.Fatalf("the contract run's wire result is %+v", wire)
	}
	for format, says := range map[string]string{"text": "wire schema: not applicable", "markdown": "**Wire schema:** not applicable", "junit": "not applicable: ", "sarif": `"executionSuccessful": true`} {
		r, err := reporters.Get(format)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := r.Write(&out, reporters.ForClauses(rep), reporters.Options{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "not checked") || !strings.Contains(out.String(), says) {
			t.Errorf("%s report:\n%.3000s", format, out.String())
		}
	}
}
