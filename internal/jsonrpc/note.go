package jsonrpc

import "slices"

// Note is where the members of a payload lie in it, as a reader that
// checked the payload noted them: start and end of each value, an end of
// zero for a member that is absent. Offsets rather than slices keep the
// trace event that holds one small. The zero Note records nothing.
type Note struct {
	at       [slots][2]uint32
	recorded bool
	// membersOf is the slot, params or result, of the object whose members
	// the reader noted in members (rawjson.MemberBounds' offsets from the
	// object's start); zero, the version's slot, when it noted none.
	membersOf uint8
	members   []uint32
}

// Recorded is a Note of a payload whose members are all noted: none of
// them, until Set notes one.
func Recorded() Note { return Note{recorded: true} }

// Set notes that the value of the member in slot lies at payload[start:end].
func (n *Note) Set(slot, start, end int) { n.at[slot] = [2]uint32{uint32(start), uint32(end)} }

// Record marks the note as holding every member of its payload.
func (n *Note) Record() { n.recorded = true }

// NotesMembers reports whether the note holds the members of a params or
// result object.
func (n *Note) NotesMembers() bool { return n.membersOf != 0 }

// SetMembers notes the members of the object in slot, params or result, as
// rawjson.MemberBounds gives them from the object's start.
func (n *Note) SetMembers(slot int, bounds []uint32) { n.membersOf, n.members = uint8(slot), bounds }

// Forget drops the members noted of the object in slot, once the member
// repeats: the last one counts, and its members are another's.
func (n *Note) Forget(slot int) {
	if uint8(slot) == n.membersOf {
		n.membersOf, n.members = 0, nil
	}
}

// Members returns the members the note records, as slices of payload; false
// when it records none. It is written out member by member: a loop through
// member costs the judge, which asks for every event, measurably more.
func (n *Note) Members(payload []byte) (Members, bool) {
	if !n.recorded {
		return Members{}, false
	}
	member := func(i int) []byte {
		at := n.at[i]
		if at[1] == 0 {
			return nil
		}
		return payload[at[0]:at[1]:at[1]]
	}
	return Members{
		JSONRPC: member(Version), ID: member(ID), Method: member(Method),
		Params: member(Params), Result: member(Result), Error: member(Error),
	}, true
}

// MemberBounds returns where the members of obj lie, as rawjson.MemberBounds
// gives them (four offsets from obj's start per member, in document order),
// when obj is payload's params or result and the note holds its members;
// false otherwise.
func (n *Note) MemberBounds(payload, obj []byte) ([]uint32, bool) {
	slot := n.membersOf
	if slot == 0 {
		return nil, false
	}
	at := n.at[slot]
	noted := payload[at[0]:at[1]]
	if len(obj) != len(noted) || len(obj) == 0 || &obj[0] != &noted[0] {
		return nil, false
	}
	return n.members, true
}

// Detached returns a copy of n that shares no storage with the reader's
// blocks: its offsets stay valid for a copy of the same payload.
func (n Note) Detached() Note {
	n.members = slices.Clone(n.members)
	return n
}
