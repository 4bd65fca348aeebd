package judge

import (
	"bytes"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// aftermath watches how a party copes with something that could upset it (a
// cancellation that arrives late, an invalid cursor): it coped when it went
// on with the session, and it did not when its side of the transport broke
// first. A clean close by the peer leaves the question open.
type aftermath struct {
	watches []watch
}

// watch is one stimulus awaiting the party's next move.
type watch struct {
	check string
	party spec.Party
	ev    *trace.Event
	what  string
	// notice is set when the stimulus was a notification, which must not be
	// answered at all: an error response with a null id right after it is
	// the party rejecting it.
	notice bool
	// answers, when set, is the pending key of the request the stimulus
	// was: only the response to it shows the party went on.
	answers string
}

// maxWatches bounds the watches kept; each resolves at the party's next
// message, so more than a few in flight means a peer that never speaks.
const maxWatches = 64

func (a *aftermath) expect(w watch) {
	if len(a.watches) >= maxWatches {
		a.watches = a.watches[1:]
	}
	a.watches = append(a.watches, w)
}

// message resolves the watches on m's sender: it went on with the session.
func (a *aftermath) message(s *Session, m *Msg) {
	a.resolve(func(w watch) bool {
		if w.party != m.From || (w.answers != "" && !answersKey(m, w.answers)) {
			return false
		}
		rejected := w.notice && m.Kind == KindError && bytes.Equal(m.ID, []byte("null"))
		s.Expect(w.check, !rejected, w.party, m.Event,
			"the %s answered %s at line %d with an error response instead of ignoring it", w.party, w.what, w.ev.Line)
		return true
	})
}

// http resolves the watch of a notification posted over HTTP by the status
// the server gave that POST: accepted, or refused.
func (a *aftermath) http(s *Session, ev *trace.Event) {
	if ev.Status == 0 || ev.Exchange == 0 {
		return
	}
	a.resolve(func(w watch) bool {
		if w.ev.Exchange != ev.Exchange || w.party != spec.Server {
			return false
		}
		s.Expect(w.check, ev.Status < 400, spec.Server, ev,
			"the server refused the POST carrying %s at line %d with HTTP status %d", w.what, w.ev.Line, ev.Status)
		return true
	})
}

// lifecycle fails the watches on a party whose side of the transport broke,
// and drops every watch when the transport closed cleanly.
func (a *aftermath) lifecycle(s *Session, ev *trace.Event) {
	switch ev.Event {
	case trace.TransportClose:
		if ev.Stream == "" {
			a.watches = nil
		}
	case trace.TransportAbort:
		a.resolve(func(w watch) bool {
			if senderOf(ev.Direction) != w.party || !sameExchange(w.ev, ev) {
				return false
			}
			s.Fail(w.check, w.party, ev, "the %s's side of the transport broke (%s) before it went on after %s at line %d",
				w.party, describeAbort(ev), w.what, w.ev.Line)
			return true
		})
	}
}

func answersKey(m *Msg, key string) bool {
	return m.Request != nil && pendingKey(m.Request.From, m.Request.IDKey) == key
}

// resolve drops the watches done reports handled.
func (a *aftermath) resolve(done func(watch) bool) {
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
