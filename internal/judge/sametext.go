package judge

import "bytes"

// maxSameText bounds the text a sameText keeps, so that what rules keep
// to know a repeated message stays small however large the messages.
const maxSameText = 4096

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

// keep copies b as the text kept. A text past maxSameText is not kept:
// keep reports false and goes on holding the text before.
func (t *sameText) keep(b []byte) bool {
	if len(b) > maxSameText {
		return false
	}
	t.text, t.held = append(t.text[:0], b...), true
	return true
}

// forget drops the text kept, keeping its room for the next.
func (t *sameText) forget() { t.held = false }
