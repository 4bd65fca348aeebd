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

type response struct {
	result json.RawMessage
	err    *RPCError
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
// answers the server's own requests through Handle, and records
// notifications through Notified.
type Client struct {
	conn Conn
	// Handle answers a server request; nil result and nil error mean
	// "method not found".
	Handle func(method string, params json.RawMessage) (any, *RPCError)
	// Notified sees every notification the server sends.
	Notified func(method string, params json.RawMessage)
	// Stray sees messages that are neither an answer, a request nor a
	// notification (or answer nothing pending), for the session notes.
	Stray func(msg []byte)

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan response
	closed  bool
	done    chan struct{}
}

// NewClient starts reading from conn.
func NewClient(conn Conn) *Client {
	c := &Client{conn: conn, pending: map[string]chan response{}, done: make(chan struct{})}
	return c
}

// Start begins routing incoming messages; call it after setting handlers.
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
	_, res, err := c.CallWithID(ctx, c.NextID(), method, params, nil)
	return res, err
}

// CallWithID sends a request with a chosen id; sent, when set, runs right
// after the request left (to cancel it in flight, for example).
func (c *Client) CallWithID(ctx context.Context, id int64, method string, params any, sent func()) (int64, json.RawMessage, error) {
	key := strconv.FormatInt(id, 10)
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return id, nil, ErrClosed
	}
	c.pending[key] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if !isNil(params) {
		msg["params"] = params
	}
	if err := c.send(msg); err != nil {
		c.forget(key)
		return id, nil, err
	}
	if sent != nil {
		sent()
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return id, nil, ErrClosed
		}
		if r.err != nil {
			return id, r.result, r.err
		}
		return id, r.result, nil
	case <-ctx.Done():
		c.forget(key)
		return id, nil, ctx.Err()
	}
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

func (c *Client) forget(key string) {
	c.mu.Lock()
	delete(c.pending, key)
	c.mu.Unlock()
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
		c.stray(msg)
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
		c.stray(msg)
	}
}

func (c *Client) deliver(w wire, msg []byte) {
	key := string(w.ID)
	c.mu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if !ok {
		c.stray(msg)
		return
	}
	ch <- response{result: w.Result, err: w.Error}
}

func (c *Client) stray(msg []byte) {
	if c.Stray != nil {
		c.Stray(msg)
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
