package trace

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

// BenchmarkReader reads the judge benchmark's trace without judging it: the
// reader's share of BenchmarkJudge, measured on its own.
func BenchmarkReader(b *testing.B) {
	var data bytes.Buffer
	if err := tracegen.Write(&data, 20_000); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(data.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data.Bytes()), "bench.jsonl")
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
