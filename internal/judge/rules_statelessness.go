package judge

import "github.com/mcpverdict/mcpverdict/internal/spec"

// Statelessness (2026-07-28): a server takes a request's context from the
// request, never from earlier requests on the same connection.
func init() {
	register(RuleSpec{
		Sees: []sight{sees(responseMsgs, spec.Server)},
		Checks: []Check{
			{ID: "statelessness.no-prior-context", Summary: "the server relies on no client capability that only other requests of the connection declared"},
		},
		New:      func() Rule { return statelessnessRule{} },
		Messages: statelessOnly,
	})
}

type statelessnessRule struct{ BaseRule }

func (statelessnessRule) Message(s *Session, m *Msg) {
	if !s.Stateless() || !answersClientRequest(m) {
		return
	}
	own := requestCaps(m.Request)
	for _, in := range inputRequests(m) {
		need := in.neededCapability()
		switch {
		case need == "":
		case own.declares(need):
			s.Pass("statelessness.no-prior-context", spec.Server)
		case s.ClientCaps.declares(need):
			// s.ClientCaps is the union of what every request so far declared.
			s.Fail("statelessness.no-prior-context", spec.Server, m.Event,
				"input request %q (%s) answering %q (line %d) relies on client capability %s, which only other requests of this connection declared",
				in.Key, in.Method, m.Request.Method, m.Request.Line, need)
		}
	}
}
