package subscriptions

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Subscriptions (2026-07-28): a subscriptions/listen stream opens with its
// acknowledgment, carries only the notification types asked for, and a
// server that ends it answers the request first.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, "", "subscriptions/listen"), engine.Sees(engine.NotificationMsgs, "", "notifications/cancelled"), engine.Sees(0, spec.Server)},
		Checks: []engine.Check{
			{ID: "subscriptions.requested-types-only", Summary: "the server sends list_changed and resources/updated notifications only of types (and resources) a subscription asked for"},
			{ID: "subscriptions.acknowledged-first", Summary: "the first message carrying a subscription's id is notifications/subscriptions/acknowledged"},
			{ID: "subscriptions.no-notification-before-ack", Summary: "no notification carries a subscription's id before its acknowledgment"},
			{ID: "subscriptions.graceful-closure", Summary: "a server that ends a subscription on its own answers subscriptions/listen with a result before closing the stream"},
		},
		New:      func() engine.Rule { return &subscriptionsRule{subs: map[string]*subscription{}} },
		Messages: engine.StatelessOnly,
	})
}

const subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

type subscriptionsRule struct {
	engine.BaseRule
	// subs holds the subscriptions/listen requests in flight by request id.
	subs map[string]*subscription
	// exitedOnItsOwn is set when the stdio server process exited with code
	// 0; an abort that follows means it left before the client closed.
	exitedOnItsOwn bool
}

type subscription struct {
	id       string
	seq      int64
	filter   subscriptionFilter
	exchange int64
	// tagged is set once a server message carried the id; acked once the
	// acknowledgment did.
	tagged, acked bool
	// clientCancelled: the client ended it; serverCancelled: the server did.
	clientCancelled, serverCancelled bool
}

type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged"`
	PromptsListChanged    bool     `json:"promptsListChanged"`
	ResourcesListChanged  bool     `json:"resourcesListChanged"`
	ResourceSubscriptions []string `json:"resourceSubscriptions"`
}

func (r *subscriptionsRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	switch {
	case m.Kind == message.KindRequest && m.Method == "subscriptions/listen" && m.IDKey != "":
		r.listen(m)
	case m.Kind == message.KindNotification && m.Method == "notifications/cancelled":
		r.cancelled(s, m)
	case m.From == spec.Server:
		r.serverMessage(s, m)
	}
}

func (r *subscriptionsRule) listen(m *message.Msg) {
	var p struct {
		Notifications subscriptionFilter `json:"notifications"`
	}
	message.Decode(m.Params, &p)
	r.subs[m.IDKey] = &subscription{id: string(m.ID), seq: m.Event.Seq, filter: p.Notifications, exchange: m.Event.Exchange}
}

// cancelled notes who ended a subscription; a server that cancels one it
// has not answered closed it without the graceful result.
func (r *subscriptionsRule) cancelled(s *engine.Session, m *message.Msg) {
	sub := r.subs[message.IDKey(message.ObjectMember(m.Params, "requestId"))]
	switch {
	case sub == nil:
	case m.From == spec.Client:
		sub.clientCancelled = true
	case !sub.clientCancelled && !sub.serverCancelled:
		sub.serverCancelled = true
		s.Fail("subscriptions.graceful-closure", spec.Server, m.Event,
			"the server cancelled subscription %s without first answering its subscriptions/listen request", sub.id)
	}
}

func (r *subscriptionsRule) serverMessage(s *engine.Session, m *message.Msg) {
	sub := r.subs[message.IDKey(taggedID(m))]
	if sub != nil {
		r.ordering(s, m, sub)
	}
	if m.Kind == message.KindNotification {
		r.requestedType(s, m, sub)
	}
	if (m.Kind == message.KindResult || m.Kind == message.KindError) && m.Request != nil && m.Request.Method == "subscriptions/listen" {
		r.ended(s, m)
	}
}

// taggedID returns the subscription id a server message carries in _meta.
func taggedID(m *message.Msg) json.RawMessage {
	if m.Kind == message.KindNotification {
		return m.ParamsMeta().Get(subscriptionIDKey)
	}
	return m.ResultMeta().Get(subscriptionIDKey)
}

// ordering judges the messages carrying a subscription's id: the first
// must be the acknowledgment, and no notification may precede it.
func (r *subscriptionsRule) ordering(s *engine.Session, m *message.Msg, sub *subscription) {
	isAck := m.Kind == message.KindNotification && m.Method == "notifications/subscriptions/acknowledged"
	if !sub.tagged {
		sub.tagged = true
		s.Expect("subscriptions.acknowledged-first", isAck, spec.Server, m.Event,
			"the first message carrying subscription id %s is %s %s, not notifications/subscriptions/acknowledged", sub.id, m.Kind, engine.Describe(m))
	}
	switch {
	case isAck && !sub.acked:
		sub.acked = true
		s.Pass("subscriptions.no-notification-before-ack", spec.Server)
	case m.Kind == message.KindNotification && !sub.acked:
		s.Fail("subscriptions.no-notification-before-ack", spec.Server, m.Event,
			"the server sent %q on subscription %s before acknowledging it", m.Method, sub.id)
	}
}
