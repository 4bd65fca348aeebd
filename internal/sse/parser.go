// Package sse reads text/event-stream bodies by the WHATWG event-stream
// rules: Parser splits the bytes of a stream into frames as they arrive,
// keeping each frame's exact bytes so that a proxy can forward them
// unchanged, and Reader hands a client the data of one event at a time from
// an io.Reader, with the last event ID and retry hint the stream has set.
package sse

import (
	"bytes"
	"errors"
	"strconv"
)

// ErrFrameTooLarge is returned by Parser.Feed when the frame in progress
// outgrows the parser's limit.
var ErrFrameTooLarge = errors.New("sse frame exceeds the size limit")

// utf8BOM may open an event stream; the WHATWG rules skip it.
var utf8BOM = []byte("\xEF\xBB\xBF")

// Frame is one frame of an event stream: the lines up to and including
// the blank line that ends it. Raw is the frame's exact bytes, so that
// forwarding frame by frame is byte-transparent.
type Frame struct {
	Raw []byte
	// Data is the frame's data field values joined with "\n"; empty when the
	// frame had no data field or only empty ones.
	Data []byte
	// ID is the frame's own id field (nil when it had none). Unlike the
	// WHATWG "last event ID", it is not inherited from earlier frames: the
	// trace keeps what each frame carried.
	ID    *string
	Event string
	Retry *int64
}

// Empty reports whether the frame carried no field at all: comments and
// stray blank lines, such as keep-alives.
func (f *Frame) Empty() bool {
	return len(f.Data) == 0 && f.ID == nil && f.Event == "" && f.Retry == nil
}

// Parser splits a text/event-stream into frames as its bytes arrive,
// following the WHATWG event-stream interpretation rules: lines end in CRLF,
// LF or CR; a leading BOM is skipped; lines starting with ':' are comments;
// data lines are joined with "\n"; retry is kept only when it is all digits;
// an id containing NUL is ignored.
//
// It holds only the frame in progress, never the stream.
type Parser struct {
	// Limit is the largest frame in progress the parser will hold; 0 means
	// none. Set it before the first Feed.
	Limit int

	buf       []byte // bytes of the frame in progress, from its first byte
	lineStart int    // where the line being read starts in buf
	scanned   int    // how far past lineStart buf has been searched for a line end
	started   bool   // the stream's optional BOM has been dealt with
	skipLF    bool   // the last line ended in CR: an LF right after it belongs to that line end

	data  []byte
	id    *string
	event string
	retry *int64
}

// Feed adds the next bytes of the stream and calls emit for each frame they
// complete, in order. The frame passed to emit is only valid during the call.
// Feed stops at emit's first error and returns it; the bytes after the
// frame emitted last stay buffered, and the next Feed, even of no bytes,
// goes on from there. It returns ErrFrameTooLarge, and emits nothing more,
// when a frame outgrows the limit; Pending then holds that frame and every
// byte after it, and the parser is done.
func (p *Parser) Feed(b []byte, emit func(*Frame) error) error {
	p.buf = append(p.buf, b...)
	if !p.skipBOM() {
		return nil
	}
	frameStart := 0
	var err error
	for err == nil {
		line, ok := p.nextLine()
		if !ok {
			break
		}
		if len(line) > 0 {
			p.field(line)
			continue
		}
		if p.Limit > 0 && p.lineStart-frameStart > p.Limit {
			err = ErrFrameTooLarge
			break
		}
		frame := p.takeFrame(p.buf[frameStart:p.lineStart])
		frameStart = p.lineStart
		err = emit(&frame)
	}
	p.dropFrom(frameStart)
	if err == nil && p.Limit > 0 && len(p.buf) > p.Limit {
		err = ErrFrameTooLarge
	}
	return err
}

// Pending returns the bytes of the unfinished frame: what is left to
// forward when the stream ends.
func (p *Parser) Pending() []byte { return p.buf }

// MidFrame reports whether the stream stopped inside a frame: bytes are
// pending that are more than the end of the last line.
func (p *Parser) MidFrame() bool {
	return len(bytes.Trim(p.buf, "\r\n")) > 0
}

// skipBOM steps past a BOM at the start of the stream, waiting while the
// bytes so far could still be one. It reports whether parsing may go on.
func (p *Parser) skipBOM() bool {
	if p.started {
		return true
	}
	if len(p.buf) < len(utf8BOM) && bytes.HasPrefix(utf8BOM, p.buf) {
		return false
	}
	p.started = true
	if bytes.HasPrefix(p.buf, utf8BOM) {
		p.lineStart, p.scanned = len(utf8BOM), len(utf8BOM)
	}
	return true
}

// nextLine returns the next complete line, without its line end, and moves
// past it; ok is false when no complete line is buffered.
func (p *Parser) nextLine() (line []byte, ok bool) {
	if p.skipLF {
		if p.lineStart == len(p.buf) {
			return nil, false
		}
		p.skipLF = false
		if p.buf[p.lineStart] == '\n' {
			p.lineStart++
			p.scanned = max(p.scanned, p.lineStart)
		}
	}
	end := lineEnd(p.buf, p.scanned)
	if end < 0 {
		p.scanned = len(p.buf)
		return nil, false
	}
	line = p.buf[p.lineStart:end]
	next := end + 1
	if p.buf[end] == '\r' {
		switch {
		case next == len(p.buf):
			p.skipLF = true
		case p.buf[next] == '\n':
			next++
		}
	}
	p.lineStart, p.scanned = next, next
	return line, true
}

// lineEnd returns the index of the first CR or LF in b at or after from, or -1.
func lineEnd(b []byte, from int) int {
	rest := b[from:]
	lf := bytes.IndexByte(rest, '\n')
	if lf >= 0 {
		rest = rest[:lf]
	}
	if cr := bytes.IndexByte(rest, '\r'); cr >= 0 {
		return from + cr
	}
	if lf >= 0 {
		return from + lf
	}
	return -1
}

// field applies one non-blank line to the frame in progress.
func (p *Parser) field(line []byte) {
	if line[0] == ':' {
		return
	}
	name, value, _ := bytes.Cut(line, []byte{':'})
	value, _ = bytes.CutPrefix(value, []byte{' '})
	switch string(name) {
	case "data":
		p.data = append(append(p.data, value...), '\n')
	case "event":
		p.event = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			id := string(value)
			p.id = &id
		}
	case "retry":
		if ms, ok := parseRetry(value); ok {
			p.retry = &ms
		}
	}
}

// parseRetry accepts only ASCII digits, as the WHATWG rules require, and a
// value that fits in an int64.
func parseRetry(value []byte) (int64, bool) {
	if len(value) == 0 {
		return 0, false
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	ms, err := strconv.ParseInt(string(value), 10, 64)
	return ms, err == nil
}

// takeFrame returns the frame in progress with the given raw bytes and
// resets the fields for the next one.
func (p *Parser) takeFrame(raw []byte) Frame {
	data := bytes.TrimSuffix(p.data, []byte{'\n'})
	f := Frame{Raw: raw, Data: data, ID: p.id, Event: p.event, Retry: p.retry}
	p.data, p.id, p.event, p.retry = p.data[:0], nil, "", nil
	return f
}

// dropFrom discards the bytes of frames already emitted, keeping the
// unfinished frame at the start of buf. A buffer grown for one large frame
// is let go once that frame is out, so a long-lived stream does not keep it.
func (p *Parser) dropFrom(frameStart int) {
	if frameStart == 0 {
		return
	}
	rest := p.buf[frameStart:]
	if cap(p.buf) > shrinkAbove && len(rest) < cap(p.buf)/4 {
		p.buf = append([]byte(nil), rest...)
		p.data = append([]byte(nil), p.data...)
	} else {
		p.buf = p.buf[:copy(p.buf, rest)]
	}
	p.lineStart -= frameStart
	p.scanned -= frameStart
}

// shrinkAbove is the buffer capacity past which an emptied buffer is freed.
const shrinkAbove = 1 << 20
