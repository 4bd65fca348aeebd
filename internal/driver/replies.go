package driver

import "encoding/json"

// The driver's answers to server requests are deterministic, so two runs
// against the same server record the same bytes.

// RootURI is the one root the driver offers.
const RootURI = "file:///tmp/mcpverdict-root"

func (d *run) handle(method string, params json.RawMessage) (any, *RPCError) {
	d.note("server request " + method)
	switch method {
	case "ping":
		return map[string]any{}, nil
	case "roots/list":
		return map[string]any{"roots": []any{map[string]any{"uri": RootURI, "name": "mcpverdict"}}}, nil
	case "sampling/createMessage":
		return map[string]any{
			"role": "assistant", "model": "mcpverdict-deterministic", "stopReason": "endTurn",
			"content": map[string]any{"type": "text", "text": "This is a fixed reply from the mcpverdict driver."},
		}, nil
	case "elicitation/create":
		return elicitReply(params), nil
	}
	return nil, nil
}

// elicitReply accepts a form elicitation with values built from its
// requested schema, and declines anything it cannot fill (URL mode).
func elicitReply(params json.RawMessage) any {
	var p struct {
		Mode            string          `json:"mode"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode == "url" {
		return map[string]any{"action": "decline"}
	}
	content, ok := BuildArguments(p.RequestedSchema)
	if !ok {
		return map[string]any{"action": "decline"}
	}
	return map[string]any{"action": "accept", "content": content}
}
