package cancellation

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// CancelledNotificationParams (schema reference): requestId is given, and it
// is the id of a request issued before, by the canceller in 2025-11-25 ("in
// the same direction"), by the client in 2026-07-28. Whether the request was
// still in flight is the cancellation checks' business.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.NotificationMsgs, "", "notifications/cancelled")},
		Checks: []engine.Check{
			{ID: "cancelparams.request-id-present", Summary: "notifications/cancelled carries a requestId"},
			{ID: "cancelparams.request-id-issued", Summary: "the requestId of notifications/cancelled is the id of a request issued earlier (by the canceller; in 2026-07-28 by the client)"},
		},
		New: func() engine.Rule { return cancelParamsRule{} },
	})
}

type cancelParamsRule struct{ engine.BaseRule }

func (cancelParamsRule) Message(s *engine.Session, m *message.Msg) {
	if m.Kind != message.KindNotification || m.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	message.Decode(m.Params, &p)
	present := p.RequestID != nil && string(p.RequestID) != "null"
	s.Expect("cancelparams.request-id-present", present, m.From, m.Event, "notifications/cancelled carries no requestId")
	if !present {
		return
	}
	issuer := m.From
	if s.Stateless() {
		issuer = spec.Client
	}
	issued := s.Used[engine.PartyIndex(issuer)].Contains(message.IDKey(p.RequestID))
	s.Expect("cancelparams.request-id-issued", issued, m.From, m.Event,
		"notifications/cancelled names request %s, an id the %s never used on a request", p.RequestID, issuer)
}
