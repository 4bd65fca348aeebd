package listing

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// Reading a Checked array without checking its grammar again finds the
// items a checking read finds.
func TestArrayItemsOfCheckedText(t *testing.T) {
	for _, text := range []string{
		`[]`, ` [ ] `, `[1]`, `[{"name":"a]"},{"name":"b\"]"}]`, `[[1,[2]],{"a":[]}, "x" ,null,-1.5e3]`,
		`["\u005d",{"k":"}"}]`,
	} {
		var want []json.RawMessage
		e := rawjson.Elements([]byte(text))
		for e.Next() {
			want = append(want, e.Value())
		}
		got, gotOK := arrayItems(judgetest.TextOf([]byte(text), true))
		if !e.Valid() || !gotOK || !slices.EqualFunc(got, want, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			t.Errorf("%s: got %q %v, want %q", text, got, gotOK, want)
		}
	}
}
