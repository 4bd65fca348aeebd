package ledger

import "github.com/mcpverdict/mcpverdict/internal/canon"

// ForeignName is the "ledger" field of an mcp-evidence-validator ledger.
const ForeignName = "mcp-evidence-validator"

// foreignVersions are the format versions of that tool this build reads;
// both hash blocks the same way.
var foreignVersions = map[string]bool{"0.2": true, "0.3": true}

func mustGet(v canon.Value, key string) canon.Value {
	m, _ := v.Get(key)
	return m
}
