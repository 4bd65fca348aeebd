package trace

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// eventSlab hands out events, and room for the bounds of their members,
// out of blocks allocated many at a time: a trace read by the million then
// costs the allocator and the collector one block per many events instead
// of an object or two per event. A block lives while any event or bound in
// it is referenced, which the judge does only for what it keeps past a
// message's turn (requests in flight, a session's lists).
type eventSlab struct {
	events []Event
	bounds []uint32
}

const (
	slabEvents = 32
	// slabBounds is the room for member bounds in a block; an object whose
	// bounds outgrow what is left of it moves them to a larger one.
	slabBounds = 4 << 10
	// slabBoundsFree is the room below which a new block is taken before an
	// object is read: enough for the members of most params and results.
	slabBoundsFree = 4 * 8
)

// newEvent returns an event as new.
func (s *eventSlab) newEvent() *Event {
	if len(s.events) == 0 {
		s.events = make([]Event, slabEvents)
	}
	ev := &s.events[0]
	s.events = s.events[1:]
	ev.Seq = -1
	return ev
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
