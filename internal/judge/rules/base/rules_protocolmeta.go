package base

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// The per-request and per-response protocol fields of _meta (2026-07-28):
// what every client request carries, what every result should carry, and
// the subscription id on notifications of a subscriptions/listen stream.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, spec.Client), engine.Sees(engine.ResultMsgs, spec.Server), engine.Sees(engine.NotificationMsgs, spec.Server, engine.SortedKeysOf(listenNotifications)...)},
		Checks: []engine.Check{
			{ID: "protocolmeta.required-fields", Summary: "every client request carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in _meta"},
			{ID: "protocolmeta.client-info", Summary: "every client request carries io.modelcontextprotocol/clientInfo in _meta"},
			{ID: "protocolmeta.server-info", Summary: "every result carries io.modelcontextprotocol/serverInfo in _meta"},
			{ID: "protocolmeta.subscription-id", Summary: "every notification of a subscriptions/listen stream carries io.modelcontextprotocol/subscriptionId in _meta"},
		},
		New:      func() engine.Rule { return protocolMetaRule{} },
		Messages: engine.StatelessOnly,
	})
}

type protocolMetaRule struct{ engine.BaseRule }

// listenNotifications are the notifications 2026-07-28 delivers only on a
// subscriptions/listen stream.
var listenNotifications = map[string]bool{
	"notifications/subscriptions/acknowledged": true,
	"notifications/tools/list_changed":         true,
	"notifications/prompts/list_changed":       true,
	"notifications/resources/list_changed":     true,
	"notifications/resources/updated":          true,
}

func (protocolMetaRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Client && m.Method != "initialize":
		checkRequestMeta(s, m)
	case m.Kind == message.KindResult && m.From == spec.Server:
		ok := m.ResultMeta().Has(engine.MetaServerInfo)
		s.Expect("protocolmeta.server-info", ok, m.From, m.Event, "the result for %s has no %s in _meta", engine.RequestName(m), engine.MetaServerInfo)
	case m.Kind == message.KindNotification && m.From == spec.Server && listenNotifications[m.Method] && listening(s):
		ok := m.ParamsMeta().Has(engine.MetaSubscriptionID)
		s.Expect("protocolmeta.subscription-id", ok, m.From, m.Event,
			"notification %q, delivered while a subscriptions/listen stream is open, has no %s in _meta", m.Method, engine.MetaSubscriptionID)
	}
}

func checkRequestMeta(s *engine.Session, m *message.Msg) {
	missing := engine.MissingRequiredMeta(m.Params)
	s.Expect("protocolmeta.required-fields", len(missing) == 0, m.From, m.Event,
		"request %q lacks required _meta field %s (or carries it with the wrong type)", m.Method, strings.Join(missing, " and "))
	s.Expect("protocolmeta.client-info", engine.IsJSONObject(m.ParamsMeta().Get(engine.MetaClientInfo)), m.From, m.Event,
		"request %q carries no %s object in _meta", m.Method, engine.MetaClientInfo)
}

// listening reports whether a subscriptions/listen request of the client is
// still open, so that the server's list-change and update notifications
// travel on its stream.
func listening(s *engine.Session) bool {
	open := false
	s.PendingRequests(func(r *message.Request) {
		open = open || (r.From == spec.Client && r.Method == "subscriptions/listen")
	})
	return open
}
