package driver

import (
	"context"
	"encoding/json"
	"time"
)

// cancelWait is how long the driver waits, after cancelling a call, for
// whatever the server still sends about it, so that the trace shows whether
// the server went on with the call.
const cancelWait = time.Second

// inFlightWait is how long the cancellation step waits for a first progress
// notification before cancelling a call it has no answer to yet.
const inFlightWait = 300 * time.Millisecond

// toolRejecter is a Conn that refuses some tool definitions: over HTTP, a
// 2026-07-28 client must leave out a tool whose x-mcp-header annotations
// break the rules.
type toolRejecter interface {
	RejectedTool(name string) (string, bool)
}

// callable lists the tools the policy allows and the transport accepts.
func (d *run) callable() []tool {
	var out []tool
	for _, t := range d.tools {
		readOnly := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
		if d.opts.Call == CallNone || (d.opts.Call == CallReadOnly && !readOnly) {
			continue
		}
		if r, ok := d.client.conn.(toolRejecter); ok {
			if reason, bad := r.RejectedTool(t.Name); bad {
				d.note("tools/call %s: not called, its definition is invalid over HTTP: %s", t.Name, reason)
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// callTools calls every callable tool once, each call with a progress
// token (and, stateless, a log level), and remembers the first whose call
// reported progress for the cancellation step.
func (d *run) callTools(ctx context.Context, f *found) {
	for _, t := range d.callable() {
		if d.ended() != nil {
			return
		}
		if d.taskRequired(t) {
			continue // the tasks step calls it, as a task
		}
		args, ok := SmallArguments(t.InputSchema)
		if !ok {
			d.note("tools/call %s: skipped, its input schema asks for arguments the driver cannot build", t.Name)
			continue
		}
		d.step("tools/call " + t.Name)
		params := map[string]any{"name": t.Name, "arguments": args}
		token, _ := d.resolve(ctx, "tools/call", params, callOpts{progress: true, logLevel: true})
		if f.slow == nil && d.progress.count(token) > 0 {
			f.slow = &t
		}
	}
	if f.slow == nil {
		f.slow = d.durationTool()
	}
}

// durationTool is the first callable tool that takes a duration argument.
func (d *run) durationTool() *tool {
	for _, t := range d.callable() {
		if hasDurationArgument(t.InputSchema) {
			return &t
		}
	}
	return nil
}

// cancelOne calls the slow tool again and cancels the call while it is in
// flight: after its first progress notification, or, for a tool that
// reports none, after a short wait with no answer.
func (d *run) cancelOne(ctx context.Context, f *found) {
	if f.slow == nil {
		if len(d.callable()) > 0 {
			d.note("cancellation: not exercised, no callable tool reports progress or takes a duration argument")
		}
		return
	}
	args, ok := CancellableArguments(f.slow.InputSchema)
	if !ok {
		return
	}
	d.step("cancellation of tools/call " + f.slow.Name)
	id, ch, err := d.begin("tools/call", map[string]any{"name": f.slow.Name, "arguments": args}, callOpts{progress: true})
	if err != nil {
		return
	}
	select {
	case <-d.progress.arrived(progressToken(id)):
	case <-time.After(inFlightWait):
	case r, ok := <-ch:
		d.note("cancellation: tools/call %s finished before it could be cancelled (%v)", f.slow.Name, ok && r.Err == nil)
		return
	}
	d.cancel(id, "mcpverdict exercises cancellation")
	d.awaitCancelled(ctx, id, ch)
}

// awaitCancelled waits a moment for a late answer to a cancelled call: a
// server that honours the cancellation sends none.
func (d *run) awaitCancelled(ctx context.Context, id int64, ch <-chan Reply) {
	d.waitAnswer(ctx, id, ch, cancelWait)
}

// resolve sends a request that may, stateless, be answered with an
// input_required result, and completes it: it answers the input requests
// with the driver's replies and retries with a new id, echoing the
// requestState, for a few rounds. It returns the progress token of the last
// attempt.
func (d *run) resolve(ctx context.Context, method string, params map[string]any, o callOpts) (string, error) {
	for round := 0; ; round++ {
		id, ch, err := d.begin(method, params, o)
		if err != nil {
			return "", err
		}
		res, err := d.await(ctx, method, id, ch, o)
		next, more := d.inputRequired(res)
		if err != nil || !more {
			return progressToken(id), err
		}
		if round == maxInputRounds {
			d.note("%s: still input_required after %d rounds; the driver gave up", method, maxInputRounds)
			return progressToken(id), nil
		}
		params = retryParams(params, next)
	}
}

// maxInputRounds bounds the multi round-trip retries of one request.
const maxInputRounds = 3

type inputRequired struct {
	ResultType    string `json:"resultType"`
	InputRequests map[string]struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	} `json:"inputRequests"`
	RequestState *string `json:"requestState"`
}

// inputRequired reads an input_required result into the fields of the retry.
func (d *run) inputRequired(res json.RawMessage) (map[string]any, bool) {
	var r inputRequired
	if !d.stateless() || json.Unmarshal(res, &r) != nil || r.ResultType != "input_required" {
		return nil, false
	}
	responses := map[string]any{}
	for key, req := range r.InputRequests {
		reply, rpcErr := d.reply(req.Method, req.Params)
		if reply == nil || rpcErr != nil {
			d.note("input request %q: the driver cannot answer %s", key, req.Method)
			continue
		}
		responses[key] = reply
	}
	next := map[string]any{}
	if len(r.InputRequests) > 0 {
		next["inputResponses"] = responses
	}
	if r.RequestState != nil {
		next["requestState"] = *r.RequestState
	}
	return next, true
}

// retryParams is the original request's params with the input responses
// and request state of the last round, and nothing left from earlier ones.
func retryParams(params, next map[string]any) map[string]any {
	out := cloneMap(params)
	delete(out, "inputResponses")
	delete(out, "requestState")
	for k, v := range next {
		out[k] = v
	}
	return out
}
