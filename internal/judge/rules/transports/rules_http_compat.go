package transports

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Backward compatibility of 2026-07-28 streamable HTTP: a modern error is
// no reason to fall back to initialize, and a server of this revision only
// answers the older transport's GET, DELETE and session ids as such.
var httpCompatChecks = []engine.Check{
	{ID: "http.modern-error-no-fallback", Summary: "after a 400 carrying a modern JSON-RPC error the client does not fall back to initialize"},
	{ID: "http.legacy-405", Summary: "a server supporting only 2026-07-28 answers GET and DELETE with 405"},
	{ID: "http.no-session-ids", Summary: "a server supporting only 2026-07-28 neither mints nor echoes MCP-Session-Id"},
}

// noteDiscover keeps the revisions a server/discover result lists.
func noteDiscover(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if m == nil || m.Kind != message.KindResult || m.Request == nil || m.Request.Method != "server/discover" {
		return
	}
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if message.Decode(m.Result, &res) && res.SupportedVersions != nil {
		t.supported = res.SupportedVersions
	}
}

// onlyModern reports whether the server said it supports 2026-07-28 and
// later revisions only.
func (t *httpTrace) onlyModern() bool {
	return t.supported != nil && !slices.ContainsFunc(t.supported, func(v string) bool { return spec.Revision(v).Before(spec.FirstStateless) })
}

func noteModernError(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	switch code := errorCode(m); {
	case !s.Stateless() || x.Status() != 400:
	case code == engine.CodeHeaderMismatch || code == engine.CodeMissingCapability || code == engine.CodeUnsupportedVersion:
		t.modernError = ev.Detached()
	}
}

func checkFallbackAfterModernError(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if t.modernError == nil || m.Kind != message.KindRequest {
		return
	}
	s.Expect("http.modern-error-no-fallback", m.Method != "initialize", spec.Client, m.Event,
		"the client fell back to initialize after the modern JSON-RPC error on line %d, which shows the server speaks this revision",
		t.modernError.Line)
	t.modernError = nil
}

func checkLegacyMethods(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !s.Stateless() || !t.onlyModern() || (x.Method() != "GET" && x.Method() != "DELETE") {
		return
	}
	s.Expect("http.legacy-405", x.Status() == 405, spec.Server, x.Response,
		"a server that supports only %s answered a %s with %d, not 405 Method Not Allowed", quoteList(t.supported), x.Method(), x.Status())
}

func checkNoSessionIDs(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !s.Stateless() || !t.onlyModern() {
		return
	}
	id, minted := x.Response.Headers["mcp-session-id"]
	s.Expect("http.no-session-ids", !minted, spec.Server, x.Response,
		"a server that supports only %s answered with MCP-Session-Id %q", quoteList(t.supported), id)
}
