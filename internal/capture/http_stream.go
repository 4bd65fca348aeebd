package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// relayBufferSize is how much of a response is read from upstream at once.
const relayBufferSize = 32 << 10

// relayBuffers recycles read buffers: most streams carry one small frame,
// and a fresh 32 KiB buffer for each would cost more than the frame.
var relayBuffers = sync.Pool{New: func() any { return new([relayBufferSize]byte) }}

// flushWriter is the client's side of a response: bytes written are on the
// wire once Flush returns.
type flushWriter interface {
	io.Writer
	Flush() error
}

// clientWriter writes a response to the client through its ResponseWriter.
type clientWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func newClientWriter(w http.ResponseWriter) *clientWriter {
	return &clientWriter{w: w, rc: http.NewResponseController(w)}
}

func (c *clientWriter) Write(b []byte) (int, error) { return c.w.Write(b) }
func (c *clientWriter) Flush() error                { return c.rc.Flush() }

// cutOff makes the client's connection fail every read and write from now
// on, so that nothing blocks on a client that went quiet.
func (c *clientWriter) cutOff() {
	now := time.Now()
	_ = c.rc.SetReadDeadline(now)
	_ = c.rc.SetWriteDeadline(now)
}

// writeHead sends the response's status and headers.
func (c *clientWriter) writeHead(header http.Header, status int) {
	dst := c.w.Header()
	for name, values := range header {
		dst[name] = values
	}
	c.w.WriteHeader(status)
}

// relayEnd is how relaying a response body ended.
type relayEnd struct {
	// err is io.EOF when upstream ended the body, else what broke the relay.
	err error
	// byClient is set when err came from writing to the client.
	byClient bool
	// partial holds the bytes upstream sent after the last whole frame (or
	// of a body cut short), not yet forwarded; midFrame says whether they
	// are an unfinished message rather than the end of a line.
	partial  []byte
	midFrame bool
	// unrecorded is set when recording stopped at MaxMessage and the rest
	// was forwarded as it came.
	unrecorded bool
}

// forwardStream relays an SSE response frame by frame as frames arrive:
// each frame is recorded, then its bytes are written, and every read from
// upstream is flushed to the client at once. Only the unfinished frame is
// ever held.
func (x *exchange) forwardStream(ctx context.Context, client *clientWriter, header http.Header, resp *http.Response) {
	header.Del("Content-Length")
	client.writeHead(header, resp.StatusCode)
	if err := client.Flush(); err != nil {
		x.finish(ctx, client, relayEnd{err: err, byClient: true}, true)
		return
	}
	x.finish(ctx, client, x.relaySSE(resp.Body, client), true)
}

// forwardBody records a whole (JSON) body, then forwards it.
func (x *exchange) forwardBody(ctx context.Context, client *clientWriter, header http.Header, resp *http.Response) {
	body, size, err := x.recordBody(trace.ServerToClient, resp.Body)
	client.writeHead(header, resp.StatusCode)
	if err != nil {
		partial, _ := io.ReadAll(body)
		x.finish(ctx, client, relayEnd{err: err, partial: partial, midFrame: len(partial) > 0}, false)
		return
	}
	end := pump(body, client)
	end.unrecorded = size < 0
	x.finish(ctx, client, end, false)
}

// relaySSE forwards an event stream until it ends, recording each frame
// before writing it.
func (x *exchange) relaySSE(upstream io.Reader, client flushWriter) relayEnd {
	parser := sseParser{limit: x.proxy.maxMessage}
	array := relayBuffers.Get().(*[relayBufferSize]byte)
	defer relayBuffers.Put(array)
	buf := array[:]
	for {
		n, readErr := upstream.Read(buf)
		err := parser.Feed(buf[:n], func(f *sseFrame) error {
			x.recordFrame(f)
			_, err := client.Write(f.Raw)
			return err
		})
		if errors.Is(err, errFrameTooLarge) {
			return x.relayUnrecorded(parser.Pending(), upstream, client)
		}
		if err == nil && n > 0 {
			err = client.Flush()
		}
		if err != nil {
			return relayEnd{err: err, byClient: true}
		}
		if readErr != nil {
			return relayEnd{err: readErr, partial: parser.Pending(), midFrame: parser.MidFrame()}
		}
	}
}

// recordFrame records one SSE frame. A frame with data is a message event
// carrying the frame's sse fields. A frame with fields but no data, such as
// the spec's priming event (an id and an empty data) or a bare retry hint,
// carries no message; it is recorded as an http event with sse and stream
// and no status, so that event ids and retry hints survive. A frame of
// comments only (a keep-alive) is forwarded but not recorded.
func (x *exchange) recordFrame(f *sseFrame) {
	if f.empty() {
		return
	}
	sse := &trace.SSEFrame{ID: f.ID, Event: f.Event, Retry: f.Retry}
	if len(f.Data) > 0 {
		x.recordMessage(trace.ServerToClient, f.Data, sse)
		return
	}
	ev := x.event(trace.ServerToClient, trace.KindHTTP)
	ev.SSE = sse
	x.proxy.record(ev)
}

// relayUnrecorded gives up recording a stream whose frame outgrew the limit
// and forwards the rest of it as it comes.
func (x *exchange) relayUnrecorded(held []byte, upstream io.Reader, client flushWriter) relayEnd {
	x.abort(trace.ServerToClient, fmt.Sprintf("recording stopped: an SSE frame exceeds %d bytes (ProxyConfig.MaxMessage); the rest of the stream was forwarded unrecorded", x.proxy.maxMessage), nil)
	if _, err := client.Write(held); err != nil {
		return relayEnd{err: err, byClient: true, unrecorded: true}
	}
	end := pump(upstream, client)
	end.unrecorded = true
	return end
}

// pump copies upstream to the client, flushing every read.
func pump(upstream io.Reader, client flushWriter) relayEnd {
	array := relayBuffers.Get().(*[relayBufferSize]byte)
	defer relayBuffers.Put(array)
	buf := array[:]
	for {
		n, readErr := upstream.Read(buf)
		if n > 0 {
			if _, err := client.Write(buf[:n]); err != nil {
				return relayEnd{err: err, byClient: true}
			}
			if err := client.Flush(); err != nil {
				return relayEnd{err: err, byClient: true}
			}
		}
		if readErr != nil {
			return relayEnd{err: readErr}
		}
	}
}

// finish records how a response body ended and forwards any unfinished
// message as it is. When upstream (or the proxy's own Close) broke the body,
// it cuts the client's connection too, so the client sees the same break
// rather than a clean end; a clean end of an SSE stream is recorded as its
// transport-close.
func (x *exchange) finish(ctx context.Context, client flushWriter, end relayEnd, stream bool) {
	switch {
	case end.byClient:
		if !end.unrecorded {
			dir, reason := whyClientFailed(ctx, end.err)
			x.abort(dir, reason, nil)
		}
		return
	case end.err == io.EOF:
		x.recordCleanEnd(end, stream)
		forwardPartial(client, end.partial)
		return
	}
	if !end.unrecorded {
		dir, reason := whyEnded(ctx, end.err)
		x.abort(dir, reason, end.unfinished())
	}
	forwardPartial(client, end.partial)
	panic(http.ErrAbortHandler)
}

// whyClientFailed explains a failed write to the client: the proxy's own
// Close cuts clients off too.
func whyClientFailed(ctx context.Context, err error) (trace.Direction, string) {
	if errors.Is(context.Cause(ctx), errProxyClosed) {
		return whyEnded(ctx, err)
	}
	return trace.ClientToServer, "the client disconnected mid-response: " + err.Error()
}

// recordCleanEnd records the end of a body upstream finished properly: an
// abort when it stopped inside a message, a transport-close for an SSE stream.
func (x *exchange) recordCleanEnd(end relayEnd, stream bool) {
	switch {
	case end.unrecorded:
	case end.midFrame:
		x.abort(trace.ServerToClient, "upstream ended the stream in the middle of a frame", end.partial)
	case stream:
		ev := x.event(trace.ServerToClient, trace.KindLifecycle)
		ev.Event = trace.TransportClose
		x.proxy.record(ev)
	}
}

// unfinished returns the bytes of the unfinished message, if any.
func (end relayEnd) unfinished() []byte {
	if end.midFrame {
		return end.partial
	}
	return nil
}

func forwardPartial(client flushWriter, partial []byte) {
	if len(partial) > 0 {
		_, _ = client.Write(partial)
		_ = client.Flush()
	}
}
