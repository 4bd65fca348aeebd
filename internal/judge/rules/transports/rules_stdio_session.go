package transports

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The stdio binding of 2026-07-28: cancel by notification, shut down by
// closing the server's stdin (as every earlier revision's lifecycle asks
// too), and a server that exits when it does. (The
// server/discover probe is judged by discover.first-on-stdio.)
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.NotificationMsgs, From: spec.Client, Methods: []string{"notifications/cancelled"}, Transport: trace.Stdio}},
		Checks: []engine.Check{
			{ID: "stdio.cancel-references-request", Summary: "a notifications/cancelled over stdio names the id of a request the client sent"},
			{ID: "stdio.client-closes-stdin", Summary: "the client ends a stdio session by closing the server's stdin"},
			{ID: "stdio.server-exits-on-eof", Summary: "the server exits by itself once its stdin is closed"},
		},
		New:      func() engine.Rule { return &stdioSessionRule{} },
		Messages: engine.StatelessOnly,
	})
}

type stdioSessionRule struct {
	engine.BaseRule
	stdinClosed *trace.Event
	clientAbort *trace.Event
	exit        *trace.Event
	exitJudged  bool
}

func (r *stdioSessionRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || m.Event.Transport != trace.Stdio || m.From != spec.Client {
		return
	}
	if m.Kind == message.KindNotification && m.Method == "notifications/cancelled" {
		checkCancelReference(s, m)
	}
}

func checkCancelReference(s *engine.Session, m *message.Msg) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	message.Decode(m.Params, &p)
	known := p.RequestID != nil && s.Used[engine.PartyIndex(spec.Client)].Contains(message.IDKey(p.RequestID))
	s.Expect("stdio.cancel-references-request", known, spec.Client, m.Event,
		"notifications/cancelled names request id %s, which the client never used on a request", message.ShownID(p.RequestID))
}

func (r *stdioSessionRule) Lifecycle(s *engine.Session, ev *trace.Event) {
	if ev.Transport != trace.Stdio {
		return
	}
	switch {
	case ev.Event == trace.TransportClose && ev.Direction == trace.ClientToServer:
		r.stdinClosed = ev
	case ev.Event == trace.TransportAbort && ev.Direction == trace.ClientToServer:
		r.clientAbort = ev
	case ev.Event == trace.ProcessExit:
		r.exit = ev
	}
	r.judgeExit(s)
}

// judgeExit: once stdin closed and the process exited, in either recorded
// order, a server that had to be ended by a signal did not exit on EOF.
func (r *stdioSessionRule) judgeExit(s *engine.Session) {
	if !s.Stateless() || r.stdinClosed == nil || r.exit == nil || r.exitJudged {
		return
	}
	r.exitJudged = true
	s.Expect("stdio.server-exits-on-eof", r.exit.Signal == "", spec.Server, r.exit,
		"the server did not exit when its stdin closed: it was ended by %s", r.exit.Signal)
}

// End judges how the client ended the session: every revision's stdio
// shutdown starts with the client closing the server's stdin.
func (r *stdioSessionRule) End(s *engine.Session) {
	if s.Transport != trace.Stdio {
		return
	}
	switch {
	case r.stdinClosed != nil:
		s.Pass("stdio.client-closes-stdin", spec.Client)
	case r.clientAbort != nil:
		s.Fail("stdio.client-closes-stdin", spec.Client, r.clientAbort,
			"the client ended the session (%s) without closing the server's stdin first", r.clientAbort.Reason)
	}
}
