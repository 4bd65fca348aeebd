// Command gentrace writes a large, realistic, conforming 2025-11-25 trace
// for the judge's whole-command benchmarks (scripts/bench-judge,
// scripts/bench-compare): -mix stdio is the first generator's single stdio
// session of small messages, -mix http the recorded-session mix of
// interleaved streamable-HTTP sessions with SSE and large results.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

var mixes = map[string]func(io.Writer, int) error{
	"stdio": tracegen.Write,
	"http":  tracegen.WriteHTTP,
}

func main() {
	n := flag.Int("n", 1_000_000, "number of events to write (at least)")
	out := flag.String("o", "big.jsonl", "trace file to write")
	mix := flag.String("mix", "stdio", "which trace: stdio or http")
	flag.Parse()
	write, ok := mixes[*mix]
	if !ok {
		fmt.Fprintf(os.Stderr, "gentrace: -mix %q: choose stdio or http\n", *mix)
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err == nil {
		err = write(f, *n)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentrace:", err)
		os.Exit(2)
	}
}
