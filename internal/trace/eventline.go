package trace

import (
	"bytes"
	"unsafe"
)

// newEventWithLine allocates an event together with its own copy of the
// line it is read from, whose sub-slices it keeps (the payload): one
// allocation per event instead of two. The room for the line is one of a
// few sizes, each filling the pair up to one of the allocator's size
// classes, so that the pair takes no more memory than the two took apart;
// a longer line has an allocation of its own.
func newEventWithLine(b []byte) (*Event, []byte) {
	switch n := len(b); {
	case n <= room512:
		return withRoom(b, func(r *[room512]byte) []byte { return r[:] })
	case n <= room576:
		return withRoom(b, func(r *[room576]byte) []byte { return r[:] })
	case n <= room640:
		return withRoom(b, func(r *[room640]byte) []byte { return r[:] })
	case n <= room704:
		return withRoom(b, func(r *[room704]byte) []byte { return r[:] })
	case n <= room768:
		return withRoom(b, func(r *[room768]byte) []byte { return r[:] })
	case n <= room896:
		return withRoom(b, func(r *[room896]byte) []byte { return r[:] })
	}
	return &Event{Seq: -1}, bytes.Clone(b)[:len(b):len(b)]
}

// The rooms, each what is left of a size class once the event is in it.
// They follow the event's size, so that a field added to Event leaves
// each pair in its class (and one that outgrows the smallest class stops
// the build with a negative array length).
const (
	eventSize = int(unsafe.Sizeof(Event{}))
	room512   = 512 - eventSize
	room576   = 576 - eventSize
	room640   = 640 - eventSize
	room704   = 704 - eventSize
	room768   = 768 - eventSize
	room896   = 896 - eventSize
)

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
