package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/sse"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// relayBufferSize is how much of a response is read from upstream at once.
const relayBufferSize = 32 << 10

// relayBuffers recycles read buffers: most streams carry one small frame,
// and a fresh 32 KiB buffer for each would cost more than the frame.
var relayBuffers = sync.Pool{New: func() any { return new([relayBufferSize]byte) }}

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

// relaySSE forwards an event stream until it ends, recording each frame
// before writing it.
func (x *exchange) relaySSE(upstream io.Reader, client flushWriter) relayEnd {
	parser := sse.Parser{Limit: x.proxy.maxMessage}
	array := relayBuffers.Get().(*[relayBufferSize]byte)
	defer relayBuffers.Put(array)
	buf := array[:]
	for {
		n, readErr := upstream.Read(buf)
		err := parser.Feed(buf[:n], func(f *sse.Frame) error {
			x.recordFrame(f)
			_, err := client.Write(f.Raw)
			return err
		})
		if errors.Is(err, sse.ErrFrameTooLarge) {
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
func (x *exchange) recordFrame(f *sse.Frame) {
	if f.Empty() {
		return
	}
	fields := &trace.SSEFrame{ID: f.ID, Event: f.Event, Retry: f.Retry}
	if len(f.Data) > 0 {
		x.recordMessage(trace.ServerToClient, f.Data, fields)
		return
	}
	ev := x.event(trace.ServerToClient, trace.KindHTTP)
	ev.SSE = fields
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
