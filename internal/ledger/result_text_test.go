package ledger

import (
	"bytes"
	"strings"
	"testing"
)

// A ledger's problems, block types and recipes can quote what the file
// holds: what verify prints of them holds no terminal escape.
func TestVerifyLinesAreSafeForATerminal(t *testing.T) {
	res := &Result{Format: "mcpverdict\x1b[2J", Blocks: 2,
		Types:    map[string]int{"trace\u202e": 1},
		Recipes:  []string{"r\x07"},
		Problems: []string{"block 1: type \"\x1b]0;owned\x07\" unknown"}}
	var buf bytes.Buffer
	res.WriteProblems(&buf, "ledger\x1b[31m.ndjson")
	res.WriteIntact(&buf)
	if out := buf.String(); strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Fatalf("a raw control or bidi character reached the terminal: %q", out)
	}
}
