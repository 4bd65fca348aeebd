package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// exchange is one HTTP request and its response passing through the proxy.
// One goroutine (the request's handler) owns it.
type exchange struct {
	proxy   *Proxy
	id      int64
	method  string
	stream  string
	session string
}

func (p *Proxy) newExchange(r *http.Request) *exchange {
	id := p.exchanges.Add(1)
	return &exchange{
		proxy:   p,
		id:      id,
		method:  r.Method,
		stream:  strings.ToLower(r.Method) + ":" + strconv.FormatInt(id, 10),
		session: r.Header.Get("Mcp-Session-Id"),
	}
}

// event starts an event of this exchange.
func (x *exchange) event(dir trace.Direction, kind trace.Kind) trace.Event {
	return trace.Event{
		Direction: dir, Transport: trace.StreamableHTTP, Kind: kind,
		Exchange: x.id, Stream: x.stream, Session: x.session,
	}
}

// recordMessage records one message. Only a JSON object or array is a
// JSON-RPC message (or batch); other bytes, JSON scalars included, are kept
// as raw text so that no payload is ever null or a bare string.
func (x *exchange) recordMessage(dir trace.Direction, body []byte, sse *trace.SSEFrame) {
	ev := x.event(dir, trace.KindMessage)
	ev.SetBody(body)
	if ev.Payload != nil && ev.Payload[0] != '{' && ev.Payload[0] != '[' {
		ev.SetRaw(body)
	}
	ev.SSE = sse
	x.proxy.record(ev)
}

// abort records a transport-abort of this exchange's stream; raw, when not
// empty, holds the bytes of an unfinished message.
func (x *exchange) abort(dir trace.Direction, reason string, raw []byte) {
	ev := x.event(dir, trace.KindLifecycle)
	ev.Event, ev.Reason = trace.TransportAbort, reason
	if len(raw) > 0 {
		ev.SetRaw(raw)
	}
	x.proxy.record(ev)
}

// serve runs the exchange: record and forward the request, then the response.
func (x *exchange) serve(ctx context.Context, client *clientWriter, r *http.Request) {
	req, err := x.upstreamRequest(ctx, r)
	if err != nil {
		http.Error(client.w, "mcpverdict: "+err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := x.proxy.transport.RoundTrip(req)
	if err != nil {
		dir, reason := whyEnded(ctx, err)
		x.abort(dir, reason, nil)
		http.Error(client.w, "mcpverdict: upstream did not answer: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	x.recordResponseHead(resp)
	header := forwardableHeaders(resp.Header)
	if isEventStream(resp.Header) {
		x.forwardStream(ctx, client, header, resp)
	} else {
		x.forwardBody(ctx, client, header, resp)
	}
	x.noteSessionEnd(resp.StatusCode)
}

// upstreamRequest records the client's request and returns it addressed to
// upstream. A body the client stops sending midway, or sends too slowly, is
// recorded as a transport-abort carrying what arrived.
func (x *exchange) upstreamRequest(ctx context.Context, r *http.Request) (*http.Request, error) {
	header := forwardableHeaders(r.Header)
	header.Del("Accept-Encoding")
	// The proxy has the whole body before it sends: no 100-continue wait.
	header.Del("Expect")
	head := x.event(trace.ClientToServer, trace.KindHTTP)
	head.Method, head.Path, head.Headers = r.Method, recordedPath(r.URL), recordedHeaders(header)
	x.proxy.record(head)
	body, size, err := x.recordBody(trace.ClientToServer, r.Body)
	if err != nil {
		partial, _ := io.ReadAll(body)
		dir, reason := x.whyBodyBroke(ctx, err)
		x.abort(dir, reason, partial)
		return nil, fmt.Errorf("cannot read the request body: %w", err)
	}
	// The URL is set, not parsed from a string: a parse error would quote
	// upstream's URL, userinfo and all, to the client.
	req, err := http.NewRequestWithContext(ctx, r.Method, "", body)
	if err != nil {
		return nil, err
	}
	req.URL = x.target(r.URL)
	if size < 0 {
		size = r.ContentLength
	}
	req.Header, req.ContentLength = header, size
	if size == 0 {
		req.Body = http.NoBody
	}
	return req, nil
}

// whyBodyBroke says why reading the client's request body failed.
func (x *exchange) whyBodyBroke(ctx context.Context, err error) (trace.Direction, string) {
	switch {
	case errors.Is(context.Cause(ctx), errProxyClosed):
		return whyEnded(ctx, err)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return trace.ClientToServer, fmt.Sprintf("the client did not send its whole request body within %s (ProxyConfig.RequestBodyTimeout)", x.proxy.bodyTimeout)
	default:
		return trace.ClientToServer, "the client's request body broke off: " + err.Error()
	}
}

// target is upstream's scheme and host with the client's path and query.
func (x *exchange) target(in *url.URL) *url.URL {
	u := *x.proxy.upstream
	u.Path, u.RawPath = in.Path, in.RawPath
	if in.RawQuery != "" {
		u.RawQuery = in.RawQuery
	}
	return &u
}

// recordResponseHead records the response's status and headers. The
// initialize exchange learns its session here.
func (x *exchange) recordResponseHead(resp *http.Response) {
	if x.session == "" {
		x.session = resp.Header.Get("Mcp-Session-Id")
	}
	ev := x.event(trace.ServerToClient, trace.KindHTTP)
	ev.Status, ev.Headers = resp.StatusCode, recordedHeaders(resp.Header)
	x.proxy.record(ev)
}

// noteSessionEnd records the session's transport-close once upstream has
// accepted a DELETE of it.
func (x *exchange) noteSessionEnd(status int) {
	if x.method != http.MethodDelete || x.session == "" || status/100 != 2 {
		return
	}
	ev := x.event(trace.ClientToServer, trace.KindLifecycle)
	ev.Event, ev.Stream = trace.TransportClose, ""
	x.proxy.record(ev)
}

// whyEnded says which side ended an exchange early and why, from the error
// that ended it and the exchange's context.
func whyEnded(ctx context.Context, err error) (trace.Direction, string) {
	switch {
	case errors.Is(context.Cause(ctx), errProxyClosed):
		return trace.ServerToClient, "the recording proxy closed while the exchange was open"
	case ctx.Err() != nil:
		return trace.ClientToServer, "the client disconnected"
	default:
		return trace.ServerToClient, "upstream failed: " + err.Error()
	}
}

func isEventStream(h http.Header) bool {
	media, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && media == "text/event-stream"
}
