package driver

import (
	"context"
	"encoding/json"
	"fmt"
)

// exercise is the session plan: negotiate, then every capability the
// server declared, each step skipped once the server has stopped answering.
func (d *run) exercise(ctx context.Context) error {
	if err := d.negotiate(ctx); err != nil {
		return err
	}
	steps := []func(context.Context){
		d.ping, d.listTools, d.resources, d.prompts, d.complete, d.logging, d.callTools, d.cancelOne,
	}
	for _, s := range steps {
		if d.hung {
			return ErrHung
		}
		s(ctx)
	}
	return nil
}

func (d *run) negotiate(ctx context.Context) error {
	if d.stateless() {
		d.step("server/discover")
		res, err := d.call(ctx, "server/discover", nil)
		return d.readCaps(res, err)
	}
	d.step("initialize")
	res, err := d.call(ctx, "initialize", map[string]any{
		"protocolVersion": d.opts.Revision, "capabilities": clientCapabilities(), "clientInfo": clientInfo(),
	})
	if err := d.readCaps(res, err); err != nil {
		return err
	}
	return d.client.Notify("notifications/initialized", nil)
}

func (d *run) readCaps(res json.RawMessage, err error) error {
	if err != nil {
		return fmt.Errorf("the server did not complete the handshake: %w", err)
	}
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(res, &r) != nil || r.Capabilities == nil {
		return fmt.Errorf("the server's handshake result has no capabilities object")
	}
	d.caps = r.Capabilities
	return nil
}

func (d *run) ping(ctx context.Context) {
	d.step("ping")
	d.call(ctx, "ping", nil)
}

// listAll follows nextCursor through every page of a list method, calling
// each for every page's items under key.
func (d *run) listAll(ctx context.Context, method, key string, each func(json.RawMessage)) {
	cursor := ""
	for page := 0; page < 100 && !d.hung; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		res, err := d.call(ctx, method, params)
		if err != nil {
			return
		}
		var r map[string]json.RawMessage
		_ = json.Unmarshal(res, &r)
		var items []json.RawMessage
		_ = json.Unmarshal(r[key], &items)
		for _, it := range items {
			each(it)
		}
		cursor = ""
		if json.Unmarshal(r["nextCursor"], &cursor) != nil || cursor == "" {
			return
		}
	}
}

func (d *run) listTools(ctx context.Context) {
	if !d.has("tools") {
		return
	}
	d.step("tools/list")
	d.listAll(ctx, "tools/list", "tools", func(raw json.RawMessage) {
		var t tool
		if json.Unmarshal(raw, &t) == nil && t.Name != "" {
			d.tools = append(d.tools, t)
		}
	})
}

func (d *run) logging(ctx context.Context) {
	if !d.has("logging") {
		return
	}
	d.step("logging/setLevel")
	d.call(ctx, "logging/setLevel", map[string]any{"level": "debug"})
}
