// Package driver is mcpverdict's own MCP client. It speaks JSON-RPC itself,
// with no SDK, through whatever Conn it is given (the capture layer's pipes,
// so the recorded trace is exactly what it sent), and exercises every
// capability the server declares so that as many clauses as possible have
// something to judge.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// CallPolicy says which tools the driver may call.
type CallPolicy string

// The call policies: read-only tools only (the default), every tool, none.
const (
	CallReadOnly CallPolicy = "read-only"
	CallAll      CallPolicy = "all"
	CallNone     CallPolicy = "none"
)

// Options shape a driven session.
type Options struct {
	// Revision is the protocol revision to ask for: "2025-11-25" (the
	// initialize handshake) or "2026-07-28" (stateless, per-request _meta).
	Revision string
	// Call says which tools to call.
	Call CallPolicy
	// StepTimeout bounds each request; a server that does not answer in
	// time ends the session with a note. Zero means 10 s.
	StepTimeout time.Duration
	// Progress, when set, is told which step runs (for stderr progress).
	Progress func(step string)
}

// Result says what the session did and what it could not do.
type Result struct {
	// Notes explain steps skipped, requests that failed or timed out.
	Notes []string
	// Requests counts the requests the driver sent.
	Requests int
}

// ErrHung means the server stopped answering; the session was ended.
var ErrHung = errors.New("the server stopped answering")

// run is one driven session.
type run struct {
	opts   Options
	client *Client
	caps   map[string]json.RawMessage
	tools  []tool
	mu     sync.Mutex
	result Result
	hung   bool
}

type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		ReadOnlyHint *bool `json:"readOnlyHint"`
	} `json:"annotations"`
}

// Run drives one session over conn and closes it at the end.
func Run(ctx context.Context, conn Conn, opts Options) (*Result, error) {
	if opts.Revision == "" {
		opts.Revision = "2025-11-25"
	}
	if opts.Call == "" {
		opts.Call = CallReadOnly
	}
	if opts.StepTimeout == 0 {
		opts.StepTimeout = 10 * time.Second
	}
	d := &run{opts: opts, client: NewClient(conn)}
	d.client.Handle = d.handle
	d.client.Notified = func(method string, _ json.RawMessage) {}
	d.client.Stray = func(msg []byte) { d.note(fmt.Sprintf("the server sent a message that answers nothing: %.120s", msg)) }
	d.client.Start()
	err := d.exercise(ctx)
	d.client.Close()
	select {
	case <-d.client.Done():
	case <-time.After(opts.StepTimeout):
	}
	return &d.result, err
}

func (d *run) note(s string) {
	d.mu.Lock()
	d.result.Notes = append(d.result.Notes, s)
	d.mu.Unlock()
}

func (d *run) step(name string) {
	if d.opts.Progress != nil {
		d.opts.Progress(name)
	}
}

// call sends one request under the step timeout; a timeout marks the server
// hung, after which no further request is sent.
func (d *run) call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	if d.hung {
		return nil, ErrHung
	}
	ctx, cancel := context.WithTimeout(ctx, d.opts.StepTimeout)
	defer cancel()
	d.result.Requests++
	res, err := d.client.Call(ctx, method, d.withMeta(params))
	if errors.Is(err, context.DeadlineExceeded) {
		d.hung = true
		d.note(fmt.Sprintf("%s: no answer within %s; the session was ended there", method, d.opts.StepTimeout))
		return nil, ErrHung
	}
	if err != nil {
		d.note(fmt.Sprintf("%s: %v", method, err))
	}
	return res, err
}

func (d *run) stateless() bool { return d.opts.Revision >= "2026-07-28" }

// withMeta adds the per-request protocol fields a stateless revision needs.
func (d *run) withMeta(params map[string]any) map[string]any {
	if !d.stateless() {
		return params
	}
	if params == nil {
		params = map[string]any{}
	}
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["io.modelcontextprotocol/protocolVersion"] = d.opts.Revision
	meta["io.modelcontextprotocol/clientCapabilities"] = clientCapabilities()
	meta["io.modelcontextprotocol/clientInfo"] = clientInfo()
	params["_meta"] = meta
	return params
}

func clientInfo() map[string]any {
	return map[string]any{"name": "mcpverdict-driver", "version": "1.0.0"}
}

func clientCapabilities() map[string]any {
	return map[string]any{
		"roots":       map[string]any{"listChanged": true},
		"sampling":    map[string]any{},
		"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
	}
}

// has reports whether the server declared a capability ("tools",
// "resources.subscribe").
func (d *run) has(path ...string) bool {
	raw, ok := d.caps[path[0]]
	if !ok || string(raw) == "null" || string(raw) == "false" {
		return false
	}
	if len(path) == 1 {
		return true
	}
	var sub map[string]json.RawMessage
	_ = json.Unmarshal(raw, &sub)
	v, ok := sub[path[1]]
	return ok && string(v) != "false" && string(v) != "null"
}
