package trace

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Recorder is what the capture layer writes events to. Record assigns the
// event its seq and returns once the line has been handed to the operating
// system, so a caller that records a message before forwarding its last byte
// knows the record exists first.
type Recorder interface {
	Record(ev Event) (seq int64, err error)
}

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("trace writer is closed")

// Writer is the one sequencer of a trace: seq belongs to its lock, and the
// caller holding it numbers its event and writes the line with one
// unbuffered write before letting go, so seq order is the order of the
// lines in the file, no two lines interleave, and nothing sits in a buffer
// when either peer crashes.
//
// A lock rather than a goroutine of its own: handing every message to a
// sequencer goroutine and waiting for its answer cost two scheduler hops a
// message, which on a small machine were most of what recording a message
// cost the session.
type Writer struct {
	mu     sync.Mutex
	out    io.Writer
	start  time.Time
	seq    int64
	line   []byte // reused from line to line
	closed bool
	err    error // the first write error
}

// NewWriter starts the sequencer over w. Seq starts at 0; mono_ns counts from
// this call.
func NewWriter(w io.Writer) *Writer {
	return &Writer{out: w, start: time.Now()}
}

// Record sequences ev, stamps mono_ns and writes it as one line.
func (w *Writer) Record(ev Event) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, ErrClosed
	}
	ev.Seq = w.seq
	if ev.MonoNS == 0 {
		ev.MonoNS = int64(time.Since(w.start))
	}
	line, err := appendEvent(w.line[:0], &ev)
	if err != nil {
		// A payload that is not JSON is kept as raw text, never dropped.
		ev.SetRaw(ev.Payload)
		line, err = appendEvent(w.line[:0], &ev)
	}
	if err == nil {
		_, err = w.out.Write(line)
	}
	w.keep(line)
	if err != nil {
		err = fmt.Errorf("write trace event %d: %w", ev.Seq, err)
		if w.err == nil {
			w.err = err
		}
		return ev.Seq, err
	}
	w.seq++
	return ev.Seq, nil
}

// keepLineBelow bounds the line buffer kept for the next event, so that one
// large message does not pin its size for the rest of the session.
const keepLineBelow = 64 << 10

func (w *Writer) keep(line []byte) {
	if cap(line) <= keepLineBelow {
		w.line = line
	} else {
		w.line = nil
	}
}

// Close stops the sequencer and returns the first write error, if any.
// Records made after it return ErrClosed.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return w.err
}
