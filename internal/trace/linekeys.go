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
