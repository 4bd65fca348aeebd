// Package driver is mcpverdict's own MCP client. It speaks JSON-RPC itself,
// with no SDK, through whatever Conn it is given (the capture layer's pipes
// or its recording proxy, so the recorded trace is exactly what it sent), and
// exercises every capability the server declares so that as many clauses as
// possible have something to judge.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// CallPolicy says which tools the driver may call.
type CallPolicy string

// The call policies: read-only tools only (the default), every tool, none.
const (
	CallReadOnly CallPolicy = "read-only"
	CallAll      CallPolicy = "all"
	CallNone     CallPolicy = "none"
)

// The revisions the driver speaks: the handshake one and the stateless one.
const (
	Legacy = "2025-11-25"
	Modern = "2026-07-28"
)

// Options shape a driven session.
type Options struct {
	// Revision is the protocol revision to ask for: Legacy (the initialize
	// handshake) or Modern (stateless, per-request _meta). Empty means Legacy.
	Revision string
	// Call says which tools to call.
	Call CallPolicy
	// StepTimeout bounds each request. A request that outlives it is
	// cancelled and the server pinged; only an unanswered ping ends the
	// session. Zero means 10 s.
	StepTimeout time.Duration
	// Roots are the root URIs the driver offers when the server asks;
	// empty means RootURI.
	Roots []string
	// Progress, when set, is told which step runs (for stderr progress).
	Progress func(step string)
}

// Result says what the session did and what it could not do.
type Result struct {
	// Revision is the revision the session ran under: the one the server's
	// initialize result chose, or the requested one for a stateless session.
	Revision string
	// Notes explain steps skipped, requests that failed or timed out.
	Notes []string
	// Requests counts the requests the driver sent.
	Requests int
	// NonJSON is the first thing the server sent that is not JSON (over
	// stdio, a line on stdout that is not a message), if any.
	NonJSON string
}

// ErrHung means the server stopped answering, even a ping; the session was
// ended there.
var ErrHung = errors.New("the server stopped answering, even a ping")

// ErrLegacyServer means a stateless session found the server speaks only
// handshake revisions: it answered server/discover with an error that is not
// a modern one, not at all, or with a result that does not list the
// stateless revision.
var ErrLegacyServer = errors.New("the server does not speak a stateless revision")

// HandshakeError is a session that could not begin: the server refused or
// did not answer initialize or server/discover.
type HandshakeError struct{ Err error }

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("the server did not complete the handshake: %v", e.Err)
}
func (e *HandshakeError) Unwrap() error { return e.Err }

// run is one driven session.
type run struct {
	opts     Options
	client   *Client
	caps     map[string]json.RawMessage
	tools    []tool
	progress *arrivals // progress notifications by token
	acks     *arrivals // subscription acknowledgements by subscription id

	mu      sync.Mutex
	result  Result
	stopped error // ErrHung or ErrClosed once the session cannot go on
}

type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		ReadOnlyHint *bool `json:"readOnlyHint"`
	} `json:"annotations"`
	Execution struct {
		TaskSupport string `json:"taskSupport"`
	} `json:"execution"`
}

// Run drives one session over conn and closes it at the end.
func Run(ctx context.Context, conn Conn, opts Options) (*Result, error) {
	d := newRun(conn, opts)
	err := d.exercise(ctx)
	d.finish()
	return d.snapshot(), err
}

func newRun(conn Conn, opts Options) *run {
	if opts.Revision == "" {
		opts.Revision = Legacy
	}
	if opts.Call == "" {
		opts.Call = CallReadOnly
	}
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = 10 * time.Second
	}
	if len(opts.Roots) == 0 {
		opts.Roots = []string{RootURI}
	}
	d := &run{opts: opts, client: NewClient(conn), progress: newArrivals(), acks: newArrivals()}
	d.result.Revision = opts.Revision
	d.client.Handle = d.handle
	d.client.Notified = d.notified
	d.client.Stray = d.stray
	d.client.Start()
	return d
}

// finish closes the client's side and waits, at most a step, for the
// server's side to end.
func (d *run) finish() {
	d.client.Close()
	select {
	case <-d.client.Done():
	case <-time.After(d.opts.StepTimeout):
	}
}

func (d *run) snapshot() *Result {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.result
	r.Notes = append([]string(nil), d.result.Notes...)
	return &r
}

func (d *run) note(format string, args ...any) {
	d.mu.Lock()
	d.result.Notes = append(d.result.Notes, fmt.Sprintf(format, args...))
	d.mu.Unlock()
}

func (d *run) step(name string) {
	if d.opts.Progress != nil {
		d.opts.Progress(name)
	}
}

func (d *run) stateless() bool { return spec.Revision(d.opts.Revision).Stateless() }

// ended reports why the session cannot go on, nil while it can.
func (d *run) ended() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stopped
}

func (d *run) stop(err error) {
	d.mu.Lock()
	if d.stopped == nil {
		d.stopped = err
	}
	d.mu.Unlock()
}

func (d *run) stray(msg []byte, abandoned bool) {
	if !json.Valid(msg) {
		d.mu.Lock()
		if d.result.NonJSON == "" {
			d.result.NonJSON = fmt.Sprintf("%.120s", msg)
		}
		d.mu.Unlock()
		d.note("the server sent something that is not JSON: %.120q", msg)
		return
	}
	if abandoned {
		d.note("a late answer to a request the driver had cancelled: %.120s", msg)
		return
	}
	d.note("the server sent a message that answers nothing: %.120s", msg)
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
