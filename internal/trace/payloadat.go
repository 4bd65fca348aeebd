package trace

import (
	"bytes"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// readPayloadAt checks the object payload that opens at b[start] and
// notes where its JSON-RPC members lie, as readPayload does, and, into
// notes when it is not nil, where the members of its params or result
// lie. Its members are read here, the values by the checking scan; a
// payload with whitespace between them, or a key with an escape that
// might spell a JSON-RPC name, is left to decodeFast.
func (e *Event) readPayloadAt(b []byte, start int, notes *eventSlab) (int, bool) {
	s := payloadScan{start: start, notes: notes}
	i := start + 1
	switch {
	case len(b)-start >= len(jsonrpcOpening) && string(b[start:start+len(jsonrpcOpening)]) == jsonrpcOpening:
		s.rpc.Set(jsonrpc.Version, len(jsonrpcOpening)-len(`"2.0"`), len(jsonrpcOpening))
		i = start + len(jsonrpcOpening)
	case i < len(b) && b[i] == '}':
		e.Payload, e.rpc = b[start:i+1], jsonrpc.Recorded()
		return i + 1, true
	default:
		var ok bool
		if i, ok = s.member(b, i); !ok {
			return i, false
		}
	}
	for { // b[i] follows a member
		if i < len(b) && b[i] == '}' {
			break
		}
		if i >= len(b) || b[i] != ',' {
			return i, false
		}
		var ok bool
		if i, ok = s.member(b, i+1); !ok {
			return i, false
		}
	}
	e.Payload = b[start : i+1]
	s.rpc.Record()
	e.rpc = s.rpc
	return i + 1, true
}

// payloadScan is what readPayloadAt notes as it goes.
type payloadScan struct {
	rpc   jsonrpc.Note
	start int // where the payload opens in the line
	notes *eventSlab
}

// jsonrpcOpening is how a message opens as recorders write it: with its
// version, which is then read as one run of bytes.
const jsonrpcOpening = `{"jsonrpc":"2.0"`

// member checks the payload member that opens at b[i] and returns where
// it ends; a JSON-RPC member's value is noted, as offsets from the
// payload's start, and so are the members of params or result, whichever
// object comes first (of a repeated one, the last, as its value is).
func (s *payloadScan) member(b []byte, i int) (int, bool) {
	slot, value := rpcKeyAt(b, i)
	if slot < 0 {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		keyEnd, ok := rawjson.StringEnd(b, i)
		if !ok || keyEnd >= len(b) || b[keyEnd] != ':' {
			return i, false
		}
		key := b[i+1 : keyEnd-1]
		if slot = jsonrpc.Slot(key); slot < 0 && bytes.IndexByte(key, '\\') >= 0 {
			return i, false
		}
		value = keyEnd + 1
	}
	if slot >= 0 {
		s.rpc.Forget(slot) // repeated: the last one counts
	}
	end, ok := s.value(b, value, slot)
	if !ok {
		return i, false
	}
	if slot >= 0 {
		s.rpc.Set(slot, value-s.start, end-s.start)
	}
	return end, true
}

// value checks the value that opens at b[i], of the member in slot (-1
// for a member that is not a JSON-RPC one), and returns where it ends.
func (s *payloadScan) value(b []byte, i, slot int) (int, bool) {
	const depth = 2 // in the payload, in the line
	if s.notes == nil || slot != jsonrpc.Params && slot != jsonrpc.Result || s.rpc.NotesMembers() || i >= len(b) || b[i] != '{' {
		return rawjson.ValueEnd(b, i, depth)
	}
	members, end, ok := s.notes.memberBounds(b, i, depth)
	if members != nil {
		s.rpc.SetMembers(slot, members)
	}
	return end, ok
}

// rpcKeyAt recognises a JSON-RPC key that opens at b[i], and the colon
// after it, by its bytes: its slot, and where its value starts; -1 for
// any other key, and for a key less than 16 bytes from the end of b,
// which payloadScan.member then reads as a string.
func rpcKeyAt(b []byte, i int) (slot, value int) {
	if len(b)-i >= 16 {
		w := (*[16]byte)(b[i:])
		if k := rpcKeyByLetter[w[1]]; k != nil && k.opens(w) {
			return k.slot, i + k.len
		}
	}
	return -1, 0
}
