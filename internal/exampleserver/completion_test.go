package exampleserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func complete(t *testing.T, cs *mcp.ClientSession, ref *mcp.CompleteReference, arg, value string) (*mcp.CompleteResult, error) {
	t.Helper()
	return cs.Complete(testContext(t), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
}

func TestCompletion(t *testing.T) {
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	notes := &mcp.CompleteReference{Type: "ref/resource", URI: "notes://{name}"}
	tests := []struct {
		ref        *mcp.CompleteReference
		arg, value string
		want       []string
	}{
		{prompt("weather_report"), "city", "Li", []string{"Lima", "Lisbon"}},
		{prompt("weather_report"), "city", "o", []string{"Oslo", "Lisbon", "Nairobi", "Tokyo"}}, // prefix first
		{prompt("weather_report"), "unit", "", []string{"celsius", "fahrenheit"}},
		{prompt("summarize_note"), "style", "DET", []string{"detailed"}},
		{prompt("summarize_note"), "name", "w", []string{"welcome"}},
		{prompt("weather_report"), "city", "zzz", []string{}},
		{notes, "name", "", []string{"groceries", "welcome"}},
	}
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		callTool(t, cs, "remember", map[string]any{"name": "groceries", "line": "bread"})
		for _, tt := range tests {
			res, err := complete(t, cs, tt.ref, tt.arg, tt.value)
			if err != nil {
				t.Errorf("%+v %s=%q: %v", tt.ref, tt.arg, tt.value, err)
				continue
			}
			c := res.Completion
			if !slices.Equal(c.Values, tt.want) || c.Total != len(tt.want) || c.HasMore {
				t.Errorf("%+v %s=%q: %+v, want values %v", tt.ref, tt.arg, tt.value, c, tt.want)
			}
		}
	})
}

func TestCompletionOfUnknownThingsIsInvalidParams(t *testing.T) {
	tests := []struct {
		ref *mcp.CompleteReference
		arg string
	}{
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "no_such_prompt"}, "x"},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "introduce_server"}, "x"},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "files://{path}"}, "path"},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "notes://{name}"}, "title"},
	}
	cs, _ := connect(t, rev20251125)
	for _, tt := range tests {
		_, err := complete(t, cs, tt.ref, tt.arg, "")
		wantCode(t, err, -32602, fmt.Sprintf("%+v %s", tt.ref, tt.arg))
	}
}

// At most 100 values go out; total and hasMore tell the client there are more.
func TestCompletionCapsAtOneHundred(t *testing.T) {
	var many []string
	for i := range 150 {
		many = append(many, strings.Repeat("a", i+1))
	}
	c := completionResult(rankMatches(many, "a")).Completion
	if len(c.Values) != maxCompletions || c.Total != 150 || !c.HasMore {
		t.Errorf("%d values, total %d, hasMore %v", len(c.Values), c.Total, c.HasMore)
	}
}
