package progress

import (
	"encoding/json"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// createdTask finds the task a plain decode of the whole result finds, for
// results whose task member is spelled in other case, escaped, folded from
// non-ASCII letters, repeated, null, or not there at all.
func TestCreatedTaskMatchesADecode(t *testing.T) {
	for _, text := range createdTaskSeeds {
		checkCreatedTask(t, text)
	}
}

var createdTaskSeeds = []string{
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

// FuzzCreatedTask holds createdTask, which decodes only a result that
// mayNameTask lets through, to a decode of every result.
func FuzzCreatedTask(f *testing.F) {
	for _, text := range createdTaskSeeds {
		f.Add(text)
	}
	f.Fuzz(checkCreatedTask)
}

func checkCreatedTask(t *testing.T, text string) {
	for _, vouched := range []bool{false, json.Valid([]byte(text))} {
		var r progressRule
		m := &message.Msg{Kind: message.KindResult, Result: json.RawMessage(text)}
		m.ResultMembers.Text = judgetest.TextOf(m.Result, vouched)
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

// decodedTask is how the rule read a created task before: a decode of the
// whole result.
func decodedTask(text string) *taskFields {
	var created struct {
		Task *taskFields `json:"task"`
	}
	if !message.Decode(json.RawMessage(text), &created) {
		return nil
	}
	return created.Task
}

// mayNameTask sends to the decoder a result with a key written "task", one
// that folds to it in ASCII, or one with non-ASCII bytes, and no other.
func TestMayNameTaskSendsOnlyPossibleKeys(t *testing.T) {
	cases := []struct {
		result string
		want   bool
	}{
		{`{"content":[],"task":{}}`, true},
		{`{"content":[],"tASk":{}}`, true},
		{"{\"content\":[],\"tas\u212a\":{}}", true},
		{"{\"content\":[],\"n\u00e4me\":1}", true},
		{`{"content":[],"tasks":{},"tas":1,"isError":false}`, false},
		{`{}`, false},
		{`[]`, true},
	}
	for _, c := range cases {
		m := &message.Msg{Kind: message.KindResult, Result: json.RawMessage(c.result)}
		if got := mayNameTask(m); got != c.want {
			t.Errorf("%s: mayNameTask %v, want %v", c.result, got, c.want)
		}
	}
}
