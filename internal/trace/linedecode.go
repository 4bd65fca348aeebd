package trace

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// decodeLine decodes the line recorders write: one compact object, keys
// spelled plainly and each at most once, which it reads by their bytes in
// one pass, checking the payload as it finds its end. It is decodeFast
// without the general member iterator, which costs more than the line's
// own bytes; it returns false on anything else (whitespace between
// members, a key with an escape or in another case, a repeated key), and
// decodeFast reads the line afresh. Given notes, it notes there where the
// members of the payload's params or result lie, as it checks them.
func decodeLine(b []byte, ev *Event, notes *eventSlab) bool {
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i, seen, last := 1, uint32(0), -1 // last: the field last read, for knownKeyAt
	if head := ev.readHead(b); head > 0 {
		i, seen, last = head, headFields, fieldKind
	}
	for {
		if last == fieldPayload && seen&tailFields == 0 && ev.readStdioTail(b, i) {
			return true
		}
		f, value := knownKeyAt(b, i, last)
		if f < 0 {
			if f, value = otherKeyAt(b, i); value == 0 {
				return false
			}
		}
		end, ok := ev.readMember(f, b, i, value, notes)
		if !ok {
			return false
		}
		if f >= 0 {
			if seen&(1<<f) != 0 {
				return false
			}
			seen |= 1 << f
		}
		if f >= 0 && f < fieldsKnownByBytes {
			last = f
		}
		if i = end; i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return i+1 == len(b)
		default:
			return false
		}
	}
}

// stdioTail is how a recorder goes on after a stdio message's payload, up
// to the value of mono_ns, which ends the line: compared in two parts of
// at most 16 bytes, which the compiler compares inline, not by a call.
const (
	stdioTailStart = `"stream":"stdio"`
	stdioTailRest  = `,"mono_ns":`
	stdioTail      = stdioTailStart + stdioTailRest
)

// tailFields are the fields readStdioTail reads.
const tailFields = 1<<fieldStream | 1<<fieldMonoNS

// readStdioTail reads the members a recorder writes after a stdio
// message's payload, from b[i] to the end of the line, as one run of bytes
// and an integer; false for any other text, which decodeLine reads member
// by member.
func (e *Event) readStdioTail(b []byte, i int) bool {
	const start, rest = stdioTailStart, stdioTailRest
	if len(b)-i <= len(stdioTail) || string(b[i:i+len(start)]) != start || string(b[i+len(start):i+len(stdioTail)]) != rest {
		return false
	}
	n, end, ok := intAt(b, i+len(stdioTail))
	if !ok || end != len(b)-1 || b[end] != '}' {
		return false
	}
	e.Stream, e.MonoNS = string(Stdio), n
	return true
}

// headFields are the fields readHead reads.
const headFields = 1<<fieldSeq | 1<<fieldDirection | 1<<fieldTransport | 1<<fieldKind

// seqKey opens a line as a recorder writes it.
const seqKey = `{"seq":`

// readHead reads the members a recorder writes first on every line, seq
// and then the usual members, and returns where the member after them
// starts; 0 when the line opens otherwise, and decodeLine reads it member
// by member from its start. Each usual member's key and value are
// compared as one run of bytes, which costs less than reading them one
// after the other.
func (e *Event) readHead(b []byte) int {
	if len(b) <= len(seqKey) || string(b[:len(seqKey)]) != seqKey {
		return 0
	}
	seq, i, ok := intAt(b, len(seqKey))
	if !ok {
		return 0
	}
	// A member not found leaves i where it was, and those after it are
	// not found there either: their keys differ.
	direction, i := usualMemberAfter(b, i, usualMembers[fieldDirection])
	transport, i := usualMemberAfter(b, i, usualMembers[fieldTransport])
	kind, i := usualMemberAfter(b, i, usualMembers[fieldKind])
	if direction == "" || transport == "" || kind == "" || i >= len(b) || b[i] != ',' {
		return 0
	}
	e.Seq, e.Direction, e.Transport, e.Kind = seq, Direction(direction), Transport(transport), Kind(kind)
	return i + 1
}

// otherKeyAt reads the key that opens at b[i], one knownKeyAt does not
// know, and the colon after it: the field it names (-1 for a name that is
// not the format's), and where its value starts; a value of 0 for a key
// that is not plain ASCII, which only decoding could match, and for a
// name that matches one of the format's in another case.
func otherKeyAt(b []byte, i int) (field, value int) {
	if i >= len(b) || b[i] != '"' {
		return -1, 0
	}
	end := rawjson.PlainASCIIEnd(b, i+1)
	if end+2 >= len(b) || b[end] != '"' || b[end+1] != ':' {
		return -1, 0
	}
	key := b[i+1 : end]
	if field = fieldOf(key); field < 0 && namesOneOf(key, eventFields) {
		return -1, 0
	}
	return field, end + 2
}

// fieldOf numbers a field name as eventFields lists it, which is also its
// bit in decodeLine's record of the keys seen; -1 for a name that is not
// the format's.
func fieldOf(key []byte) int {
	for f, name := range eventFields {
		if string(key) == name {
			return f
		}
	}
	return -1
}

// readMember reads the value at b[i] of field f and returns where it ends.
// The common values, an object payload, a plain ASCII string and a short
// integer, are read where they lie; the rest are found by the checking
// scan and given to setField, as decodeFast gives them.
func (e *Event) readMember(f int, b []byte, keyAt, i int, notes *eventSlab) (int, bool) {
	switch f {
	case fieldPayload:
		if b[i] == '{' {
			return e.readPayloadAt(b, i, notes)
		}
	case fieldSeq, fieldMonoNS, fieldExchange:
		if n, end, ok := intAt(b, i); ok {
			*e.intField(f) = n
			return end, true
		}
	case fieldDirection, fieldTransport, fieldKind, fieldStream, fieldSession, fieldEvent:
		if s, end, ok := plainString(b, i); ok {
			*e.stringField(f) = s
			return end, true
		}
	}
	end, ok := rawjson.ValueEnd(b, i, 1)
	return end, ok && e.setField(b[keyAt+1:i-2], b[i:end])
}

func (e *Event) intField(f int) *int64 {
	switch f {
	case fieldSeq:
		return &e.Seq
	case fieldMonoNS:
		return &e.MonoNS
	}
	return &e.Exchange
}

func (e *Event) stringField(f int) *string {
	switch f {
	case fieldDirection:
		return (*string)(&e.Direction)
	case fieldTransport:
		return (*string)(&e.Transport)
	case fieldKind:
		return (*string)(&e.Kind)
	case fieldStream:
		return &e.Stream
	case fieldSession:
		return &e.Session
	}
	return (*string)(&e.Event)
}

// intAt reads the integer at b[i] of at most 18 digits, which cannot
// overflow, and returns where its digits end; false for anything else
// (null, a longer integer, a leading zero), which setField reads. A
// fraction or an exponent after the digits is left for decodeLine to
// refuse, as it refuses any byte there but a comma or a brace.
func intAt(b []byte, i int) (int64, int, bool) {
	negative := i < len(b) && b[i] == '-'
	if negative {
		i++
	}
	start := i
	var n int64
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		n = n*10 + int64(b[i]-'0')
	}
	digits := i - start
	if digits == 0 || digits > 18 || (digits > 1 && b[start] == '0') {
		return 0, 0, false
	}
	if negative {
		n = -n
	}
	return n, i, true
}

// plainString reads the string at b[i] when it is plain ASCII, its own
// value; the values the format names come back as its constants, as
// stringValue gives them.
func plainString(b []byte, i int) (string, int, bool) {
	if b[i] != '"' {
		return "", 0, false
	}
	end := rawjson.PlainASCIIEnd(b, i+1)
	if end >= len(b) || b[end] != '"' {
		return "", 0, false
	}
	inner := b[i+1 : end]
	if s, ok := knownValue(inner); ok {
		return s, end + 1, true
	}
	return string(inner), end + 1, true
}
