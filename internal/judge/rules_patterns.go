package judge

import "github.com/mcpverdict/mcpverdict/internal/spec"

// Message patterns (2026-07-28): every interaction begins with the client;
// a server answers and notifies, and never sends a request of its own.
func init() {
	register(RuleSpec{
		Sees: []sight{sees(wellFormedMsgs, spec.Server)},
		Checks: []Check{
			{ID: "patterns.no-server-requests", Summary: "the server sends no JSON-RPC request"},
		},
		New:      func() Rule { return patternsRule{} },
		Messages: statelessOnly,
	})
}

type patternsRule struct{ BaseRule }

func (patternsRule) Message(s *Session, m *Msg) {
	if !s.Stateless() || m.From != spec.Server || m.Kind == KindInvalid {
		return
	}
	s.Expect("patterns.no-server-requests", m.Kind != KindRequest, spec.Server, m.Event,
		"the server sent request %q (id %s); servers do not initiate JSON-RPC requests", m.Method, m.ID)
}
