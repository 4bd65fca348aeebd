package judge

// Shared returns facts rules keep across every session of the trace, keyed
// by rule. Over streamable HTTP a client may hold several sessions, and
// some clauses (a session id echoed on every later request, a new session
// after a 404) bind what happens between them.
func (s *Session) Shared() map[string]any {
	if s.run.shared == nil {
		s.run.shared = map[string]any{}
	}
	return s.run.shared
}
