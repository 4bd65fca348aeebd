package cancellation

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Cancellation: notifications/cancelled names a request still in flight,
// and its receiver copes with late or invalid ones.
func init() {
	engine.Register(engine.RuleSpec{
		Checks: []engine.Check{
			{ID: "cancellation.in-flight-only", Summary: "a cancellation names a request its issuer sent and had not seen answered (2025-11-25: issued by the canceller; 2026-07-28: by the client)"},
			{ID: "cancellation.not-initialize", Summary: "the client never cancels its initialize request"},
			{ID: "cancellation.tasks-use-tasks-cancel", Summary: "a task-augmented request is cancelled with tasks/cancel, never notifications/cancelled"},
			{ID: "cancellation.no-response-after-cancel", Summary: "a receiver that has read a cancellation sends no response to the cancelled request"},
			{ID: "cancellation.race-survived", Summary: "a receiver goes on with the session after a cancellation of a request it had already answered"},
			{ID: "cancellation.invalid-ignored", Summary: "a receiver ignores a cancellation of an unknown or completed request, or a malformed one: no error reply, no broken transport"},
			{ID: "cancellation.server-subscriptions-only", Summary: "2026-07-28: the server cancels nothing but a subscriptions/listen request"},
			{ID: "cancellation.server-teardown-notice", Summary: "2026-07-28 over stdio: a server ending a subscription on its own sends notifications/cancelled for its subscriptions/listen request"},
		},
		New: func() engine.Rule { return newCancellationRule() },
	})
}

type cancellationRule struct {
	engine.BaseRule
	after engine.Aftermath
	// marks holds the cancelled requests still in flight.
	marks map[string]*cancelMark
	// answered remembers recently answered requests, to tell a late
	// cancellation from one of an id never used.
	answered *answerLog
	// tasks holds the ids of recent task-augmented requests.
	tasks *message.BoundedKeys
	// spoke is the seq of each party's latest message.
	spoke [2]int64
	// awaiting holds the subscriptions a stdio server ended with a result
	// and still owes a notifications/cancelled for (2026-07-28).
	awaiting map[string]*trace.Event
}

// cancelMark is a cancelled request awaiting its fate; read is set once the
// receiver has shown it read the cancellation.
type cancelMark struct {
	req    *message.Request
	notice *trace.Event
	read   bool
	// byIssuer is unset when the server cancelled the client's
	// subscriptions/listen (2026-07-28): the server then ends its own
	// subscription, and may answer the request to close it gracefully.
	byIssuer bool
}

func newCancellationRule() *cancellationRule {
	return &cancellationRule{marks: map[string]*cancelMark{}, answered: newAnswerLog(), tasks: message.NewBoundedKeys(256),
		awaiting: map[string]*trace.Event{}}
}

func (r *cancellationRule) Message(s *engine.Session, m *message.Msg) {
	r.after.Message(s, m)
	switch {
	case m.Kind == message.KindRequest:
		r.request(s, m)
	case m.Kind == message.KindNotification && m.Method == "notifications/cancelled":
		r.cancellation(s, m)
	case m.Kind == message.KindResult || m.Kind == message.KindError:
		r.response(s, m)
	}
	r.spoke[engine.PartyIndex(m.From)] = m.Event.Seq
}

func (r *cancellationRule) HTTP(s *engine.Session, ev *trace.Event) {
	r.after.HTTP(s, ev)
	if ev.Status != 0 && ev.Status < 300 {
		r.acceptedOverHTTP(ev.Exchange)
	}
}

func (r *cancellationRule) Lifecycle(s *engine.Session, ev *trace.Event) { r.after.Lifecycle(s, ev) }

func (r *cancellationRule) request(s *engine.Session, m *message.Msg) {
	if m.ParamsField("task") != nil {
		r.tasks.Add(engine.PendingKey(m.From, m.IDKey))
	}
	if m.Method == "tasks/cancel" {
		s.Pass("cancellation.tasks-use-tasks-cancel", m.From)
	}
}

// cancelParams is the params of notifications/cancelled.
type cancelParams struct {
	RequestID json.RawMessage `json:"requestId"`
}

func (r *cancellationRule) cancellation(s *engine.Session, m *message.Msg) {
	var p cancelParams
	if !message.Decode(m.Params, &p) || !engine.IsStringOrInteger(p.RequestID) {
		s.Fail("cancellation.in-flight-only", m.From, m.Event, "notifications/cancelled names no request: requestId is %s", engine.OrAbsent(p.RequestID))
		r.watchInvalid(m, "a malformed notifications/cancelled")
		return
	}
	c := cancelled{msg: m, key: message.IDKey(p.RequestID), id: message.ShownID(p.RequestID), issuer: cancelIssuer(s, m)}
	r.checkInitialize(s, c)
	if req := s.Pending(c.issuer, c.key); req != nil {
		r.inFlight(s, c, req)
		return
	}
	r.notInFlight(s, c)
}

// cancelled is one cancellation being judged.
type cancelled struct {
	msg    *message.Msg
	key    string
	id     string
	issuer spec.Party
}

// cancelIssuer is the party whose request a cancellation must name: the
// canceller's own in 2025-11-25, always the client's in 2026-07-28 (the
// server cancels only the client's subscriptions/listen).
func cancelIssuer(s *engine.Session, m *message.Msg) spec.Party {
	if s.Stateless() {
		return spec.Client
	}
	return m.From
}

func (r *cancellationRule) checkInitialize(s *engine.Session, c cancelled) {
	if s.Stateless() || c.msg.From != spec.Client {
		return
	}
	isInit := s.InitRequest != nil && s.InitRequest.IDKey == c.key
	s.Expect("cancellation.not-initialize", !isInit, spec.Client, c.msg.Event,
		"the client cancels its initialize request (id %s)", c.id)
}

func (r *cancellationRule) inFlight(s *engine.Session, c cancelled, req *message.Request) {
	s.Pass("cancellation.in-flight-only", c.msg.From)
	r.checkTask(s, c)
	r.checkServerCancel(s, c, req.Method)
	r.noteServerTeardown(s, c)
	req.Cancelled = true
	mark := &cancelMark{req: req, notice: c.msg.Event, byIssuer: c.msg.From == req.From}
	r.marks[engine.PendingKey(req.From, req.IDKey)] = mark
}

func (r *cancellationRule) notInFlight(s *engine.Session, c cancelled) {
	r.checkTask(s, c)
	if done := r.answered.find(c.issuer, c.key); done != nil {
		r.checkServerCancel(s, c, done.method)
		if closesSubscription(s, c, done) {
			r.noteServerTeardown(s, c)
			return
		}
		r.late(s, c, done)
		return
	}
	what := "never used on a request"
	if s.Used[engine.PartyIndex(message.Peer(c.issuer))].Contains(c.key) {
		what = "used only on a request of the " + string(message.Peer(c.issuer))
	}
	s.Fail("cancellation.in-flight-only", c.msg.From, c.msg.Event,
		"notifications/cancelled names request id %s, which the %s %s", c.id, c.issuer, what)
	r.watchInvalid(c.msg, "the cancellation of unknown request id "+c.id)
}

// late judges a cancellation of a request already answered. Crossing the
// answer on the wire is a race the page allows; the canceller sending
// other messages after the answer arrived shows it was no race.
func (r *cancellationRule) late(s *engine.Session, c cancelled, done *answer) {
	if r.spoke[engine.PartyIndex(c.msg.From)] > done.seq {
		s.Fail("cancellation.in-flight-only", c.msg.From, c.msg.Event,
			"notifications/cancelled names request %s (%q), answered at line %d, before which the %s had already sent further messages",
			c.id, done.method, done.line, c.msg.From)
	}
	what := "the cancellation of already answered request " + c.id
	receiver := message.Peer(c.msg.From)
	r.after.Expect(engine.Watch{Check: "cancellation.race-survived", Party: receiver, Ev: c.msg.Event, What: what, Notice: true})
	r.after.Expect(engine.Watch{Check: "cancellation.invalid-ignored", Party: receiver, Ev: c.msg.Event, What: what, Notice: true})
}

// closesSubscription: a 2026-07-28 server closes a subscription it ended
// with a graceful result by cancelling it afterwards; the result comes
// first ("respond ... before closing the stream"), so this cancellation of
// an answered request is the closure the pages ask for, not a late one.
func closesSubscription(s *engine.Session, c cancelled, done *answer) bool {
	return s.Stateless() && c.msg.From == spec.Server && done.method == "subscriptions/listen"
}

func (r *cancellationRule) watchInvalid(m *message.Msg, what string) {
	r.after.Expect(engine.Watch{Check: "cancellation.invalid-ignored", Party: message.Peer(m.From), Ev: m.Event, What: what, Notice: true})
}

func (r *cancellationRule) checkTask(s *engine.Session, c cancelled) {
	if r.tasks.Has(engine.PendingKey(c.issuer, c.key)) {
		s.Fail("cancellation.tasks-use-tasks-cancel", c.msg.From, c.msg.Event,
			"notifications/cancelled names task-augmented request %s; a task is cancelled with tasks/cancel", c.id)
	}
}

func (r *cancellationRule) checkServerCancel(s *engine.Session, c cancelled, method string) {
	if !s.Stateless() || c.msg.From != spec.Server {
		return
	}
	s.Expect("cancellation.server-subscriptions-only", method == "subscriptions/listen", spec.Server, c.msg.Event,
		"the server cancels request %s (%q); a server cancels only subscriptions/listen requests", c.id, method)
}
