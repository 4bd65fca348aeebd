package judge

import (
	"bytes"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

// maxAllocsPerEvent bounds what reading and judging one line of the
// benchmark trace may allocate. Allocation is most of what the judge's
// time goes to besides reading bytes; a rule that decodes whole messages,
// or boxes a finding's arguments on its pass path, shows here first.
const maxAllocsPerEvent = 3

func TestJudgeAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("judges a 5,000-event trace")
	}
	var buf bytes.Buffer
	if err := tracegen.Write(&buf, 5_000); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	events := bytes.Count(data, []byte("\n"))
	allocs := testing.AllocsPerRun(2, func() {
		if rep := judgeBytes(data, engine.Options{}); rep.Verdict != engine.VerdictPass {
			t.Fatalf("verdict %s", rep.Verdict)
		}
	})
	if perEvent := allocs / float64(events); perEvent > maxAllocsPerEvent {
		t.Errorf("judging the benchmark trace allocates %.1f times per line; the bound is %d", perEvent, maxAllocsPerEvent)
	} else {
		t.Logf("%.1f allocations per line (bound %d)", perEvent, maxAllocsPerEvent)
	}
}
