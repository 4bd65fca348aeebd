package listing

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// maxListenStreams bounds the subscriptions/listen streams a rule follows.
const maxListenStreams = 64

// listenFilter follows the subscriptions/listen streams a 2026-07-28 client
// opens: which notification types each asked for and the server agreed to,
// while the stream is open. Servers send list_changed notifications only to
// clients whose open stream asked for them.
type listenFilter struct {
	// open maps a listen request's id key to the filter flags still wanted.
	open map[string]map[string]bool
}

type listenParams struct {
	Notifications map[string]any  `json:"notifications"`
	RequestID     json.RawMessage `json:"requestId"`
}

// Observe moves the filter past m.
func (f *listenFilter) Observe(m *message.Msg) {
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Client && m.Method == "subscriptions/listen":
		f.opened(m)
	case m.Kind == message.KindNotification && m.Method == "notifications/subscriptions/acknowledged":
		f.acknowledged(m)
	case m.Kind == message.KindNotification && m.From == spec.Client && m.Method == "notifications/cancelled":
		var p listenParams
		if message.Decode(m.Params, &p) {
			delete(f.open, message.IDKey(p.RequestID))
		}
	case (m.Kind == message.KindResult || m.Kind == message.KindError) && m.Request != nil && m.Request.Method == "subscriptions/listen":
		delete(f.open, m.Request.IDKey)
	}
}

func (f *listenFilter) opened(m *message.Msg) {
	var p listenParams
	if !message.Decode(m.Params, &p) || m.IDKey == "" {
		return
	}
	if f.open == nil {
		f.open = map[string]map[string]bool{}
	}
	if len(f.open) >= maxListenStreams {
		return
	}
	f.open[m.IDKey] = trueFlags(p.Notifications)
}

// acknowledged keeps only the flags the server agreed to honour.
func (f *listenFilter) acknowledged(m *message.Msg) {
	var p listenParams
	if !message.Decode(m.Params, &p) {
		return
	}
	sub, ok := m.ParamsMeta().Lookup("io.modelcontextprotocol/subscriptionId")
	flags := f.open[message.IDKey(sub)]
	if !ok || flags == nil || p.Notifications == nil {
		return
	}
	agreed := trueFlags(p.Notifications)
	for k := range flags {
		flags[k] = agreed[k]
	}
}

// wants reports whether an open stream asked for a notification flag
// ("toolsListChanged", ...) and the server did not decline it.
func (f *listenFilter) wants(flag string) bool {
	for _, flags := range f.open {
		if flags[flag] {
			return true
		}
	}
	return false
}

func trueFlags(n map[string]any) map[string]bool {
	out := map[string]bool{}
	for k, v := range n {
		if b, ok := v.(bool); ok && b {
			out[k] = true
		}
	}
	return out
}
