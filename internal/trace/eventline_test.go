package trace

import (
	"bytes"
	"testing"
)

// Whatever its length, a line comes back as a copy of its own, no longer
// than itself, beside an event as new; lines handed out one after another
// never share a byte, so an append to one cannot change the next.
func TestEventWithLineCopiesEveryLength(t *testing.T) {
	text := bytes.Repeat([]byte("0123456789abcdef"), slabLongLine/8)
	var s eventSlab
	var lines [][]byte
	for n := range len(text) {
		b := text[:n]
		ev, line := s.newEventWithLine(b)
		if !bytes.Equal(line, b) || cap(line) != n {
			t.Fatalf("length %d: line %q (cap %d)", n, line, cap(line))
		}
		if n > 0 && &line[0] == &b[0] {
			t.Fatalf("length %d: the line is not a copy", n)
		}
		if ev.Seq != -1 || ev.Payload != nil || ev.Kind != "" {
			t.Fatalf("length %d: event not new: %+v", n, ev)
		}
		ev.Seq = int64(n)
		lines = append(lines, line)
	}
	for n, line := range lines {
		if n > 0 {
			_ = append(lines[n-1], '!') // must reallocate, not overwrite this line
		}
		if !bytes.Equal(line, text[:n]) {
			t.Fatalf("length %d: line changed to %q", n, line)
		}
	}
}

// The events of one block are distinct, each handed out once.
func TestEventSlabHandsOutEachEventOnce(t *testing.T) {
	var s eventSlab
	seen := map[*Event]bool{}
	for i := range 3*slabEvents + 1 {
		ev, _ := s.newEventWithLine([]byte("{}"))
		if seen[ev] {
			t.Fatalf("event %d handed out twice", i)
		}
		seen[ev] = true
		ev.Seq = int64(i)
	}
}
