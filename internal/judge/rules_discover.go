package judge

import (
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// server/discover (2026-07-28): servers implement it, identify themselves in
// it, and a stdio client probes with it before anything else.
func init() {
	register(RuleSpec{
		Sees: []sight{sees(requestMsgs, spec.Client), sees(responseMsgs, spec.Server, "server/discover")},
		Checks: []Check{
			{ID: "discover.implemented", Summary: "the server answers server/discover, never with -32601 (method not found)"},
			{ID: "discover.server-info", Summary: "the discover result carries io.modelcontextprotocol/serverInfo in _meta"},
			{ID: "discover.first-on-stdio", Summary: "on stdio, a modern client's first request is server/discover"},
		},
		New:      func() Rule { return &discoverRule{} },
		Messages: statelessOnly,
	})
}

type discoverRule struct {
	BaseRule
	sawClientRequest bool
}

func (r *discoverRule) Message(s *Session, m *Msg) {
	if !s.Stateless() {
		return
	}
	if m.Kind == KindRequest && m.From == spec.Client {
		r.clientRequest(s, m)
	}
	if !answersClientRequest(m) || m.Request.Method != "server/discover" {
		return
	}
	code, _ := m.Error.IntCode()
	if m.Kind == KindResult || code == codeMethodNotFound {
		s.Expect("discover.implemented", m.Kind == KindResult, spec.Server, m.Event,
			"the server answered server/discover (line %d) with -32601 (method not found)", m.Request.Line)
	}
	if m.Kind == KindResult {
		ok := m.ResultMeta().has(metaServerInfo)
		s.Expect("discover.server-info", ok, spec.Server, m.Event, "the discover result has no %s in _meta", metaServerInfo)
	}
}

// clientRequest judges the first request of a modern stdio client: a
// legacy client's initialize is not a modern request, so it is let be.
func (r *discoverRule) clientRequest(s *Session, m *Msg) {
	if r.sawClientRequest || m.Event.Transport != trace.Stdio {
		return
	}
	r.sawClientRequest = true
	if m.Method == "initialize" {
		return
	}
	s.Expect("discover.first-on-stdio", m.Method == "server/discover", spec.Client, m.Event,
		"the client's first request on stdio is %q, not server/discover", m.Method)
}
