package trace

import "github.com/mcpverdict/mcpverdict/internal/jsonrpc"

// rpcKeyByLetter is, by its first letter, the one JSON-RPC name that
// starts with it, as a key spells it in text; nil for any other letter.
// No two of the names share a first letter, so one comparison tells a key.
var rpcKeyByLetter = func() (keys [256]*rpcKey) {
	for slot, name := range jsonrpc.Names {
		keys[name[0]] = &rpcKey{newKeyText(name), slot}
	}
	return keys
}()

// rpcKey is a JSON-RPC name as a key spells it in text, and the slot of
// its member.
type rpcKey struct {
	keyText
	slot int
}

// JSONRPC returns the note of where the reader found the payload's
// JSON-RPC members while it checked the payload; false when it did not
// (the event was not read by a Reader, or the Payload was set afterwards).
// The note records no members when the payload is not an object.
func (e *Event) JSONRPC() (*jsonrpc.Note, bool) {
	if !e.payloadAsRead() {
		return nil, false
	}
	return &e.rpc, true
}
