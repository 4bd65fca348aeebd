package trace

// The fields decodeLine reads itself, numbered as eventFields lists them:
// in the order a writer writes them, so that the next key is most often
// the next of these.
const (
	fieldSeq = iota
	fieldDirection
	fieldTransport
	fieldKind
	fieldPayload
	fieldEvent
	fieldExchange
	fieldStream
	fieldMonoNS
	fieldSession
	fieldsKnownByBytes
)

// knownKeys are the keys of the fields decodeLine reads itself.
var knownKeys = func() (keys [fieldsKnownByBytes]keyText) {
	for f := range keys {
		keys[f] = newKeyText(eventFields[f])
	}
	return keys
}()

// knownKeyAt recognises the key that opens at b[i] by its bytes when it is
// one of knownKeys: the field, and where its value starts; -1 for any
// other key, and for a key less than 16 bytes from the end of the line,
// which otherKeyAt then reads. The keys are tried from the one after the
// field last read, in the writer's order, so that a recorder's line costs
// a comparison or two a key.
func knownKeyAt(b []byte, i, last int) (field, value int) {
	if len(b)-i < 16 {
		return -1, 0
	}
	w := (*[16]byte)(b[i:])
	f := last
	for range knownKeys {
		if f++; f == len(knownKeys) {
			f = 0
		}
		if k := &knownKeys[f]; k.opens(w) {
			return f, i + k.len // a value's byte follows: len(key) < 16
		}
	}
	return -1, 0
}

// usualMember is a member as a recorder writes it, key and value, the
// value one the format names: its text in two parts of 16 bytes.
type usualMember struct {
	text  [2]maskedWords
	len   int
	value string
}

// usualMembers are, by field, the members that readHead knows: the
// string fields a recorder writes one after the other at the start of
// every line.
var usualMembers = [...][]usualMember{
	fieldDirection: usualValues(fieldDirection, string(ClientToServer), string(ServerToClient)),
	fieldTransport: usualValues(fieldTransport, string(Stdio), string(StreamableHTTP)),
	fieldKind:      usualValues(fieldKind, string(KindMessage), string(KindHTTP), string(KindLifecycle)),
}

func usualValues(field int, values ...string) []usualMember {
	members := make([]usualMember, len(values))
	for j, v := range values {
		text := `"` + eventFields[field] + `":"` + v + `"`
		half := min(16, len(text))
		members[j] = usualMember{[2]maskedWords{maskWords(text[:half]), maskWords(text[half:])}, len(text), v}
	}
	return members
}

// usualMemberAfter reads the member after the comma at b[i] when it is
// one of members, the usual members of one field: its value, and where it
// ends; "" and i for any other text, and for a member less than 32 bytes
// from the end of the line, which the other paths read.
func usualMemberAfter(b []byte, i int, members []usualMember) (string, int) {
	if len(b)-i <= 32 || b[i] != ',' {
		return "", i
	}
	member := (*[32]byte)(b[i+1 : i+33])
	head, tail := (*[16]byte)(member[:16]), (*[16]byte)(member[16:])
	for j := range members {
		if m := &members[j]; m.text[0].opens(head) && m.text[1].opens(tail) {
			return m.value, i + 1 + m.len
		}
	}
	return "", i
}
