package rawjson

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// needsDecodingByByte is needsDecoding written the plain way, to check the
// word-at-a-time version against.
func needsDecodingByByte(b []byte) bool {
	return bytes.IndexByte(b, '\\') >= 0 || !utf8.Valid(b)
}

func TestNeedsDecodingAgreesWithAByteLoop(t *testing.T) {
	alphabet := []byte{'a', 'Z', '0', '\\', '"', 0x7f, 0x80, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := needsDecoding(b), needsDecodingByByte(b); got != want {
			t.Fatalf("needsDecoding(%q) = %v, want %v", b, got, want)
		}
	}
}
