package sse

import (
	"bytes"
	"errors"
	"io"
)

// readSize is how much of the stream a Reader asks its io.Reader for at once.
const readSize = 64 << 10

// errPause stops Feed at the frame Reader.Next hands back.
var errPause = errors.New("sse: pause")

// Reader reads the events of a stream from an io.Reader one at a time, for
// a client that handles each message as it arrives. Beside the events it
// keeps the state the WHATWG rules carry from frame to frame: the last event
// ID, which a client sends as Last-Event-ID to resume the stream, and the
// reconnection time.
type Reader struct {
	r       io.Reader
	p       Parser
	buf     []byte
	unfed   []byte // bytes read and not yet given to the parser
	readErr error  // the error that ended reading, once met
	failed  error  // the parser's error, after which nothing is read
	lastID  string
	retry   int64
}

// NewReader returns a Reader of r that fails with ErrFrameTooLarge on a
// frame of more than limit bytes; 0 means no limit.
func NewReader(r io.Reader, limit int) *Reader {
	return &Reader{r: r, p: Parser{Limit: limit}}
}

// Next returns the data of the next event, a frame that carries data: its
// data lines joined with "\n". A frame without data, such as a priming
// event of an id and an empty data line, updates LastEventID and Retry and
// is not returned. At the end of the stream Next returns io.EOF, or the
// error that ended reading; an unfinished last frame is dropped, as the
// rules drop it.
func (r *Reader) Next() ([]byte, error) {
	if r.failed != nil {
		return nil, r.failed
	}
	var data []byte
	emit := func(f *Frame) error {
		if f.ID != nil {
			r.lastID = *f.ID
		}
		if f.Retry != nil {
			r.retry = *f.Retry
		}
		if len(f.Data) == 0 {
			return nil
		}
		data = bytes.Clone(f.Data)
		return errPause
	}
	for {
		err := r.p.Feed(r.unfed, emit)
		r.unfed = nil
		switch {
		case data != nil:
			return data, nil
		case err != nil:
			r.failed = err
			return nil, err
		case r.readErr != nil:
			return nil, r.readErr
		}
		if r.buf == nil {
			r.buf = make([]byte, readSize)
		}
		n, err := r.r.Read(r.buf)
		r.unfed, r.readErr = r.buf[:n], err
	}
}

// LastEventID returns the id of the latest frame that set one, events and
// frames without data alike; "" before any.
func (r *Reader) LastEventID() string { return r.lastID }

// Retry returns the latest reconnection time the stream gave, in
// milliseconds; 0 before any.
func (r *Reader) Retry() int64 { return r.retry }
