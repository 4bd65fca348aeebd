package transports

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// The MCP-Protocol-Version header: sent on every request after
// initialization (2025-11-25) or on every POSTed request, matching the
// body's _meta (2026-07-28); a version the server does not implement is
// refused with 400.
var httpVersionChecks = []engine.Check{
	{ID: "http.protocol-version-header", Summary: "every HTTP request after initialization (2026-07-28: every POSTed request) carries MCP-Protocol-Version"},
	{ID: "http.protocol-version-negotiated", Summary: "the MCP-Protocol-Version a client sends is the negotiated revision"},
	{ID: "http.protocol-version-matches-meta", Summary: "MCP-Protocol-Version equals the request's _meta io.modelcontextprotocol/protocolVersion"},
	{ID: "http.bad-version-400", Summary: "a request whose MCP-Protocol-Version names no published revision is answered 400"},
	{ID: "http.unsupported-version-error", Summary: "a request for a revision the server does not implement is answered 400 with UnsupportedProtocolVersionError listing the supported versions"},
}

// publishedRevisions are the revisions of the specification published so
// far; a header naming anything else is invalid for every server.
var publishedRevisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

func checkVersionHeader2025(s *engine.Session, t *httpTrace, x *httpExchange) {
	if s.Stateless() || s.Negotiated == "" {
		return
	}
	got, ok := x.Header("mcp-protocol-version")
	s.Expect("http.protocol-version-header", ok, spec.Client, x.Request,
		"HTTP %s after initialization has no MCP-Protocol-Version header (negotiated %s)", x.Method(), s.Negotiated)
	if ok {
		s.Expect("http.protocol-version-negotiated", got == s.Negotiated, spec.Client, x.Request,
			"MCP-Protocol-Version is %q, but the session negotiated %s", got, s.Negotiated)
	}
}

func checkBadVersionAnswer(s *engine.Session, t *httpTrace, x *httpExchange) {
	got, ok := x.Header("mcp-protocol-version")
	if s.Stateless() || !ok || slices.Contains(publishedRevisions, got) {
		return
	}
	s.Expect("http.bad-version-400", x.Status() == 400, spec.Server, x.Response,
		"a %s with MCP-Protocol-Version %q, which names no published revision, was answered %d, not 400 Bad Request",
		x.Method(), got, x.Status())
}

func checkVersionHeader2026(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if !modernRequest(s, m) || !x.IsPost() || !x.once("version-header") {
		return
	}
	got, ok := x.Header("mcp-protocol-version")
	s.Expect("http.protocol-version-header", ok, spec.Client, x.Request,
		"the POST carrying request %q has no MCP-Protocol-Version header", m.Method)
	if meta := engine.MetaVersion(m); ok && meta != "" {
		s.Expect("http.protocol-version-matches-meta", got == meta, spec.Client, x.Request,
			"MCP-Protocol-Version is %q, but the request's _meta names %q", got, meta)
	}
}

// unimplementedVersion returns the revision a request asks for when the
// server cannot implement it: one never published, or one missing from
// the supportedVersions the server listed in server/discover.
func unimplementedVersion(t *httpTrace, m *message.Msg) string {
	v := engine.MetaVersion(m)
	switch {
	case v == "":
		return ""
	case !slices.Contains(publishedRevisions, v):
		return v
	case t.supported != nil && !slices.Contains(t.supported, v):
		return v
	}
	return ""
}
