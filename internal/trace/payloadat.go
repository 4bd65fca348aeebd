package trace

import (
	"bytes"
	"encoding/binary"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// readPayloadAt checks the object payload that opens at b[start] and
// notes where its JSON-RPC members lie, as readPayload does. Its members
// are read here, the values by the checking scan; a payload with
// whitespace between them, or a key with an escape that might spell a
// JSON-RPC name, is left to decodeFast.
func (e *Event) readPayloadAt(b []byte, start int) (int, bool) {
	var at [rpcMembers][2]uint32
	i := start + 1
	switch {
	case len(b)-start >= len(jsonrpcOpening) && string(b[start:start+len(jsonrpcOpening)]) == jsonrpcOpening:
		at[rpcJSONRPC] = [2]uint32{uint32(len(jsonrpcOpening) - len(`"2.0"`)), uint32(len(jsonrpcOpening))}
		i = start + len(jsonrpcOpening)
	case i < len(b) && b[i] == '}':
		e.Payload, e.rpc = b[start:i+1], rpcOffsets{recorded: true}
		return i + 1, true
	default:
		var ok bool
		if i, ok = readPayloadMember(b, i, start, &at); !ok {
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
		if i, ok = readPayloadMember(b, i+1, start, &at); !ok {
			return i, false
		}
	}
	e.Payload = b[start : i+1]
	e.rpc = rpcOffsets{at: at, recorded: true}
	return i + 1, true
}

// jsonrpcOpening is how a message opens as recorders write it: with its
// version, which is then read as one run of bytes.
const jsonrpcOpening = `{"jsonrpc":"2.0"`

// readPayloadMember checks the payload member that opens at b[i] and
// returns where it ends; a JSON-RPC member's value is noted in at, as
// offsets from the payload's start.
func readPayloadMember(b []byte, i, start int, at *[rpcMembers][2]uint32) (int, bool) {
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
		if slot = rpcIndex(key); slot < 0 && bytes.IndexByte(key, '\\') >= 0 {
			return i, false
		}
		value = keyEnd + 1
	}
	end, ok := rawjson.ValueEnd(b, value, 2)
	if !ok {
		return i, false
	}
	if slot >= 0 {
		at[slot] = [2]uint32{uint32(value - start), uint32(end - start)}
	}
	return end, true
}

// The JSON-RPC keys as a payload spells them, from the opening quote: the
// first eight bytes, as a little-endian word, of those that are longer.
var (
	jsonrpcKey = keyWord(`"jsonrpc":`)
	methodKey  = keyWord(`"method":`)
	paramsKey  = keyWord(`"params":`)
	resultKey  = keyWord(`"result":`)
	errorKey   = keyWord(`"error":`)
	idKey      = keyWord(`"id":`)
)

// idKeyMask keeps the five bytes of `"id":`.
const idKeyMask = 1<<40 - 1

func keyWord(key string) uint64 {
	var w [8]byte
	copy(w[:], key)
	return binary.LittleEndian.Uint64(w[:])
}

// rpcKeyAt recognises a JSON-RPC key that opens at b[i], and the colon
// after it, by its bytes: its slot, and where its value starts; -1 for
// any other key, and for a key less than ten bytes from the end of b,
// which readPayloadMember then reads as a string.
func rpcKeyAt(b []byte, i int) (slot, value int) {
	if len(b)-i < 10 {
		return -1, 0
	}
	w := (*[10]byte)(b[i : i+10])
	word := binary.LittleEndian.Uint64(w[:8])
	switch {
	case word&idKeyMask == idKey:
		return rpcID, i + 5
	case word == errorKey:
		return rpcError, i + 8
	case w[8] != ':':
		if word == jsonrpcKey && w[8] == '"' && w[9] == ':' {
			return rpcJSONRPC, i + 10
		}
	case word == methodKey:
		return rpcMethod, i + 9
	case word == paramsKey:
		return rpcParams, i + 9
	case word == resultKey:
		return rpcResult, i + 9
	}
	return -1, 0
}
