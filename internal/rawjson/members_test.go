package rawjson

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
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

// TestKeysDecodeAsEncodingJSONDoes checks the one-pass key scan against
// encoding/json on random keys with escapes, bytes outside ASCII and
// invalid UTF-8, in both the validating and the well-formed iteration.
func TestKeysDecodeAsEncodingJSONDoes(t *testing.T) {
	pieces := []string{"a", "Z", "_", `\"`, `\\`, `\u0062`, `\n`, "é", "\xff", "\xe2\x82", "€", "0123456789"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var key strings.Builder
		for range rng.IntN(6) {
			key.WriteString(pieces[rng.IntN(len(pieces))])
		}
		obj := []byte(`{"` + key.String() + `":1}`)
		var m map[string]int
		if err := json.Unmarshal(obj, &m); err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		for _, it := range []Iter{Members(obj), Checked{obj}.Members()} {
			if !it.Next() {
				t.Fatalf("%s: no member", obj)
			}
			if _, ok := m[string(it.Key())]; !ok || !it.KeyIs(string(it.Key())) {
				t.Fatalf("%s: key %q, encoding/json read %v", obj, it.Key(), m)
			}
		}
	}
}
