package driver

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// Conn carries whole JSON-RPC messages to and from a server. Send may be
// called from several goroutines; Recv from one.
type Conn interface {
	Send(msg []byte) error
	// Recv returns the next message, io.EOF when the server closed.
	Recv() ([]byte, error)
	// Close ends the client's side: over stdio, it closes the server's stdin.
	Close() error
}

// failureReporter is a Conn that can fail one request by itself: over HTTP a
// response status that carries no JSON-RPC answer ends that request, where
// over stdio only the server's own answer could.
type failureReporter interface {
	OnFailure(func(id json.RawMessage, err error))
}

// streamCanceller is a Conn that gives each request its own response stream
// (streamable HTTP), which it closes to cancel the request.
type streamCanceller interface {
	CancelStream(id json.RawMessage) bool
}

// maxMessage bounds one message from the server; a longer line is an error,
// not an allocation without end.
const maxMessage = 64 << 20

// stdioConn speaks newline-delimited JSON-RPC over a pair of streams.
type stdioConn struct {
	mu sync.Mutex
	w  io.WriteCloser
	r  *bufio.Reader
}

// NewStdioConn frames messages as lines: to is the server's stdin, from
// its stdout.
func NewStdioConn(to io.WriteCloser, from io.Reader) Conn {
	return &stdioConn{w: to, r: bufio.NewReaderSize(from, 64<<10)}
}

func (c *stdioConn) Send(msg []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	_, err := c.w.Write(append(append(buf, msg...), '\n'))
	return err
}

func (c *stdioConn) Recv() ([]byte, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxMessage {
			return nil, errors.New("the server wrote a line longer than 64 MiB")
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(line) == 0 {
			return nil, err
		}
		return trimNewline(line), nil
	}
}

func (c *stdioConn) Close() error { return c.w.Close() }

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
