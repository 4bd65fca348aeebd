package cancellation

import (
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// response settles a cancelled request and notes what the response shows
// of the receiver having read the cancellations before it.
func (r *cancellationRule) response(s *engine.Session, m *message.Msg) {
	req := m.Request
	if req == nil || m.Answered {
		return
	}
	r.answered.Add(req, m.Event)
	mark, _ := engine.TakePending(r.marks, req)
	if mark != nil && mark.byIssuer && mark.read {
		s.Fail("cancellation.no-response-after-cancel", m.From, m.Event,
			"the %s answered request %s (%q) after it had read its cancellation (line %d): it had already answered a request sent after the cancellation, or accepted the POST that carried it", m.From, engine.DisplayID(req.IDKey), req.Method, mark.notice.Line)
	}
	r.checkTeardown(s, m, mark)
	if s.Transport == trace.Stdio && len(r.marks) > 0 {
		r.readBefore(req)
	}
}

// readBefore marks as read every cancellation the issuer of req sent before
// req: over stdio the receiver reads its input in order, so answering req
// shows it had read them.
func (r *cancellationRule) readBefore(req *message.Request) {
	for _, mark := range r.marks {
		if mark.req.From == req.From && mark.notice.Seq < req.Seq {
			mark.read = true
		}
	}
}

// acceptedOverHTTP marks as read the cancellations the server accepted
// with a 2xx status for the POST that carried them.
func (r *cancellationRule) acceptedOverHTTP(exchange int64) {
	for _, mark := range r.marks {
		if exchange != 0 && mark.notice.Exchange == exchange {
			mark.read = true
		}
	}
}

// checkTeardown notes a 2026-07-28 stdio server that ends a subscription
// with a result: it owes a notifications/cancelled for it, before or right
// after the result (which the graceful closure sends before closing).
func (r *cancellationRule) checkTeardown(s *engine.Session, m *message.Msg, mark *cancelMark) {
	if !s.Stateless() || s.Transport != trace.Stdio || m.Kind != message.KindResult || m.Request.Method != "subscriptions/listen" {
		return
	}
	if mark == nil {
		r.awaiting[engine.PendingKey(m.Request.From, m.Request.IDKey)] = m.Event
	}
}

// noteServerTeardown passes a server that cancels the client's
// subscriptions/listen over stdio: the notice its teardown needs.
func (r *cancellationRule) noteServerTeardown(s *engine.Session, c cancelled) {
	if !s.Stateless() || s.Transport != trace.Stdio || c.msg.From != spec.Server {
		return
	}
	key := engine.PendingKey(c.issuer, c.key)
	if req := s.Pending(c.issuer, c.key); req != nil && req.Method == "subscriptions/listen" || r.awaiting[key] != nil {
		s.Pass("cancellation.server-teardown-notice", spec.Server)
	}
	delete(r.awaiting, key)
}

// End passes the cancelled requests whose receiver read the cancellation
// and never answered them.
func (r *cancellationRule) End(s *engine.Session) {
	for _, mark := range r.marks {
		if mark.byIssuer && mark.read {
			s.Pass("cancellation.no-response-after-cancel", message.Peer(mark.req.From))
		}
	}
	for _, ev := range sortedEvents(r.awaiting) {
		s.Fail("cancellation.server-teardown-notice", spec.Server, ev,
			"the server ended a subscription with this result and never sent notifications/cancelled for it")
	}
}

// sortedEvents lists a map's events in trace order, so findings come out
// the same on every run.
func sortedEvents(m map[string]*trace.Event) []*trace.Event {
	out := make([]*trace.Event, 0, len(m))
	for _, ev := range m {
		out = append(out, ev)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// answer is a request that was answered, remembered for a while.
type answer struct {
	from   spec.Party
	key    string
	method string
	seq    int64
	line   int
}

// answerLog keeps the most recently answered requests.
type answerLog struct{ engine.Recent[answer] }

func newAnswerLog() *answerLog { return &answerLog{} }

func (l *answerLog) Add(req *message.Request, ev *trace.Event) {
	l.Recent.Add(answer{from: req.From, key: req.IDKey, method: req.Method, seq: ev.Seq, line: ev.Line})
}

// find returns the latest answer to a request of from with key.
func (l *answerLog) find(from spec.Party, key string) *answer {
	return l.Newest(func(e *answer) bool { return e.from == from && e.key == key })
}
