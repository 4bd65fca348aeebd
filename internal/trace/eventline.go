package trace

import (
	"bytes"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// eventSlab hands out events, and copies of the lines they are read from,
// out of blocks allocated many at a time: a trace read by the million then
// costs the allocator and the collector one block per many events instead
// of an object or two per event. A block lives while any event or line in
// it is referenced, which the judge does only for what it keeps past a
// message's turn (requests in flight, a session's lists).
type eventSlab struct {
	events []Event
	lines  []byte
	bounds []uint32
}

const (
	slabEvents = 32
	slabLines  = 32 << 10
	// A line longer than this has an allocation of its own, so that one
	// long line does not leave most of a block unused.
	slabLongLine = slabLines / 8
	// slabBounds is the room for member bounds in a block; an object whose
	// bounds outgrow what is left of it moves them to a larger one.
	slabBounds = 4 << 10
	// slabBoundsFree is the room below which a new block is taken before an
	// object is read: enough for the members of most params and results.
	slabBoundsFree = 4 * 8
)

// newEventWithLine returns an event as new and a copy of b that the event
// may keep sub-slices of (its payload). The copy's capacity is its length,
// so that an append to it cannot reach into the line after it.
func (s *eventSlab) newEventWithLine(b []byte) (*Event, []byte) {
	if len(s.events) == 0 {
		s.events = make([]Event, slabEvents)
	}
	ev := &s.events[0]
	s.events = s.events[1:]
	ev.Seq = -1
	return ev, s.copyLine(b)
}

func (s *eventSlab) copyLine(b []byte) []byte {
	if len(b) > slabLongLine {
		return bytes.Clone(b)[:len(b):len(b)]
	}
	if cap(s.lines)-len(s.lines) < len(b) {
		s.lines = make([]byte, 0, slabLines)
	}
	start := len(s.lines)
	s.lines = append(s.lines, b...)
	return s.lines[start:len(s.lines):len(s.lines)]
}

// memberBounds checks the object that opens at b[i] as rawjson.ValueEnd
// does and returns the bounds of its members, as rawjson.MemberBounds
// notes them from the object's start, in room of their own; nil when it
// has a key that is not its name (or is not well-formed).
func (s *eventSlab) memberBounds(b []byte, i, depth int) ([]uint32, int, bool) {
	if cap(s.bounds)-len(s.bounds) < slabBoundsFree {
		s.bounds = make([]uint32, 0, slabBounds)
	}
	from := len(s.bounds)
	out, end, plain, ok := rawjson.MemberBounds(s.bounds, b, i, depth, i)
	if !ok || !plain {
		return nil, end, ok
	}
	s.bounds = out
	return out[from:len(out):len(out)], end, true
}
