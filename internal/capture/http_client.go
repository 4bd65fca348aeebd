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

// writeHead sends the response's status and headers.
func (c *clientWriter) writeHead(header http.Header, status int) {
	dst := c.w.Header()
	for name, values := range header {
		dst[name] = values
	}
	c.w.WriteHeader(status)
}
