package capture

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

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
