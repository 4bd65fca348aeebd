package driver

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestGuessValue(t *testing.T) {
	cases := []struct{ name, description, want string }{
		{"resourceId", "", "1"},
		{"city", "Name of the city", "mcpverdict"},
		{"count", "", "1"},
		{"x", "must be an integer", "1"},
		{"verbose_flag", "", "true"},
		{"callbackUrl", "", "https://example.com/mcpverdict"},
		{"startDate", "", "2026-01-01"},
		{"email", "", "mcpverdict@example.com"},
	}
	for _, c := range cases {
		if got := guessValue(c.name, c.description); got != c.want {
			t.Errorf("guessValue(%q, %q) = %q, want %q", c.name, c.description, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	got := words("resourceId interval_ms HTTPServer-port")
	want := []string{"resource", "id", "interval", "ms", "httpserver", "port"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestSmallArgumentsShortenDurations(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"duration":{"type":"number","default":10},
		"steps":{"type":"number","default":5},
		"interval_ms":{"type":"integer","minimum":10,"default":500},
		"timeoutSeconds":{"type":"integer","default":30},
		"message":{"type":"string"}},"required":["message"]}`)
	small, ok := SmallArguments(schema)
	if !ok {
		t.Fatal("SmallArguments refused the schema")
	}
	want := map[string]any{"duration": 0.1, "interval_ms": 10.0, "timeoutSeconds": 1.0, "message": "mcpverdict"}
	if !reflect.DeepEqual(small, want) {
		t.Errorf("SmallArguments = %v, want %v", small, want)
	}
	slow, _ := CancellableArguments(schema)
	if slow["duration"] != 1.0 || slow["interval_ms"] != 250.0 {
		t.Errorf("CancellableArguments = %v, want a second and a quarter second", slow)
	}
	if !hasDurationArgument(schema) || hasDurationArgument(json.RawMessage(`{"properties":{"steps":{"type":"number"}}}`)) {
		t.Error("hasDurationArgument misjudges")
	}
}

func TestBuildArgumentsRefusesWhatItCannotMake(t *testing.T) {
	if _, ok := BuildArguments(json.RawMessage(`{"type":"object","properties":{"x":{}},"required":["x"]}`)); ok {
		t.Error("a required property of no type was built")
	}
	args, ok := BuildArguments(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":3}},"required":["n"]}`))
	if !ok || args["n"] != 3.0 {
		t.Errorf("BuildArguments = %v, %v; want n at its minimum", args, ok)
	}
}

// The driver's answer to a server request keeps the session's revision:
// in a stateless session every result names its resultType.
func TestAnswersToServerRequestsKeepTheRevision(t *testing.T) {
	for rev, want := range map[string]bool{Legacy: false, Modern: true} {
		d := &run{opts: Options{Revision: rev}}
		reply, rpcErr := d.handle("ping", nil)
		m, ok := reply.(map[string]any)
		if rpcErr != nil || !ok {
			t.Fatalf("%s: ping answered %v, %v", rev, reply, rpcErr)
		}
		if _, has := m["resultType"]; has != want {
			t.Errorf("%s: the ping answer %v names a resultType: %v, want %v", rev, m, has, want)
		}
	}
}
