package exampleserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var wantTools = []string{"add", "echo", "forget", "greet", "logo", "lookup_weather", "remember", "slow_count"}

// listToolPages follows nextCursor to the end, returning each page.
func listToolPages(t *testing.T, cs *mcp.ClientSession) [][]*mcp.Tool {
	t.Helper()
	var pages [][]*mcp.Tool
	params := &mcp.ListToolsParams{}
	for {
		res, err := cs.ListTools(testContext(t), params)
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		pages = append(pages, res.Tools)
		if res.NextCursor == "" {
			return pages
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

func toolsByName(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	tools := map[string]*mcp.Tool{}
	for _, page := range listToolPages(t, cs) {
		for _, tool := range page {
			tools[tool.Name] = tool
		}
	}
	return tools
}

func TestToolListIsPaginated(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		pages := listToolPages(t, cs)
		if len(pages) != (len(wantTools)+pageSize-1)/pageSize {
			t.Errorf("got %d pages, want %d of %d tools", len(pages), (len(wantTools)+pageSize-1)/pageSize, pageSize)
		}
		var names []string
		for _, page := range pages {
			if len(page) > pageSize {
				t.Errorf("a page holds %d tools, more than %d", len(page), pageSize)
			}
			for _, tool := range page {
				names = append(names, tool.Name)
			}
		}
		if !slices.Equal(names, wantTools) {
			t.Errorf("tools = %v, want %v", names, wantTools)
		}
	})
}

func TestInvalidCursorIsInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	_, err := cs.ListTools(testContext(t), &mcp.ListToolsParams{Cursor: "not a cursor"})
	wantCode(t, err, -32602, "tools/list with a bad cursor")
}

// Every tool must spell out all four hints and a title on the wire, since
// the specification's defaults differ between hints.
func TestEveryToolStatesEveryHint(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	for name, tool := range toolsByName(t, cs) {
		raw, err := json.Marshal(tool.Annotations)
		if err != nil {
			t.Fatal(err)
		}
		var hints map[string]any
		if err := json.Unmarshal(raw, &hints); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if _, ok := hints[key]; !ok {
				t.Errorf("%s: annotations %s lack %s", name, raw, key)
			}
		}
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("%s: no title or description", name)
		}
	}
}

func TestToolBehaviourHints(t *testing.T) {
	want := map[string]behaviour{
		"echo":           pureQuery,
		"add":            pureQuery,
		"logo":           pureQuery,
		"slow_count":     pureQuery,
		"lookup_weather": pureQuery,
		"greet":          pureQuery,
		"remember":       {idempotent: true},
		"forget":         {destructive: true, idempotent: true},
	}
	cs, _ := connect(t, rev20251125)
	for name, tool := range toolsByName(t, cs) {
		a := tool.Annotations
		got := behaviour{readOnly: a.ReadOnlyHint, destructive: *a.DestructiveHint, idempotent: a.IdempotentHint, openWorld: *a.OpenWorldHint}
		if got != want[name] {
			t.Errorf("%s: hints %+v, want %+v", name, got, want[name])
		}
	}
}

func TestEcho(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		res := callTool(t, cs, "echo", map[string]any{"message": "hello, verdict"})
		if res.IsError || textOf(t, res.Content) != "hello, verdict" {
			t.Errorf("echo = %+v", res)
		}
		if res.StructuredContent != nil {
			t.Errorf("echo has no output schema but returned structured content %v", res.StructuredContent)
		}
	})
}

func TestAddReturnsStructuredContentMatchingItsSchema(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		tool := toolsByName(t, cs)["add"]
		res := callTool(t, cs, "add", map[string]any{"a": 2, "b": 40.5})
		if res.IsError {
			t.Fatalf("add failed: %v", textOf(t, res.Content))
		}
		validate(t, tool.OutputSchema, res.StructuredContent)
		var out addResult
		if err := remarshal(res.StructuredContent, &out); err != nil || out.Sum != 42.5 {
			t.Errorf("structuredContent = %v (%v), want sum 42.5", res.StructuredContent, err)
		}
		// The specification asks for the same JSON as text, for older clients.
		var fromText addResult
		if err := json.Unmarshal([]byte(textOf(t, res.Content)), &fromText); err != nil || fromText != out {
			t.Errorf("text content %q does not carry the structured content", textOf(t, res.Content))
		}
	})
}

func TestBadInputIsAToolError(t *testing.T) {
	tests := []struct {
		tool string
		args map[string]any
		want string // in the error text
	}{
		{"add", map[string]any{"a": "two", "b": 2}, "a"},
		{"add", map[string]any{"a": 1e308, "b": 1e308}, "overflows"},
		{"echo", map[string]any{}, "message"},
		{"slow_count", map[string]any{"to": 11}, "to"},
		{"remember", map[string]any{"name": "Not A Name", "line": "x"}, "name"},
		{"lookup_weather", map[string]any{"city": "Atlantis"}, "Atlantis"},
		{"logo", map[string]any{"size": 32}, "size"},
	}
	cs, _ := connect(t, rev20251125)
	for _, tt := range tests {
		res := callTool(t, cs, tt.tool, tt.args)
		if !res.IsError {
			t.Errorf("%s %v: not an error: %+v", tt.tool, tt.args, res)
			continue
		}
		if text := textOf(t, res.Content); !strings.Contains(text, tt.want) {
			t.Errorf("%s %v: error %q does not mention %q", tt.tool, tt.args, text, tt.want)
		}
	}
}

func TestUnknownToolIsInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "no_such_tool"})
	wantCode(t, err, -32602, "tools/call no_such_tool")
}

func TestLogoReturnsThePNG(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	res := callTool(t, cs, "logo", nil)
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" || !bytes.Equal(img.Data, logoPNG()) {
		t.Fatalf("logo = %+v", res.Content)
	}
	if !bytes.HasPrefix(img.Data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("logo is not a PNG")
	}
}

func TestLookupWeather(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		tool := toolsByName(t, cs)["lookup_weather"]
		res := callTool(t, cs, "lookup_weather", map[string]any{"city": "lisbon"})
		if res.IsError {
			t.Fatalf("lookup_weather failed: %s", textOf(t, res.Content))
		}
		validate(t, tool.OutputSchema, res.StructuredContent)
		var got observation
		if err := remarshal(res.StructuredContent, &got); err != nil || got.City != "Lisbon" || got.TemperatureC != 21 {
			t.Errorf("structuredContent = %v", res.StructuredContent)
		}
	})
}

func TestRememberAndForget(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		tools := toolsByName(t, cs)
		first := callTool(t, cs, "remember", map[string]any{"name": "shopping", "line": "milk"})
		again := callTool(t, cs, "remember", map[string]any{"name": "shopping", "line": "milk"})
		validate(t, tools["remember"].OutputSchema, first.StructuredContent)
		var r1, r2 rememberResult
		remarshal(first.StructuredContent, &r1)
		remarshal(again.StructuredContent, &r2)
		if r1 != (rememberResult{Note: "notes://shopping", Added: true, Lines: 1}) || r2 != (rememberResult{Note: "notes://shopping", Added: false, Lines: 1}) {
			t.Errorf("remember twice = %+v then %+v; the second must change nothing", r1, r2)
		}
		if link, ok := first.Content[len(first.Content)-1].(*mcp.ResourceLink); !ok || link.URI != "notes://shopping" {
			t.Errorf("remember content %v lacks a link to the note", first.Content)
		}
		gone := callTool(t, cs, "forget", map[string]any{"name": "shopping"})
		twice := callTool(t, cs, "forget", map[string]any{"name": "shopping"})
		validate(t, tools["forget"].OutputSchema, gone.StructuredContent)
		var f1, f2 forgetResult
		remarshal(gone.StructuredContent, &f1)
		remarshal(twice.StructuredContent, &f2)
		if !f1.Existed || f2.Existed {
			t.Errorf("forget twice = %+v then %+v", f1, f2)
		}
	})
}

// The SDK panics on null arguments for a tool whose schema has defaults;
// the server must refuse them as the protocol error they are, and live on.
func TestNonObjectArgumentsAreInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	for _, args := range []any{json.RawMessage("null"), []int{1}, "to=3"} {
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "slow_count", Arguments: args})
		wantCode(t, err, -32602, fmt.Sprintf("arguments %s", args))
	}
	if res := callTool(t, cs, "echo", map[string]any{"message": "still here"}); textOf(t, res.Content) != "still here" {
		t.Errorf("server did not survive: %+v", res)
	}
}
