package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

func benchTrace(b *testing.B, events int) []byte {
	return benchTraceOf(b, tracegen.Write, events)
}

func benchTraceOf(b *testing.B, write func(io.Writer, int) error, events int) []byte {
	var buf bytes.Buffer
	if err := write(&buf, events); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkJudge reads and judges a realistic trace; compare its MB/s with
// BenchmarkPlainDecode, which only decodes every line with encoding/json.
func BenchmarkJudge(b *testing.B) { benchJudge(b, engine.Options{}) }

// BenchmarkJudgeWireSchema adds the wire-schema check of every message.
func BenchmarkJudgeWireSchema(b *testing.B) { benchJudge(b, engine.Options{Schemas: corpusSchemas(b)}) }

// BenchmarkJudgeWireSchemaHTTP is BenchmarkJudgeWireSchema on the
// streamable-HTTP mix, whose results are larger.
func BenchmarkJudgeWireSchemaHTTP(b *testing.B) {
	benchJudgeTrace(b, benchTraceOf(b, tracegen.WriteHTTP, 20_000), engine.Options{Schemas: corpusSchemas(b)})
}

// BenchmarkJudgeHTTP is BenchmarkJudge on the streamable-HTTP mix.
func BenchmarkJudgeHTTP(b *testing.B) {
	benchJudgeTrace(b, benchTraceOf(b, tracegen.WriteHTTP, 20_000), engine.Options{})
}

func benchJudge(b *testing.B, opts engine.Options) { benchJudgeTrace(b, benchTrace(b, 20_000), opts) }

func benchJudgeTrace(b *testing.B, data []byte, opts engine.Options) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := startCPUMeter()
	for b.Loop() {
		if rep := judgeBytes(data, opts); rep.Verdict != engine.VerdictPass {
			b.Fatalf("verdict %s", rep.Verdict)
		}
	}
	cpu.report(b, len(data))
}

// cpuMeter reports a benchmark's CPU time per operation, and the MB/s it
// makes, beside the wall-clock figures; run with -cpu 1 so that the
// collector's work is counted on the same core.
type cpuMeter struct {
	start time.Duration
	ok    bool
}

func startCPUMeter() cpuMeter {
	start, ok := processCPU()
	return cpuMeter{start: start, ok: ok}
}

func (c cpuMeter) report(b *testing.B, bytesPerOp int) {
	end, ok := processCPU()
	if !c.ok || !ok || b.N == 0 {
		return
	}
	perOp := (end - c.start).Seconds() / float64(b.N)
	b.ReportMetric(perOp*1e9, "cpu-ns/op")
	b.ReportMetric(float64(bytesPerOp)/1e6/perOp, "cpu-MB/s")
}

func BenchmarkPlainDecode(b *testing.B) {
	data := benchTrace(b, 20_000)
	b.SetBytes(int64(len(data)))
	cpu := startCPUMeter()
	for b.Loop() {
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var v any
			err := dec.Decode(&v)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu.report(b, len(data))
}
