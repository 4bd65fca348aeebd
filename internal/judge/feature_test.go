package judge

import (
	"encoding/json"
	"slices"
	"testing"
)

// sameItemKeys answers as comparing the keys itemKeys builds does, for
// items whose keys are escaped, repeated, not strings, or missing.
func TestSameItemKeysMatchesItemKeys(t *testing.T) {
	listings := [][]string{
		{`{"name":"add"}`, `{"name":"echo"}`},
		{`{"name":"echo"}`, `{"name":"add"}`},
		{`{"name":"\u0061dd"}`, `{"name":"echo"}`},
		{`{"name":"add","name":"sub"}`, `{"name":"echo"}`},
		{`{"name":"sub"}`, `{"name":"echo"}`},
		{`{"name":null}`, `{"name":1}`},
		{`{"name":""}`, `{}`},
		{`{"name":"é"}`, `{"name":"\u00e9"}`},
		{`{"name":"a\"b"}`, `{"name": "add" }`},
		{`{"name":"add"`, `[]`},
		{`{"name":"add"}`},
		{},
	}
	for _, a := range listings {
		for _, b := range listings {
			prev := itemKeys(rawItems(a), "name")
			want := slices.Equal(prev, itemKeys(rawItems(b), "name"))
			if got := sameItemKeys(prev, rawItems(b), "name"); got != want {
				t.Errorf("%v then %v: same %v, want %v", a, b, got, want)
			}
		}
	}
}

func rawItems(texts []string) []json.RawMessage {
	out := make([]json.RawMessage, len(texts))
	for i, s := range texts {
		out[i] = json.RawMessage(s)
	}
	return out
}
