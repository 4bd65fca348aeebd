package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/rules/elicitation"
	"github.com/mcpverdict/mcpverdict/internal/judge/rules/roots"
	"github.com/mcpverdict/mcpverdict/internal/judge/rules/sampling"
)

func TestHasDotSegment(t *testing.T) {
	for uri, want := range map[string]bool{
		"file:///home/user/project":         false,
		"file:///home/user/../etc":          true,
		"file:///home/user/%2e%2e/etc":      true,
		"file:///home/./user":               true,
		"file:///home/user/.config":         false,
		"file:///home/user/project..backup": false,
	} {
		if got := roots.HasDotSegment(uri); got != want {
			t.Errorf("hasDotSegment(%q) = %v, want %v", uri, got, want)
		}
	}
}

func TestElicitationURLHeuristics(t *testing.T) {
	tests := []struct {
		url                    string
		valid, https           bool
		userData, preauthFlags int
	}{
		{"https://mcp.example.com/connect?elicitationId=abc", true, true, 0, 0},
		{"http://localhost:8080/set_key", true, true, 0, 0},
		{"http://127.0.0.1/set_key", true, true, 0, 0},
		{"http://mcp.example.com/set_key", true, false, 0, 0},
		{"mcp.example.com/connect", false, false, 0, 0},
		{"file:///tmp/mcpverdict", true, false, 0, 0},
		{"mailto:support@example.com", true, false, 0, 0},
		{"https:///no-host", false, true, 0, 0},
		{"https:", false, true, 0, 0},
		{"https://mcp.example.com/c?login_hint=alice%40example.com", true, true, 1, 0},
		{"https://mcp.example.com/c?access_token=x", true, true, 1, 1},
		{"https://bucket.example.com/f?X-Amz-Signature=1", true, true, 0, 1},
		{"https://alice:secret@mcp.example.com/", true, true, 1, 1},
	}
	for _, tt := range tests {
		if got := elicitation.ValidURL(tt.url); got != tt.valid {
			t.Errorf("validURL(%q) = %v", tt.url, got)
		}
		if got := elicitation.HttpsOrDevelopment(tt.url); got != tt.https {
			t.Errorf("httpsOrDevelopment(%q) = %v", tt.url, got)
		}
		if got := elicitation.UserDataInURL(tt.url); len(got) != tt.userData {
			t.Errorf("userDataInURL(%q) = %q", tt.url, got)
		}
		if got := elicitation.PreauthenticationInURL(tt.url); len(got) != tt.preauthFlags {
			t.Errorf("preauthenticationInURL(%q) = %q", tt.url, got)
		}
	}
}

func TestFlatPrimitiveProblem(t *testing.T) {
	tests := map[string]string{
		`{"type":"object","properties":{"n":{"type":"string"},"a":{"type":"integer"},"b":{"type":"boolean"}}}`: "",
		`{"type":"object","properties":{"c":{"type":"array","items":{"type":"string","enum":["a","b"]}}}}`:     "",
		`{"type":"object","properties":{"c":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}}}`:  "",
		`{"type":"object","properties":{"o":{"type":"object","properties":{}}}}`:                               `property "o" has type "object"`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object"}}}}`:                      `property "l" is an array of "object"`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`:                      `property "l" is an array whose items`,
		`{"type":"object","properties":{"ip":{"type":"string","format":"ipv4"}}}`:                              `property "ip" has format "ipv4"`,
		`{"type":"object","properties":{"d":{"type":"string","format":"date-time"}}}`:                          "",
		`{"type":"string"}`: "requestedSchema is not an object schema",
		`{"type":"object","properties":{"r":{"$ref":"#/$defs/x"}}}`: `property "r" has type null`,
	}
	for schema, want := range tests {
		got := elicitation.FlatPrimitiveProblem(json.RawMessage(schema))
		if (want == "") != (got == "") || !strings.HasPrefix(got, want) {
			t.Errorf("flatPrimitiveProblem(%s) = %q, want prefix %q", schema, got, want)
		}
	}
}

func TestSensitiveFields(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string"},"api_key":{"type":"string"},
		"code":{"type":"string","title":"Your password"},"secretary":{"type":"string"},"client_secret":{"type":"string"}}}`
	got := elicitation.SensitiveFields(json.RawMessage(schema))
	if want := []string{"api_key", "client_secret", "code"}; !sampling.EqualStrings(got, want) {
		t.Errorf("sensitiveFields = %q, want %q", got, want)
	}
}

func TestElicitModes(t *testing.T) {
	for caps, want := range map[string][2]bool{
		`{}`:                                   {false, false},
		`{"elicitation":{}}`:                   {true, false},
		`{"elicitation":{"url":{}}}`:           {false, true},
		`{"elicitation":{"form":{},"url":{}}}`: {true, true},
		`{"elicitation":{"other":{}}}`:         {false, false},
	} {
		form, url := elicitation.ElicitModes(engine.ParseCaps(json.RawMessage(caps)))
		if [2]bool{form, url} != want {
			t.Errorf("elicitModes(%s) = %v, %v; want %v", caps, form, url, want)
		}
	}
}

func TestUnbalancedToolUse(t *testing.T) {
	msgs := func(s string) []sampling.SamplingMessage {
		var m []sampling.SamplingMessage
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	balanced := msgs(`[{"role":"user","content":{"type":"text","text":"q"}},
		{"role":"assistant","content":[{"type":"tool_use","id":"a"},{"type":"tool_use","id":"b"}]},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"b"},{"type":"tool_result","toolUseId":"a"}]}]`)
	if i, problem := sampling.UnbalancedToolUse(balanced); i >= 0 {
		t.Errorf("balanced messages judged unbalanced: %s", problem)
	}
	last := msgs(`[{"role":"assistant","content":{"type":"tool_use","id":"a"}}]`)
	if i, _ := sampling.UnbalancedToolUse(last); i != 0 || !sampling.MissingToolResult(last) {
		t.Errorf("a trailing tool use is not reported")
	}
}

// A retry is paired with the round whose requestState it echoes, even when a
// newer round of the same method is open.
func TestAskTrackerPairsRetryByState(t *testing.T) {
	tr := engine.AskTracker{Method: "roots/list"}
	ask := func(state string) *engine.InputRound {
		return &engine.InputRound{Method: "tools/call", State: &state, Asks: map[string]*engine.Ask{"k": {Method: "roots/list", Key: "k"}}}
	}
	older, newer := ask("one"), ask("two")
	tr.Open(older)
	tr.Open(newer)
	state := "one"
	if got := tr.TakeRound("tools/call", &state); got != older {
		t.Fatalf("takeRound paired the retry with the wrong round")
	}
	if len(tr.Rounds) != 1 || tr.Rounds[0] != newer {
		t.Fatalf("takeRound left %d rounds, want the newer one", len(tr.Rounds))
	}
}
