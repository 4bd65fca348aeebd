package trace

import (
	"bytes"
	"unsafe"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// Detached returns a copy of e that holds none of the reader's storage:
// the reader hands out events and lines from shared blocks, so an event
// kept past its turn would hold a whole block alive. The copy's payload
// is its own, its bytes and its checked forms as they were.
func (e *Event) Detached() *Event {
	d := *e
	d.rpc = e.rpc.Detached()
	if e.Payload == nil {
		return &d
	}
	d.Payload = bytes.Clone(e.Payload)
	if e.payloadAsRead() {
		d.asRead = rawjson.Scanned(d.Payload)
	}
	if e.payloadChecked() {
		d.compacted = rawjson.Scanned(d.Payload)
	}
	return &d
}

// Rebased returns the part of d's payload that s is of e's, d a Detached
// copy of e; s itself when it is no part of e's payload.
func Rebased(e, d *Event, s []byte) []byte {
	if len(s) == 0 || len(e.Payload) == 0 || len(d.Payload) != len(e.Payload) {
		return s
	}
	// Comparing addresses is the only way to tell a slice's place in
	// another; neither is dereferenced.
	from := uintptr(unsafe.Pointer(unsafe.SliceData(e.Payload)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	if at < from || at-from+uintptr(len(s)) > uintptr(len(e.Payload)) {
		return s
	}
	off := int(at - from)
	return d.Payload[off : off+len(s) : off+len(s)]
}
