package discover

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// server/discover (2026-07-28): servers implement it, identify themselves in
// it, and a stdio client probes with it before anything else.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, spec.Client), engine.Sees(engine.ResponseMsgs, spec.Server, "server/discover")},
		Checks: []engine.Check{
			{ID: "discover.implemented", Summary: "the server answers server/discover, never with -32601 (method not found)"},
			{ID: "discover.server-info", Summary: "the discover result carries io.modelcontextprotocol/serverInfo in _meta"},
			{ID: "discover.first-on-stdio", Summary: "on stdio, a modern client's first request is server/discover"},
		},
		New:      func() engine.Rule { return &discoverRule{} },
		Messages: engine.StatelessOnly,
	})
}

type discoverRule struct {
	engine.BaseRule
	sawClientRequest bool
}

func (r *discoverRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	if m.Kind == message.KindRequest && m.From == spec.Client {
		r.clientRequest(s, m)
	}
	if !engine.AnswersClientRequest(m) || m.Request.Method != "server/discover" {
		return
	}
	code, _ := m.Error.IntCode()
	if m.Kind == message.KindResult || code == engine.CodeMethodNotFound {
		s.Expect("discover.implemented", m.Kind == message.KindResult, spec.Server, m.Event,
			"the server answered server/discover (line %d) with -32601 (method not found)", m.Request.Line)
	}
	if m.Kind == message.KindResult {
		ok := m.ResultMeta().Has(engine.MetaServerInfo)
		s.Expect("discover.server-info", ok, spec.Server, m.Event, "the discover result has no %s in _meta", engine.MetaServerInfo)
	}
}

// clientRequest judges the first request of a modern stdio client: a
// legacy client's initialize is not a modern request, so it is let be.
func (r *discoverRule) clientRequest(s *engine.Session, m *message.Msg) {
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
