package trace

import "encoding/binary"

// maskedWords is up to 16 bytes of text as the two little-endian words
// that hold them, with masks that clear the bytes past its end: the two
// words read where the text opens equal it under the masks, whatever
// follows it. Comparing two words costs less than finding where a key
// ends and then comparing it.
type maskedWords struct {
	lo, loMask, hi, hiMask uint64
}

// maskWords builds the maskedWords of text, which must fit them.
func maskWords(text string) maskedWords {
	if len(text) > 16 {
		panic("trace: " + text + " does not fit two words")
	}
	var bytes, mask [16]byte
	for j := range copy(bytes[:], text) {
		mask[j] = 0xFF
	}
	return maskedWords{
		lo: binary.LittleEndian.Uint64(bytes[:8]), loMask: binary.LittleEndian.Uint64(mask[:8]),
		hi: binary.LittleEndian.Uint64(bytes[8:]), hiMask: binary.LittleEndian.Uint64(mask[8:]),
	}
}

// opens reports whether the 16 bytes at w, read from where the text
// might open, begin with the text.
func (m *maskedWords) opens(w *[16]byte) bool {
	lo, hi := binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])
	return (lo^m.lo)&m.loMask|(hi^m.hi)&m.hiMask == 0
}

// keyText is a key as text spells it, from its opening quote to the colon
// after it.
type keyText struct {
	maskedWords
	len int
}

// newKeyText builds the keyText of a name.
func newKeyText(name string) keyText {
	text := `"` + name + `":`
	return keyText{maskWords(text), len(text)}
}
