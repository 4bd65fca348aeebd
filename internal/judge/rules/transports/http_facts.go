package transports

import "github.com/mcpverdict/mcpverdict/internal/judge/engine"

// httpFact is the streamable-HTTP exchanges and sessions of a trace
// (rules_http.go).
var httpFact = engine.NewTraceFact(newHTTPTrace)
