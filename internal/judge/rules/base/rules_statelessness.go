package base

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Statelessness (2026-07-28): a server takes a request's context from the
// request, never from earlier requests on the same connection.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.ResponseMsgs, spec.Server)},
		Checks: []engine.Check{
			{ID: "statelessness.no-prior-context", Summary: "the server relies on no client capability that only other requests of the connection declared"},
		},
		New:      func() engine.Rule { return statelessnessRule{} },
		Messages: engine.StatelessOnly,
	})
}

type statelessnessRule struct{ engine.BaseRule }

func (statelessnessRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || !engine.AnswersClientRequest(m) {
		return
	}
	own := engine.RequestCaps(m.Request)
	for _, in := range engine.InputRequests(m) {
		need := in.NeededCapability()
		switch {
		case need == "":
		case own.Declares(need):
			s.Pass("statelessness.no-prior-context", spec.Server)
		case s.ClientCaps.Declares(need):
			// s.ClientCaps is the union of what every request so far declared.
			s.Fail("statelessness.no-prior-context", spec.Server, m.Event,
				"input request %q (%s) answering %q (line %d) relies on client capability %s, which only other requests of this connection declared",
				in.Key, in.Method, m.Request.Method, m.Request.Line, need)
		}
	}
}
