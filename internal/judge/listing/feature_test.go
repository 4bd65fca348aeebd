package listing

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
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
			prev := ItemKeys(rawItems(a), "name")
			want := slices.Equal(prev, ItemKeys(rawItems(b), "name"))
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

// itemKeys spells each key as stringField reads it, whatever the listing's
// size and however its keys are written.
func TestItemKeysMatchStringField(t *testing.T) {
	items := []string{
		`{"name":"add"}`, `{"name":"\u0061dd"}`, `{"name":"é"}`, "{\"name\":\"\xff\"}", `{"name":null}`,
		`{"name":1}`, `{}`, `{"name":"a","name":"b"}`, `{"name":""}`, `"add"`, `{"name":"a\"b\\c"}`,
	}
	for i := range 40 { // more items, and more bytes of keys, than itemKeys keeps on the stack
		items = append(items, `{"name":"tool-`+strings.Repeat("x", i*3)+`"}`)
	}
	for n := range len(items) + 1 {
		listing := rawItems(items[:n])
		got := ItemKeys(listing, "name")
		for i, it := range listing {
			if want, _ := message.StringField(it, "name"); got[i] != want {
				t.Errorf("listing of %d, item %s: key %q, want %q", n, it, got[i], want)
			}
		}
		if len(got) != n {
			t.Errorf("listing of %d: %d keys", n, len(got))
		}
	}
}
