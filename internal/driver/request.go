package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// errTimedOut is a request that outlived its step and was cancelled; the
// session goes on if the server still answers a ping.
var errTimedOut = errors.New("no answer within the step timeout; cancelled")

// callOpts are the per-request extras the driver may ask for.
type callOpts struct {
	// progress puts a progress token, made from the request id, in _meta.
	progress bool
	// logLevel opts a stateless request into log notifications.
	logLevel bool
	// timeout overrides the step timeout (the cancellation probe waits less).
	timeout time.Duration
	// expectError keeps an error answer out of the notes: the request asked
	// for one.
	expectError bool
}

// call sends one request and waits for its answer under the step timeout.
func (d *run) call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	return d.callWith(ctx, method, params, callOpts{})
}

func (d *run) callWith(ctx context.Context, method string, params map[string]any, o callOpts) (json.RawMessage, error) {
	id, ch, err := d.begin(method, params, o)
	if err != nil {
		return nil, err
	}
	return d.await(ctx, method, id, ch, o)
}

// begin sends a request and returns its id and the channel its answer
// arrives on.
func (d *run) begin(method string, params map[string]any, o callOpts) (int64, <-chan Reply, error) {
	if err := d.ended(); err != nil {
		return 0, nil, err
	}
	id := d.client.NextID()
	params = d.withMeta(params)
	if o.progress {
		metaOf(params)["progressToken"] = progressToken(id)
	}
	if o.logLevel && d.stateless() && d.has("logging") {
		metaOf(params)["io.modelcontextprotocol/logLevel"] = "debug"
	}
	if len(params) == 0 {
		params = nil
	}
	d.mu.Lock()
	d.result.Requests++
	d.mu.Unlock()
	ch, err := d.client.Begin(id, method, params)
	if err != nil {
		d.lost(err)
		return 0, nil, err
	}
	return id, ch, nil
}

// await waits for the answer, cancelling the request when it outlives its
// step and then checking that the server is still there.
func (d *run) await(ctx context.Context, method string, id int64, ch <-chan Reply, o callOpts) (json.RawMessage, error) {
	timeout := o.timeout
	if timeout <= 0 {
		timeout = d.opts.StepTimeout
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r, ok := <-ch:
		if !ok {
			d.lost(ErrClosed)
			return nil, ErrClosed
		}
		if r.Err != nil && !o.expectError {
			d.note("%s: %v", method, r.Err)
		}
		return r.Result, r.Err
	case <-t.C:
		d.client.Abandon(id)
		d.cancel(id, fmt.Sprintf("no answer within %s", timeout))
		d.note("%s: no answer within %s; the driver cancelled it", method, timeout)
		d.checkAlive(ctx, method)
		return nil, errTimedOut
	case <-ctx.Done():
		d.client.Abandon(id)
		d.stop(ctx.Err())
		return nil, ctx.Err()
	}
}

// lost ends the session when the connection is gone.
func (d *run) lost(err error) {
	if errors.Is(err, ErrClosed) && d.ended() == nil {
		d.note("the server closed the connection")
	}
	d.stop(err)
}

// cancel tells the server to stop a request: over stdio (and 2025-11-25
// HTTP) with notifications/cancelled, over 2026-07-28 HTTP by closing the
// request's own response stream, which that revision makes the signal.
func (d *run) cancel(id int64, reason string) {
	if sc, ok := d.client.conn.(streamCanceller); ok && d.stateless() {
		sc.CancelStream(json.RawMessage(fmt.Sprint(id)))
		return
	}
	_ = d.client.Notify("notifications/cancelled", d.withNotificationMeta(map[string]any{"requestId": id, "reason": reason}))
}

// checkAlive pings the server (server/discover where ping does not exist)
// after a request timed out: a server that answers is slow, not hung.
func (d *run) checkAlive(ctx context.Context, after string) {
	method, params := "ping", map[string]any(nil)
	if d.stateless() {
		method = "server/discover"
	}
	id, ch, err := d.begin(method, params, callOpts{})
	if err != nil {
		return
	}
	if !d.waitAnswer(ctx, id, ch, d.opts.StepTimeout) && ctx.Err() == nil && d.ended() == nil {
		d.note("after %s timed out, %s got no answer within %s either: the server counts as hung and the session ended there", after, method, d.opts.StepTimeout)
		d.stop(ErrHung)
	}
}

// waitAnswer waits at most timeout for the answer on ch and reports whether
// it came; a request left unanswered is abandoned.
func (d *run) waitAnswer(ctx context.Context, id int64, ch <-chan Reply, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case _, ok := <-ch:
		if !ok {
			d.lost(ErrClosed)
		}
		return ok
	case <-t.C:
	case <-ctx.Done():
		d.stop(ctx.Err())
	}
	d.client.Abandon(id)
	return false
}

func progressToken(id int64) string { return fmt.Sprintf("mcpverdict-progress-%d", id) }

// metaOf returns params' _meta object, creating it.
func metaOf(params map[string]any) map[string]any {
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		params["_meta"] = meta
	}
	return meta
}

// withMeta copies params (never returning nil) and adds the per-request protocol fields a
// stateless revision requires on every request.
func (d *run) withMeta(params map[string]any) map[string]any {
	out := make(map[string]any, len(params)+1)
	for k, v := range params {
		out[k] = v
	}
	if m, ok := out["_meta"].(map[string]any); ok {
		out["_meta"] = cloneMap(m)
	}
	if !d.stateless() {
		return out
	}
	meta := metaOf(out)
	meta["io.modelcontextprotocol/protocolVersion"] = d.opts.Revision
	meta["io.modelcontextprotocol/clientCapabilities"] = clientCapabilities(d.opts.Revision)
	meta["io.modelcontextprotocol/clientInfo"] = clientInfo()
	return out
}

// withNotificationMeta adds the protocol version to a stateless
// notification's _meta, so that every message says which revision it speaks.
func (d *run) withNotificationMeta(params map[string]any) map[string]any {
	if d.stateless() {
		metaOf(params)["io.modelcontextprotocol/protocolVersion"] = d.opts.Revision
	}
	return params
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func clientInfo() map[string]any {
	return map[string]any{"name": "mcpverdict-driver", "version": "1.0.0"}
}

// clientCapabilities are the driver's: roots (with list-change
// notifications where the revision has them), sampling, and elicitation in
// both its modes, each as the revision has it.
func clientCapabilities(revision string) map[string]any {
	rev := spec.Revision(revision)
	roots := map[string]any{"listChanged": true}
	if rev.Stateless() {
		roots = map[string]any{}
	}
	caps := map[string]any{"roots": roots, "sampling": map[string]any{}}
	switch {
	case rev.AtLeast(Legacy):
		caps["elicitation"] = map[string]any{"form": map[string]any{}, "url": map[string]any{}}
	case rev.AtLeast("2025-06-18"):
		// Elicitation came with 2025-06-18, its modes with 2025-11-25.
		caps["elicitation"] = map[string]any{}
	}
	return caps
}
