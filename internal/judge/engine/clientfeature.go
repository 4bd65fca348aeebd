package engine

import "github.com/mcpverdict/mcpverdict/internal/judge/message"

// ClientFeature is what the roots, sampling and elicitation rules share:
// the asks of their method, in either revision's form, and the declaration
// of their capability by the clients that answer them.
type ClientFeature struct {
	BaseRule
	asks     AskTracker
	declared capDeclaration
}

func NewClientFeature(capability, method string) ClientFeature {
	return ClientFeature{
		asks:     AskTracker{Method: method},
		declared: capDeclaration{check: capability + ".capability-declared", capability: capability, method: method},
	}
}

// Observe returns the asks m carries and the replies it gives, after
// judging the capability declarations the replies show.
func (f *ClientFeature) Observe(s *Session, m *message.Msg) ([]*Ask, []*Reply) {
	asks, replies := f.asks.Observe(s, m)
	for _, rep := range replies {
		f.declared.reply(s, rep)
	}
	return asks, replies
}
