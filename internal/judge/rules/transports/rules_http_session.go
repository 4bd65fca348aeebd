package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Session management (2025-11-25): the MCP-Session-Id the server assigns
// at initialization, echoed on every later request, ended by DELETE or by
// the server, after which it is answered 404 and the client starts anew.
var httpSessionChecks = []engine.Check{
	{ID: "http.session-id-visible-ascii", Summary: "an assigned session id holds only visible ASCII (0x21-0x7E)"},
	{ID: "http.session-id-strength", Summary: "an assigned session id is unique in the trace and long enough to hold 64 random bits"},
	{ID: "http.session-id-echoed", Summary: "every request after a session id was assigned carries it in MCP-Session-Id"},
	{ID: "http.session-missing-400", Summary: "a request without the session id it needs is answered 400, not 404"},
	{ID: "http.terminated-session-404", Summary: "a request on a session that ended is answered 404, never 2xx"},
	{ID: "http.reinitialize-after-404", Summary: "after a 404 on its session the client sends a new initialize without a session id"},
	{ID: "http.session-delete", Summary: "a client that leaves a session for a new one ends it with DELETE first"},
}

// httpSession is a session id the server assigned, and what became of it.
type httpSession struct {
	ID       string
	Assigned *trace.Event
	// Ended is the answer that ended it: an accepted DELETE or a 404.
	Ended   *trace.Event
	Deleted bool
	// Await404 is a 404 after which the client owes a new initialize.
	Await404 *trace.Event
	// LastUse is the seq of the client's latest request carrying the id.
	LastUse int64
}

// live returns the latest assigned session that has not ended, or nil.
func (t *httpTrace) liveSession() *httpSession {
	var live *httpSession
	t.sessions.Each(func(_ string, sess *httpSession) {
		if sess.Ended == nil {
			live = sess
		}
	})
	return live
}

// checkSessionEchoOnHead judges GET and DELETE heads; a POST waits for its
// body, which says whether it is an initialize.
func checkSessionEchoOnHead(s *engine.Session, t *httpTrace, x *httpExchange) {
	if s.Stateless() || x.IsPost() {
		return
	}
	clientRequestSeen(s, t, x, false)
}

func checkSessionEchoOnBody(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if s.Stateless() || !x.once("session-echo") {
		return
	}
	clientRequestSeen(s, t, x, m.Kind == message.KindRequest && m.Method == "initialize")
}

func clientRequestSeen(s *engine.Session, t *httpTrace, x *httpExchange, initialize bool) {
	id, has := x.Header("mcp-session-id")
	sess, known := t.sessions.Get(id)
	switch {
	case has && known:
		sess.LastUse = x.Request.Seq
		s.Pass("http.session-id-echoed", spec.Client)
	case !has && !initialize:
		if live := t.liveSession(); live != nil {
			s.Fail("http.session-id-echoed", spec.Client, x.Request,
				"a %s carries no MCP-Session-Id, though the server assigned %q on line %d", x.Method(), live.ID, live.Assigned.Line)
		}
	}
	checkReinitialize(s, t, x, id, initialize && !has)
}

// checkReinitialize settles the sessions that got a 404: the client's next
// request either starts a new session or keeps using the dead one.
func checkReinitialize(s *engine.Session, t *httpTrace, x *httpExchange, id string, fresh bool) {
	if t.owed404 == 0 {
		return
	}
	t.sessions.Each(func(_ string, sess *httpSession) {
		switch {
		case sess.Await404 == nil:
		case fresh:
			s.Pass("http.reinitialize-after-404", spec.Client)
			t.settle404(sess)
		case id == sess.ID:
			s.Fail("http.reinitialize-after-404", spec.Client, x.Request,
				"after the 404 on line %d the client sent another %s on session %q instead of a new initialize",
				sess.Await404.Line, x.Method(), sess.ID)
			t.settle404(sess)
		}
	})
}

// owe404 notes that after the 404 ev the client owes sess a new initialize.
func (t *httpTrace) owe404(sess *httpSession, ev *trace.Event) {
	if sess.Await404 == nil {
		t.owed404++
	}
	sess.Await404 = ev
}

// settle404 notes that the client acted on the 404 of sess.
func (t *httpTrace) settle404(sess *httpSession) {
	sess.Await404 = nil
	t.owed404--
}

func checkSessionAnswer(s *engine.Session, t *httpTrace, x *httpExchange) {
	if s.Stateless() {
		return
	}
	id, has := x.Header("mcp-session-id")
	sess, known := t.sessions.Get(id)
	switch {
	case has && known:
		judgeEndedSession(s, x, sess)
		noteSessionEnd(s, t, x, sess)
	case !has:
		judgeMissingSession(s, t, x)
		assignSession(s, t, x)
	}
}

func assignSession(s *engine.Session, t *httpTrace, x *httpExchange) {
	id, ok := x.Response.Headers["mcp-session-id"]
	call := x.Call()
	if !ok || call == nil || call.Method != "initialize" || !x.OK() {
		return
	}
	_, reused := t.sessions.Get(id)
	s.Expect("http.session-id-visible-ascii", visibleASCII(id), spec.Server, x.Response,
		"the session id %q holds characters outside visible ASCII (0x21-0x7E)", id)
	strong := !reused && sessionIDBits(id) >= 64
	s.Expect("http.session-id-strength", strong, spec.Server, x.Response,
		"the session id %q %s", id, weakness(reused, id))
	t.sessions.Put(id, &httpSession{ID: id, Assigned: x.Response, LastUse: x.Request.Seq})
}

func weakness(reused bool, id string) string {
	if reused {
		return "was assigned before in this trace, so it is not unique"
	}
	return "cannot hold 64 random bits (the OWASP floor for session ids), so it is not cryptographically secure"
}

// sessionIDBits bounds from above the entropy an id can carry: its letters
// and digits times the bits of the smallest usual alphabet holding them
// (decimal, hexadecimal, alphanumeric); separators count for nothing.
func sessionIDBits(id string) float64 {
	n, digits, hex := 0, true, true
	for _, r := range id {
		isDigit := r >= '0' && r <= '9'
		isHex := isDigit || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F')
		isAlnum := isHex || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !isAlnum {
			continue
		}
		n++
		digits, hex = digits && isDigit, hex && isHex
	}
	switch {
	case digits:
		return float64(n) * 3.32
	case hex:
		return float64(n) * 4
	}
	return float64(n) * 5.95
}

func judgeMissingSession(s *engine.Session, t *httpTrace, x *httpExchange) {
	call := x.Call()
	live := t.liveSession()
	if live == nil || live.Assigned.Seq > x.Request.Seq || (call != nil && call.Method == "initialize") {
		return
	}
	switch x.Status() {
	case 400:
		s.Pass("http.session-missing-400", spec.Server)
	case 404:
		s.Fail("http.session-missing-400", spec.Server, x.Response,
			"a %s without MCP-Session-Id was refused with 404 Not Found, not 400 Bad Request", x.Method())
	}
}

// judgeEndedSession holds a request on an ended session to 404. Serving it
// (2xx) or refusing it as a bad request (400, as though the id were absent)
// both break the rule; other refusals (405, 406, 415, 5xx...) answer some
// other fault of the request and decide nothing.
func judgeEndedSession(s *engine.Session, x *httpExchange, sess *httpSession) {
	if sess.Ended == nil || sess.Ended.Seq > x.Request.Seq {
		return
	}
	switch {
	case x.Status() == 404:
		s.Pass("http.terminated-session-404", spec.Server)
	case x.OK() || x.Status() == 400:
		s.Fail("http.terminated-session-404", spec.Server, x.Response,
			"a %s on session %q, which ended on line %d, was answered %d instead of 404 Not Found",
			x.Method(), sess.ID, sess.Ended.Line, x.Status())
	}
}

func noteSessionEnd(s *engine.Session, t *httpTrace, x *httpExchange, sess *httpSession) {
	switch {
	case x.Method() == "DELETE" && (x.OK() || x.Status() == 405):
		s.Pass("http.session-delete", spec.Client)
		if x.OK() && sess.Ended == nil {
			sess.Ended, sess.Deleted = x.Response, true
		}
	case x.Status() == 404 && sess.Ended == nil:
		sess.Ended = x.Response
		t.owe404(sess, x.Response)
	case x.Status() == 404 && !sess.Deleted && sess.Await404 == nil:
		t.owe404(sess, x.Response)
	}
}

// endSessionDelete finds sessions the client left for a newer one without
// ending them.
func endSessionDelete(s *engine.Session, t *httpTrace) {
	t.sessions.Each(func(_ string, old *httpSession) {
		if old.Ended != nil {
			return
		}
		if next := sessionAfter(t, old.LastUse); next != nil {
			s.Fail("http.session-delete", spec.Client, next.Assigned,
				"the client left session %q for the new session %q without sending DELETE", old.ID, next.ID)
		}
	})
}

// sessionAfter returns a session assigned after seq, if any.
func sessionAfter(t *httpTrace, seq int64) *httpSession {
	var found *httpSession
	t.sessions.Each(func(_ string, sess *httpSession) {
		if found == nil && sess.Assigned.Seq > seq {
			found = sess
		}
	})
	return found
}
