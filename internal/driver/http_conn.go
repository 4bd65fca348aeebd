package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/sse"
)

// HTTPOptions shape a streamable-HTTP connection.
type HTTPOptions struct {
	// URL is the MCP endpoint.
	URL string
	// Client sends the requests; nil means a client of its own with no
	// overall timeout (an SSE answer lasts as long as its request) and no
	// proxy from the environment.
	Client *http.Client
	// NoGetStream skips the GET stream a 2025-11-25 session opens after
	// notifications/initialized (optional in that revision).
	NoGetStream bool
	// BearerToken, when set, goes in the Authorization header of every
	// request (OAuth 2.1 section 5.1.1), never anywhere else.
	BearerToken string
}

// httpConn speaks streamable HTTP: each message is a POST; answers come back
// as a JSON body or an SSE stream and are handed to Recv in arrival order.
// It keeps the session id and negotiated version a 2025-11-25 server hands
// out, sets the request metadata headers a 2026-07-28 request needs, and
// ends a 2025-11-25 session with DELETE.
type httpConn struct {
	opts     HTTPOptions
	client   *http.Client
	incoming chan []byte
	ctx      context.Context
	stop     context.CancelFunc
	wg       sync.WaitGroup

	mu        sync.Mutex
	sessionID string
	version   string
	getOpened bool
	watched   map[string]string // request id -> method whose answer the conn reads
	streams   map[string]context.CancelFunc
	tools     map[string][]paramHeader
	rejected  map[string]string
	onFailure func(json.RawMessage, error)
	editNext  func(http.Header)
	closeOnce sync.Once
}

// NewHTTPConn returns a connection to a streamable-HTTP MCP endpoint.
func NewHTTPConn(opts HTTPOptions) Conn {
	ctx, stop := context.WithCancel(context.Background())
	c := &httpConn{
		opts: opts, client: opts.Client, incoming: make(chan []byte, 64), ctx: ctx, stop: stop,
		watched: map[string]string{}, streams: map[string]context.CancelFunc{},
		tools: map[string][]paramHeader{}, rejected: map[string]string{},
	}
	if c.client == nil {
		c.client = &http.Client{Transport: &http.Transport{Proxy: nil, DisableCompression: true, MaxIdleConnsPerHost: 16}}
	}
	return c
}

// EditNext changes the headers of the next POST only, after the connection
// set them: the rejection probes send a wrong or no MCP-Protocol-Version.
func (c *httpConn) EditNext(edit func(http.Header)) {
	c.mu.Lock()
	c.editNext = edit
	c.mu.Unlock()
}

func (c *httpConn) OnFailure(f func(json.RawMessage, error)) {
	c.mu.Lock()
	c.onFailure = f
	c.mu.Unlock()
}

// Send POSTs one message. It returns once a request has been written (its
// answer is read in the background) or, for a notification or a response,
// once the server answered, so that what the driver sends next cannot
// overtake it on another connection.
func (c *httpConn) Send(msg []byte) error {
	var o outgoing
	_ = json.Unmarshal(msg, &o)
	ctx, cancel := context.WithCancel(c.ctx)
	req, err := c.post(ctx, msg, &o)
	if err != nil {
		cancel()
		return err
	}
	c.track(&o, cancel)
	wrote := make(chan error, 1)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer c.untrack(&o, cancel)
		c.exchange(req, &o, wrote)
	}()
	return <-wrote
}

func (c *httpConn) post(ctx context.Context, msg []byte, o *outgoing) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.opts.URL, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	c.authorize(h)
	c.mu.Lock()
	if c.sessionID != "" {
		h.Set("Mcp-Session-Id", c.sessionID)
	}
	version := c.version
	params := paramValues(c.tools[o.toolName()], o.Params.Arguments)
	c.mu.Unlock()
	if v := o.Params.Meta.ProtocolVersion; v != "" {
		version = v
		setModernHeaders(h, o, params)
	}
	if version != "" {
		h.Set("Mcp-Protocol-Version", version)
	}
	c.mu.Lock()
	edit := c.editNext
	c.editNext = nil
	c.mu.Unlock()
	if edit != nil {
		edit(h)
	}
	return req, nil
}

func (o *outgoing) toolName() string {
	if o.Method == "tools/call" && o.Params.Name != nil {
		return *o.Params.Name
	}
	return ""
}

// track remembers what the answer to a request must teach the connection
// (the negotiated version, the tools' header annotations) and how to cancel
// its stream.
func (c *httpConn) track(o *outgoing, cancel context.CancelFunc) {
	if !o.isRequest() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.streams[string(o.ID)] = cancel
	if o.Method == "initialize" || o.Method == "tools/list" {
		c.watched[string(o.ID)] = o.Method
	}
}

func (c *httpConn) untrack(o *outgoing, cancel context.CancelFunc) {
	cancel()
	if o.isRequest() {
		c.mu.Lock()
		delete(c.streams, string(o.ID))
		c.mu.Unlock()
	}
}

// exchange sends one POST and hands on what comes back.
func (c *httpConn) exchange(req *http.Request, o *outgoing, wrote chan<- error) {
	var once sync.Once
	signal := func(err error) { once.Do(func() { wrote <- err }) }
	if o.isRequest() {
		trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { signal(nil) }}
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	}
	resp, err := c.client.Do(req)
	if err != nil {
		signal(fmt.Errorf("POST %s: %w", c.opts.URL, unwrapURLError(err)))
		c.failed(o, fmt.Errorf("POST %s: %w", c.opts.URL, unwrapURLError(err)))
		return
	}
	defer resp.Body.Close()
	c.noteSession(resp)
	err = c.answer(req.Context(), resp, o)
	if o.Method == "notifications/initialized" && resp.StatusCode == http.StatusAccepted {
		c.openGetStream()
	}
	signal(err)
	if err != nil {
		c.failed(o, err)
	}
}

func (c *httpConn) answer(ctx context.Context, resp *http.Response, o *outgoing) error {
	switch {
	case resp.StatusCode == http.StatusAccepted:
		if o.isRequest() {
			return fmt.Errorf("the server answered request %s with 202 Accepted and no response", o.Method)
		}
		return nil
	case strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"):
		return c.readStream(ctx, resp.Body, o)
	}
	return c.readBody(resp, o)
}

// readBody hands on a JSON body (one message or a batch). A body that
// answers no request of ours, with an error status, fails the request.
func (c *httpConn) readBody(resp *http.Response, o *outgoing) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMessage))
	if err != nil {
		return fmt.Errorf("reading the answer to %s: %w", o.Method, err)
	}
	body = bytes.TrimSpace(body)
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	if len(body) == 0 || !json.Valid(body) {
		if ok && !o.isRequest() {
			return nil
		}
		return fmt.Errorf("HTTP %d %s: %.120q%s", resp.StatusCode, http.StatusText(resp.StatusCode), body, c.authHint(resp))
	}
	answered := false
	for _, m := range splitBatch(body) {
		answered = answered || answers(m, o.ID)
		c.push(m)
	}
	if !answered && o.isRequest() {
		return fmt.Errorf("HTTP %d: the body answers no request of ours: %.120s", resp.StatusCode, body)
	}
	return nil
}

func splitBatch(body []byte) [][]byte {
	if body[0] != '[' {
		return [][]byte{body}
	}
	var list []json.RawMessage
	if json.Unmarshal(body, &list) != nil {
		return [][]byte{body}
	}
	out := make([][]byte, len(list))
	for i, m := range list {
		out[i] = m
	}
	return out
}

// answers reports whether msg is a response with the given id.
func answers(msg []byte, id json.RawMessage) bool {
	var w wire
	if len(id) == 0 || json.Unmarshal(msg, &w) != nil || w.Method != "" {
		return false
	}
	return bytes.Equal(bytes.TrimSpace(w.ID), bytes.TrimSpace(id))
}

// readStream hands on every message of an SSE answer. A 2025-11-25 stream
// that ends before the response is resumed with GET and Last-Event-ID, as
// that revision lets a server close a stream early.
func (c *httpConn) readStream(ctx context.Context, body io.Reader, o *outgoing) error {
	answered, lastID, retry := c.drain(body, o)
	for attempt := 0; !answered && o.isRequest() && lastID != "" && attempt < 5; attempt++ {
		if !sleepCtx(ctx, time.Duration(min(retry, 1000))*time.Millisecond) {
			return nil
		}
		resumed, err := c.get(ctx, lastID)
		if err != nil {
			return err
		}
		var a bool
		a, lastID, retry = c.drain(resumed.Body, o)
		resumed.Body.Close()
		answered = a
	}
	if !answered && o.isRequest() && ctx.Err() == nil {
		return fmt.Errorf("the server closed the SSE stream of %s before answering", o.Method)
	}
	return nil
}

func (c *httpConn) drain(body io.Reader, o *outgoing) (answered bool, lastID string, retry int) {
	r := sse.NewReader(body, maxMessage)
	for {
		data, err := r.Next()
		lastID, retry = r.LastEventID(), int(r.Retry())
		if err != nil {
			return answered, lastID, retry
		}
		answered = answered || answers(data, o.ID)
		c.push(data)
	}
}

// get opens a GET stream on the session, resuming after lastID when set.
func (c *httpConn) get(ctx context.Context, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.opts.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	c.sessionHeaders(req.Header)
	if lastID != "" {
		req.Header.Set("Last-Event-Id", lastID)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", c.opts.URL, unwrapURLError(err))
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: HTTP %d", c.opts.URL, resp.StatusCode)
	}
	return resp, nil
}

func (c *httpConn) sessionHeaders(h http.Header) {
	c.authorize(h)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionID != "" {
		h.Set("Mcp-Session-Id", c.sessionID)
	}
	if c.version != "" {
		h.Set("Mcp-Protocol-Version", c.version)
	}
}

// authHint tells a user whose server asks for a token how to give one.
func (c *httpConn) authHint(resp *http.Response) string {
	if resp.StatusCode != http.StatusUnauthorized || c.opts.BearerToken != "" {
		return ""
	}
	return " (the server asks for a bearer token: give one with --auth-token-env VAR)"
}

func (c *httpConn) authorize(h http.Header) {
	if c.opts.BearerToken != "" {
		h.Set("Authorization", "Bearer "+c.opts.BearerToken)
	}
}

// openGetStream opens the optional standalone stream of a 2025-11-25
// session once, so that server requests and notifications sent outside any
// request reach the driver; a server without one answers 405. It waits, a
// moment at most, for the server's answer to the GET, so that the stream is
// part of even the shortest session.
func (c *httpConn) openGetStream() {
	c.mu.Lock()
	open := c.opts.NoGetStream || c.getOpened || c.sessionID == ""
	c.getOpened = true
	c.mu.Unlock()
	if open {
		return
	}
	answered := make(chan struct{})
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		resp, err := c.get(c.ctx, "")
		close(answered)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		c.drain(resp.Body, &outgoing{})
	}()
	select {
	case <-answered:
	case <-time.After(getWait):
	}
}

// getWait bounds how long the driver waits for a GET stream's headers.
const getWait = time.Second

func (c *httpConn) noteSession(resp *http.Response) {
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.mu.Lock()
		if c.sessionID == "" {
			c.sessionID = id
		}
		c.mu.Unlock()
	}
}

// push hands a message to Recv, first reading from the answers it watches
// the negotiated version and the tools' header annotations.
func (c *httpConn) push(msg []byte) {
	c.learn(msg)
	select {
	case c.incoming <- msg:
	case <-c.ctx.Done():
	}
}

func (c *httpConn) learn(msg []byte) {
	var w wire
	if json.Unmarshal(msg, &w) != nil || w.Result == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.watched[string(w.ID)] {
	case "initialize":
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(w.Result, &r) == nil {
			c.version = r.ProtocolVersion
		}
	case "tools/list":
		c.learnTools(w.Result)
	}
	delete(c.watched, string(w.ID))
}

func (c *httpConn) learnTools(result json.RawMessage) {
	var r struct {
		Tools []tool `json:"tools"`
	}
	_ = json.Unmarshal(result, &r)
	for _, t := range r.Tools {
		headers, err := toolHeaders(t.InputSchema)
		if err != nil {
			c.rejected[t.Name] = err.Error()
			continue
		}
		c.tools[t.Name] = headers
	}
}

// RejectedTool says whether a tool's definition breaks the x-mcp-header
// rules, which oblige an HTTP client to leave the tool out.
func (c *httpConn) RejectedTool(name string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reason, ok := c.rejected[name]
	return reason, ok
}

func (c *httpConn) failed(o *outgoing, err error) {
	c.mu.Lock()
	f := c.onFailure
	c.mu.Unlock()
	if f != nil && o.isRequest() {
		f(o.ID, err)
	}
}

func (c *httpConn) CancelStream(id json.RawMessage) bool {
	c.mu.Lock()
	cancel, ok := c.streams[string(id)]
	c.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

func (c *httpConn) Recv() ([]byte, error) {
	msg, ok := <-c.incoming
	if !ok {
		return nil, io.EOF
	}
	return msg, nil
}

// Close ends a 2025-11-25 session with DELETE, then every stream still open.
func (c *httpConn) Close() error {
	c.closeOnce.Do(func() {
		c.deleteSession()
		c.stop()
		go func() {
			c.wg.Wait()
			close(c.incoming)
		}()
	})
	return nil
}

func (c *httpConn) deleteSession() {
	c.mu.Lock()
	id := c.sessionID
	c.mu.Unlock()
	if id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.opts.URL, nil)
	if err != nil {
		return
	}
	c.sessionHeaders(req.Header)
	if resp, err := c.client.Do(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
	}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// unwrapURLError drops the "Post URL:" prefix net/http puts on errors that
// the caller already names.
func unwrapURLError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}
