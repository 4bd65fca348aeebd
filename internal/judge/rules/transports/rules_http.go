package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The streamable HTTP transport: one rule, since every check reads the
// same picture of the trace's exchanges (httpTrace); each file adds its
// checks and the hooks that run them.
func init() {
	var checks []engine.Check
	for _, group := range [][]engine.Check{httpPostChecks, httpSSEChecks, httpResumeChecks,
		httpSessionChecks, httpVersionChecks, httpHeaderChecks, httpParamChecks, httpCompatChecks} {
		checks = append(checks, group...)
	}
	engine.Register(engine.RuleSpec{Checks: checks, New: func() engine.Rule { return httpRule{} }, Sees: []engine.Sight{{Transport: trace.StreamableHTTP}}})
}

type (
	// exchangeHook runs when an exchange's request or response head arrives.
	exchangeHook func(s *engine.Session, t *httpTrace, x *httpExchange)
	// messageHook runs for a message the exchange carried.
	messageHook func(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg)
	// streamHook runs for an event on the response: a message (m set) or
	// an SSE frame without data (m nil), or the stream's end.
	streamHook func(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg)
	// endHook runs once when the trace ends.
	endHook func(s *engine.Session, t *httpTrace)
)

// httpHooks lists, per event, the checks that look at it, in report order.
var httpHooks = struct {
	request, response []exchangeHook
	body              []messageHook
	streamed, closed  []streamHook
	end               []endHook
}{
	request: []exchangeHook{checkPostAccept, checkGetAccept, checkVersionHeader2025,
		checkRetryRespected, checkLastEventIDRequest, checkSessionEchoOnHead},
	response: []exchangeHook{checkEndpointAcceptsPost, checkBodyShape, checkNotificationAnswer,
		checkRequestAnswerType, checkGetAnswerType, checkSSEBuffering, checkSessionAnswer,
		checkBadVersionAnswer, checkLegacyMethods, checkNoSessionIDs},
	body: []messageHook{checkClientMessagePost, checkSessionEchoOnBody, checkCancelExplicit,
		checkVersionHeader2026, checkStandardHeaders, checkHeaderEncodings, checkParamHeaders,
		checkFallbackAfterModernError, checkRelistAfterMismatch},
	streamed: []streamHook{checkAcceptedWithoutBody, checkPrimingEvent, checkEndsAfterResponse,
		checkPostStreamRelated, checkGetStream, checkEventIDUnique, checkNoBroadcast,
		checkReplaySameStream, checkResponseDelivered, checkMethodNotFound, noteDiscover,
		checkHeaderValidationReply, noteModernError},
	closed: []streamHook{checkEndsAfterResponse, checkStreamClosedEarly, noteClientDrop},
	end: []endHook{endBodyShape, endReconnects, endCancelExplicit, endSessionDelete,
		endHeaderValidation, endInvalidTools},
}

type httpRule struct{ engine.BaseRule }

func (httpRule) HTTP(s *engine.Session, ev *trace.Event) {
	if ev.Transport != trace.StreamableHTTP {
		return
	}
	t := httpFact.Of(s)
	switch {
	case IsHTTPRequest(ev):
		runExchangeHooks(httpHooks.request, s, t, t.openExchange(ev))
	case ev.Status != 0:
		runExchangeHooks(httpHooks.response, s, t, t.respond(ev))
	case ev.SSE != nil:
		runStreamHooks(httpHooks.streamed, s, t, t.streamed(ev, nil), ev, nil)
	}
}

func (httpRule) Message(s *engine.Session, m *message.Msg) {
	if m.Event.Transport != trace.StreamableHTTP {
		return
	}
	t := httpFact.Of(s)
	if m.From == spec.Client {
		if x := t.bodyMessage(m); x != nil {
			for _, hook := range httpHooks.body {
				hook(s, t, x, m)
			}
		}
		return
	}
	runStreamHooks(httpHooks.streamed, s, t, t.streamed(m.Event, m), m.Event, m)
}

func (httpRule) Lifecycle(s *engine.Session, ev *trace.Event) {
	if ev.Transport != trace.StreamableHTTP || ev.Exchange == 0 || ev.Stream == "" {
		return
	}
	t := httpFact.Of(s)
	runStreamHooks(httpHooks.closed, s, t, t.closeStream(ev), ev, nil)
}

func (httpRule) End(s *engine.Session) {
	if s.Transport != trace.StreamableHTTP {
		return
	}
	t := httpFact.Of(s)
	if t.ended {
		return
	}
	t.ended = true
	for _, hook := range httpHooks.end {
		hook(s, t)
	}
}

func runExchangeHooks(hooks []exchangeHook, s *engine.Session, t *httpTrace, x *httpExchange) {
	if x == nil {
		return
	}
	for _, hook := range hooks {
		hook(s, t, x)
	}
}

func runStreamHooks(hooks []streamHook, s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if x == nil {
		return
	}
	for _, hook := range hooks {
		hook(s, t, x, ev, m)
	}
}

// IsHTTPRequest reports whether ev records an HTTP request the client sent.
func IsHTTPRequest(ev *trace.Event) bool {
	return ev.Kind == trace.KindHTTP && ev.Direction == trace.ClientToServer && ev.SSE == nil
}
