package transports

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxPendingStreams bounds the streams kept until the trace ends for a
// finding about what the client did afterwards.
const maxPendingStreams = 256

// Resumability, redelivery and cancellation (2025-11-25): event ids, the
// retry hint, reconnecting with Last-Event-ID, and one stream per message.
var httpResumeChecks = []engine.Check{
	{ID: "http.sse-retry-before-close", Summary: "a server that closes a POST's SSE stream before the response, after an event id, sent a retry field"},
	{ID: "http.client-reconnects", Summary: "a client whose POST stream the server closed before the response reconnects with Last-Event-ID"},
	{ID: "http.retry-respected", Summary: "a client waits the retry field's milliseconds before reconnecting"},
	{ID: "http.resume-last-event-id", Summary: "a client resumes with a GET whose Last-Event-ID is an event id the server sent"},
	{ID: "http.sse-id-unique", Summary: "SSE event ids are unique across the streams of a session (a redelivery on its stream's resumption aside)"},
	{ID: "http.no-broadcast", Summary: "no server message travels on two streams (a redelivery on its stream's resumption aside)"},
	{ID: "http.replay-same-stream", Summary: "a resumed stream replays only what belonged to the stream it resumes"},
	{ID: "http.cancel-explicitly", Summary: "a client abandoning a request sends notifications/cancelled rather than just dropping its stream"},
}

// cancelled reports whether the client cancelled the request call.
func (t *httpTrace) cancelled(call *message.Msg) bool {
	v, _ := t.cancels.Get(call.Event.Session + "|" + call.IDKey)
	return v
}

// awaitReconnect notes a POST stream the server closed before the response.
func (t *httpTrace) awaitReconnect(x *httpExchange) {
	origin := x.Origin()
	origin.Dropped, origin.Reconnected = x, false
	if len(t.awaiting) < maxPendingStreams {
		t.awaiting = append(t.awaiting, origin)
	}
}

func checkLastEventIDRequest(s *engine.Session, t *httpTrace, x *httpExchange) {
	id, ok := x.Header("last-event-id")
	if !ok || s.Stateless() {
		return
	}
	switch {
	case !x.IsGet():
		s.Fail("http.resume-last-event-id", spec.Client, x.Request, "a %s carries Last-Event-ID %q; a stream is resumed with GET", x.Method(), id)
	case x.Resumes == nil:
		s.Fail("http.resume-last-event-id", spec.Client, x.Request, "Last-Event-ID %q names no event id the server sent in this session", id)
	default:
		s.Pass("http.resume-last-event-id", spec.Client)
		if x.Resumes.Dropped != nil && !x.Resumes.Reconnected {
			x.Resumes.Reconnected = true
			s.Pass("http.client-reconnects", spec.Client)
		}
	}
}

// checkRetryRespected compares, with the recorder's monotonic clock, the
// time between the server closing a stream and the client's reconnect with
// the retry hint the stream carried.
func checkRetryRespected(s *engine.Session, t *httpTrace, x *httpExchange) {
	if x.Resumes == nil || x.Resumes.Dropped == nil {
		return
	}
	closed := x.Resumes.Dropped
	if closed.Retry == nil || closed.Ended == nil || closed.Ended.MonoNS == 0 || x.Request.MonoNS == 0 {
		return
	}
	waitedMS := (x.Request.MonoNS - closed.Ended.MonoNS) / 1e6
	s.Expect("http.retry-respected", waitedMS >= *closed.Retry, spec.Client, x.Request,
		"the client reconnected %d ms after the stream closed, though its retry field asked for %d ms", waitedMS, *closed.Retry)
}

func endReconnects(s *engine.Session, t *httpTrace) {
	for _, origin := range t.awaiting {
		closed := origin.Dropped
		if origin.Reconnected || closed.Ended == nil || t.lastClientRequest.Request.Seq < closed.Ended.Seq {
			continue
		}
		s.Fail("http.client-reconnects", spec.Client, t.lastClientRequest.Request,
			"the server closed the stream of request %q (line %d) before its response, and the client went on without reconnecting",
			origin.Call().Method, closed.Ended.Line)
	}
}

func checkEventIDUnique(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if ev.SSE == nil || ev.SSE.ID == nil || *ev.SSE.ID == "" {
		return
	}
	first, _ := t.eventIDs.Get(eventKey(ev.Session, *ev.SSE.ID))
	if first.x == nil {
		return
	}
	redelivery := x.Resumes != nil && first.x.Origin() == x.Origin()
	s.Expect("http.sse-id-unique", first.seq == ev.Seq || redelivery, spec.Server, ev,
		"SSE event id %q was already used on line %d of this session", *ev.SSE.ID, first.line)
}

// broadcastKey names a server message so that a copy of it on another
// stream is recognised: requests and responses by id, progress by token
// and value. Other notifications may repeat legitimately.
func broadcastKey(m *message.Msg) string {
	switch {
	case m.Kind == message.KindRequest:
		return "request " + m.IDKey
	case m.Kind == message.KindResult || m.Kind == message.KindError:
		return "response " + m.IDKey
	case m.Method == "notifications/progress":
		var p struct {
			Progress json.RawMessage `json:"progress"`
		}
		message.Decode(m.Params, &p)
		return "progress " + notifiedToken(m) + " " + string(p.Progress)
	}
	return ""
}

func checkNoBroadcast(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if m == nil || broadcastKey(m) == "" {
		return
	}
	key := ev.Session + "|" + broadcastKey(m)
	first, seen := t.sent.Get(key)
	here := streamOfExchange(x)
	if !seen {
		t.sent.Put(key, here)
	}
	if seen && first.id == here.id {
		return // repeated on its own stream: the JSON-RPC id checks judge that
	}
	s.Expect("http.no-broadcast", !seen || first.origin == here.origin, spec.Server, ev,
		"%s %s went out on two streams: exchange %d and exchange %d", m.Kind, engine.Describe(m), first.id, x.ID)
}

func checkReplaySameStream(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if x.Resumes == nil || ev.Kind == trace.KindLifecycle {
		return
	}
	if ev.SSE != nil && ev.SSE.ID != nil {
		first, _ := t.eventIDs.Get(eventKey(ev.Session, *ev.SSE.ID))
		if first.x != nil && first.seq != ev.Seq && first.x.Origin() != x.Origin() {
			s.Fail("http.replay-same-stream", spec.Server, ev, "the resumed stream replayed event %q, which was sent on another stream", *ev.SSE.ID)
			return
		}
	}
	if m == nil {
		return
	}
	foreign := (m.Kind == message.KindResult || m.Kind == message.KindError) && !answers(m, x.Origin())
	s.Expect("http.replay-same-stream", !foreign, spec.Server, ev,
		"the resumed stream delivered %s with id %s, which answers a request of another stream", m.Kind, m.ID)
}

func checkCancelExplicit(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if m.Kind != message.KindNotification || m.Method != "notifications/cancelled" || s.Stateless() {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if message.Decode(m.Params, &p) && p.RequestID != nil {
		t.cancels.Put(m.Event.Session+"|"+message.IDKey(p.RequestID), true)
		s.Pass("http.cancel-explicitly", spec.Client)
	}
}

// noteClientDrop remembers a POST stream the client dropped before its
// response, to see at the end whether it cancelled or resumed.
func noteClientDrop(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if ev.Event == trace.TransportAbort && ev.Direction == trace.ClientToServer && x.SSE && !x.Answered &&
		x.Origin().Call() != nil && len(t.drops) < maxPendingStreams {
		t.drops = append(t.drops, x)
	}
}

func endCancelExplicit(s *engine.Session, t *httpTrace) {
	if s.Stateless() {
		return
	}
	for _, x := range t.drops {
		origin := x.Origin()
		if t.cancelled(origin.Call()) || origin.Answered || resumedAfter(t, origin, x.Ended.Seq) {
			continue
		}
		s.Fail("http.cancel-explicitly", spec.Client, x.Ended,
			"the client dropped the stream of request %q before its response and neither sent notifications/cancelled nor resumed it",
			origin.Call().Method)
	}
}

// resumedAfter reports whether a GET resumed origin's stream after seq.
func resumedAfter(t *httpTrace, origin *httpExchange, seq int64) bool {
	found := false
	t.exchanges.Each(func(x *httpExchange) {
		found = found || (x.Resumes == origin && x.Request.Seq > seq)
	})
	return found
}
