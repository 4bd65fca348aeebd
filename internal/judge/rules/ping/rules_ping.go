package ping

import (
	"encoding/json"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Ping: the receiver answers with an empty result.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, "", "ping"), engine.Sees(engine.ResponseMsgs, "")},
		Checks: []engine.Check{
			{ID: "ping.empty-result", Summary: "a ping is answered with an empty result (nothing but _meta), never with an error, and not left unanswered while the receiver answers requests sent after it"},
		},
		New:      func() engine.Rule { return &pingRule{} },
		Messages: engine.HandshakeOnly,
	})
}

type pingRule struct {
	engine.BaseRule
	// pings are the pings in flight, held by value so that one more ping
	// reuses the slice rather than allocating.
	pings []pendingPing
	// refused is the HTTP exchange, if any, whose response carried a 4xx
	// or 5xx status: an error there refuses the POST, not the ping.
	refused int64
}

type pendingPing struct {
	from spec.Party
	key  string
	seq  int64
	line int
	// later is a response the receiver sent to a request sent after the
	// ping, and laterRequest that request (a Msg is good only for its turn).
	later        *trace.Event
	laterRequest *message.Request
}

// maxPings bounds the pings kept in flight; a sender piling up more than
// this many unanswered pings has long shown the receiver is not answering.
const maxPings = 16

func (r *pingRule) Message(s *engine.Session, m *message.Msg) {
	switch {
	case s.Stateless():
	case m.Kind == message.KindRequest && m.Method == "ping" && len(r.pings) < maxPings:
		r.pings = append(r.pings, pendingPing{from: m.From, key: m.IDKey, seq: m.Event.Seq, line: m.Event.Line})
	case m.Request == nil || m.Answered:
	case m.Request.Method == "ping":
		if m.Kind != message.KindError || m.Event.Exchange == 0 || m.Event.Exchange != r.refused {
			checkPingAnswer(s, m)
		}
		r.settle(m.Request)
	default:
		r.overtake(m)
	}
}

// HTTP notes an exchange the server refused at the transport (a missing
// session id, an unsupported protocol version): the JSON-RPC error in its
// body answers the refusal, and the ping inside was never handled.
func (r *pingRule) HTTP(_ *engine.Session, ev *trace.Event) {
	if ev.Status >= 400 {
		r.refused = ev.Exchange
	}
}

func checkPingAnswer(s *engine.Session, m *message.Msg) {
	if m.Kind == message.KindError {
		s.Fail("ping.empty-result", m.From, m.Event, "the %s answered ping %s with an error, not an empty result", m.From, m.ID)
		return
	}
	if !emptyResult(m.Result) {
		s.Fail("ping.empty-result", m.From, m.Event, "the %s answered ping %s with result %s, not an empty object", m.From, m.ID, m.Result)
	} else {
		s.Pass("ping.empty-result", m.From)
	}
}

// emptyResult reports whether a result holds nothing but _meta (null, which
// decodes to no members, counts as empty).
func emptyResult(result json.RawMessage) bool {
	if message.IsNull(result) {
		return true
	}
	it := rawjson.Members(result)
	for it.Next() {
		if !it.KeyIs("_meta") {
			return false
		}
	}
	return it.Valid()
}

func (r *pingRule) settle(req *message.Request) {
	for i, p := range r.pings {
		if p.from == req.From && p.key == req.IDKey {
			// slices.Delete clears the freed slot, which would otherwise
			// keep the later response it names alive.
			r.pings = slices.Delete(r.pings, i, i+1)
			return
		}
	}
}

// overtake notes, for every ping in flight, the first response its receiver
// gave to a request sent after the ping.
func (r *pingRule) overtake(m *message.Msg) {
	for i := range r.pings {
		if p := &r.pings[i]; p.later == nil && p.from == m.Request.From && p.seq < m.Request.Seq {
			p.later, p.laterRequest = m.Event, m.Request
		}
	}
}

// End fails the pings never answered although their receiver answered
// requests sent after them: the receiver was responsive, but not to them.
func (r *pingRule) End(s *engine.Session) {
	for _, p := range r.pings {
		if req := s.Pending(p.from, p.key); p.later != nil && req != nil && !req.Cancelled {
			s.Fail("ping.empty-result", message.Peer(p.from), p.later,
				"the %s never answered ping %s (line %d), though it answered request %s (%q), sent after it",
				message.Peer(p.from), engine.DisplayID(p.key), p.line, engine.DisplayID(p.laterRequest.IDKey), p.laterRequest.Method)
		}
	}
}
