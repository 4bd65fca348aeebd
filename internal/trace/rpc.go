package trace

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

// rpcIndex is the slot of a JSON-RPC member name, -1 for any other name.
func rpcIndex(key []byte) int {
	switch string(key) {
	case "jsonrpc":
		return rpcJSONRPC
	case "id":
		return rpcID
	case "method":
		return rpcMethod
	case "params":
		return rpcParams
	case "result":
		return rpcResult
	case "error":
		return rpcError
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

// rpcValues holds the members' values while the reader checks a payload.
type rpcValues [rpcMembers][]byte

// note keeps a member's value when its name is a JSON-RPC one; a repeated
// name keeps the last, as decoding into a struct does.
func (v *rpcValues) note(key, value []byte) {
	if i := rpcIndex(key); i >= 0 {
		v[i] = value
	}
}

// offsets turns the values into offsets within payload, which they alias.
func (v *rpcValues) offsets(payload []byte) rpcOffsets {
	o := rpcOffsets{recorded: true}
	for i, value := range v {
		if value != nil {
			start := cap(payload) - cap(value)
			o.at[i] = [2]uint32{uint32(start), uint32(start + len(value))}
		}
	}
	return o
}

// RPCMembers are the members of a JSON-RPC message object, each the raw
// text of its value, nil when absent ("null" when null).
type RPCMembers struct {
	JSONRPC, ID, Method, Params, Result, Error []byte
}

// RPCMembers returns the JSON-RPC members of an object payload as the
// reader found them while it checked the payload; false when it did not
// (the payload is not an object, the event was not read by a Reader, or
// the Payload was set afterwards).
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
