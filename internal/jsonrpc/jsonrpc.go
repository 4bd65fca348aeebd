// Package jsonrpc knows the members of a JSON-RPC message object: their
// names, and where they lie in a message's text. The trace reader notes
// where they lie as it checks a payload, so that the judge, which reads
// them on every message, takes them from the note instead of scanning the
// payload again; both read the names, and the note, from here.
package jsonrpc

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// The members of a message, by their slot, in the order Members lists them.
const (
	Version = iota // the "jsonrpc" member
	ID
	Method
	Params
	Result
	Error
	slots
)

// Names are the member names by slot: the one list of them, from which the
// trace reader, by bytes or by key, and the judge's scan of a batch
// element all learn which members are JSON-RPC ones.
var Names = [slots]string{
	Version: "jsonrpc", ID: "id", Method: "method", Params: "params", Result: "result", Error: "error",
}

// byLetter is, by its first letter, the one name that starts with it; -1
// for any other letter. No two of the names share a first letter, so one
// comparison tells a key.
var byLetter = func() (slotOf [256]int8) {
	for c := range slotOf {
		slotOf[c] = -1
	}
	for slot, name := range Names {
		if slotOf[name[0]] >= 0 {
			panic("jsonrpc: two member names start with " + name[:1])
		}
		slotOf[name[0]] = int8(slot)
	}
	return slotOf
}()

// Slot is the slot of a member name, -1 for any other name.
func Slot(key []byte) int {
	if len(key) > 0 {
		if slot := byLetter[key[0]]; slot >= 0 && string(key) == Names[slot] {
			return int(slot)
		}
	}
	return -1
}

// Members are the members of a message object, each the raw text of its
// value, nil when absent ("null" when null).
type Members struct {
	JSONRPC, ID, Method, Params, Result, Error []byte
}

// member is the field of the member in slot.
func (m *Members) member(slot int) *[]byte {
	return [slots]*[]byte{&m.JSONRPC, &m.ID, &m.Method, &m.Params, &m.Result, &m.Error}[slot]
}

// note keeps a member's value when its name is a JSON-RPC one; a repeated
// name keeps the last, as decoding into a struct does.
func (m *Members) note(key, value []byte) {
	if slot := Slot(key); slot >= 0 {
		*m.member(slot) = value
	}
}

// NoteAll notes each member it iterates over.
func (m *Members) NoteAll(it *rawjson.Iter) {
	for it.Next() {
		m.note(it.Key(), it.Value())
	}
}

// Scan sets m to the members of the object it iterates over (rawjson.Members
// of text not yet checked, the Members of Checked text); false when that is
// not one well-formed object.
func (m *Members) Scan(it rawjson.Iter) bool {
	*m = Members{}
	m.NoteAll(&it)
	return it.Valid()
}

// Offsets turns the members into a Note of where they lie in payload, which
// they alias.
func (m *Members) Offsets(payload []byte) Note {
	n := Note{recorded: true}
	for slot := range slots {
		if value := *m.member(slot); value != nil {
			start := cap(payload) - cap(value)
			n.at[slot] = [2]uint32{uint32(start), uint32(start + len(value))}
		}
	}
	return n
}
