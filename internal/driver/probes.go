package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Probe names a rejection probe: one thing a conforming client never sends,
// sent in a session of its own so that the server's answer to it is judged.
type Probe string

// The rejection probes.
const (
	ProbeBeforeInitialize     Probe = "before-initialize"
	ProbeMissingMeta          Probe = "missing-meta"
	ProbeUnknownMethod        Probe = "unknown-method"
	ProbeInvalidParams        Probe = "invalid-params"
	ProbeInvalidCursor        Probe = "invalid-cursor"
	ProbeReusedID             Probe = "reused-id"
	ProbeMalformedJSON        Probe = "malformed-json"
	ProbeBatch                Probe = "batch"
	ProbeWrongVersionHeader   Probe = "wrong-version-header"
	ProbeMissingVersionHeader Probe = "missing-version-header"
	// ProbeQueryToken sends the bearer token in the query string, with no
	// Authorization header (HTTP, with a token only: AuthProbes).
	ProbeQueryToken Probe = "query-token"
	// ProbeInvalidToken sends a made-up bearer token in the Authorization
	// header (HTTP, with a token only: AuthProbes).
	ProbeInvalidToken Probe = "invalid-token"
)

// probeWait is how long a probe waits for the server's answer: a server may
// rightly ignore what it cannot parse.
const probeWait = 2 * time.Second

// Probes lists the probes that apply to a revision over a transport
// ("stdio" or "http"): a request before initialize where there is a
// handshake, one without the per-request _meta where there is none, and the
// header probes over HTTP only.
func Probes(revision, transport string) []Probe {
	first := ProbeBeforeInitialize
	if spec.Revision(revision).Stateless() {
		first = ProbeMissingMeta
	}
	list := []Probe{first, ProbeUnknownMethod, ProbeInvalidParams, ProbeInvalidCursor, ProbeReusedID, ProbeMalformedJSON, ProbeBatch}
	if transport == "http" {
		list = append(list, ProbeWrongVersionHeader, ProbeMissingVersionHeader)
	}
	return list
}

// headerEditor is a Conn that can change the headers of its next request
// (streamable HTTP).
type headerEditor interface {
	EditNext(func(http.Header))
}

// RunProbe drives one probe session over conn: the handshake (after the
// probe, for a request before initialize), the probe, a wait for the
// answer, and a ping (or server/discover) that shows whether the server
// survived it.
func RunProbe(ctx context.Context, conn Conn, probe Probe, opts Options) (*Result, error) {
	d := newRun(conn, opts)
	err := d.probe(ctx, probe)
	d.finish()
	return d.snapshot(), err
}

func (d *run) probe(ctx context.Context, probe Probe) error {
	if probe == ProbeBeforeInitialize {
		// A ping, which is allowed before initialize, waits out the
		// server's start, so that the probe's short wait is for its answer.
		d.step("ping before initialize")
		d.call(ctx, "ping", nil)
		d.step("probe " + string(probe))
		d.probeCall(ctx, "tools/list", nil)
	}
	if err := d.negotiate(ctx); err != nil {
		return err
	}
	if probe != ProbeBeforeInitialize {
		d.step("probe " + string(probe))
		if err := d.sendProbe(ctx, probe); err != nil {
			return err
		}
	}
	d.step("alive after the probe")
	d.checkAlive(ctx, "the probe")
	// A server may still be sending what the handshake set off (a roots/list
	// request); a moment lets the driver answer it before the session ends.
	sleepCtx(ctx, min(probeWait, d.opts.StepTimeout)/4)
	return d.ended()
}

func (d *run) sendProbe(ctx context.Context, probe Probe) error {
	switch probe {
	case ProbeMissingMeta:
		return d.rawProbe(ctx, map[string]any{"jsonrpc": "2.0", "id": d.client.NextID(), "method": "tools/list", "params": map[string]any{}})
	case ProbeUnknownMethod:
		d.probeCall(ctx, "mcpverdict/no-such-method", nil)
	case ProbeInvalidParams:
		d.invalidParams(ctx)
	case ProbeInvalidCursor:
		d.invalidCursor(ctx)
	case ProbeReusedID:
		return d.reusedID(ctx)
	case ProbeMalformedJSON:
		return d.rawBytesProbe(ctx, []byte(`{"jsonrpc": "2.0", "id": 9999, "method": "ping", "params": {`))
	case ProbeBatch:
		return d.rawBytesProbe(ctx, d.batch())
	case ProbeWrongVersionHeader, ProbeMissingVersionHeader:
		return d.headerProbe(ctx, probe)
	case ProbeQueryToken, ProbeInvalidToken:
		return d.authProbe(ctx, probe)
	default:
		return fmt.Errorf("unknown probe %q", probe)
	}
	return nil
}

// cheapMethod is a request every server of the revision answers at no cost.
func (d *run) cheapMethod() string {
	if d.stateless() {
		return "server/discover"
	}
	return "ping"
}

// probeCall sends a request and waits a moment for its answer; whatever the
// server does is the evidence, so neither an error nor silence ends the
// session.
func (d *run) probeCall(ctx context.Context, method string, params map[string]any) {
	_, _ = d.callWith(ctx, method, params, callOpts{timeout: min(probeWait, d.opts.StepTimeout), expectError: true})
}

// invalidParams sends, for each method the server offers, a request whose
// parameters break the method's schema: a tool call and a prompt without
// their required arguments (or without a name, when none requires any), a
// resource that is not a URI, a completion without its argument, a log
// level that does not exist.
func (d *run) invalidParams(ctx context.Context) {
	sent := false
	for _, req := range d.invalidRequests(ctx) {
		if d.has(req.capability) {
			d.probeCall(ctx, req.method, req.params)
			sent = true
		}
	}
	if !sent {
		d.note("invalid-params: the server declares no method with parameters; nothing was sent")
	}
}

type invalidRequest struct {
	capability, method string
	params             map[string]any
}

func (d *run) invalidRequests(ctx context.Context) []invalidRequest {
	out := []invalidRequest{
		{"tools", "tools/call", d.toolWithoutArguments(ctx)},
		{"prompts", "prompts/get", map[string]any{"arguments": map[string]string{}}},
		{"resources", "resources/read", map[string]any{"uri": "not a URI at all"}},
		{"completions", "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": unknownPrompt}}},
	}
	if !d.stateless() {
		out = append(out, invalidRequest{"logging", "logging/setLevel", map[string]any{"level": "not-a-level"}})
	}
	return out
}

// toolWithoutArguments is a call of the first tool that requires an
// argument, with none; or, if no tool requires one, a call with no name.
func (d *run) toolWithoutArguments(ctx context.Context) map[string]any {
	if !d.has("tools") {
		return nil
	}
	d.listTools(ctx, nil)
	for _, t := range d.tools {
		var s schema
		if json.Unmarshal(t.InputSchema, &s) == nil && len(s.Required) > 0 {
			return map[string]any{"name": t.Name, "arguments": map[string]any{}}
		}
	}
	return map[string]any{"arguments": map[string]any{}}
}

// invalidCursor asks for a page of a list with a cursor the server never
// handed out, which it should refuse with -32602.
func (d *run) invalidCursor(ctx context.Context) {
	for _, c := range []struct{ capability, method string }{
		{"tools", "tools/list"}, {"prompts", "prompts/list"}, {"resources", "resources/list"},
	} {
		if d.has(c.capability) {
			d.probeCall(ctx, c.method, map[string]any{"cursor": "mcpverdict-invalid-cursor"})
			return
		}
	}
	d.note("invalid-cursor: the server declares no list; nothing was sent")
}

// reusedID sends a request with the id of one still in flight.
func (d *run) reusedID(ctx context.Context) error {
	id, ch, err := d.begin(d.cheapMethod(), nil, callOpts{})
	if err != nil {
		return err
	}
	again := map[string]any{"jsonrpc": "2.0", "id": id, "method": d.cheapMethod()}
	if params := d.withMeta(nil); len(params) > 0 {
		again["params"] = params
	}
	if err := d.sendRaw(again); err != nil {
		return err
	}
	d.await(ctx, d.cheapMethod(), id, ch, callOpts{timeout: min(probeWait, d.opts.StepTimeout), expectError: true})
	sleepCtx(ctx, min(probeWait, d.opts.StepTimeout)/4) // the second answer, if any
	return nil
}

// batch is a JSON-RPC batch of one cheap request, which neither revision
// allows.
func (d *run) batch() []byte {
	req := map[string]any{"jsonrpc": "2.0", "id": d.client.NextID(), "method": d.cheapMethod()}
	if params := d.withMeta(nil); len(params) > 0 {
		req["params"] = params
	}
	b, _ := json.Marshal([]any{req})
	return b
}

// headerProbe sends a cheap request with a wrong or no MCP-Protocol-Version.
func (d *run) headerProbe(ctx context.Context, probe Probe) error {
	ed, ok := d.client.conn.(headerEditor)
	if !ok {
		return fmt.Errorf("probe %s needs an HTTP connection", probe)
	}
	ed.EditNext(func(h http.Header) {
		if probe == ProbeMissingVersionHeader {
			h.Del("Mcp-Protocol-Version")
			return
		}
		h.Set("Mcp-Protocol-Version", "1999-01-01")
	})
	d.probeCall(ctx, d.cheapMethod(), nil)
	return nil
}

func (d *run) sendRaw(msg map[string]any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return d.client.SendRaw(b)
}

// rawProbe sends a message as it is and waits for any answer.
func (d *run) rawProbe(ctx context.Context, msg map[string]any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return d.rawBytesProbe(ctx, b)
}

// rawBytesProbe sends bytes as one message and waits a moment: the answer,
// if the server gives one, arrives as a stray message the trace records.
func (d *run) rawBytesProbe(ctx context.Context, b []byte) error {
	if err := d.client.SendRaw(b); err != nil {
		d.note("the probe could not be sent: %v", err)
		return nil
	}
	sleepCtx(ctx, min(probeWait, d.opts.StepTimeout)/2)
	return nil
}
