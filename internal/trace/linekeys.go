package trace

import "encoding/binary"

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

// keyBytes is a key as a line spells it, from its opening quote to the
// colon after it, as the two little-endian words that hold it; the masks
// clear the bytes past its end. Comparing them costs less than finding
// where the key ends and then comparing it.
type keyBytes struct {
	lo, loMask, hi, hiMask uint64
	len                    int
}

// knownKeys are the keys of the fields decodeLine reads itself.
var knownKeys = func() (keys [fieldsKnownByBytes]keyBytes) {
	for f := range keys {
		var text, mask [16]byte
		n := copy(text[:], `"`+eventFields[f]+`":`)
		for j := range n {
			mask[j] = 0xFF
		}
		keys[f] = keyBytes{
			lo: binary.LittleEndian.Uint64(text[:8]), loMask: binary.LittleEndian.Uint64(mask[:8]),
			hi: binary.LittleEndian.Uint64(text[8:]), hiMask: binary.LittleEndian.Uint64(mask[8:]),
			len: n,
		}
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
	lo, hi := binary.LittleEndian.Uint64(b[i:i+8]), binary.LittleEndian.Uint64(b[i+8:i+16])
	f := last
	for range knownKeys {
		if f++; f == len(knownKeys) {
			f = 0
		}
		if k := &knownKeys[f]; lo&k.loMask == k.lo && hi&k.hiMask == k.hi {
			return f, i + k.len // a value's byte follows: len(key) < 16
		}
	}
	return -1, 0
}

// usualMember is a member as a recorder writes it, key and value, the
// value one the format names: its text as the little-endian words that
// hold it, and masks that clear the bytes past its end.
type usualMember struct {
	words, masks [usualWords]uint64
	len          int
	value        string
}

// usualWords is how many words hold the longest usual member.
const usualWords = 4

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
		var text, mask [8 * usualWords]byte
		n := copy(text[:], `"`+eventFields[field]+`":"`+v+`"`)
		for k := range n {
			mask[k] = 0xFF
		}
		m := &members[j]
		for w := range usualWords {
			m.words[w] = binary.LittleEndian.Uint64(text[8*w:])
			m.masks[w] = binary.LittleEndian.Uint64(mask[8*w:])
		}
		m.len, m.value = n, v
	}
	return members
}

// usualMemberAfter reads the member after the comma at b[i] when it is
// one of members, the usual members of one field: its value, and where it
// ends; "" and i for any other text, and for a member less than 32 bytes
// from the end of the line, which the other paths read. The candidates
// are told apart by their second word, which holds the start of their
// value, before one is compared whole.
func usualMemberAfter(b []byte, i int, members []usualMember) (string, int) {
	if len(b)-i <= 8*usualWords || b[i] != ',' {
		return "", i
	}
	w := (*[8 * usualWords]byte)(b[i+1 : i+1+8*usualWords])
	w0, w1 := binary.LittleEndian.Uint64(w[0:]), binary.LittleEndian.Uint64(w[8:])
	w2, w3 := binary.LittleEndian.Uint64(w[16:]), binary.LittleEndian.Uint64(w[24:])
	for j := range members {
		m := &members[j]
		if (w1^m.words[1])&m.masks[1] != 0 {
			continue
		}
		if (w0^m.words[0])&m.masks[0]|(w2^m.words[2])&m.masks[2]|(w3^m.words[3])&m.masks[3] == 0 {
			return m.value, i + 1 + m.len
		}
	}
	return "", i
}
