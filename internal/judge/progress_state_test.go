package judge

import (
	"encoding/json"
	"testing"
)

// createdTask finds the task a plain decode of the whole result finds, for
// results whose task member is spelled in other case, escaped, folded from
// non-ASCII letters, repeated, null, or not there at all.
func TestCreatedTaskMatchesADecode(t *testing.T) {
	results := []string{
		`{"content":[],"structuredContent":{"task":{"taskId":"x"}}}`,
		`{"task":{"taskId":"t1","status":"working"}}`,
		`{"Task":{"taskId":"t2"}}`,
		`{"TASK":{"taskId":"t3"}}`,
		`{"t\u0061sk":{"taskId":"t4"}}`,
		"{\"tas\u212a\":{\"taskId\":\"t5\"}}",
		"{\"ta\u017fk\":{\"taskId\":\"t6\"}}",
		`{"task":{"taskId":"t7"},"task":null}`,
		`{"task":null,"task":{"taskId":"t8"}}`,
		`{"task":"t9"}`,
		`{"tasks":{"taskId":"t10"}}`,
		`{"task":{"taskId":""}}`,
		`{}`, `null`, `[]`, `{"task":{"taskId":"t11"}`, `{"a":1,}`,
	}
	for _, text := range results {
		for _, vouched := range []bool{false, json.Valid([]byte(text))} {
			var r progressRule
			m := &Msg{Kind: KindResult, Result: json.RawMessage(text)}
			m.result.wellFormed = vouched
			want := decodedTask(text)
			got := r.createdTask(m)
			if (got == nil) != (want == nil) || got != nil && *got != *want {
				t.Errorf("%s (vouched %v): got %+v, want %+v", text, vouched, got, want)
			}
			if r.created.Task != nil {
				t.Errorf("%s: the scratch still holds %+v", text, r.created.Task)
			}
		}
	}
}

// decodedTask is how the rule read a created task before: a decode of the
// whole result.
func decodedTask(text string) *taskFields {
	var created struct {
		Task *taskFields `json:"task"`
	}
	if !Decode(json.RawMessage(text), &created) {
		return nil
	}
	return created.Task
}
