package trace

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, and
// every event it accepts must have passed its own checks.
func FuzzReader(f *testing.F) {
	f.Add([]byte(okLines))
	f.Add([]byte(okLines + `{"seq":9,"direction":"client-to-`))
	f.Add([]byte("# note\n\n{}\n"))
	f.Add([]byte(strings.Join(trickyLines, "\n")))
	paths, _ := filepath.Glob(filepath.Join(repoRoot(f), "corpus", "*", "*.jsonl"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), "fuzz.jsonl")
		r.SetMaxLine(4096)
		last := int64(-1)
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error is not a *ParseError: %v", err)
				}
				return
			}
			if ev.Seq <= last || ev.check() != "" {
				t.Fatalf("accepted a bad event: %+v", ev)
			}
			last = ev.Seq
		}
	})
}
