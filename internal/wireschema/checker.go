package wireschema

// Checker validates the messages of one trace and remembers, for each
// definition, what each distinct text held to it was found to be. A text's
// validity under a definition does not depend on the message around it,
// and sessions repeat themselves: every tools/list answer, every ping
// result, every log line of one kind alike. What is remembered is bounded,
// so memory stays flat on a long trace. A Checker is not safe for
// concurrent use.
type Checker struct {
	v      *Validator
	seen   seenTexts
	proven provenTexts
}

// NewChecker returns a Checker for one trace.
func (v *Validator) NewChecker() *Checker { return &Checker{v: v} }

// Validate is Validator.Validate, answered from memory for a text seen
// before.
func (c *Checker) Validate(m Message) ([]Problem, error) { return c.v.validate(m, &c.seen, &c.proven) }

// maxSeenBytes bounds the text a Checker remembers; when it is reached the
// Checker starts afresh. A text longer than a quarter of it is not kept.
const maxSeenBytes = 8 << 20

type seenKey struct{ def, pointer, text string }

// seenTexts maps what was held to a definition to the problems found.
type seenTexts struct {
	problems map[seenKey][]Problem
	bytes    int
}

func (s *seenTexts) lookup(t target) ([]Problem, bool) {
	if s == nil || s.problems == nil {
		return nil, false
	}
	p, ok := s.problems[seenKey{t.def, t.pointer, string(t.text)}]
	return p, ok
}

func (s *seenTexts) remember(t target, p []Problem) {
	if s == nil || len(t.text) > maxSeenBytes/4 {
		return
	}
	if s.problems == nil || s.bytes+len(t.text) > maxSeenBytes {
		s.problems, s.bytes = map[seenKey][]Problem{}, 0
	}
	s.problems[seenKey{t.def, t.pointer, string(t.text)}] = p
	s.bytes += len(t.text)
}
