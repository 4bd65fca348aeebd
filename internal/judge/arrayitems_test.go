package judge

import (
	"encoding/json"
	"slices"
	"testing"
)

// Reading a vouched-for array without checking its grammar finds the items
// a checking read finds.
func TestArrayItemsOfWellFormedText(t *testing.T) {
	for _, text := range []string{
		`[]`, ` [ ] `, `[1]`, `[{"name":"a]"},{"name":"b\"]"}]`, `[[1,[2]],{"a":[]}, "x" ,null,-1.5e3]`,
		`["\u005d",{"k":"}"}]`,
	} {
		want, wantOK := arrayItems(json.RawMessage(text), false)
		got, gotOK := arrayItems(json.RawMessage(text), true)
		if !wantOK || gotOK != wantOK || !slices.EqualFunc(got, want, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			t.Errorf("%s: got %q %v, want %q %v", text, got, gotOK, want, wantOK)
		}
	}
}
