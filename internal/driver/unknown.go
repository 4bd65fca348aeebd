package driver

import "context"

// The names the driver asks for that no server has.
const (
	unknownPrompt   = "mcpverdict-no-such-prompt"
	unknownResource = "mcpverdict:///no-such-resource"
	unknownTool     = "mcpverdict-no-such-tool"
)

// unknownNames asks, in well-formed requests, for a prompt, a resource and
// a tool that do not exist, and for completions of an unknown prompt: a
// client mistaken about a name is ordinary, and the errors the server
// answers with are judged (their codes, shape and messages).
func (d *run) unknownNames(ctx context.Context, _ *found) {
	d.step("requests for names the server does not have")
	if d.has("prompts") {
		d.expectingError(ctx, "prompts/get", map[string]any{"name": unknownPrompt})
	}
	if d.has("resources") {
		d.expectingError(ctx, "resources/read", map[string]any{"uri": unknownResource})
	}
	if d.has("tools") {
		d.expectingError(ctx, "tools/call", map[string]any{"name": unknownTool, "arguments": map[string]any{}})
	}
	if d.has("completions") && d.has("prompts") {
		d.expectingError(ctx, "completion/complete", map[string]any{
			"ref": map[string]any{"type": "ref/prompt", "name": unknownPrompt}, "argument": map[string]any{"name": "x", "value": ""},
		})
	}
}

func (d *run) expectingError(ctx context.Context, method string, params map[string]any) {
	d.callWith(ctx, method, params, callOpts{expectError: true})
}
