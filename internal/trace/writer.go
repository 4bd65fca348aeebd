package trace

import (
	"bytes"
	"encoding/json"
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

// Writer is the one sequencer of a trace: a single goroutine owns seq and
// writes every line with one unbuffered write, so nothing sits in a buffer
// when either peer crashes.
type Writer struct {
	reqs   chan writeReq
	done   chan struct{}
	once   sync.Once
	mu     sync.RWMutex // guards closed against a send on a closed channel
	closed bool
	err    error
}

type writeReq struct {
	ev    Event
	reply chan writeReply
}

type writeReply struct {
	seq int64
	err error
}

// NewWriter starts the sequencer over w. Seq starts at 0; mono_ns counts from
// this call.
func NewWriter(w io.Writer) *Writer {
	tw := &Writer{reqs: make(chan writeReq), done: make(chan struct{})}
	go tw.run(w, time.Now())
	return tw
}

// Record sequences ev, stamps mono_ns and writes it as one line.
func (w *Writer) Record(ev Event) (int64, error) {
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return 0, ErrClosed
	}
	reply := make(chan writeReply, 1)
	w.reqs <- writeReq{ev: ev, reply: reply}
	w.mu.RUnlock()
	r := <-reply
	return r.seq, r.err
}

// Close stops the sequencer and returns the first write error, if any.
func (w *Writer) Close() error {
	w.once.Do(func() {
		w.mu.Lock()
		w.closed = true
		close(w.reqs)
		w.mu.Unlock()
		<-w.done
	})
	return w.err
}

func (w *Writer) run(out io.Writer, start time.Time) {
	defer close(w.done)
	var (
		seq int64
		buf bytes.Buffer
	)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for req := range w.reqs {
		ev := req.ev
		ev.Seq = seq
		if ev.MonoNS == 0 {
			ev.MonoNS = int64(time.Since(start))
		}
		buf.Reset()
		err := enc.Encode(&ev)
		if err != nil && ev.Payload != nil {
			// A payload that is not JSON is kept as raw text, never dropped.
			buf.Reset()
			ev.SetRaw(ev.Payload)
			err = enc.Encode(&ev)
		}
		if err == nil {
			_, err = out.Write(buf.Bytes())
		}
		if err != nil {
			err = fmt.Errorf("write trace event %d: %w", seq, err)
			if w.err == nil {
				w.err = err
			}
		} else {
			seq++
		}
		req.reply <- writeReply{seq: ev.Seq, err: err}
	}
}
