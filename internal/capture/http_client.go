package capture

import (
	"io"
	"net/http"
	"time"
)

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

// bodyWithin gives the client timeout from now to send all of body and
// returns the body to read in its stead. The deadline is lifted when the
// body ends: it is the connection's read deadline, which also bounds
// net/http's watch for the client going away, and would cut a long
// response short.
func (c *clientWriter) bodyWithin(body io.ReadCloser, timeout time.Duration) io.ReadCloser {
	if body == nil || body == http.NoBody {
		return body
	}
	_ = c.rc.SetReadDeadline(time.Now().Add(timeout))
	return &deadlineBody{ReadCloser: body, lift: func() { _ = c.rc.SetReadDeadline(time.Time{}) }}
}

// deadlineBody is a request body that lifts its read deadline at its end.
type deadlineBody struct {
	io.ReadCloser
	lift func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && b.lift != nil {
		b.lift()
		b.lift = nil
	}
	return n, err
}

// writeHead sends the response's status and headers.
func (c *clientWriter) writeHead(header http.Header, status int) {
	dst := c.w.Header()
	for name, values := range header {
		dst[name] = values
	}
	c.w.WriteHeader(status)
}
