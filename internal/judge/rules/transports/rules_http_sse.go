package transports

import (
	"encoding/json"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// SSE streams: what a server sends on the stream answering a POST, and on
// a stream the client opened with GET.
var httpSSEChecks = []engine.Check{
	{ID: "http.sse-priming-event", Summary: "an SSE stream answering a POST opens with an event that carries an id and no data"},
	{ID: "http.sse-ends-after-response", Summary: "an SSE stream ends with the response to its request: nothing follows it, and the server closes the stream"},
	{ID: "http.sse-no-buffering", Summary: "an SSE response carries X-Accel-Buffering: no"},
	{ID: "http.post-stream-related", Summary: "notifications on a POST's stream relate to its request (progress tokens; in 2026-07-28 list changes only on a subscriptions/listen stream)"},
	{ID: "http.get-no-response", Summary: "no response travels on a GET stream that resumes nothing"},
	{ID: "http.get-stream-unrelated", Summary: "a GET stream carries no progress of a request still in flight"},
	{ID: "http.sse-response-delivered", Summary: "an SSE stream answering a request delivers its response; one ended without it leaves an event id to resume from"},
}

func checkPrimingEvent(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if s.Stateless() || !x.IsPost() || !x.SSE || x.Frames != 1 || ev.Kind == trace.KindLifecycle {
		return
	}
	primed := m == nil && ev.SSE != nil && ev.SSE.ID != nil && *ev.SSE.ID != ""
	s.Expect("http.sse-priming-event", primed, spec.Server, ev,
		"the SSE stream answering the POST opened with %s, not an event carrying an id and an empty data field", frameWord(ev, m))
}

func frameWord(ev *trace.Event, m *message.Msg) string {
	if m != nil {
		return m.Kind.String() + " " + engine.Describe(m)
	}
	return "a frame without an id"
}

// checkEndsAfterResponse warns when anything follows the response on its
// stream, and passes a stream the server closed right after it.
func checkEndsAfterResponse(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if !x.SSE || x.Origin().Call() == nil {
		return
	}
	if ev.Kind == trace.KindLifecycle {
		if x.Answered && ev.Event == trace.TransportClose && ev.Direction == trace.ServerToClient && x.once("ended") {
			s.Pass("http.sse-ends-after-response", spec.Server)
		}
		return
	}
	if x.Late && x.once("ended") {
		s.Fail("http.sse-ends-after-response", spec.Server, ev,
			"after the response to %q the SSE stream went on with %s instead of ending", x.Origin().Call().Method, frameWord(ev, m))
	}
}

func checkSSEBuffering(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !s.Stateless() || !x.SSE || !x.OK() {
		return
	}
	got := x.Response.Headers["x-accel-buffering"]
	s.Expect("http.sse-no-buffering", strings.EqualFold(got, "no"), spec.Server, x.Response,
		"the SSE response has X-Accel-Buffering %q, not \"no\"", got)
}

// listChanges are the notifications that 2026-07-28 delivers only on a
// subscriptions/listen stream.
var listChanges = map[string]bool{
	"notifications/tools/list_changed": true, "notifications/prompts/list_changed": true,
	"notifications/resources/list_changed": true, "notifications/resources/updated": true,
}

func checkPostStreamRelated(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	call := x.Origin().Call()
	if m == nil || m.Kind != message.KindNotification || !x.SSE || call == nil {
		return
	}
	switch {
	case m.Method == "notifications/progress":
		token := notifiedToken(m)
		s.Expect("http.post-stream-related", token != "" && token == engine.ProgressToken(call), spec.Server, ev,
			"progress for token %s travelled on the stream of request %q, whose progress token is %s",
			engine.DisplayID(token), call.Method, engine.DisplayID(engine.ProgressToken(call)))
	case s.Stateless() && listChanges[m.Method]:
		s.Expect("http.post-stream-related", call.Method == "subscriptions/listen", spec.Server, ev,
			"%q travelled on the stream of request %q; list changes belong on a subscriptions/listen stream", m.Method, call.Method)
	}
}

// notifiedToken is the canonical progressToken a progress notification names.
func notifiedToken(m *message.Msg) string {
	var p struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	}
	if !message.Decode(m.Params, &p) {
		return ""
	}
	return message.IDKey(p.ProgressToken)
}

// checkGetStream judges the messages of a stream the client opened with a
// plain GET (a resumption is judged by the replay clause). A GET refused
// with an error status opened no stream: the JSON-RPC error in its body is
// the refusal itself (server-everything's 400 for a GET racing the DELETE of
// its session, for one), not a response travelling on a stream.
func checkGetStream(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if m == nil || !x.IsGet() || x.Resumes != nil || x.Status() >= 400 {
		return
	}
	isResponse := m.Kind == message.KindResult || m.Kind == message.KindError
	s.Expect("http.get-no-response", !isResponse, spec.Server, ev,
		"%s with id %s travelled on a GET stream that resumes no earlier stream", m.Kind, m.ID)
	if isResponse || s.Stateless() {
		return
	}
	inflight := m.Method == "notifications/progress" && pendingToken(s, notifiedToken(m)) != nil
	s.Expect("http.get-stream-unrelated", !inflight, spec.Server, ev,
		"progress for request %q, still in flight, travelled on a GET stream instead of that request's own stream", pendingMethod(s, m))
}

// pendingToken returns the client's request in flight that issued token.
func pendingToken(s *engine.Session, token string) *message.Request {
	var found *message.Request
	if token == "" {
		return nil
	}
	s.PendingRequests(func(r *message.Request) {
		if r.From == spec.Client && r.ProgressToken == token && (found == nil || r.CompareSent(found) < 0) {
			found = r
		}
	})
	return found
}

func pendingMethod(s *engine.Session, m *message.Msg) string {
	if r := pendingToken(s, notifiedToken(m)); r != nil {
		return r.Method
	}
	return ""
}

func checkResponseDelivered(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	origin := x.Origin()
	if m == nil || !x.SSE || !origin.IsPost() || !answers(m, origin) || !origin.once("delivered") {
		return
	}
	s.Pass("http.sse-response-delivered", spec.Server)
}

// checkStreamClosedEarly looks at a POST's SSE stream the server ended
// before the response: without an event id the stream is over for good;
// with one, the server closed only the connection and owes a retry hint.
func checkStreamClosedEarly(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	call := x.Origin().Call()
	if s.Stateless() || !x.SSE || x.Answered || call == nil || ev.Event != trace.TransportClose || ev.Direction != trace.ServerToClient {
		return
	}
	if t.cancelled(call) {
		return
	}
	if !x.SawEventID && !x.Origin().SawEventID {
		s.Fail("http.sse-response-delivered", spec.Server, ev,
			"the server ended the SSE stream of request %q without its response and without an event id to resume from", call.Method)
		return
	}
	s.Expect("http.sse-retry-before-close", x.Retry != nil, spec.Server, ev,
		"the server closed the SSE stream of request %q before its response without sending a retry field", call.Method)
	t.awaitReconnect(x)
}
