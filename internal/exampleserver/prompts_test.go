package exampleserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPromptListIsPaginated(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		var names []string
		pages := 0
		params := &mcp.ListPromptsParams{}
		for {
			res, err := cs.ListPrompts(testContext(t), params)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, p := range res.Prompts {
				names = append(names, p.Name)
			}
			if res.NextCursor == "" {
				break
			}
			params = &mcp.ListPromptsParams{Cursor: res.NextCursor}
		}
		want := []string{"introduce_server", "summarize_note", "weather_report"}
		if !slices.Equal(names, want) || pages != 2 {
			t.Errorf("prompts = %v in %d pages, want %v in 2", names, pages, want)
		}
	})
}

func getPrompt(t *testing.T, cs *mcp.ClientSession, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	t.Helper()
	return cs.GetPrompt(testContext(t), &mcp.GetPromptParams{Name: name, Arguments: args})
}

func TestGetPrompts(t *testing.T) {
	tests := []struct {
		name string
		args map[string]string
		want string // in the last message's text
	}{
		{"introduce_server", nil, "three sentences"},
		{"summarize_note", map[string]string{"name": "welcome"}, "one sentence"},
		{"summarize_note", map[string]string{"name": "welcome", "style": "detailed"}, "short paragraph"},
		{"weather_report", map[string]string{"city": "Oslo"}, "-3.0 °C"},
		{"weather_report", map[string]string{"city": "oslo", "unit": "fahrenheit"}, "26.6 °F"},
	}
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		for _, tt := range tests {
			res, err := getPrompt(t, cs, tt.name, tt.args)
			if err != nil {
				t.Errorf("%s %v: %v", tt.name, tt.args, err)
				continue
			}
			last := res.Messages[len(res.Messages)-1]
			if text, ok := last.Content.(*mcp.TextContent); !ok || last.Role != "user" || !strings.Contains(text.Text, tt.want) {
				t.Errorf("%s %v: last message %+v lacks %q", tt.name, tt.args, last.Content, tt.want)
			}
		}
	})
}

func TestSummarizeNoteEmbedsTheNote(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	res, err := getPrompt(t, cs, "summarize_note", map[string]string{"name": "welcome"})
	if err != nil {
		t.Fatal(err)
	}
	embedded, ok := res.Messages[0].Content.(*mcp.EmbeddedResource)
	if !ok || embedded.Resource.URI != "notes://welcome" || embedded.Resource.Text != welcomeEntry {
		t.Errorf("first message = %+v", res.Messages[0].Content)
	}
}

func TestBadPromptRequestsAreInvalidParams(t *testing.T) {
	tests := []struct {
		name string
		args map[string]string
	}{
		{"no_such_prompt", nil},
		{"summarize_note", nil},                                                 // required argument missing
		{"summarize_note", map[string]string{"name": "nope"}},                   // no such note
		{"summarize_note", map[string]string{"name": "welcome", "tone": "sad"}}, // unknown argument
		{"weather_report", map[string]string{"city": "Atlantis"}},
		{"weather_report", map[string]string{"city": "Lima", "unit": "kelvin"}},
	}
	cs, _ := connect(t, rev20251125)
	for _, tt := range tests {
		_, err := getPrompt(t, cs, tt.name, tt.args)
		wantCode(t, err, -32602, fmt.Sprintf("%s %v", tt.name, tt.args))
	}
}
