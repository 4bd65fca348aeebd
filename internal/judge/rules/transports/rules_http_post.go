package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Sending messages: every client message is its own POST to the MCP
// endpoint, and the server answers each POST by what it carried.
var httpPostChecks = []engine.Check{
	{ID: "http.endpoint-accepts-post", Summary: "the MCP endpoint accepts POST: no POST to it is answered 405"},
	{ID: "http.client-messages-post", Summary: "every client message travels in an HTTP POST to the MCP endpoint"},
	{ID: "http.post-accept", Summary: "every POST's Accept header lists application/json and text/event-stream"},
	{ID: "http.post-single-message", Summary: "every POST body is one JSON-RPC message (in 2026-07-28 a request or notification), not a batch"},
	{ID: "http.accepted-202", Summary: "a POSTed notification or response the server accepts is answered 202 with no body"},
	{ID: "http.rejected-error-status", Summary: "a POSTed notification or response the server does not accept is answered with an HTTP error status"},
	{ID: "http.request-response-type", Summary: "a POSTed request answered 2xx comes back as application/json or text/event-stream"},
	{ID: "http.get-accept", Summary: "every GET's Accept header lists text/event-stream"},
	{ID: "http.get-response-type", Summary: "a GET is answered with text/event-stream or 405"},
}

func checkPostAccept(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !x.IsPost() {
		return
	}
	accept, _ := x.Header("accept")
	ok := acceptsMedia(accept, "application/json") && acceptsMedia(accept, "text/event-stream")
	s.Expect("http.post-accept", ok, spec.Client, x.Request,
		"POST has Accept %q, which does not list both application/json and text/event-stream", accept)
}

func checkGetAccept(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !x.IsGet() {
		return
	}
	accept, _ := x.Header("accept")
	s.Expect("http.get-accept", acceptsMedia(accept, "text/event-stream"), spec.Client, x.Request,
		"GET has Accept %q, which does not list text/event-stream", accept)
}

func checkClientMessagePost(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	ok := x.IsPost() && x.Request.Path == t.endpoint
	s.Expect("http.client-messages-post", ok, spec.Client, m.Event,
		"the client sent %s %s in an HTTP %s to %q; each message goes in its own POST to the MCP endpoint %q",
		m.Kind, engine.Describe(m), x.Method(), x.Request.Path, t.endpoint)
}

func checkEndpointAcceptsPost(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !x.IsPost() || x.Request.Path != t.endpoint || !(x.OK() || x.Status() == 405) {
		return
	}
	s.Expect("http.endpoint-accepts-post", x.Status() != 405, spec.Server, x.Response,
		"a POST to the MCP endpoint %q was answered 405 Method Not Allowed", t.endpoint)
}

// checkBodyShape judges a POST body once its response shows it complete;
// endBodyShape judges those the trace left without a response.
func checkBodyShape(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !x.IsPost() || !x.once("body-shape") {
		return
	}
	problem := bodyProblem(s, x)
	s.Expect("http.post-single-message", problem == "", spec.Client, x.Request, "the POST body %s", problem)
}

func endBodyShape(s *engine.Session, t *httpTrace) {
	t.exchanges.Each(func(x *httpExchange) {
		if x.Response == nil && (len(x.Body) > 0 || x.BodyRaw) {
			checkBodyShape(s, t, x)
		}
	})
}

// bodyProblem says what keeps a POST body from being one JSON-RPC message
// of a kind the revision lets the client send, or "".
func bodyProblem(s *engine.Session, x *httpExchange) string {
	switch {
	case x.BodyRaw:
		return "is not JSON"
	case len(x.Body) == 0:
		return "carries no JSON-RPC message"
	case x.Body[0].InBatch:
		return "is a JSON-RPC batch"
	case len(x.Body) > 1:
		return "carries several JSON-RPC messages"
	case x.Body[0].Kind == message.KindInvalid:
		return "is not a JSON-RPC message: " + x.Body[0].Problem
	case s.Stateless() && (x.Body[0].Kind == message.KindResult || x.Body[0].Kind == message.KindError):
		return "is a JSON-RPC " + x.Body[0].Kind.String() + ", not a request or notification"
	}
	return ""
}

// notificationOrResponse returns the one notification or response a POST
// carried, or nil.
func notificationOrResponse(x *httpExchange) *message.Msg {
	if len(x.Body) != 1 || x.Body[0].InBatch {
		return nil
	}
	switch m := x.Body[0]; m.Kind {
	case message.KindNotification, message.KindResult, message.KindError:
		return m
	}
	return nil
}

func checkNotificationAnswer(s *engine.Session, t *httpTrace, x *httpExchange) {
	m := notificationOrResponse(x)
	if m == nil || !x.IsPost() {
		return
	}
	status := x.Status()
	switch {
	case x.OK():
		s.Expect("http.accepted-202", status == 202, spec.Server, x.Response,
			"the POSTed %s %s was accepted with status %d, not 202 Accepted", m.Kind, engine.Describe(m), status)
	case status >= 400:
		s.Pass("http.rejected-error-status", spec.Server)
	default:
		s.Fail("http.rejected-error-status", spec.Server, x.Response,
			"the POSTed %s %s was answered %d, which is neither 202 nor an HTTP error status", m.Kind, engine.Describe(m), status)
	}
}

// checkAcceptedWithoutBody: a 202 carries no body, so no message.
func checkAcceptedWithoutBody(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if m == nil || x.Status() != 202 || notificationOrResponse(x) == nil || !x.once("202-body") {
		return
	}
	s.Fail("http.accepted-202", spec.Server, ev, "the 202 Accepted answer to a POSTed %s carries a body (%s %s)",
		notificationOrResponse(x).Kind, m.Kind, engine.Describe(m))
}

func checkRequestAnswerType(s *engine.Session, t *httpTrace, x *httpExchange) {
	call := x.Call()
	if call == nil || !x.OK() {
		return
	}
	media := mediaType(x.Response.Headers["content-type"])
	ok := media == "application/json" || media == "text/event-stream"
	s.Expect("http.request-response-type", ok, spec.Server, x.Response,
		"the POSTed request %q was answered %d with Content-Type %q, neither application/json nor text/event-stream",
		call.Method, x.Status(), media)
}

func checkGetAnswerType(s *engine.Session, t *httpTrace, x *httpExchange) {
	if !x.IsGet() || !(x.OK() || x.Status() == 405) {
		return
	}
	media := mediaType(x.Response.Headers["content-type"])
	s.Expect("http.get-response-type", x.Status() == 405 || media == "text/event-stream", spec.Server, x.Response,
		"a GET was answered %d with Content-Type %q, neither an event stream nor 405 Method Not Allowed", x.Status(), media)
}
