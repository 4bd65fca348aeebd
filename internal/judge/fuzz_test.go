package judge

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
)

// FuzzJudge feeds arbitrary traces, seeded with the whole corpus, through the
// reader and the judge under each revision: whatever the bytes, the judge
// never panics and the totals always add up to the registry.
func FuzzJudge(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, revs := range [][]string{nil, {"2025-11-25"}, {"2026-07-28"}} {
			for _, run := range judgeBytes(data, engine.Options{Revisions: revs}).Runs {
				if run.Incomplete == "" && run.Totals.Sum() != run.Counted() {
					t.Fatalf("totals %d, counted clauses %d", run.Totals.Sum(), run.Counted())
				}
			}
		}
	})
}

// addCorpusSeeds seeds a fuzz target with every corpus trace under 256 KiB.
func addCorpusSeeds(f *testing.F) {
	for _, dir := range []string{"violations", "good", "recorded"} {
		paths, _ := filepath.Glob(filepath.Join(judgetest.CorpusRoot(f), dir, "*.jsonl"))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil && len(b) < 256<<10 {
				f.Add(b)
			}
		}
	}
}

// addCorpusSeedsToFuzz seeds f with the corpus only when it is fuzzing. For
// a target whose check a corpus test already makes on every corpus trace,
// running the seeds as a plain test repeats that test's work (35 s under
// the race detector for the dispatch check).
func addCorpusSeedsToFuzz(f *testing.F) {
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		addCorpusSeeds(f)
	}
}
