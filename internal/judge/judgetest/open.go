package judgetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Open reads the trace for judging: its name as reports give it (the path
// from the module root) and a reader of its events. The file is closed when
// the test ends.
func (ct *CorpusTrace) Open(t testing.TB) (string, *trace.Reader) {
	t.Helper()
	f, err := os.Open(ct.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	rel, _ := filepath.Rel(filepath.Join(CorpusRoot(t), ".."), ct.Path)
	name := filepath.ToSlash(rel)
	return name, trace.NewReader(f, name)
}
