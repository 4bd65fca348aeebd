package trace

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// The JSON-RPC members of a message, in the order RPCMembers lists them.
const (
	rpcJSONRPC = iota
	rpcID
	rpcMethod
	rpcParams
	rpcResult
	rpcError
	rpcMembers
)

// rpcNames are the JSON-RPC member names by slot: the one list of them,
// from which the reader, by bytes or by key, and the judge's scan of a
// batch element all learn which members are JSON-RPC ones.
var rpcNames = [rpcMembers]string{
	rpcJSONRPC: "jsonrpc", rpcID: "id", rpcMethod: "method", rpcParams: "params", rpcResult: "result", rpcError: "error",
}

// rpcKeyByLetter is, by its first letter, the one JSON-RPC name that
// starts with it; nil for any other letter. No two of the names share a
// first letter, so one comparison tells a key.
var rpcKeyByLetter = func() (keys [256]*rpcKey) {
	for slot, name := range rpcNames {
		if keys[name[0]] != nil {
			panic("trace: two JSON-RPC names start with " + name[:1])
		}
		keys[name[0]] = &rpcKey{newKeyText(name), name, slot}
	}
	return keys
}()

// rpcKey is a JSON-RPC name, as a key spells it in text and as it is, and
// the slot of its member.
type rpcKey struct {
	keyText
	name string
	slot int
}

// rpcIndex is the slot of a JSON-RPC member name, -1 for any other name.
func rpcIndex(key []byte) int {
	if len(key) > 0 {
		if k := rpcKeyByLetter[key[0]]; k != nil && string(key) == k.name {
			return k.slot
		}
	}
	return -1
}

// rpcOffsets is where the JSON-RPC members of a payload lie in it: start
// and end of each value, an end of zero for a member that is absent.
// Offsets rather than slices keep the event small.
type rpcOffsets struct {
	at       [rpcMembers][2]uint32
	recorded bool
	// membersOf is the slot, params or result, of the object whose members
	// the reader noted in members (rawjson.MemberBounds' offsets from the
	// object's start); zero, the jsonrpc slot, when it noted none.
	membersOf uint8
	members   []uint32
}

// RPCMembers are the members of a JSON-RPC message object, each the raw
// text of its value, nil when absent ("null" when null).
type RPCMembers struct {
	JSONRPC, ID, Method, Params, Result, Error []byte
}

// member is the field of the member in slot.
func (m *RPCMembers) member(slot int) *[]byte {
	return [rpcMembers]*[]byte{&m.JSONRPC, &m.ID, &m.Method, &m.Params, &m.Result, &m.Error}[slot]
}

// note keeps a member's value when its name is a JSON-RPC one; a repeated
// name keeps the last, as decoding into a struct does.
func (m *RPCMembers) note(key, value []byte) {
	if slot := rpcIndex(key); slot >= 0 {
		*m.member(slot) = value
	}
}

// noteAll notes each member it goes through.
func (m *RPCMembers) noteAll(it *rawjson.Iter) {
	for it.Next() {
		m.note(it.Key(), it.Value())
	}
}

// Scan sets m to the JSON-RPC members of the object it iterates over
// (rawjson.Members of text not yet checked, the Members of Checked text);
// false when that is not one well-formed object.
func (m *RPCMembers) Scan(it rawjson.Iter) bool {
	*m = RPCMembers{}
	m.noteAll(&it)
	return it.Valid()
}

// offsets turns the members into offsets within payload, which they alias.
func (m *RPCMembers) offsets(payload []byte) rpcOffsets {
	o := rpcOffsets{recorded: true}
	for slot := range rpcMembers {
		if value := *m.member(slot); value != nil {
			start := cap(payload) - cap(value)
			o.at[slot] = [2]uint32{uint32(start), uint32(start + len(value))}
		}
	}
	return o
}

// RPCMembers returns the JSON-RPC members of an object payload as the
// reader found them while it checked the payload; false when it did not
// (the payload is not an object, the event was not read by a Reader, or
// the Payload was set afterwards). It is written out member by member:
// a loop through member costs the judge some 2M instructions more in
// 20,000 events, as this runs for each of them.
func (e *Event) RPCMembers() (RPCMembers, bool) {
	if !e.rpc.recorded || !e.payloadAsRead() {
		return RPCMembers{}, false
	}
	member := func(i int) []byte {
		at := e.rpc.at[i]
		if at[1] == 0 {
			return nil
		}
		return e.Payload[at[0]:at[1]:at[1]]
	}
	return RPCMembers{
		JSONRPC: member(rpcJSONRPC), ID: member(rpcID), Method: member(rpcMethod),
		Params: member(rpcParams), Result: member(rpcResult), Error: member(rpcError),
	}, true
}

// MemberBounds returns where the members of obj lie, as
// rawjson.MemberBounds gives them (four offsets from obj's start per
// member, in document order), when obj is the payload's params or result
// and the reader noted them while it checked the payload; false otherwise.
func (e *Event) MemberBounds(obj []byte) ([]uint32, bool) {
	slot := e.rpc.membersOf
	if slot == 0 || !e.payloadAsRead() {
		return nil, false
	}
	at := e.rpc.at[slot]
	noted := e.Payload[at[0]:at[1]]
	if len(obj) != len(noted) || len(obj) == 0 || &obj[0] != &noted[0] {
		return nil, false
	}
	return e.rpc.members, true
}
