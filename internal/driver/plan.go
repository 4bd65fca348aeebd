package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// discoverWait bounds how long a stateless session waits for server/discover
// before taking the server for a legacy one that stays silent.
const discoverWait = 5 * time.Second

// exercise is the session plan: negotiate, then every capability the server
// declared, each step skipped once the session cannot go on.
func (d *run) exercise(ctx context.Context) error {
	if err := d.negotiate(ctx); err != nil {
		return err
	}
	f := &found{}
	steps := []func(context.Context, *found){
		d.ping, d.setLogLevel, d.listTools, d.listResources, d.readResources, d.subscribe,
		d.prompts, d.callTools, d.cancelOne, d.tasks, d.unknownNames, d.subscriptionsListen,
	}
	for _, s := range steps {
		if err := d.ended(); err != nil {
			return err
		}
		s(ctx, f)
	}
	return d.ended()
}

// found is what the listing steps learned, for the steps after them.
type found struct {
	resources []resource
	templates []template
	prompts   []prompt
	// slow is the tool whose call reported progress, or took a duration
	// argument: the one the cancellation step calls again.
	slow *tool
}

func (d *run) negotiate(ctx context.Context) error {
	if d.stateless() {
		return d.discover(ctx)
	}
	return d.initialize(ctx)
}

func (d *run) initialize(ctx context.Context) error {
	d.step("initialize")
	res, err := d.call(ctx, "initialize", map[string]any{
		"protocolVersion": d.opts.Revision, "capabilities": clientCapabilities(d.opts.Revision), "clientInfo": clientInfo(),
	})
	if err != nil {
		return &HandshakeError{Err: err}
	}
	var r struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(res, &r) != nil || r.Capabilities == nil {
		return &HandshakeError{Err: errors.New("the initialize result has no capabilities object")}
	}
	d.caps = r.Capabilities
	if r.ProtocolVersion != "" {
		d.mu.Lock()
		d.result.Revision = r.ProtocolVersion
		d.mu.Unlock()
	}
	return d.client.Notify("notifications/initialized", nil)
}

// discover opens a stateless session. A server that answers with anything
// but a DiscoverResult or a modern error, or not at all, is a legacy one
// (the stdio backward-compatibility rule), reported as ErrLegacyServer.
func (d *run) discover(ctx context.Context) error {
	d.step("server/discover")
	id, ch, err := d.begin("server/discover", nil, callOpts{})
	if err != nil {
		return &HandshakeError{Err: err}
	}
	var reply Reply
	select {
	case r, ok := <-ch:
		if !ok {
			return &HandshakeError{Err: ErrClosed}
		}
		reply = r
	case <-time.After(min(discoverWait, d.opts.StepTimeout)):
		d.client.Abandon(id)
		return fmt.Errorf("%w: server/discover got no answer within %s", ErrLegacyServer, min(discoverWait, d.opts.StepTimeout))
	case <-ctx.Done():
		return ctx.Err()
	}
	return d.readDiscover(reply)
}

// modernCodes are the errors only a stateless-era server sends: header
// mismatch, missing client capability, unsupported protocol version.
var modernCodes = []int{-32020, -32021, -32022}

func (d *run) readDiscover(reply Reply) error {
	var rpcErr *RPCError
	if errors.As(reply.Err, &rpcErr) && slices.Contains(modernCodes, rpcErr.Code) {
		return &HandshakeError{Err: fmt.Errorf("server/discover: %w %s", rpcErr, rpcErr.Data)}
	}
	if reply.Err != nil {
		return fmt.Errorf("%w: server/discover: %v", ErrLegacyServer, reply.Err)
	}
	var r struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(reply.Result, &r) != nil || r.Capabilities == nil {
		return &HandshakeError{Err: errors.New("the server/discover result has no capabilities object")}
	}
	if !slices.Contains(r.SupportedVersions, d.opts.Revision) {
		return fmt.Errorf("%w: its server/discover result lists %q, not %s", ErrLegacyServer, r.SupportedVersions, d.opts.Revision)
	}
	d.caps = r.Capabilities
	return nil
}

func (d *run) ping(ctx context.Context, _ *found) {
	if d.stateless() {
		return // 2026-07-28 has no ping
	}
	d.step("ping")
	d.call(ctx, "ping", nil)
}

// setLogLevel asks a 2025-11-25 server for every log message before the
// tools run, so that their notifications/message are judged too; a
// stateless session asks per request instead (callOpts.logLevel).
func (d *run) setLogLevel(ctx context.Context, _ *found) {
	if !d.has("logging") || d.stateless() {
		return
	}
	d.step("logging/setLevel")
	d.call(ctx, "logging/setLevel", map[string]any{"level": "debug"})
}

// maxPages bounds how many pages of one list the driver follows.
const maxPages = 100

// listAll follows nextCursor through every page of a list method, calling
// each for every page's items under key.
func (d *run) listAll(ctx context.Context, method, key string, each func(json.RawMessage)) {
	d.step(method)
	cursor := ""
	seen := map[string]bool{}
	for page := 0; page < maxPages && d.ended() == nil; page++ {
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
		if seen[cursor] {
			d.note("%s: the server handed out cursor %q twice; the driver stopped paging", method, cursor)
			return
		}
		seen[cursor] = true
	}
}

func (d *run) listTools(ctx context.Context, _ *found) {
	if !d.has("tools") {
		return
	}
	d.listAll(ctx, "tools/list", "tools", func(raw json.RawMessage) {
		var t tool
		if json.Unmarshal(raw, &t) == nil && t.Name != "" {
			d.tools = append(d.tools, t)
		}
	})
}
