package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// tapHeader names a request for upstreamTap; it is forwarded upstream like
// any other header and, not being allowlisted, never recorded.
const tapHeader = "X-Test-Tap"

// proxyHarness is a recording proxy served on loopback, its trace kept in
// memory, in front of some upstream.
type proxyHarness struct {
	t      testing.TB
	proxy  *Proxy
	server *httptest.Server
	trace  *SyncBuffer
	writer *trace.Writer
	tap    *upstreamTap
	closed bool
}

// startProxy puts a proxy in front of upstream. cfg's Upstream, Recorder and
// Transport are filled in; its TLS and MaxMessage are kept.
func startProxy(t testing.TB, upstream string, cfg ProxyConfig) *proxyHarness {
	t.Helper()
	up, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	h := &proxyHarness{t: t, trace: &SyncBuffer{}}
	h.writer = trace.NewWriter(h.trace)
	cfg.Upstream, cfg.Recorder = up, h.writer
	h.tap = &upstreamTap{base: cfg.transport(), bodies: map[string]*bytes.Buffer{}}
	cfg.Transport = h.tap
	if h.proxy, err = NewProxy(cfg); err != nil {
		t.Fatal(err)
	}
	h.server = httptest.NewServer(h.proxy)
	t.Cleanup(func() { h.close() })
	return h
}

// url is the proxy's address with upstream's endpoint path.
func (h *proxyHarness) url(path string) string { return h.server.URL + path }

// close closes the proxy and the trace and returns every event, each line
// checked against the published event schema.
func (h *proxyHarness) close() []trace.Event {
	if !h.closed {
		h.closed = true
		if err := h.proxy.Close(); err != nil {
			h.t.Errorf("proxy.Close: %v", err)
		}
		h.server.Close()
		if err := h.writer.Close(); err != nil {
			h.t.Errorf("trace writer: %v", err)
		}
		checkSchema(h.t, h.trace.Bytes())
	}
	return h.events()
}

// events reads the trace written so far.
func (h *proxyHarness) events() []trace.Event {
	h.t.Helper()
	r := trace.NewReader(bytes.NewReader(h.trace.Bytes()), "trace")
	var evs []trace.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			h.t.Fatalf("reading the trace back: %v", err)
		}
		evs = append(evs, *ev)
	}
}

// waitFor polls the trace until some event satisfies match.
func (h *proxyHarness) waitFor(what string, match func(trace.Event) bool) trace.Event {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, ev := range h.events() {
			if match(ev) {
				return ev
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("the trace never recorded %s; it holds:\n%s", what, dumpEvents(h.events()))
	return trace.Event{}
}

// SyncBuffer is a buffer one goroutine writes while another reads: a trace
// in memory, or a command's output. It is exported for the CLI test, which
// lives in package capture_test.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes returns a copy of what was written so far.
func (b *SyncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func (b *SyncBuffer) String() string { return string(b.Bytes()) }

// InitializeThrough sends initialize to endpoint and returns the session it
// opened and the answer; for the CLI test in package capture_test.
func InitializeThrough(t testing.TB, endpoint string) (session string, answer []string) {
	t.Helper()
	c := newMCPClient(t, endpoint)
	resp := c.post("initialize", initializeRequest)
	if resp.status != http.StatusOK {
		t.Fatalf("initialize through %s: status %d: %s", endpoint, resp.status, resp.body)
	}
	return c.session, resp.messages()
}

var (
	eventSchemaOnce sync.Once
	eventSchema     *jsonschema.Schema
	eventSchemaErr  error
)

// checkSchema holds every line of a trace to the published event schema.
func checkSchema(t testing.TB, lines []byte) {
	t.Helper()
	eventSchemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(trace.EventSchema))
		if err != nil {
			eventSchemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if eventSchemaErr = c.AddResource("trace-event.schema.json", doc); eventSchemaErr == nil {
			eventSchema, eventSchemaErr = c.Compile("trace-event.schema.json")
		}
	})
	if eventSchemaErr != nil {
		t.Fatal(eventSchemaErr)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err == nil {
			err = eventSchema.Validate(v)
		}
		if err != nil {
			t.Errorf("trace line %d %s: %v", i+1, line, err)
		}
	}
}

// upstreamTap sends upstream requests with base and keeps a copy of every
// response body, by the request's tapHeader, to compare with what the
// client received.
type upstreamTap struct {
	base   http.RoundTripper
	mu     sync.Mutex
	bodies map[string]*bytes.Buffer
}

func (u *upstreamTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := u.base.RoundTrip(req)
	name := req.Header.Get(tapHeader)
	if err != nil || name == "" {
		return resp, err
	}
	copied := &lockedBuffer{tap: u, name: name}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, copied), resp.Body}
	return resp, nil
}

// body returns what upstream sent for the named request.
func (u *upstreamTap) body(name string) []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	if b := u.bodies[name]; b != nil {
		return bytes.Clone(b.Bytes())
	}
	return nil
}

type lockedBuffer struct {
	tap  *upstreamTap
	name string
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.tap.mu.Lock()
	defer l.tap.mu.Unlock()
	b := l.tap.bodies[l.name]
	if b == nil {
		b = &bytes.Buffer{}
		l.tap.bodies[l.name] = b
	}
	return b.Write(p)
}

// echoUpstream serves the Go SDK echo fixture over streamable HTTP on
// loopback (TLS when tls is set) and returns its MCP endpoint.
func echoUpstream(t testing.TB, opts *mcp.StreamableHTTPOptions, tls bool) *httptest.Server {
	t.Helper()
	server := testserver.NewEchoServer()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, opts)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := httptest.NewUnstartedServer(mux)
	// A client that refuses the test certificate is expected in some tests.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

// mcpClient is a hand-written streamable-HTTP client: it sends raw JSON and
// keeps the exact bytes it gets back.
type mcpClient struct {
	t        testing.TB
	endpoint string
	http     *http.Client
	session  string
	protocol string
	// onFrame, when set, runs as each SSE frame arrives, before the next
	// byte is read.
	onFrame func(name string, f clientFrame)
}

func newMCPClient(t testing.TB, endpoint string) *mcpClient {
	return &mcpClient{t: t, endpoint: endpoint, http: &http.Client{}}
}

// clientResponse is one response as the client received it.
type clientResponse struct {
	status int
	header http.Header
	body   []byte
	frames []clientFrame
}

// clientFrame is one SSE frame the client received.
type clientFrame struct {
	raw   string
	data  string
	id    *string
	event string
	// fields is false for a frame of comments only, which is not recorded.
	fields bool
}

// post sends one JSON-RPC message and reads the whole response.
func (c *mcpClient) post(name, msg string) *clientResponse {
	c.t.Helper()
	req := c.request(context.Background(), http.MethodPost, name, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return c.do(name, req)
}

// delete ends the session.
func (c *mcpClient) delete(name string) *clientResponse {
	c.t.Helper()
	return c.do(name, c.request(context.Background(), http.MethodDelete, name, nil))
}

// openGet opens the GET stream; read it with readStream.
func (c *mcpClient) openGet(ctx context.Context, name string) *http.Response {
	c.t.Helper()
	req := c.request(ctx, http.MethodGet, name, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("GET %s: %v", name, err)
	}
	return resp
}

func (c *mcpClient) request(ctx context.Context, method, name string, body io.Reader) *http.Request {
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint, body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set(tapHeader, name)
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", c.protocol)
	}
	return req
}

func (c *mcpClient) do(name string, req *http.Request) *clientResponse {
	c.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, name, err)
	}
	defer resp.Body.Close()
	out := &clientResponse{status: resp.StatusCode, header: resp.Header}
	if isEventStream(resp.Header) {
		out.body, out.frames, err = c.readStream(name, resp.Body)
	} else {
		out.body, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		c.t.Fatalf("%s %s: reading the response: %v", req.Method, name, err)
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" && c.session == "" {
		c.session = sid
	}
	return out
}

// readStream reads an SSE body to its end, frame by frame.
func (c *mcpClient) readStream(name string, body io.Reader) ([]byte, []clientFrame, error) {
	var (
		all    bytes.Buffer
		frames []clientFrame
		p      sseParser
	)
	buf := make([]byte, 4096)
	for {
		n, err := body.Read(buf)
		all.Write(buf[:n])
		_ = p.Feed(buf[:n], func(f *sseFrame) error {
			cf := clientFrame{raw: string(f.Raw), data: string(f.Data), id: f.ID, event: f.Event, fields: !f.empty()}
			frames = append(frames, cf)
			if c.onFrame != nil {
				c.onFrame(name, cf)
			}
			return nil
		})
		if err == io.EOF {
			return all.Bytes(), frames, nil
		}
		if err != nil {
			return all.Bytes(), frames, err
		}
	}
}

// messages returns the JSON-RPC messages a response carried.
func (r *clientResponse) messages() []string {
	if r.frames == nil {
		if len(r.body) == 0 {
			return nil
		}
		return []string{compactJSON(string(r.body))}
	}
	var out []string
	for _, f := range r.frames {
		if f.data != "" {
			out = append(out, compactJSON(f.data))
		}
	}
	return out
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}

// dumpEvents renders events one per line for failure messages.
func dumpEvents(evs []trace.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		line, _ := json.Marshal(ev)
		fmt.Fprintf(&b, "  %s\n", line)
	}
	return b.String()
}

// ofExchange returns the events of one exchange, in trace order.
func ofExchange(evs []trace.Event, exchange int64) []trace.Event {
	var out []trace.Event
	for _, ev := range evs {
		if ev.Exchange == exchange {
			out = append(out, ev)
		}
	}
	return out
}

const (
	initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpverdict-test","version":"1.0.0"}}}`
	initializedNote   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)
