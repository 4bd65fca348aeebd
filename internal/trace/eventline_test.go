package trace

import (
	"bytes"
	"testing"
)

// Whatever its length, a line comes back as a copy of its own, no longer
// than itself (an append to it cannot reach into the event), beside an
// event as new.
func TestEventWithLineCopiesEveryLength(t *testing.T) {
	text := bytes.Repeat([]byte("0123456789abcdef"), 64)
	for n := range len(text) {
		b := text[:n]
		ev, line := newEventWithLine(b)
		if !bytes.Equal(line, b) || cap(line) != n {
			t.Fatalf("length %d: line %q (cap %d)", n, line, cap(line))
		}
		if n > 0 && &line[0] == &b[0] {
			t.Fatalf("length %d: the line is not a copy", n)
		}
		if ev.Seq != -1 || ev.Payload != nil || ev.Kind != "" {
			t.Fatalf("length %d: event not new: %+v", n, ev)
		}
	}
}
