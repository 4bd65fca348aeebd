package capture

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// DefaultMaxMessage is the largest body or SSE frame the proxy records
// unless told otherwise.
const DefaultMaxMessage = 64 << 20

// DefaultResponseHeaderTimeout is how long upstream has to start its
// response, once it has the whole request, unless told otherwise. A JSON
// response to a long tool call arrives only when the call is done, so this
// is as patient as the clients that wait longest; an upstream that never
// answers still frees its exchange.
const DefaultResponseHeaderTimeout = 5 * time.Minute

// DefaultRequestBodyTimeout is how long a client has to send a request
// body unless told otherwise: an MCP message is sent at once, so only a
// client that trickles its body, or stalls, runs out of it.
const DefaultRequestBodyTimeout = time.Minute

// errProxyClosed cancels the upstream requests still in flight at Close.
var errProxyClosed = errors.New("the recording proxy was closed")

// ProxyConfig configures the streamable-HTTP recording proxy.
type ProxyConfig struct {
	// Upstream is the MCP endpoint of the real server (http or https).
	// Requests go to its scheme and host, keeping the client's path and query.
	Upstream *url.URL
	// Recorder receives every event of every session through the proxy.
	Recorder trace.Recorder
	// TLS configures connections to an https upstream; nil uses the system roots.
	TLS *tls.Config
	// Transport, when set, sends the upstream requests instead of a
	// transport built from TLS (tests use it to watch what upstream sent).
	Transport http.RoundTripper
	// MaxMessage is the largest request body, response body or SSE frame
	// that is recorded; zero means DefaultMaxMessage. Past it the bytes are
	// still forwarded, unrecorded, after a transport-abort that says so.
	MaxMessage int
	// ResponseHeaderTimeout bounds the wait for upstream's response header
	// once the request is sent; zero means DefaultResponseHeaderTimeout. It
	// applies to the transport the proxy builds, not to a given Transport.
	ResponseHeaderTimeout time.Duration
	// RequestBodyTimeout bounds the time a client takes to send a request
	// body, from the request's arrival to the body's end; zero means
	// DefaultRequestBodyTimeout.
	RequestBodyTimeout time.Duration
}

// Proxy is a reverse proxy for the streamable-HTTP transport that records
// what passes through it. It forwards requests and responses unchanged but
// for the hop-by-hop headers, Host (set to the upstream's), Accept-Encoding
// (dropped, so that upstream answers in bytes the recorder can read) and
// Expect (the proxy has the whole body before it sends), and records each
// message before forwarding the byte that completes it.
//
// Every HTTP request and response is one exchange, numbered from 1: an http
// event for the request (method, path, headers), a message event for its
// body, an http event for the response (status, headers), then a message
// event for a JSON body or one per SSE frame that carries data. An SSE frame
// with fields but no data (the spec's priming event, a bare retry hint) is
// an http event with sse and no status; a frame of comments only is not
// recorded. Every event of an exchange carries its number and a stream
// name, "<method>:<exchange>" ("post:3", "get:4"). The recorded path leaves
// out the query, which can carry credentials; headers are the allowlisted
// ones (see recordedHeaderNames), and those named like a credential with
// their value redacted (see credentialWords).
//
// Several sessions may share one proxy and one trace. Each event carries its
// session's mcp-session-id: the request's header, or for the initialize
// exchange, which has none, the response's. The initialize request's own
// events are written before the response names the session, so they carry
// none; readers tie them to it through their exchange.
//
// Lifecycle events:
//   - transport-open once, when the proxy starts: the transport is the
//     proxy's endpoint, which every session shares.
//   - transport-close with session and exchange but no stream, when
//     upstream accepts (2xx) a DELETE of that session; with stream, when
//     upstream ends an SSE stream between frames; with neither, at Close.
//   - transport-abort with exchange, stream and a reason when an exchange
//     breaks: upstream could not be reached or sent no response header in
//     time (the client gets 502), closed a stream mid-frame or failed (the
//     partial bytes ride along as raw), the client disconnected or did not
//     send its body in time (what arrived rides along as raw), the proxy
//     closed, or a message outgrew MaxMessage and recording of that
//     stream or body stopped.
type Proxy struct {
	upstream   *url.URL
	recorder   trace.Recorder
	transport  http.RoundTripper
	maxMessage int
	// bodyTimeout is RequestBodyTimeout, or its default.
	bodyTimeout time.Duration

	exchanges atomic.Int64
	closing   context.Context // cancelled by Close, ending every exchange in flight
	stop      context.CancelCauseFunc

	mu       sync.Mutex // guards closed against inflight.Add after Wait
	closed   bool
	inflight sync.WaitGroup

	errOnce   sync.Once
	recordErr error
	closeOnce sync.Once
}

// NewProxy returns a proxy for cfg.Upstream and records the transport-open.
func NewProxy(cfg ProxyConfig) (*Proxy, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	closing, stop := context.WithCancelCause(context.Background())
	p := &Proxy{
		upstream:    cfg.Upstream,
		recorder:    cfg.Recorder,
		transport:   cfg.transport(),
		maxMessage:  cmp0(cfg.MaxMessage, DefaultMaxMessage),
		bodyTimeout: cmp0(cfg.RequestBodyTimeout, DefaultRequestBodyTimeout),
		closing:     closing,
		stop:        stop,
	}
	if _, err := p.recorder.Record(proxyLifecycle(trace.TransportOpen)); err != nil {
		return nil, fmt.Errorf("capture http: record transport-open: %w", err)
	}
	return p, nil
}

func (cfg *ProxyConfig) check() error {
	u := cfg.Upstream
	if u == nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("capture http: upstream %s is not an http:// or https:// URL", RedactURL(u))
	}
	if cfg.Recorder == nil {
		return errors.New("capture http: no recorder")
	}
	return nil
}

func (cfg *ProxyConfig) transport() http.RoundTripper {
	if cfg.Transport != nil {
		return cfg.Transport
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg.TLS
	// Compression would hide the messages from the recorder.
	t.DisableCompression = true
	t.MaxIdleConnsPerHost = 64
	t.ResponseHeaderTimeout = cmp0(cfg.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	return t
}

func cmp0[T int | time.Duration](v, fallback T) T {
	if v == 0 {
		return fallback
	}
	return v
}

// ServeHTTP forwards one client request upstream and its response back,
// recording both.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.enter() {
		http.Error(w, "mcpverdict: the recording proxy is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer p.inflight.Done()
	// A body past MaxMessage is streamed on while the response may already
	// run; without full duplex net/http's server would drain and close it
	// when the response header goes out, and upstream would get half of it.
	_ = http.NewResponseController(w).EnableFullDuplex()
	client := newClientWriter(w)
	// Set before Close can cut the client off, so that it never undoes the cut.
	r.Body = client.bodyWithin(r.Body, p.bodyTimeout)
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	stopOnClose := context.AfterFunc(p.closing, func() {
		cancel(errProxyClosed)
		// Close must not wait on a client that stopped reading (or sending).
		client.cutOff()
	})
	defer stopOnClose()
	p.newExchange(r).serve(ctx, client, r)
}

// enter counts a request in flight, unless the proxy is closed.
func (p *Proxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.inflight.Add(1)
	return true
}

// Close ends every exchange still in flight (each records its
// transport-abort), records the transport-close and returns the first error
// the recorder reported, if any. Requests arriving after Close get 503.
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		p.stop(errProxyClosed)
		p.inflight.Wait()
		p.record(proxyLifecycle(trace.TransportClose))
	})
	return p.recordErr
}

// record writes ev, keeping the first error for Close: forwarding goes on
// when the trace cannot be written, so a recorder failure never breaks the
// session it watches, but the capture as a whole fails.
func (p *Proxy) record(ev trace.Event) {
	if _, err := p.recorder.Record(ev); err != nil {
		p.errOnce.Do(func() { p.recordErr = fmt.Errorf("capture http: %w", err) })
	}
}

// proxyLifecycle is a lifecycle event of the proxy's own transport. Its
// direction is client-to-server: the proxy is the endpoint clients open.
func proxyLifecycle(what trace.Lifecycle) trace.Event {
	return trace.Event{
		Direction: trace.ClientToServer, Transport: trace.StreamableHTTP,
		Kind: trace.KindLifecycle, Event: what,
	}
}
