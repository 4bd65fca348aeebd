// Command genledger writes a ledger of N blocks shaped like a real run's
// (trace digests, declarations, clause rows, contract findings) for
// scripts/bench-ledger, and prints its head: in mcpverdict's format, or
// with -format mev in mcp-evidence-validator's (one pretty-printed JSON
// document). Usage: genledger [-format mev] -n N -o FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

func main() {
	n := flag.Int("n", 100000, "blocks to write")
	out := flag.String("o", "ledger.ndjson", "output file")
	format := flag.String("format", "mcpverdict", "mcpverdict or mev (mcp-evidence-validator)")
	flag.Parse()
	if err := write(*n, *out, *format == "mev"); err != nil {
		fmt.Fprintln(os.Stderr, "genledger:", err)
		os.Exit(1)
	}
}

// blockWriter is what both ledger formats' writers do.
type blockWriter interface {
	Append(typ string, v any) (string, error)
	Head() string
}

// write writes n blocks to path, in mcp-evidence-validator's format when
// mev is set (with the writer `mcpverdict ledger export` uses), and prints
// the head, the count and the seconds taken.
func write(n int, path string, mev bool) error {
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	var w blockWriter
	var finish func() error
	if mev {
		m := ledger.NewMEVWriter(f)
		w, finish = m, m.Close
	} else {
		l := ledger.NewWriter(f)
		w, finish = l, l.Flush
	}
	start := time.Now()
	for i := range n {
		typ, rec := record(i)
		if _, err := w.Append(typ, rec); err != nil {
			return err
		}
	}
	if err := finish(); err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Printf("%s %d %.3f\n", w.Head(), n, elapsed.Seconds())
	return nil
}

// record returns the i-th block: mostly clause rows, some trace digests and
// contract findings, as a long run's ledger holds.
func record(i int) (string, any) {
	switch i % 10 {
	case 0:
		return "trace", map[string]any{"path": fmt.Sprintf("traces/session-%06d.jsonl", i), "sha256": strings.Repeat("5e", 32), "bytes": 1 << 20, "events": 4096}
	case 1:
		return "contract_findings", map[string]any{"contract_recipe": "3", "findings": []map[string]any{{
			"check": "contract_mutated", "tool": fmt.Sprintf("tool_%d", i), "changes": []map[string]any{{"field": "description", "old": "Reads a file.", "new": "Reads any file, returned as an embedded resource."}},
		}}}
	}
	return "clause", map[string]any{"clause": fmt.Sprintf("BASE-%03d", i%500), "revision": "2025-11-25", "outcome": "pass", "examined": i % 97, "reason": "every request in the session carried a unique id — «checked» 100%"}
}
