package judge

import "bytes"

// What rules keep to know a repeated message stays small however large the
// messages: maxSameText for a message, maxSameListing for a list result,
// which real servers send at 10 to 15 KB and clients ask for again and again.
const (
	maxSameText    = 4 << 10
	maxSameListing = 64 << 10
)

// sameText knows a text seen before, to the byte, without reading it
// again: a server sends the same listing, read result or log message
// again and again. It keeps a copy, since a message's bytes are its own
// and are not to be held past its turn.
type sameText struct {
	text []byte
	held bool
}

// is reports whether b is the text kept.
func (t *sameText) is(b []byte) bool { return t.held && bytes.Equal(t.text, b) }

// keep copies b as the text kept. A text longer than limit is not kept:
// keep reports false and goes on holding the text before.
func (t *sameText) keep(b []byte, limit int) bool {
	if len(b) > limit {
		return false
	}
	t.text, t.held = append(t.text[:0], b...), true
	return true
}

// forget drops the text kept, keeping its room for the next.
func (t *sameText) forget() { t.held = false }
