package judge

// clientFeature is what the roots, sampling and elicitation rules share:
// the asks of their method, in either revision's form, and the declaration
// of their capability by the clients that answer them.
type clientFeature struct {
	BaseRule
	asks     askTracker
	declared capDeclaration
}

func newClientFeature(capability, method string) clientFeature {
	return clientFeature{
		asks:     askTracker{method: method},
		declared: capDeclaration{check: capability + ".capability-declared", capability: capability, method: method},
	}
}

// observe returns the asks m carries and the replies it gives, after
// judging the capability declarations the replies show.
func (f *clientFeature) observe(s *Session, m *Msg) ([]*Ask, []*Reply) {
	asks, replies := f.asks.observe(s, m)
	for _, rep := range replies {
		f.declared.reply(s, rep)
	}
	return asks, replies
}
