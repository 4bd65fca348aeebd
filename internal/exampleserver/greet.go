package exampleserver

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// greet is the one tool that needs the user mid-call: it asks, through the
// client, what to call them. Under 2026-07-28 the call answers with an
// input_required result whose input request is a form elicitation, and the
// client retries it with the answer; under 2025-11-25 the SDK turns the same
// result into an elicitation/create request of its own and calls again with
// the answer. A client that declared no form elicitation is never asked: it
// is greeted as "friend".

type greetArgs struct {
	Greeting string `json:"greeting,omitempty" jsonschema:"the word to greet with"`
}

// nameInput is the id of greet's one input request.
const nameInput = "name"

func greetTool() *mcp.Tool {
	return newTool("greet", "Greet the user", pureQuery,
		"Asks the user, through the client's form elicitation, what to call them, and greets them by that name.",
		schemaFor[greetArgs](func(p map[string]*jsonschema.Schema) {
			withDefault(p["greeting"], "Hello")
			lengthBetween(p["greeting"], 1, 40)
		}))
}

func greet(_ context.Context, req *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
	name, answered := nameFrom(req.Params.InputResponses)
	if !answered && canElicitForm(req) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{nameInput: askName()}}, nil, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Greeting + ", " + name + "!"}}}, nil, nil
}

func askName() *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: "What should the example server call you?",
		RequestedSchema: &jsonschema.Schema{
			Type:     "object",
			Required: []string{"name"},
			Properties: map[string]*jsonschema.Schema{
				"name": {Type: "string", Title: "Name", Description: "the name to greet you by", MinLength: new(1), MaxLength: new(60)},
			},
		},
	}
}

// nameFrom reads the user's answer; a declined or cancelled elicitation, or
// an empty name, leaves "friend".
func nameFrom(responses mcp.InputResponseMap) (string, bool) {
	resp, ok := responses[nameInput]
	if !ok {
		return "friend", false
	}
	if r, isElicit := resp.(*mcp.ElicitResult); isElicit && r.Action == "accept" {
		if name, _ := r.Content["name"].(string); strings.TrimSpace(name) != "" {
			return strings.TrimSpace(name), true
		}
	}
	return "friend", true
}

// canElicitForm reports whether the client declared form elicitation: an
// empty elicitation capability means form mode, as the specification says.
func canElicitForm(req *mcp.CallToolRequest) bool {
	p := req.Session.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}
