package judge

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The stdio binding of 2026-07-28: cancel by notification, shut down by
// closing the server's stdin, and a server that exits when it does. (The
// server/discover probe is judged by discover.first-on-stdio.)
func init() {
	register(RuleSpec{
		Sees: []sight{{kinds: notificationMsgs, from: spec.Client, methods: []string{"notifications/cancelled"}, transport: trace.Stdio}},
		Checks: []Check{
			{ID: "stdio.cancel-references-request", Summary: "a notifications/cancelled over stdio names the id of a request the client sent"},
			{ID: "stdio.client-closes-stdin", Summary: "the client ends a stdio session by closing the server's stdin"},
			{ID: "stdio.server-exits-on-eof", Summary: "the server exits by itself once its stdin is closed"},
		},
		New:      func() Rule { return &stdioSessionRule{} },
		Messages: statelessOnly,
	})
}

type stdioSessionRule struct {
	BaseRule
	stdinClosed *trace.Event
	clientAbort *trace.Event
	exit        *trace.Event
	exitJudged  bool
}

func (r *stdioSessionRule) Message(s *Session, m *Msg) {
	if !s.Stateless() || m.Event.Transport != trace.Stdio || m.From != spec.Client {
		return
	}
	if m.Kind == KindNotification && m.Method == "notifications/cancelled" {
		checkCancelReference(s, m)
	}
}

func checkCancelReference(s *Session, m *Msg) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	Decode(m.Params, &p)
	known := p.RequestID != nil && s.used[partyIndex(spec.Client)].contains(idKey(p.RequestID))
	s.Expect("stdio.cancel-references-request", known, spec.Client, m.Event,
		"notifications/cancelled names request id %s, which the client never used on a request", shownID(p.RequestID))
}

func (r *stdioSessionRule) Lifecycle(s *Session, ev *trace.Event) {
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
func (r *stdioSessionRule) judgeExit(s *Session) {
	if !s.Stateless() || r.stdinClosed == nil || r.exit == nil || r.exitJudged {
		return
	}
	r.exitJudged = true
	s.Expect("stdio.server-exits-on-eof", r.exit.Signal == "", spec.Server, r.exit,
		"the server did not exit when its stdin closed: it was ended by %s", r.exit.Signal)
}

func (r *stdioSessionRule) End(s *Session) {
	if !s.Stateless() || s.Transport != trace.Stdio {
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
