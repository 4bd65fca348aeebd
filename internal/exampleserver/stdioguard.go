package exampleserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxLineLength bounds one incoming message, as the SDK's own stdio
// transport does by default.
const maxLineLength = 16 << 20

// stdioGuard stands between the stdio streams and the SDK, on the bytes,
// for what the SDK does on stdio that the specification does not want: it
// answers malformed lines itself (see rejectLine) instead of letting them
// end the session, and it withholds responses to cancelled requests (see
// cancellations). Everything else passes through unchanged.
type stdioGuard struct {
	lines     *bufio.Reader
	pending   []byte // the rest of a line already accepted for the SDK
	cancelled cancellations
	revision  negotiatedRevision

	writeMu sync.Mutex // the SDK's writes and the guard's own, one at a time
	out     io.Writer
}

func newStdioGuard(in io.Reader, out io.Writer) *stdioGuard {
	return &stdioGuard{lines: bufio.NewReader(in), out: out}
}

// Read gives the SDK the next lines that passed the guard.
func (g *stdioGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.nextLine()
		if len(line) > 0 {
			g.admit(line)
		}
		if err != nil && len(g.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// admit queues a line for the SDK, or answers it if it is malformed.
func (g *stdioGuard) admit(line []byte) {
	if reply := rejectLine(line, g.revision.hasBatches()); reply != nil {
		g.writeOwn(reply)
		return
	}
	g.cancelled.note(line)
	g.pending = line
}

// nextLine reads one line, newline included. A line over maxLineLength is
// answered as invalid and skipped, so one oversized message does not end
// the session.
func (g *stdioGuard) nextLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.lines.ReadSlice('\n')
		if len(line)+len(chunk) > maxLineLength {
			g.writeOwn(errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: the message is longer than 16 MiB"))
			return nil, g.skipLine(err)
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// skipLine discards the rest of an oversized line.
func (g *stdioGuard) skipLine(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = g.lines.ReadSlice('\n')
	}
	return err
}

// Write passes the SDK's messages on, minus responses to cancelled
// requests. The SDK writes each message with one call, newline included.
func (g *stdioGuard) Write(p []byte) (int, error) {
	g.revision.noteInitializeResult(p)
	if g.cancelled.withhold(p) {
		return len(p), nil
	}
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	return g.out.Write(p)
}

// writeOwn writes a message of the guard's own. A failure is the SDK's to
// find: its next write fails the same way.
func (g *stdioGuard) writeOwn(msg []byte) {
	if len(msg) == 0 {
		return
	}
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	g.out.Write(msg)
}

// negotiatedRevision is the protocol revision the server's initialize
// result named, learnt from the bytes the server writes.
type negotiatedRevision struct {
	mu      sync.Mutex
	version string
}

// noteInitializeResult records the revision of the first initialize result
// the server writes.
func (r *negotiatedRevision) noteInitializeResult(msg []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.version != "" || !bytes.Contains(msg, []byte(`"protocolVersion"`)) {
		return
	}
	var resp struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &resp) == nil {
		r.version = resp.Result.ProtocolVersion
	}
}

// hasBatches reports whether the session negotiated a revision with JSON-RPC
// batches: those before 2025-06-18.
func (r *negotiatedRevision) hasBatches() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version != "" && r.version < "2025-06-18"
}
