package rawschema

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

const testDocument = `{
  "$defs": {
    "Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}, "id": {"$ref": "#/$defs/Id"}}, "required": ["id"]},
    "Id": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "Both": {"allOf": [{"required": ["a"]}, {"required": ["b"]}]},
    "Blob": {"type": "string", "format": "byte"},
    "Loop": {"$ref": "#/$defs/Loop"},
    "Odd": {"type": "string", "pattern": "x"},
    "Holder": {"type": "object", "properties": {"odd": {"$ref": "#/$defs/Odd"}, "n": {"type": "number"}}},
    "Uri": {"type": "string", "format": "uri"},
    "Beside": {"$ref": "#/$defs/Id", "type": "string"}
  }
}`

func TestDocumentDefinitions(t *testing.T) {
	doc, ok := rawjson.Decode([]byte(testDocument))
	if !ok {
		t.Fatal("test document is not JSON")
	}
	d := NewDocument(doc, map[string]Format{"byte": FormatBase64, "uri": FormatAnnotation})
	for _, tc := range []struct {
		def, instance string
		proven        bool
	}{
		{"Node", `{"id":1,"kids":[{"id":"a","kids":[]},{"id":2}]}`, true},
		{"Node", `{"id":1,"kids":[{"kids":[]}]}`, false},
		{"Node", `{"id":1.5}`, false},
		{"Both", `{"a":1,"b":2}`, true},
		{"Both", `{"a":1}`, false},
		{"Blob", `"aGk="`, true},
		{"Blob", `""`, true},
		{"Blob", `"aGk"`, false},
		{"Blob", `"a==="`, false},
		{"Blob", `"a\nGk="`, false},
		{"Uri", `"not a uri"`, true},
		{"Holder", `{"n":1}`, true},
		{"Holder", `{"n":1,"odd":"x"}`, false}, // undecided where pattern applies
		{"Loop", `{}`, false},
	} {
		s := d.Definition("#/$defs/" + tc.def)
		c, _ := rawjson.Check([]byte(tc.instance))
		if got := s.Valid(c, false); got != tc.proven {
			t.Errorf("%s %s: proven %v, want %v", tc.def, tc.instance, got, tc.proven)
		}
	}
	for _, def := range []string{"Odd", "Beside", "Missing"} {
		if d.Definition("#/$defs/"+def) != nil {
			t.Errorf("%s has a fast form; want none", def)
		}
	}
}
