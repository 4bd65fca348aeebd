package driver

import "encoding/json"

// The driver's answers to server requests are deterministic, so that two
// runs against the same server record the same bytes.

// RootURI is the root the driver offers unless told otherwise.
const RootURI = "file:///tmp/mcpverdict-root"

// handle answers a request the server sent (2025-11-25).
func (d *run) handle(method string, params json.RawMessage) (any, *RPCError) {
	reply, rpcErr := d.reply(method, params)
	if reply == nil && rpcErr == nil {
		d.note("the server sent request %s, which the driver does not answer", method)
	}
	if m, ok := reply.(map[string]any); ok && d.stateless() {
		// A server that sends a request in a stateless session breaks its
		// revision, but the driver's answer still keeps it: every
		// 2026-07-28 result names its resultType.
		m["resultType"] = "complete"
	}
	return reply, rpcErr
}

// reply is the driver's answer to a server request, sent as a response
// (2025-11-25) or as an input response of a retried request (2026-07-28).
// Nil and nil mean the driver has no answer for the method.
func (d *run) reply(method string, params json.RawMessage) (any, *RPCError) {
	switch method {
	case "ping":
		return map[string]any{}, nil
	case "roots/list":
		return d.rootsReply(), nil
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

func (d *run) rootsReply() map[string]any {
	roots := make([]any, len(d.opts.Roots))
	for i, uri := range d.opts.Roots {
		roots[i] = map[string]any{"uri": uri, "name": "mcpverdict"}
	}
	return map[string]any{"roots": roots}
}

// elicitReply accepts a form elicitation with content built from its
// requested schema, accepts a URL elicitation (no content: the driver stands
// for a user who agreed to open the link) and declines a form it cannot fill.
func elicitReply(params json.RawMessage) any {
	var p struct {
		Mode            string          `json:"mode"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode == "url" {
		return map[string]any{"action": "accept"}
	}
	content, ok := BuildArguments(p.RequestedSchema)
	if !ok {
		return map[string]any{"action": "decline"}
	}
	return map[string]any{"action": "accept", "content": content}
}
