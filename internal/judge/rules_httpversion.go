package judge

import (
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func init() {
	register(RuleSpec{
		Checks: []Check{{"http.protocol-version-header", "after initialization every client HTTP request carries MCP-Protocol-Version with the negotiated revision"}},
		New:    func() Rule { return httpVersionRule{} },
	})
}

type httpVersionRule struct{ BaseRule }

// IsHTTPRequest reports whether ev records an HTTP request the client sent.
func IsHTTPRequest(ev *trace.Event) bool {
	return ev.Kind == trace.KindHTTP && ev.Direction == trace.ClientToServer && ev.SSE == nil
}

func (httpVersionRule) HTTP(s *Session, ev *trace.Event) {
	if !IsHTTPRequest(ev) || s.Negotiated == "" || s.Stateless() {
		return
	}
	got, ok := ev.Headers["mcp-protocol-version"]
	switch {
	case !ok:
		s.Fail("http.protocol-version-header", spec.Client, ev, "HTTP request after initialization has no MCP-Protocol-Version header (negotiated %s)", s.Negotiated)
	case got != s.Negotiated:
		s.Fail("http.protocol-version-header", spec.Client, ev, "MCP-Protocol-Version is %q, but the session negotiated %s", got, s.Negotiated)
	default:
		s.Pass("http.protocol-version-header", spec.Client)
	}
}
