package capture

import (
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// stdioStream is the stream name of every stdio event: a stdio session has
// exactly one stream each way.
const stdioStream = "stdio"

// stdioSession records the events of one wrapped server. Its lock orders
// the two directions' messages against the final event, after which
// nothing more is recorded; the trace.Writer assigns the seq.
type stdioSession struct {
	rec   trace.Recorder
	mu    sync.Mutex
	ended bool
	err   error // the first recording failure
}

// rawEvent is the event of bytes that were never a whole line, which it
// copies: a line its stream ended in the middle of, or the start of one
// longer than the limit.
func rawEvent(dir trace.Direction, b []byte) trace.Event {
	ev := trace.Event{Direction: dir, Kind: trace.KindMessage}
	ev.SetRaw(b)
	return ev
}

// messageEvent is the event of one complete line, which it copies.
func messageEvent(dir trace.Direction, line []byte) trace.Event {
	ev := trace.Event{Direction: dir, Kind: trace.KindMessage}
	ev.SetBody(line)
	return ev
}

func (s *stdioSession) open() {
	s.record(lifecycleEvent(trace.ClientToServer, trace.TransportOpen))
}

func (s *stdioSession) exit(st ExitStatus) {
	ev := lifecycleEvent(trace.ServerToClient, trace.ProcessExit)
	if st.Signal != "" {
		ev.Signal = st.Signal
	} else {
		ev.ExitCode = &st.Code
	}
	s.record(ev)
}

// end records the transport-close or transport-abort that ends the trace.
func (s *stdioSession) end(ev trace.Event) { s.write(ev, true) }

func lifecycleEvent(dir trace.Direction, what trace.Lifecycle) trace.Event {
	return trace.Event{Direction: dir, Kind: trace.KindLifecycle, Event: what}
}

func (s *stdioSession) record(ev trace.Event) { s.write(ev, false) }

// write records ev unless the session has ended; last ends it.
func (s *stdioSession) write(ev trace.Event, last bool) {
	ev.Transport, ev.Stream = trace.Stdio, stdioStream
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.rec == nil {
		return
	}
	s.ended = last
	_, err := s.rec.Record(ev)
	s.noteError(err)
}

// recordAll records the messages of one chunk, in order, unless the
// session has ended.
func (s *stdioSession) recordAll(evs []trace.Event) {
	for i := range evs {
		evs[i].Transport, evs[i].Stream = trace.Stdio, stdioStream
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.rec == nil {
		return
	}
	s.noteError(trace.RecordAll(s.rec, evs))
}

// noteError keeps the first recording failure; the session goes on.
func (s *stdioSession) noteError(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}
