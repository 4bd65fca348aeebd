package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// decodeWithEncodingJSON is what the JSON Schema library's own reader
// does: one value, numbers as json.Number, nothing after it.
func decodeWithEncodingJSON(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return v, true
}

// FuzzDecode holds Decode to encoding/json: the same value for the same
// text, and failure on the same texts.
func FuzzDecode(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":[1,2.5,"x\u00e9",{"b":null}],"a":{"c":false}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, gotOK := Decode(b)
		want, wantOK := decodeWithEncodingJSON(b)
		if gotOK != wantOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q) = %#v, %v; encoding/json gives %#v, %v", b, got, gotOK, want, wantOK)
		}
	})
}

func TestDecodeRefusesWhatEncodingJSONFindsTooDeep(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		text := []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		_, got := Decode(text)
		_, want := decodeWithEncodingJSON(text)
		if got != want {
			t.Errorf("%d nested arrays: Decode says %v, encoding/json %v", depth, got, want)
		}
	}
}
