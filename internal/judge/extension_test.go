package judge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
)

// An extension's failures stay beside the verdict until the extension is
// asked for: then they fail it, and its totals join the run's.
func TestExtensionCountsOnlyWhenAskedFor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(judgetest.CorpusRoot(t), "violations", "tasks-results-2025-11-25.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	off := judgeBytes(data, engine.Options{})
	on := judgeBytes(data, engine.Options{Extensions: []string{"tasks"}})
	if off.Verdict != engine.VerdictPass || on.Verdict != engine.VerdictFail {
		t.Fatalf("verdict without --extension %s, with %s; want pass, then fail", off.Verdict, on.Verdict)
	}
	if len(off.Extensions) != 1 || off.Extensions[0].Counted || off.Extensions[0].Verdict != engine.VerdictFail {
		t.Fatalf("extensions without --extension: %+v; want tasks, not counted, fail", off.Extensions)
	}
	ext := off.Runs[0].Extensions[0].Totals
	if got, want := on.Totals.Sum(), off.Totals.Sum()+ext.Sum(); got != want || on.Totals.Fail != off.Totals.Fail+ext.Fail {
		t.Fatalf("totals with --extension %+v; want those without (%+v) plus the extension's (%+v)", on.Totals, off.Totals, ext)
	}
	for _, c := range on.Runs[0].Clauses {
		if c.Uncounted {
			t.Fatalf("%s is uncounted though its extension was asked for", c.Clause.ID)
		}
	}
}

// A session that never touches an extension's messages gives it no verdict
// of pass: every clause of it is not observed, and so is the extension.
func TestExtensionNobodyUsedIsNotObserved(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(judgetest.CorpusRoot(t), "good", "base-session-2025-11-25.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := judgeBytes(data, engine.Options{Extensions: []string{"tasks"}})
	if len(rep.Extensions) != 1 || rep.Extensions[0].Verdict != engine.VerdictNotObserved {
		t.Fatalf("extensions of a session without tasks: %+v; want tasks, not observed", rep.Extensions)
	}
	if rep.Verdict != engine.VerdictPass {
		t.Fatalf("verdict %s; an extension not observed leaves the report's verdict as it is", rep.Verdict)
	}
}
