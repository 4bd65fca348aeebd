package trace

import "bytes"

// newEventWithLine allocates an event together with its own copy of the
// line it is read from, whose sub-slices it keeps (the payload): one
// allocation per event instead of two. The room for the line is one of a
// few sizes, each filling the pair up to one of the allocator's size
// classes (the event takes 376 bytes), so that the pair takes no more
// memory than the two took apart; a longer line has an allocation of its
// own.
func newEventWithLine(b []byte) (*Event, []byte) {
	switch n := len(b); {
	case n <= 136:
		return withRoom(b, func(r *[136]byte) []byte { return r[:] }) // 512 bytes
	case n <= 200:
		return withRoom(b, func(r *[200]byte) []byte { return r[:] }) // 576
	case n <= 264:
		return withRoom(b, func(r *[264]byte) []byte { return r[:] }) // 640
	case n <= 328:
		return withRoom(b, func(r *[328]byte) []byte { return r[:] }) // 704
	case n <= 392:
		return withRoom(b, func(r *[392]byte) []byte { return r[:] }) // 768
	case n <= 520:
		return withRoom(b, func(r *[520]byte) []byte { return r[:] }) // 896
	}
	return &Event{Seq: -1}, bytes.Clone(b)[:len(b):len(b)]
}

// eventRoom is an event and the room for its line, allocated together.
type eventRoom[Room any] struct {
	ev   Event
	line Room
}

// withRoom allocates an eventRoom and copies b into its room, which
// asSlice gives as a slice.
func withRoom[Room any](b []byte, asSlice func(*Room) []byte) (*Event, []byte) {
	x := new(eventRoom[Room])
	line := asSlice(&x.line)[:len(b):len(b)]
	copy(line, b)
	x.ev.Seq = -1
	return &x.ev, line
}
