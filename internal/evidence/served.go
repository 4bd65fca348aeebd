package evidence

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// ServedTools returns every tool the server listed in a trace, in the order
// listed: the tools of each tools/list result (every page), matched to its
// request by session and id.
func ServedTools(events []trace.Event) []canon.Value {
	var tools []canon.Value
	eachAnswer(events, func(method string) bool { return method == "tools/list" }, func(result json.RawMessage) bool {
		tools = append(tools, resultTools(result)...)
		return true
	})
	return tools
}

// eachAnswer calls answer with the result of every response to a request
// whose method asked accepts, in order, until answer returns false.
func eachAnswer(events []trace.Event, asked func(method string) bool, answer func(result json.RawMessage) bool) {
	pending := map[string]bool{}
	for _, ev := range events {
		if !ev.IsMessage() || ev.Payload == nil {
			continue
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(ev.Payload, &msg) != nil || msg.ID == nil {
			continue
		}
		key := ev.Session + "\x00" + string(msg.ID)
		switch {
		case ev.Direction == trace.ClientToServer && asked(msg.Method):
			pending[key] = true
		case ev.Direction == trace.ServerToClient && pending[key] && msg.Result != nil:
			delete(pending, key)
			if !answer(msg.Result) {
				return
			}
		}
	}
}

func resultTools(result json.RawMessage) []canon.Value {
	v, err := canon.Decode(result)
	if err != nil {
		return nil
	}
	list, _ := v.Get("tools")
	var out []canon.Value
	for _, t := range list.Items {
		if name, ok := t.Get("name"); ok && name.Kind == canon.String && t.Kind == canon.Object {
			out = append(out, t)
		}
	}
	return out
}

// ServerName returns the name the server gave in its initialize result, or
// "" when the trace holds none.
func ServerName(events []trace.Event) string {
	for _, ev := range events {
		if ev.Direction != trace.ServerToClient || ev.Payload == nil {
			continue
		}
		var msg struct {
			Result struct {
				ServerInfo struct {
					Name string `json:"name"`
				} `json:"serverInfo"`
			} `json:"result"`
		}
		if json.Unmarshal(ev.Payload, &msg) == nil && msg.Result.ServerInfo.Name != "" {
			return msg.Result.ServerInfo.Name
		}
	}
	return ""
}

// ServerSelf is the server's first answer to initialize (or, under
// 2026-07-28, to server/discover) in a trace, as received: how the
// server described itself. nil when the trace holds none.
func ServerSelf(events []trace.Event) json.RawMessage {
	var self json.RawMessage
	eachAnswer(events, func(method string) bool { return method == "initialize" || method == "server/discover" }, func(result json.RawMessage) bool {
		self = result
		return false
	})
	return self
}
