package engine

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxRememberedStatuses bounds exchangeStatus: a status is read by the
// messages of its response body, which follow it closely.
const maxRememberedStatuses = 256

// ExchangeStatus remembers the status of recent HTTP responses by exchange,
// so a rule can tell under which status a message of a response body came.
type ExchangeStatus map[int64]int

// Note records the status of an HTTP response event.
func (e *ExchangeStatus) Note(ev *trace.Event) {
	if ev.Kind != trace.KindHTTP || ev.Direction != trace.ServerToClient || ev.Status == 0 || ev.Exchange == 0 {
		return
	}
	if *e == nil || len(*e) >= maxRememberedStatuses {
		*e = ExchangeStatus{}
	}
	(*e)[ev.Exchange] = ev.Status
}

// Of returns the status of the response that carried ev, when known.
func (e ExchangeStatus) Of(ev *trace.Event) (int, bool) {
	if ev.Transport != trace.StreamableHTTP || ev.Exchange == 0 {
		return 0, false
	}
	status, ok := e[ev.Exchange]
	return status, ok
}

// Expect400 judges under check that the server's answer m came with status
// 400 Bad Request, when m travelled over HTTP under a status this knows.
func (e ExchangeStatus) Expect400(s *Session, m *message.Msg, check, what string) {
	if status, ok := e.Of(m.Event); ok {
		s.Expect(check, status == 400, spec.Server, m.Event, "%s came with HTTP status %d, not 400 Bad Request", what, status)
	}
}
