package engine

// TraceFact is a fact rules keep across every session of a trace. Over
// streamable HTTP a client may hold several sessions, and some clauses (a
// session id echoed on every later request, a new session after a 404, a
// tool's headers listed in one session and sent in another) bind what
// happens between them. The area that owns a fact declares it once, at
// package level, with its type and constructor, so the compiler checks every
// use and no rule reaches another's state by a string key.
type TraceFact[T any] struct {
	index int
	make  func() T
}

// traceFacts counts the facts declared, each an index into a run's facts.
var traceFacts int

// NewTraceFact declares a fact, made by make the first time a rule asks for
// it in a trace. Declare facts at package level only.
func NewTraceFact[T any](make func() T) *TraceFact[T] {
	f := &TraceFact[T]{index: traceFacts, make: make}
	traceFacts++
	return f
}

// Of returns the trace's fact, making it on first use.
func (f *TraceFact[T]) Of(s *Session) T {
	facts := &s.Run.Facts
	for len(*facts) <= f.index {
		*facts = append(*facts, nil)
	}
	v, ok := (*facts)[f.index].(T)
	if !ok {
		v = f.make()
		(*facts)[f.index] = v
	}
	return v
}
