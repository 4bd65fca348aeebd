package merge_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/merge"
)

// Merging twenty job folders of a real check run, every format and the
// ledger written: the target is well under five seconds (scripts/bench-merge
// times the binary).
func BenchmarkMergeTwentyJobs(b *testing.B) {
	alpha, _, _ := fleet(b)
	root := b.TempDir()
	var dirs []string
	for i := 1; i <= 20; i++ {
		dir := filepath.Join(root, fmt.Sprintf("server-%02d", i))
		copyDir(b, alpha, dir)
		dirs = append(dirs, dir)
	}
	out := filepath.Join(root, "merged")
	b.ResetTimer()
	for b.Loop() {
		jobs, err := merge.Load(dirs)
		if err != nil {
			b.Fatal(err)
		}
		res, err := merge.Write(jobs, merge.Options{Out: out})
		if err != nil || res.Status != exitcode.OK {
			b.Fatalf("merge: %v, status %v", err, res)
		}
	}
}
