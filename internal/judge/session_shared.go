package judge

// Shared holds the facts rules keep across every session of the trace.
// Over streamable HTTP a client may hold several sessions, and some clauses
// (a session id echoed on every later request, a new session after a 404,
// a tool's headers listed in one session and sent in another) bind what
// happens between them. Each fact is a typed field, made by the first rule
// that asks for it, so a rule author sees what is shared and the compiler
// checks every use; a new fact gets a field and an accessor here.
type Shared struct {
	// http is the streamable-HTTP exchanges and sessions (rules_http.go).
	http *httpTrace
	// toolHeaders is what tools/list results said of the headers of each
	// tool (rules_http_annotations.go).
	toolHeaders *fifoMap[*listedTool]
	// legacySSE is set once a 2024-11-05 server named its endpoint on an
	// SSE connection (http_legacy_endpoint.go).
	legacySSE bool
}

// Shared returns the facts rules keep across every session of the trace.
func (s *Session) Shared() *Shared { return &s.run.shared }

// HTTP returns the trace's streamable-HTTP state.
func (sh *Shared) HTTP() *httpTrace {
	if sh.http == nil {
		sh.http = newHTTPTrace()
	}
	return sh.http
}

// ToolHeaders returns what tools/list results said of each tool's headers,
// by tool name.
func (sh *Shared) ToolHeaders() *fifoMap[*listedTool] {
	if sh.toolHeaders == nil {
		sh.toolHeaders = newFIFO[*listedTool](maxListedTools)
	}
	return sh.toolHeaders
}
