package main

import (
	"fmt"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/evidence/outfile"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

// writeMEV writes n blocks as mcp-evidence-validator writes a ledger, with
// the writer `mcpverdict ledger export` uses.
func writeMEV(n int, path string) error {
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := ledger.NewMEVWriter(f)
	start := time.Now()
	for i := range n {
		typ, rec := record(i)
		if _, err := w.Append(typ, rec); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Printf("%s %d %.3f\n", w.Head(), n, elapsed.Seconds())
	return nil
}
