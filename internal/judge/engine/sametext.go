package engine

import "bytes"

// What rules keep to know a repeated message stays small however large the
// messages: maxSameText for a message, maxSameListing for a list result,
// which real servers send at 10 to 15 KB and clients ask for again and again.
const (
	MaxSameText    = 4 << 10
	MaxSameListing = 64 << 10
)

// SameText knows a text seen before, to the byte, without reading it
// again: a server sends the same listing, read result or log message
// again and again. It keeps a copy, since a message's bytes are its own
// and are not to be held past its turn.
type SameText struct {
	text []byte
	held bool
}

// Is reports whether b is the text kept.
func (t *SameText) Is(b []byte) bool { return t.held && bytes.Equal(t.text, b) }

// Keep copies b as the text kept. A text longer than limit is not kept:
// keep reports false and goes on holding the text before.
func (t *SameText) Keep(b []byte, limit int) bool {
	if len(b) > limit {
		return false
	}
	t.text, t.held = append(t.text[:0], b...), true
	return true
}

// Forget drops the text kept, keeping its room for the next.
func (t *SameText) Forget() { t.held = false }
