package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// What every transport carries: UTF-8 JSON-RPC, and in 2026-07-28 only
// client requests and notifications one way and server responses and
// notifications the other.
func init() {
	engine.Register(engine.RuleSpec{
		Checks: []engine.Check{
			{ID: "transport.utf8", Summary: "every message is UTF-8 text"},
			{ID: "transport.client-sends-no-responses", Summary: "in 2026-07-28 the client sends no JSON-RPC responses"},
			{ID: "transport.server-sends-no-requests", Summary: "in 2026-07-28 the server sends no JSON-RPC requests"},
		},
		New: func() engine.Rule { return transportRule{} },
	})
}

type transportRule struct{ engine.BaseRule }

func (transportRule) Message(s *engine.Session, m *message.Msg) {
	// Every message passes through here: the finding's arguments are only
	// built when there is a finding.
	if m.Event.RawBase64 != "" {
		s.Fail("transport.utf8", m.From, m.Event, "the %s sent bytes that are not UTF-8 text", m.From)
	} else if at, what := message.NotUnicode(m.Event.Payload); at >= 0 {
		s.Fail("transport.utf8", m.From, m.Event, "the %s sent %s inside the message (byte %d of its payload), so it is not UTF-8 text; the judge read it as U+FFFD", m.From, what, at)
	} else {
		s.Pass("transport.utf8", m.From)
	}
	if !s.Stateless() || m.Kind == message.KindInvalid {
		return
	}
	if m.From == spec.Client {
		isResponse := m.Kind == message.KindResult || m.Kind == message.KindError
		s.Expect("transport.client-sends-no-responses", !isResponse, spec.Client, m.Event,
			"the client sent %s with id %s; under this revision servers send no requests, so clients send no responses", m.Kind, m.ID)
		return
	}
	s.Expect("transport.server-sends-no-requests", m.Kind != message.KindRequest, spec.Server, m.Event,
		"the server sent request %q; under this revision server-to-client interactions travel in InputRequiredResult, not as requests", m.Method)
}
