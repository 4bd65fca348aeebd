package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// maxReads bounds how many resources and prompts the driver reads: enough
// to judge the clauses, not a crawl of a large server.
const maxReads = 10

// cancelWait is how long the driver waits for an answer to a request it
// cancelled before moving on.
const cancelWait = 500 * time.Millisecond

func (d *run) resources(ctx context.Context) {
	if !d.has("resources") {
		return
	}
	d.step("resources/list")
	var uris []string
	d.listAll(ctx, "resources/list", "resources", func(raw json.RawMessage) {
		var r struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(raw, &r) == nil && r.URI != "" {
			uris = append(uris, r.URI)
		}
	})
	d.step("resources/templates/list")
	d.listAll(ctx, "resources/templates/list", "resourceTemplates", func(json.RawMessage) {})
	for i, uri := range uris {
		if i == maxReads || d.hung {
			break
		}
		d.step("resources/read " + uri)
		d.call(ctx, "resources/read", map[string]any{"uri": uri})
	}
	if len(uris) > 0 && d.has("resources", "subscribe") {
		d.step("resources/subscribe")
		d.call(ctx, "resources/subscribe", map[string]any{"uri": uris[0]})
		d.call(ctx, "resources/unsubscribe", map[string]any{"uri": uris[0]})
	}
}

type promptArg struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

type prompt struct {
	Name      string      `json:"name"`
	Arguments []promptArg `json:"arguments"`
}

func (d *run) prompts(ctx context.Context) {
	if !d.has("prompts") {
		return
	}
	d.step("prompts/list")
	var list []prompt
	d.listAll(ctx, "prompts/list", "prompts", func(raw json.RawMessage) {
		var p prompt
		if json.Unmarshal(raw, &p) == nil && p.Name != "" {
			list = append(list, p)
		}
	})
	for i, p := range list {
		if i == maxReads || d.hung {
			break
		}
		d.step("prompts/get " + p.Name)
		d.call(ctx, "prompts/get", map[string]any{"name": p.Name, "arguments": d.promptArguments(ctx, p)})
	}
}

// promptArguments fills every required argument, with the server's first
// completion for it when it offers completions, else a plain word.
func (d *run) promptArguments(ctx context.Context, p prompt) map[string]string {
	args := map[string]string{}
	for _, a := range p.Arguments {
		if a.Required {
			args[a.Name] = d.completeValue(ctx, p.Name, a.Name)
		}
	}
	return args
}

func (d *run) completeValue(ctx context.Context, promptName, arg string) string {
	if !d.has("completions") {
		return "mcpverdict"
	}
	res, err := d.call(ctx, "completion/complete", map[string]any{
		"ref": map[string]any{"type": "ref/prompt", "name": promptName}, "argument": map[string]any{"name": arg, "value": ""},
	})
	var r struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if err != nil || json.Unmarshal(res, &r) != nil || len(r.Completion.Values) == 0 {
		return "mcpverdict"
	}
	return r.Completion.Values[0]
}

// complete exercises completion once even when no prompt has a required
// argument, so the capability is judged.
func (d *run) complete(ctx context.Context) {
	if !d.has("completions") || !d.has("prompts") {
		return
	}
	d.step("completion/complete")
	d.call(ctx, "completion/complete", map[string]any{
		"ref": map[string]any{"type": "ref/prompt", "name": "mcpverdict-unknown-prompt"}, "argument": map[string]any{"name": "x", "value": ""},
	})
}

// callable lists the tools the policy allows and whose arguments the
// driver can build.
func (d *run) callable() []tool {
	var out []tool
	for _, t := range d.tools {
		readOnly := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
		if d.opts.Call == CallNone || (d.opts.Call == CallReadOnly && !readOnly) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func (d *run) callTools(ctx context.Context) {
	for _, t := range d.callable() {
		if d.hung {
			return
		}
		args, ok := BuildArguments(t.InputSchema)
		if !ok {
			d.note(fmt.Sprintf("tools/call %s: skipped, its input schema asks for arguments the driver cannot build", t.Name))
			continue
		}
		d.step("tools/call " + t.Name)
		token := fmt.Sprintf("progress-%s", t.Name)
		d.call(ctx, "tools/call", map[string]any{"name": t.Name, "arguments": args, "_meta": map[string]any{"progressToken": token}})
	}
}

// cancelOne calls the first callable tool again and cancels the request the
// moment it has left, so cancellation of an in-flight request is exercised.
func (d *run) cancelOne(ctx context.Context) {
	tools := d.callable()
	if len(tools) == 0 || d.hung {
		return
	}
	t := tools[0]
	args, ok := BuildArguments(t.InputSchema)
	if !ok {
		return
	}
	d.step("cancellation")
	// A server honouring the cancellation never answers, so the wait is short.
	ctx, cancel := context.WithTimeout(ctx, cancelWait)
	defer cancel()
	id := d.client.NextID()
	d.result.Requests++
	d.client.CallWithID(ctx, id, "tools/call", d.withMeta(map[string]any{"name": t.Name, "arguments": args}), func() {
		d.client.Notify("notifications/cancelled", map[string]any{"requestId": id, "reason": "mcpverdict exercises cancellation"})
	})
}
