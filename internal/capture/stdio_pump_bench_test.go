package capture

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// BenchmarkPumpRecordsLine forwards one line through a linePump between two
// pipes, recording it to a trace file, and reads it back: the wrapper's own
// work per message without a server process.
func BenchmarkPumpRecordsLine(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "t.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := trace.NewWriter(f)
	defer w.Close()
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	s := &stdioSession{rec: w}
	p := newLinePump(trace.ClientToServer, inR, outW, s, DefaultMaxLine)
	go p.run()
	defer inW.Close()
	rd := bufio.NewReader(outR)
	line := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}` + "\n")
	for b.Loop() {
		inW.Write(line)
		if _, err := rd.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
}
