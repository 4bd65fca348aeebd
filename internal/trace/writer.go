package trace

import (
	"bytes"
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
	w.line = w.appendLine(w.line[:0], ev, w.seq, w.now())
	return w.flush(1)
}

// RecordAll records evs as consecutive lines, in order, with one write, and
// returns the seq of the first. They share one mono_ns unless they carry
// their own: they are the events of bytes that arrived together.
func (w *Writer) RecordAll(evs []Event) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, ErrClosed
	}
	now := w.now()
	line := w.line[:0]
	for i, ev := range evs {
		line = w.appendLine(line, ev, w.seq+int64(i), now)
	}
	w.line = line
	return w.flush(len(evs))
}

func (w *Writer) now() int64 { return int64(time.Since(w.start)) }

// appendLine numbers ev and appends its line.
func (w *Writer) appendLine(dst []byte, ev Event, seq, now int64) []byte {
	ev.Seq = seq
	if ev.MonoNS == 0 {
		ev.MonoNS = now
	}
	line, err := appendEvent(dst, &ev)
	if err != nil {
		// A payload that is not JSON is kept as raw text, never dropped.
		ev.SetRaw(ev.Payload)
		line, _ = appendEvent(dst, &ev)
	}
	return line
}

// flush writes the n lines in w.line and moves seq past those that reached
// the file whole, so that a failed write never leaves two lines with one
// seq on file.
func (w *Writer) flush(n int) (int64, error) {
	first := w.seq
	written, err := w.out.Write(w.line)
	w.keep()
	if err == nil {
		w.seq += int64(n)
		return first, nil
	}
	w.seq += int64(bytes.Count(w.line[:written], []byte{'\n'}))
	err = fmt.Errorf("write trace event %d: %w", w.seq, err)
	if w.err == nil {
		w.err = err
	}
	return first, err
}

// keepLineBelow bounds the line buffer kept for the next event, so that one
// large message does not pin its size for the rest of the session.
const keepLineBelow = 1 << 20

func (w *Writer) keep() {
	if cap(w.line) > keepLineBelow {
		w.line = nil
	}
}

// BatchRecorder is a Recorder that can write several events with one write.
type BatchRecorder interface {
	Recorder
	RecordAll(evs []Event) (first int64, err error)
}

// RecordAll records evs in order on rec: with one write when rec can, else
// one by one. It returns the first error.
func RecordAll(rec Recorder, evs []Event) error {
	if b, ok := rec.(BatchRecorder); ok {
		_, err := b.RecordAll(evs)
		return err
	}
	var first error
	for _, ev := range evs {
		if _, err := rec.Record(ev); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Close stops the sequencer and returns the first write error, if any.
// Records made after it return ErrClosed.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return w.err
}
