package engine

import "github.com/mcpverdict/mcpverdict/internal/trace"

// An area may take some HTTP events of a trace for itself, before any rule
// or the wire schema sees them: a fetch of protected resource metadata
// carries no MCP message, and the transport and JSON-RPC rules must not
// judge its document as one. A taker keeps its state in a TraceFact.
var takers []func(s *Session, ev *trace.Event) bool

// RegisterTaker adds a taker at init time; take reports whether it took ev.
func RegisterTaker(take func(s *Session, ev *trace.Event) bool) {
	takers = append(takers, take)
}

// taken reports whether a taker took ev.
func taken(s *Session, ev *trace.Event) bool {
	for _, take := range takers {
		if take(s, ev) {
			return true
		}
	}
	return false
}
