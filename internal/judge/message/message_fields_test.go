package message

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
)

// trickyMessageBodies are params and results whose members are easy to
// misread: repeated keys (the last wins), escaped keys, null, more members
// than a message holds inline, and texts that are not one object.
var trickyMessageBodies = []string{
	`{"a":1,"b":"x","c":null}`,
	`{"a":1,"a":2}`,
	`{"\u0061":1,"a":[1,2],"b":{"a":3}}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"a":6}`,
	`{}`, `null`, `[]`, `"a"`, `{"a":1,}`, `{"a" 1}`, ``,
	` { "a" : 1.0 , "b" : "\"" } `,
	`{"a":1,"_meta":{"a":2}}`,
	`{"a":1,"b":2,"_meta":{"a":2,"b":3,"a":4}}`,
	`{"_meta":{"\u0061":1,"c":[1,{"a":5}]},"_meta":{"a":6}}`,
	`{"_meta":{}}`, `{"_meta":null}`, `{"_meta":[{"a":1}]}`, `{"_meta":{"a":1,}}`,
	`{"a":1,"b":2,"c":3,"_meta":{"a":7}}`,
	`{"a":1,"b":2,"c":3,"d":4,"_meta":{"a":8,"b":9}}`,
}

var trickyNames = []string{"a", "b", "c", "d", "e", "_meta", "A"}

// A message's params and result read into its inline room answer as a
// fresh read of each object on its own does, in either order and whether
// or not the grammar was vouched for.
func TestMessageFieldsMatchAFreshRead(t *testing.T) {
	for _, params := range trickyMessageBodies {
		for _, result := range trickyMessageBodies {
			for _, resultFirst := range []bool{false, true} {
				checkMessageFields(t, params, result, resultFirst)
			}
		}
	}
}

func checkMessageFields(t *testing.T, params, result string, resultFirst bool) {
	t.Helper()
	wellFormed := json.Valid([]byte(params)) && json.Valid([]byte(result))
	m := &Msg{Params: json.RawMessage(params), Result: json.RawMessage(result)}
	m.ParamsMembers.Text, m.ResultMembers.Text = judgetest.TextOf(m.Params, wellFormed), judgetest.TextOf(m.Result, wellFormed)
	if resultFirst {
		m.ResultField("a")
	}
	for _, name := range trickyNames {
		want := (&ObjectFields{}).Get(json.RawMessage(params), name)
		if got := m.ParamsField(name); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("params %s [%s]: got %q, want %q", params, name, got, want)
		}
		want = (&ObjectFields{}).Get(json.RawMessage(result), name)
		if got := m.ResultField(name); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("result %s [%s]: got %q, want %q", result, name, got, want)
		}
	}
	checkMeta(t, params, m.ParamsMeta())
	checkMeta(t, result, m.ResultMeta())
	checkAgainstMapDecoding(t, params, m.ParamsField)
	checkAgainstMapDecoding(t, result, m.ResultField)
	if got, want := m.ParamsIsObject(), (&ObjectFields{}).Load(json.RawMessage(params)).Object; got != want {
		t.Errorf("params %s: object %v, want %v", params, got, want)
	}
}

// checkAgainstMapDecoding holds field to what decoding obj into a map
// gives, when obj is an object encoding/json reads.
func checkAgainstMapDecoding(t *testing.T, obj string, field func(string) json.RawMessage) {
	t.Helper()
	var decoded map[string]json.RawMessage
	if json.Unmarshal([]byte(obj), &decoded) != nil || decoded == nil {
		return
	}
	for _, name := range trickyNames {
		want, ok := decoded[name]
		got := field(name)
		if ok != (got != nil) || !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
			t.Errorf("%s [%s]: got %q, a map holds %q", obj, name, got, want)
		}
	}
}

// checkMeta holds the members of obj._meta a message read to what reading
// that _meta alone gives.
func checkMeta(t *testing.T, obj string, got MetaMembers) {
	t.Helper()
	want := MetaOf(json.RawMessage(obj))
	if len(got) != len(want) || (got == nil) != (want == nil) {
		t.Errorf("%s: _meta members %q, want %q", obj, got, want)
		return
	}
	for _, name := range trickyNames {
		if g, w := got.Get(name), want.Get(name); !bytes.Equal(g, w) || (g == nil) != (w == nil) {
			t.Errorf("%s: _meta [%s] %q, want %q", obj, name, g, w)
		}
	}
}
