package base

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Message patterns (2026-07-28): every interaction begins with the client;
// a server answers and notifies, and never sends a request of its own.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.WellFormedMsgs, spec.Server)},
		Checks: []engine.Check{
			{ID: "patterns.no-server-requests", Summary: "the server sends no JSON-RPC request"},
		},
		New:      func() engine.Rule { return patternsRule{} },
		Messages: engine.StatelessOnly,
	})
}

type patternsRule struct{ engine.BaseRule }

func (patternsRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || m.From != spec.Server || m.Kind == message.KindInvalid {
		return
	}
	s.Expect("patterns.no-server-requests", m.Kind != message.KindRequest, spec.Server, m.Event,
		"the server sent request %q (id %s); servers do not initiate JSON-RPC requests", m.Method, m.ID)
}
