package trace

import (
	"bytes"
	"testing"
	"unsafe"
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

// Each pair fills its size class exactly: no padding after the room
// pushes it into the next one.
func TestEventRoomsFillTheirClasses(t *testing.T) {
	for _, c := range []struct{ size, class uintptr }{
		{unsafe.Sizeof(eventRoom[[room512]byte]{}), 512},
		{unsafe.Sizeof(eventRoom[[room576]byte]{}), 576},
		{unsafe.Sizeof(eventRoom[[room640]byte]{}), 640},
		{unsafe.Sizeof(eventRoom[[room704]byte]{}), 704},
		{unsafe.Sizeof(eventRoom[[room768]byte]{}), 768},
		{unsafe.Sizeof(eventRoom[[room896]byte]{}), 896},
	} {
		if c.size != c.class {
			t.Errorf("an event and its room take %d bytes, not %d", c.size, c.class)
		}
	}
}
