package judge

import (
	"encoding/json"
	"testing"
)

// The nextCursor of a list result repeated to the byte is taken from the
// copy kept of the one before; any other result is read, and a result
// overwritten after its turn does not change what the copy says.
func TestLastCursorReadsOnlyAResultThatDiffers(t *testing.T) {
	var last lastCursor
	for _, text := range []string{
		`{"tools":[],"nextCursor":"c1"}`, `{"tools":[],"nextCursor":"c1"}`,
		`{"tools":[],"nextCursor":"c2"}`, `{"tools":[]}`, `{"tools":[]}`,
		`{"tools":[],"nextCursor":null}`, `{"tools":[],"nextCursor":7}`, `[1]`,
		`{"tools":[],"nextCursor":"c\u0032"}`, `{"tools":[],"nextCursor":"c\u0032"}`,
	} {
		result := []byte(text)
		m := &Msg{Kind: KindResult, Result: json.RawMessage(result)}
		next, ok := last.of(m)
		want, wantOK := (&Msg{Kind: KindResult, Result: json.RawMessage(text)}).ResultString("nextCursor")
		if next != want || ok != wantOK {
			t.Errorf("%s: nextCursor %q %v, want %q %v", text, next, ok, want, wantOK)
		}
		copy(result, make([]byte, len(result))) // the payload, reused
	}
}
