package message

import (
	"encoding/json"
	"strconv"
	"testing"
)

// The cache hands out exactly what idKey builds, however often an id comes
// back and whatever shares its slot: 1 and 1.0 differ, a string is keyed
// by its decoded value, escaped or not.
func TestIDKeysMatchIDKey(t *testing.T) {
	ids := []string{
		`1`, `1.0`, `-1`, `1e3`, `01`, `null`, `true`, `{}`, `[1]`,
		`"1"`, `"a"`, `"\u0061"`, `"a\"b"`, `"a\\b"`, `"é"`, "\"\x7f\"", "\"a\tb\"",
		`""`, `"`, `"a`, `a"`, ` "a"`, `"a" `, `"\ud800"`, "\"\xff\"",
	}
	for i := range 600 {
		ids = append(ids, strconv.Itoa(i), `"p`+strconv.Itoa(i)+`"`)
	}
	var cache IDKeys
	for round := range 3 {
		for _, id := range ids {
			raw := json.RawMessage(id)
			if got, want := cache.Key(raw), IDKey(raw); got != want {
				t.Fatalf("round %d, id %q: got %q, want %q", round, id, got, want)
			}
		}
	}
	var none *IDKeys
	if got, want := none.Key(json.RawMessage(`"\u0061"`)), IDKey(json.RawMessage(`"\u0061"`)); got != want {
		t.Errorf("no cache: got %q, want %q", got, want)
	}
	if got := cache.Key(nil); got != "" {
		t.Errorf("absent id: got %q, want an empty key", got)
	}
}
