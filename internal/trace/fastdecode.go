package trace

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// decodeFast decodes the common line: one well-formed object whose members
// carry the field names exactly and values of the fields' own types. It
// gives what the general decoder (segmentio, ZeroCopy) gives for such a
// line at a fraction of its cost; on anything else it returns false, and
// the general decoder reads the line and says what is wrong with it.
func decodeFast(line []byte, ev *Event) bool {
	it := rawjson.Members(line)
	for it.NextKey() {
		if string(it.RawKey()) == "payload" && it.ValueKind() == '{' {
			if !ev.readPayload(&it) {
				return false
			}
			continue
		}
		if !it.ReadValue() || !ev.setField(it.RawKey(), it.Value()) {
			return false
		}
	}
	return it.Valid() && len(rawjson.TrimRightSpace(line[it.End():])) == 0
}

// readPayload checks an object payload member by member, noting where its
// JSON-RPC members lie as it goes: the judge then reads them without a
// second scan.
func (e *Event) readPayload(it *rawjson.Iter) bool {
	inner := it.ValueMembers()
	var members jsonrpc.Members
	members.NoteAll(&inner)
	if !it.EndValue(&inner) {
		return false
	}
	e.Payload = json.RawMessage(it.Value())
	e.rpc = members.Offsets(e.Payload)
	return true
}

// setField stores one member; false for a key that needs decoding or
// matches a field only in another case, and for a value of another type.
func (e *Event) setField(key, v []byte) bool {
	if string(v) == "null" && !holdsNull(key) {
		// encoding/json leaves a field that cannot hold null as it was.
		return slices.Contains(eventFields, string(key)) || !namesOneOf(key, eventFields)
	}
	// v is one value the scan that found it checked, so the only text
	// rawjson.Int64 takes for an integer field is a JSON integer: a
	// fraction, an exponent or a value of another type fails its parse.
	var ok bool
	switch string(key) {
	case "seq":
		e.Seq, ok = rawjson.Int64(v)
	case "direction":
		var s string
		s, ok = stringValue(v)
		e.Direction = Direction(s)
	case "transport":
		var s string
		s, ok = stringValue(v)
		e.Transport = Transport(s)
	case "kind":
		var s string
		s, ok = stringValue(v)
		e.Kind = Kind(s)
	case "payload":
		e.Payload, e.rpc, ok = json.RawMessage(v), jsonrpc.Note{}, true
	case "stream":
		e.Stream, ok = stringValue(v)
	case "mono_ns":
		e.MonoNS, ok = rawjson.Int64(v)
	case "exchange":
		e.Exchange, ok = rawjson.Int64(v)
	case "session":
		e.Session, ok = stringValue(v)
	case "event":
		var s string
		s, ok = stringValue(v)
		e.Event = Lifecycle(s)
	default:
		return e.setOtherField(key, v)
	}
	return ok
}

// setOtherField stores the members of HTTP, lifecycle and raw events.
func (e *Event) setOtherField(key, v []byte) bool {
	var ok bool
	switch string(key) {
	case "raw":
		e.Raw, ok = stringPointer(v)
	case "raw_base64":
		e.RawBase64, ok = stringValue(v)
	case "method":
		e.Method, ok = stringValue(v)
	case "path":
		e.Path, ok = stringValue(v)
	case "status":
		var n int64
		n, ok = rawjson.Int64(v)
		e.Status = int(n)
	case "headers":
		if e.Headers != nil {
			return false // repeated: the general decoder merges into the first map
		}
		e.Headers, ok = headersValue(v)
	case "exit_code":
		e.ExitCode, ok = intPointer(v)
	case "signal":
		e.Signal, ok = stringValue(v)
	case "reason":
		e.Reason, ok = stringValue(v)
	case "sse":
		if e.SSE != nil {
			return false // repeated: the general decoder merges into the first frame
		}
		e.SSE, ok = sseValue(v)
	default:
		return !namesOneOf(key, eventFields)
	}
	return ok
}

// holdsNull reports whether a field takes a null as its value: the
// pointers, the map and the raw payload.
func holdsNull(key []byte) bool {
	switch string(key) {
	case "payload", "raw", "headers", "exit_code", "sse":
		return true
	}
	return false
}

// eventFields are the field names of the format: first, in the order a
// writer writes them, those decodeLine reads itself, numbered as its
// field constants; then those it leaves to setField.
var eventFields = []string{"seq", "direction", "transport", "kind", "payload", "event", "exchange", "stream", "mono_ns", "session",
	"raw", "raw_base64", "method", "path", "status", "headers", "exit_code", "signal", "reason", "sse"}

// namesOneOf reports whether a key the fast path does not read could still
// be one of the names: the general decoder matches names in any case, and
// a key with escapes is only known once decoded.
func namesOneOf(key []byte, names []string) bool {
	if strings.ContainsRune(string(key), '\\') {
		return true
	}
	for _, f := range names {
		if strings.EqualFold(string(key), f) {
			return true
		}
	}
	return false
}

func stringPointer(v []byte) (*string, bool) {
	if string(v) == "null" {
		return nil, true
	}
	s, ok := stringValue(v)
	return &s, ok
}

func intPointer(v []byte) (*int, bool) {
	n, ok := int64Pointer(v)
	if n == nil {
		return nil, ok
	}
	i := int(*n)
	return &i, ok
}

func int64Pointer(v []byte) (*int64, bool) {
	if string(v) == "null" {
		return nil, true
	}
	n, ok := rawjson.Int64(v)
	return &n, ok
}

// headersValue reads the headers object: string values only.
func headersValue(v []byte) (map[string]string, bool) {
	if string(v) == "null" {
		return nil, true
	}
	out := map[string]string{}
	it := rawjson.Members(v)
	for it.Next() {
		key, val := it.RawKey(), it.Value()
		if strings.ContainsRune(string(key), '\\') || string(val) == "null" {
			return nil, false
		}
		s, ok := stringValue(val)
		if !ok {
			return nil, false
		}
		out[string(it.Key())] = s // a key that is not UTF-8 comes out as U+FFFD
	}
	return out, it.Valid()
}

var sseFields = []string{"id", "event", "retry"}

// sseValue reads the sse object.
func sseValue(v []byte) (*SSEFrame, bool) {
	if string(v) == "null" {
		return nil, true
	}
	f := &SSEFrame{}
	it := rawjson.Members(v)
	for it.Next() {
		ok := true
		switch val := it.Value(); string(it.RawKey()) {
		case "id":
			f.ID, ok = stringPointer(val)
		case "event":
			if string(val) != "null" { // which leaves it as it was
				f.Event, ok = stringValue(val)
			}
		case "retry":
			f.Retry, ok = int64Pointer(val)
		default:
			ok = !namesOneOf(it.RawKey(), sseFields)
		}
		if !ok {
			return nil, false
		}
	}
	return f, it.Valid()
}

// stringValue reads a string field's string (setField has dealt with a
// null). The values the format names come back as the constants, so the
// common events allocate nothing for them.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if s, ok := knownValue(v[1 : len(v)-1]); ok {
		return s, true
	}
	return rawjson.Unquote(v)
}

// knownValue returns the constant spelled by a value the format names. A
// switch, which compiles to comparisons, costs less than hashing for a map:
// every event has four or five of these.
func knownValue(inner []byte) (string, bool) {
	switch string(inner) {
	case string(ClientToServer):
		return string(ClientToServer), true
	case string(ServerToClient):
		return string(ServerToClient), true
	case string(Stdio):
		return string(Stdio), true
	case string(StreamableHTTP):
		return string(StreamableHTTP), true
	case string(KindMessage):
		return string(KindMessage), true
	case string(KindHTTP):
		return string(KindHTTP), true
	case string(KindLifecycle):
		return string(KindLifecycle), true
	case string(TransportOpen):
		return string(TransportOpen), true
	case string(TransportClose):
		return string(TransportClose), true
	case string(TransportAbort):
		return string(TransportAbort), true
	case string(ProcessExit):
		return string(ProcessExit), true
	}
	return "", false
}
