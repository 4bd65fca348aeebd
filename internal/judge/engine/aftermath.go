package engine

import (
	"bytes"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Aftermath watches how a party copes with something that could upset it (a
// cancellation that arrives late, an invalid cursor): it coped when it went
// on with the session, and it did not when its side of the transport broke
// first. A clean close by the peer leaves the question open.
type Aftermath struct {
	watches []Watch
}

// Watch is one stimulus awaiting the party's next move.
type Watch struct {
	Check string
	Party spec.Party
	Ev    *trace.Event
	What  string
	// Notice is set when the stimulus was a notification, which must not be
	// answered at all: an error response with a null id right after it is
	// the party rejecting it.
	Notice bool
	// answers, when set, is the pending key of the request the stimulus
	// was: only the response to it shows the party went on.
	Answers string
}

// maxWatches bounds the watches kept; each resolves at the party's next
// message, so more than a few in flight means a peer that never speaks.
const maxWatches = 64

func (a *Aftermath) Expect(w Watch) {
	if len(a.watches) >= maxWatches {
		a.watches = a.watches[1:]
	}
	a.watches = append(a.watches, w)
}

// Message resolves the watches on m's sender: it went on with the session.
func (a *Aftermath) Message(s *Session, m *message.Msg) {
	a.resolve(func(w Watch) bool {
		if w.Party != m.From || (w.Answers != "" && !answersKey(m, w.Answers)) {
			return false
		}
		rejected := w.Notice && m.Kind == message.KindError && bytes.Equal(m.ID, []byte("null"))
		s.Expect(w.Check, !rejected, w.Party, m.Event,
			"the %s answered %s at line %d with an error response instead of ignoring it", w.Party, w.What, w.Ev.Line)
		return true
	})
}

// HTTP resolves the watch of a notification posted over HTTP by the status
// the server gave that POST: accepted, or refused.
func (a *Aftermath) HTTP(s *Session, ev *trace.Event) {
	if ev.Status == 0 || ev.Exchange == 0 {
		return
	}
	a.resolve(func(w Watch) bool {
		if w.Ev.Exchange != ev.Exchange || w.Party != spec.Server {
			return false
		}
		s.Expect(w.Check, ev.Status < 400, spec.Server, ev,
			"the server refused the POST carrying %s at line %d with HTTP status %d", w.What, w.Ev.Line, ev.Status)
		return true
	})
}

// Lifecycle fails the watches on a party whose side of the transport broke,
// and drops every watch when the transport closed cleanly.
func (a *Aftermath) Lifecycle(s *Session, ev *trace.Event) {
	switch ev.Event {
	case trace.TransportClose:
		if ev.Stream == "" {
			a.watches = nil
		}
	case trace.TransportAbort:
		a.resolve(func(w Watch) bool {
			if senderOf(ev.Direction) != w.Party || !sameExchange(w.Ev, ev) {
				return false
			}
			s.Fail(w.Check, w.Party, ev, "the %s's side of the transport broke (%s) before it went on after %s at line %d",
				w.Party, describeAbort(ev), w.What, w.Ev.Line)
			return true
		})
	}
}

func answersKey(m *message.Msg, key string) bool {
	return m.Request != nil && PendingKey(m.Request.From, m.Request.IDKey) == key
}

// resolve drops the watches done reports handled.
func (a *Aftermath) resolve(done func(Watch) bool) {
	kept := a.watches[:0]
	for _, w := range a.watches {
		if !done(w) {
			kept = append(kept, w)
		}
	}
	a.watches = kept
}

// sameExchange reports whether an abort concerns the exchange a watch was
// set on: an abort of no particular exchange breaks them all.
func sameExchange(stimulus, abort *trace.Event) bool {
	return abort.Exchange == 0 || stimulus.Exchange == 0 || abort.Exchange == stimulus.Exchange
}

// senderOf is the party that sends in direction d.
func senderOf(d trace.Direction) spec.Party {
	if d == trace.ServerToClient {
		return spec.Server
	}
	return spec.Client
}

func describeAbort(ev *trace.Event) string {
	if ev.Reason != "" {
		return "transport-abort: " + ev.Reason
	}
	return "transport-abort"
}
