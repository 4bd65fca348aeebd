package probe

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/provenance"
)

// Provenance is what an auditor needs to reproduce a report: the build
// that made it, the definition at its commit, the server as it named
// itself, the toolchains on the machine, and what the server said about
// itself and its tools, as received.
type Provenance struct {
	// Harness is the mcpverdict build (version, commit, Go version).
	Harness    string                    `json:"harness"`
	Definition provenance.GitState       `json:"definition_git"`
	Server     provenance.ServerIdentity `json:"server"`
	Toolchains map[string]string         `json:"toolchains,omitempty"`
	// Initialize and ToolsList are the first control session's initialize
	// result and tools/list pages, as the server sent them.
	Initialize json.RawMessage   `json:"initialize,omitempty"`
	ToolsList  []json.RawMessage `json:"tools_list,omitempty"`
}
