package capture

import (
	"bytes"
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
