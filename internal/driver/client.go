package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// RPCError is a JSON-RPC error a server answered with.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("error %d: %s", e.Code, e.Message) }

// ErrClosed means the server closed its side before answering.
var ErrClosed = errors.New("the server closed the connection")

// Reply is the answer to one request: its result, or the error (an
// *RPCError when the server answered with one).
type Reply struct {
	Result json.RawMessage
	Err    error
}

// wire is one incoming message, decoded just enough to route it.
type wire struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// Client is a minimal JSON-RPC client: it numbers requests, routes answers,
// answers the server's own requests through Handle, and shows notifications
// to Notified.
type Client struct {
	conn Conn
	// Handle answers a server request; nil result and nil error mean
	// "method not found".
	Handle func(method string, params json.RawMessage) (any, *RPCError)
	// Notified sees every notification the server sends, in order.
	Notified func(method string, params json.RawMessage)
	// Stray sees messages that are neither an answer to a pending request,
	// a request nor a notification; abandoned says the message answers a
	// request the driver gave up on (cancelled or timed out).
	Stray func(msg []byte, abandoned bool)

	mu        sync.Mutex
	nextID    int64
	pending   map[string]chan Reply
	abandoned map[string]bool
	closed    bool
	done      chan struct{}
}

// NewClient returns a client over conn; call Start once its handlers are set.
func NewClient(conn Conn) *Client {
	c := &Client{conn: conn, pending: map[string]chan Reply{}, abandoned: map[string]bool{}, done: make(chan struct{})}
	if f, ok := conn.(failureReporter); ok {
		f.OnFailure(c.fail)
	}
	return c
}

// Start begins routing incoming messages.
func (c *Client) Start() { go c.readLoop() }

// Done is closed when the server's side has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// NextID reserves the next request id.
func (c *Client) NextID() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return c.nextID
}

// Call sends a request and waits for its answer or ctx.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.CallWithID(ctx, c.NextID(), method, params)
}

// CallWithID sends a request with a chosen id and waits for its answer or
// ctx. A request that ctx ends stays abandoned: its late answer goes to
// Stray, marked as such.
func (c *Client) CallWithID(ctx context.Context, id int64, method string, params any) (json.RawMessage, error) {
	ch, err := c.Begin(id, method, params)
	if err != nil {
		return nil, err
	}
	return c.Wait(ctx, id, ch)
}

// Begin sends a request and returns the channel its answer arrives on, for
// callers that act while it is in flight (cancellation, progress). The
// channel is closed, with no reply, when the connection ends first.
func (c *Client) Begin(id int64, method string, params any) (<-chan Reply, error) {
	key := strconv.FormatInt(id, 10)
	ch := make(chan Reply, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.pending[key] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if !isNil(params) {
		msg["params"] = params
	}
	if err := c.send(msg); err != nil {
		c.Abandon(id)
		return nil, err
	}
	return ch, nil
}

// Wait waits for the answer on ch (from Begin) or for ctx, abandoning the
// request when ctx ends first.
func (c *Client) Wait(ctx context.Context, id int64, ch <-chan Reply) (json.RawMessage, error) {
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, ErrClosed
		}
		return r.Result, r.Err
	case <-ctx.Done():
		c.Abandon(id)
		return nil, ctx.Err()
	}
}

// Abandon stops waiting for a request; a later answer to it is stray.
func (c *Client) Abandon(id int64) {
	key := strconv.FormatInt(id, 10)
	c.mu.Lock()
	if _, ok := c.pending[key]; ok {
		delete(c.pending, key)
		c.abandoned[key] = true
	}
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if !isNil(params) {
		msg["params"] = params
	}
	return c.send(msg)
}

// isNil reports a missing params value, including a nil map, which would
// otherwise be sent as "params": null, a value JSON-RPC does not allow.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	m, ok := v.(map[string]any)
	return ok && m == nil
}

// SendRaw writes bytes as one message, for probes that must send what a
// well-formed encoder never would.
func (c *Client) SendRaw(b []byte) error { return c.conn.Send(b) }

// Close ends the client's side of the connection.
func (c *Client) Close() error { return c.conn.Close() }

func (c *Client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.conn.Send(b)
}

func (c *Client) readLoop() {
	defer c.shutdown()
	for {
		msg, err := c.conn.Recv()
		if err != nil {
			return
		}
		if len(bytes.TrimSpace(msg)) > 0 {
			c.route(msg)
		}
	}
}

func (c *Client) shutdown() {
	c.mu.Lock()
	c.closed = true
	for k, ch := range c.pending {
		close(ch)
		delete(c.pending, k)
	}
	c.mu.Unlock()
	close(c.done)
}

func (c *Client) route(msg []byte) {
	var w wire
	if json.Unmarshal(msg, &w) != nil {
		c.stray(msg, false)
		return
	}
	switch {
	case w.Method != "" && w.ID != nil:
		go c.answer(w)
	case w.Method != "":
		if c.Notified != nil {
			c.Notified(w.Method, w.Params)
		}
	case w.ID != nil:
		c.deliver(w, msg)
	default:
		c.stray(msg, false)
	}
}

func (c *Client) deliver(w wire, msg []byte) {
	key := string(w.ID)
	c.mu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	abandoned := c.abandoned[key]
	c.mu.Unlock()
	if !ok {
		c.stray(msg, abandoned)
		return
	}
	var err error
	if w.Error != nil {
		err = w.Error
	}
	ch <- Reply{Result: w.Result, Err: err}
}

// fail ends a pending request that the connection could not carry (over
// HTTP: a status with no JSON-RPC answer in its body).
func (c *Client) fail(id json.RawMessage, err error) {
	key := string(id)
	c.mu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if ok {
		ch <- Reply{Err: err}
	}
}

func (c *Client) stray(msg []byte, abandoned bool) {
	if c.Stray != nil {
		c.Stray(msg, abandoned)
	}
}

func (c *Client) answer(w wire) {
	var result any
	var rpcErr *RPCError
	if c.Handle != nil {
		result, rpcErr = c.Handle(w.Method, w.Params)
	}
	if result == nil && rpcErr == nil {
		rpcErr = &RPCError{Code: -32601, Message: "Method not found: " + w.Method}
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": w.ID}
	if rpcErr != nil {
		reply["error"] = rpcErr
	} else {
		reply["result"] = result
	}
	_ = c.send(reply)
}
