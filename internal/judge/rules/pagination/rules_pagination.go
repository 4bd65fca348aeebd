package pagination

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/listing"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Pagination: clients send back only the cursors the server issued, and
// servers answer a cursor they never issued with an invalid-params error.
func init() {
	engine.Register(engine.RuleSpec{
		Checks: []engine.Check{
			{ID: "pagination.cursor-issued", Summary: "2025-11-25: every cursor a client sends was issued as nextCursor of an earlier result of the same list method in the session"},
			{ID: "pagination.invalid-cursor-error", Summary: "a list request with a cursor the server never issued, when refused, is refused with -32602 (Invalid params)"},
			{ID: "pagination.invalid-cursor-survived", Summary: "the server answers a list request with a cursor it never issued (a result or an error) rather than breaking the transport"},
		},
		New: func() engine.Rule { return newPaginationRule() },
	})
}

type paginationRule struct {
	engine.BaseRule
	after engine.Aftermath
	// issued holds "method\x00cursor" for every cursor the server issued,
	// the most recent ones when there were very many.
	issued *message.BoundedKeys
	// unissued holds the pending keys of list requests whose cursor the
	// server never issued, until they are answered.
	unissued map[string]bool
}

func newPaginationRule() *paginationRule {
	return &paginationRule{issued: message.NewBoundedKeys(listing.MaxCursors), unissued: map[string]bool{}}
}

func (r *paginationRule) Message(s *engine.Session, m *message.Msg) {
	r.after.Message(s, m)
	switch {
	case m.Kind == message.KindRequest && message.IsListMethod(m.Method) && m.From == spec.Client:
		r.request(s, m)
	case m.Request != nil && message.IsListMethod(m.Request.Method) && !m.Answered:
		r.response(s, m)
	}
}

func (r *paginationRule) Lifecycle(s *engine.Session, ev *trace.Event) { r.after.Lifecycle(s, ev) }

func (r *paginationRule) request(s *engine.Session, m *message.Msg) {
	cursor, ok := m.ParamsString("cursor")
	if !ok {
		return
	}
	if r.issued.Has(listing.CursorKey(m.Method, cursor)) {
		s.Pass("pagination.cursor-issued", spec.Client)
		return
	}
	if !s.Stateless() && !r.issued.Forgot {
		s.Fail("pagination.cursor-issued", spec.Client, m.Event,
			"%s carries cursor %q, which no %s result of this session issued as nextCursor", m.Method, cursor, m.Method)
	}
	key := engine.PendingKey(spec.Client, m.IDKey)
	r.unissued[key] = true
	r.after.Expect(engine.Watch{Check: "pagination.invalid-cursor-survived", Party: spec.Server, Ev: m.Event,
		What: m.Method + " with cursor " + message.JSONQuote(cursor) + ", which it never issued", Answers: key})
}

func (r *paginationRule) response(s *engine.Session, m *message.Msg) {
	if unissued, _ := engine.TakePending(r.unissued, m.Request); unissued {
		if code, ok := message.RPCErrorCode(m); m.Kind == message.KindError {
			s.Expect("pagination.invalid-cursor-error", ok && code == -32602, spec.Server, m.Event,
				"the server refused %s with a cursor it never issued with error code %s, not -32602 (Invalid params)", m.Request.Method, message.ErrorCodeText(m))
		}
	}
	if m.Kind != message.KindResult {
		return
	}
	// The trace reader noted where the result's members lie, so its
	// nextCursor is found without reading the items: a copy of the last
	// result to compare with would cost more than it saves.
	if next, ok := m.ResultString("nextCursor"); ok {
		r.issued.Add(listing.CursorKey(m.Request.Method, next))
	}
}
