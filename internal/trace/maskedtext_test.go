package trace

import "testing"

// A key is recognised where it opens whatever follows it, and not when
// any byte of it differs, nor when the text is too short to read.
func TestKeyAtRecognisesExactKeys(t *testing.T) {
	const after = `{"x":1},"y":2}`
	for slot, name := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
		key := `"` + name + `":`
		if got, value := rpcKeyAt([]byte(`,`+key+after), 1); got != slot || value != 1+len(key) {
			t.Errorf("%s: slot %d, value at %d", key, got, value)
		}
		for j := range len(key) {
			wrong := []byte(key + after)
			wrong[j] ^= 0x20
			if got, _ := rpcKeyAt(wrong, 0); got >= 0 {
				t.Errorf("%q taken for slot %d", wrong, got)
			}
		}
		if got, _ := rpcKeyAt([]byte(key+"1}"), 0); got >= 0 {
			t.Errorf("%s: read from fewer than 16 bytes", key)
		}
	}
	for f := range fieldsKnownByBytes {
		key := `"` + eventFields[f] + `":`
		if got, value := knownKeyAt([]byte(key+after), 0, f); got != f || value != len(key) {
			t.Errorf("%s: field %d, value at %d", key, got, value)
		}
	}
}
