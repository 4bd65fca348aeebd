package subscriptions

import (
	"encoding/json"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// ended judges the result that closes a subscription the server ended on
// its own: the graceful closure.
func (r *subscriptionsRule) ended(s *engine.Session, m *message.Msg) {
	sub := r.subs[m.Request.IDKey]
	delete(r.subs, m.Request.IDKey)
	if sub == nil || sub.clientCancelled || sub.serverCancelled || m.Kind != message.KindResult {
		return
	}
	if extra := methodSpecificMembers(m.Result); len(extra) > 0 {
		s.Fail("subscriptions.graceful-closure", spec.Server, m.Event,
			"the result that closes subscription %s carries method-specific member %q; a closing result holds only _meta and resultType", sub.id, extra[0])
		return
	}
	s.Pass("subscriptions.graceful-closure", spec.Server)
}

// methodSpecificMembers lists, sorted, the members of a result beyond the
// ones every result may carry.
func methodSpecificMembers(result []byte) []string {
	var members map[string]json.RawMessage
	message.Decode(result, &members)
	var out []string
	for name := range members {
		if name != "_meta" && name != "resultType" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Lifecycle warns of the subscriptions a server closed without a result:
// an SSE stream it ended, or a stdio session it left on its own.
func (r *subscriptionsRule) Lifecycle(s *engine.Session, ev *trace.Event) {
	if !s.Stateless() {
		return
	}
	if ev.Event == trace.ProcessExit {
		r.exitedOnItsOwn = ev.ExitCode != nil && *ev.ExitCode == 0
		return
	}
	if !r.serverClosed(ev) {
		return
	}
	for _, sub := range r.Open(ev.Exchange) {
		delete(r.subs, sub.key)
		s.Fail("subscriptions.graceful-closure", spec.Server, ev,
			"the server closed subscription %s without answering its subscriptions/listen request", sub.id)
	}
}

// serverClosed reports whether the server ended a stream on its own: an
// SSE stream it finished, or a stdio process that exited before the client
// closed (a signal or a crash is no one's graceful choice, and neither is a
// proxy or a client going away).
func (r *subscriptionsRule) serverClosed(ev *trace.Event) bool {
	if ev.Direction != trace.ServerToClient {
		return false
	}
	if ev.Transport == trace.StreamableHTTP {
		return ev.Event == trace.TransportClose && ev.Exchange != 0
	}
	return ev.Event == trace.TransportAbort && r.exitedOnItsOwn
}

type openSub struct {
	key string
	*subscription
}

// Open lists, oldest first, the subscriptions not cancelled by the client
// that live on an exchange (0: all of them).
func (r *subscriptionsRule) Open(exchange int64) []openSub {
	var out []openSub
	for key, sub := range r.subs {
		if !sub.clientCancelled && !sub.serverCancelled && (exchange == 0 || sub.exchange == exchange) {
			out = append(out, openSub{key, sub})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// requestedType judges a list_changed or resources/updated notification
// against the filter of its subscription, or of any when it names none.
func (r *subscriptionsRule) requestedType(s *engine.Session, m *message.Msg, sub *subscription) {
	uri, _ := message.StringField(m.Params, "uri")
	if !isSubscribable(m.Method) {
		return
	}
	if sub == nil && m.Event.Exchange != 0 {
		sub = r.byExchange(m.Event.Exchange)
	}
	if sub != nil {
		s.Expect("subscriptions.requested-types-only", sub.filter.wants(m.Method, uri), spec.Server, m.Event,
			"the server sent %s on subscription %s, which did not ask for it", describeNotice(m.Method, uri), sub.id)
		return
	}
	s.Expect("subscriptions.requested-types-only", r.anyWants(m.Method, uri), spec.Server, m.Event,
		"the server sent %s, which no open subscription asked for", describeNotice(m.Method, uri))
}

func (r *subscriptionsRule) byExchange(exchange int64) *subscription {
	if open := r.Open(exchange); len(open) > 0 {
		return open[0].subscription
	}
	return nil
}

func (r *subscriptionsRule) anyWants(method, uri string) bool {
	for _, sub := range r.subs {
		if sub.filter.wants(method, uri) {
			return true
		}
	}
	return false
}

func isSubscribable(method string) bool {
	switch method {
	case "notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated":
		return true
	}
	return false
}

// wants reports whether the filter asked for a notification.
func (f subscriptionFilter) wants(method, uri string) bool {
	switch method {
	case "notifications/tools/list_changed":
		return f.ToolsListChanged
	case "notifications/prompts/list_changed":
		return f.PromptsListChanged
	case "notifications/resources/list_changed":
		return f.ResourcesListChanged
	}
	for _, u := range f.ResourceSubscriptions {
		if u == uri {
			return true
		}
	}
	return false
}

func describeNotice(method, uri string) string {
	if method == "notifications/resources/updated" {
		return method + " for " + message.JSONQuote(uri)
	}
	return method
}
