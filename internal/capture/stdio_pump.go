package capture

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"time"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// pumpBufferSize is the most one read takes from a pipe: a pipe's capacity,
// so a burst of messages is forwarded with one write.
const pumpBufferSize = 64 << 10

// linePump copies one direction of a stdio session and records each
// newline-delimited message before the newline that completes it is
// forwarded.
//
// Each chunk read is forwarded with a single write as soon as the messages
// it completes are recorded; bytes of a message still unfinished go out at
// once, so the wrapper never holds back what it has read.
//
// A line longer than maxLine is recorded as raw, cut to its first maxLine
// bytes, as soon as it outgrows them; the rest of it is forwarded but not
// held, so that a peer that never sends a newline cannot fill the memory.
type linePump struct {
	dir     trace.Direction
	src     io.Reader
	dst     *latchedWriter
	session *stdioSession
	maxLine int
	// partial holds the bytes of an unfinished line, already forwarded;
	// lineLen counts them, and those past maxLine that were not held.
	partial []byte
	lineLen int
	// cut is set once the unfinished line outgrew maxLine and its start
	// was recorded.
	cut bool
	// events holds the messages of one chunk while they are recorded.
	events []trace.Event
}

// pumpEnd says how one direction ended.
type pumpEnd struct {
	// readErr is why reading stopped, nil at end of file.
	readErr error
	// writeErr is set when the receiving side stopped taking bytes; what
	// came after was still read and recorded, but not forwarded.
	writeErr error
	// partial counts the bytes of a message the stream ended in the middle of.
	partial int
}

func newLinePump(dir trace.Direction, src io.Reader, dst io.Writer, s *stdioSession, maxLine int) *linePump {
	return &linePump{dir: dir, src: src, dst: &latchedWriter{w: dst}, session: s, maxLine: maxLine}
}

// yieldEvery is how often a busy pump passes through the scheduler.
//
// A pump that goes from one blocking read straight to the next keeps its P
// and never reaches the scheduler, so the P's schedule tick stands still,
// and sysmon takes a tick unchanged for 10 ms for a goroutine hogging its
// P: it takes the P from the read under way and, having found work, polls
// every 20 µs for a millisecond or more, a thread wake each time on a
// machine the server may be keeping busy. A yield every few milliseconds
// moves the tick on, for one hand-off.
const yieldEvery = 4 * time.Millisecond

// run copies until src ends.
func (p *linePump) run() pumpEnd {
	buf := make([]byte, pumpBufferSize)
	yielded := time.Now()
	for {
		n, err := p.src.Read(buf)
		if n > 0 {
			p.forward(buf[:n])
		}
		if err != nil {
			return p.finish(err)
		}
		if now := time.Now(); now.Sub(yielded) > yieldEvery {
			runtime.Gosched()
			yielded = now
		}
	}
}

// forward records the messages chunk completes, then writes all of it.
func (p *linePump) forward(chunk []byte) {
	complete := bytes.LastIndexByte(chunk, '\n') + 1
	p.recordLines(chunk[:complete])
	p.hold(chunk[complete:])
	p.dst.Write(chunk)
}

// recordLines records every line of lines, which ends with a newline; the
// first completes whatever partial line came before it. The messages of one
// read go to the trace with one write: a client or server that sends a
// burst does not pay a write per message.
func (p *linePump) recordLines(lines []byte) {
	for len(lines) > 0 {
		end := bytes.IndexByte(lines, '\n')
		p.endLine(lines[:end])
		lines = lines[end+1:]
	}
	if len(p.events) > 0 {
		p.session.recordAll(p.events)
		clear(p.events) // let the bodies go
		p.events = p.events[:0]
	}
}

// endLine takes the last bytes of a line, up to its newline, and queues
// its message.
func (p *linePump) endLine(last []byte) {
	line, cut := last, p.cut
	if len(p.partial) > 0 {
		line = append(p.partial, last...)
		p.partial = line[:0]
	}
	p.lineLen, p.cut = 0, false
	switch {
	case cut: // its start is on record already
	case len(line) > p.maxLine:
		p.events = append(p.events, rawEvent(p.dir, lineStart(line, p.maxLine)))
	case !isBlank(line):
		p.events = append(p.events, messageEvent(p.dir, line))
	}
}

// hold keeps the start of an unfinished line, recording it once the line
// outgrows maxLine.
func (p *linePump) hold(start []byte) {
	p.lineLen += len(start)
	if p.cut || len(start) == 0 {
		return
	}
	p.partial = append(p.partial, start...)
	if len(p.partial) > p.maxLine {
		p.session.record(rawEvent(p.dir, lineStart(p.partial, p.maxLine)))
		p.partial, p.cut = nil, true
	}
}

// lineStart returns the first n bytes of line, which is longer, or fewer
// so as not to split a UTF-8 sequence: a cut must not turn text into bytes
// that are not UTF-8.
func lineStart(line []byte, n int) []byte {
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(line[i]) {
			return line[:i]
		}
	}
	return line[:n]
}

// finish records a message left without its newline, as raw bytes since
// its framing never completed.
func (p *linePump) finish(readErr error) pumpEnd {
	end := pumpEnd{writeErr: p.dst.err}
	if !errors.Is(readErr, io.EOF) {
		end.readErr = readErr
	}
	switch {
	case p.cut:
		end.partial = p.lineLen // its start is on record already
	case !isBlank(p.partial):
		end.partial = p.lineLen
		p.session.record(rawEvent(p.dir, p.partial))
	}
	return end
}

// isBlank reports whether line holds nothing but JSON whitespace, which
// carries no message: such lines are forwarded but not recorded.
func isBlank(line []byte) bool { return rawjson.SkipSpace(line, 0) == len(line) }

// latchedWriter writes until the first error, then drops everything and
// keeps that error: a peer that stopped reading must not stop the wrapper
// from draining the other side, or that side would block on a full pipe.
type latchedWriter struct {
	w   io.Writer
	err error
}

func (l *latchedWriter) Write(p []byte) (int, error) {
	if l.err == nil {
		_, l.err = l.w.Write(p)
	}
	return len(p), nil
}

// copyStderr passes the server's stderr through to the wrapper's and into
// the log beside the trace until it closes, and returns the log's first
// write error. Neither destination failing stops the other.
func copyStderr(src io.Reader, pass, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	logW := &latchedWriter{w: log}
	_, _ = io.Copy(io.MultiWriter(&latchedWriter{w: pass}, logW), src)
	return logW.err
}
