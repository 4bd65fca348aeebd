// Command gentrace writes a large, realistic, conforming 2025-11-25 stdio
// trace for the judge's whole-command benchmark (scripts/bench-judge).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

func main() {
	n := flag.Int("n", 1_000_000, "number of events to write (at least)")
	out := flag.String("o", "big.jsonl", "trace file to write")
	flag.Parse()
	f, err := os.Create(*out)
	if err == nil {
		err = tracegen.Write(f, *n)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentrace:", err)
		os.Exit(2)
	}
}
