package capture

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// recordBody reads a body whole and records it as a message when it is not
// empty, since a message must be on record before its last byte moves on.
// It returns a reader that replays the body and the body's size (-1 when
// unknown). A body past MaxMessage is recorded as an abort instead and the
// reader streams it on. On a read error, the reader holds what was read.
func (x *exchange) recordBody(dir trace.Direction, body io.Reader) (io.Reader, int64, error) {
	limit := x.proxy.maxMessage
	read, err := io.ReadAll(io.LimitReader(body, int64(limit)+1))
	if err != nil {
		return bytes.NewReader(read), int64(len(read)), err
	}
	if len(read) > limit {
		x.abort(dir, fmt.Sprintf("recording stopped: a body exceeds %d bytes (ProxyConfig.MaxMessage); it was forwarded unrecorded", limit), nil)
		return io.MultiReader(bytes.NewReader(read), body), -1, nil
	}
	if len(read) > 0 {
		x.recordMessage(dir, read, nil)
	}
	return bytes.NewReader(read), int64(len(read)), nil
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
