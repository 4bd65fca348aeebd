package trace

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// SetBody stores one message's bytes: as the payload when they are JSON
// (compacted, since a trace line cannot hold a newline), else as raw text.
// The payload it makes must not be changed in place: the Writer trusts it
// to be the JSON SetBody checked.
func (e *Event) SetBody(b []byte) {
	if isStructured(b) {
		// appendCompact checks that b is JSON as it goes: one scan, not two.
		if compact, ok := appendCompact(make([]byte, 0, len(b)), b); ok {
			e.Payload = compact
			e.compacted = rawjson.Scanned(compact)
			e.Raw, e.RawBase64 = nil, ""
			return
		}
	}
	e.SetRaw(b)
}

// payloadChecked reports whether the payload is still the one SetBody
// compacted: the same bytes at the same address.
func (e *Event) payloadChecked() bool { return sameSlice(e.Payload, e.compacted.Bytes()) }

// SetRaw stores bytes that are not a JSON message exactly: as text when they
// are UTF-8, else base64, so that nothing that crossed the wire is lost.
func (e *Event) SetRaw(b []byte) {
	e.Payload, e.compacted = nil, rawjson.Checked{}
	if utf8.Valid(b) {
		s := string(b)
		e.Raw, e.RawBase64 = &s, ""
		return
	}
	e.Raw, e.RawBase64 = nil, base64.StdEncoding.EncodeToString(b)
}

// Bytes returns what the message event carried on the wire: the payload, or
// the raw bytes when it was not JSON.
func (e *Event) Bytes() []byte {
	switch {
	case e.Payload != nil:
		return e.Payload
	case e.Raw != nil:
		return []byte(*e.Raw)
	case e.RawBase64 != "":
		b, _ := base64.StdEncoding.DecodeString(e.RawBase64)
		return b
	}
	return nil
}

// isStructured reports whether b starts like a JSON object or array; a JSON
// scalar on the wire is not a JSON-RPC message and is kept as raw text.
func isStructured(b []byte) bool {
	kind := rawjson.Kind(b)
	return kind == '{' || kind == '['
}
