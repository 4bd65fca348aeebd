package caching

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/listing"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Caching (2026-07-28): cacheable results carry ttlMs and cacheScope, the
// pages of one listing share a scope, and a client whose cursor was refused
// lists again from the start.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, ""), engine.Sees(engine.ResponseMsgs, "", engine.SortedKeysOf(cacheableMethods)...)},
		Checks: []engine.Check{
			{ID: "caching.hints-present", Summary: "complete results of server/discover, the list methods and resources/read carry ttlMs and a cacheScope of \"public\" or \"private\""},
			{ID: "caching.ttl-valid", Summary: "ttlMs is an integer of at least 0"},
			{ID: "caching.scope-consistent-pages", Summary: "every page of a listing carries the cacheScope of the page whose nextCursor requested it"},
			{ID: "caching.restart-after-invalid-cursor", Summary: "after the server refuses a cursor it had issued, the client's next request of that list starts from the beginning"},
		},
		New:      func() engine.Rule { return newCachingRule() },
		Messages: engine.StatelessOnly,
	})
}

var cacheableMethods = map[string]bool{
	"server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
}

type cachingRule struct {
	engine.BaseRule
	// scopes maps "method\x00cursor" to the cacheScope of the page that
	// issued the cursor, for the most recent cursors.
	scopes     map[string]string
	scopeOrder []string
	// asked maps a pending list request's key to the scope of the page
	// whose cursor it carries.
	asked map[string]string
	// refused maps a list method to the line where the server refused a
	// cursor it had issued, until the client lists that method again.
	refused map[string]int
	// ambiguous holds the pending keys a client reused while the first
	// request was in flight: a response to that id cannot be told apart.
	ambiguous map[string]bool
}

func newCachingRule() *cachingRule {
	return &cachingRule{scopes: map[string]string{}, asked: map[string]string{}, refused: map[string]int{}, ambiguous: map[string]bool{}}
}

func (r *cachingRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	switch {
	case m.Kind == message.KindRequest:
		r.noteReuse(s, m)
		if message.IsListMethod(m.Method) && m.From == spec.Client {
			r.request(s, m)
		}
	case m.Request != nil && !m.Answered && cacheableMethods[m.Request.Method]:
		if !r.ambiguous[engine.PendingKey(m.Request.From, m.Request.IDKey)] {
			r.response(s, m)
		}
	}
}

func (r *cachingRule) noteReuse(s *engine.Session, m *message.Msg) {
	key := engine.PendingKey(m.From, m.IDKey)
	if s.Pending(m.From, m.IDKey) != nil {
		r.ambiguous[key] = true
	} else {
		delete(r.ambiguous, key)
	}
}

func (r *cachingRule) request(s *engine.Session, m *message.Msg) {
	cursor, hasCursor := message.StringField(m.Params, "cursor")
	if line, ok := r.refused[m.Method]; ok {
		delete(r.refused, m.Method)
		s.Expect("caching.restart-after-invalid-cursor", !hasCursor, spec.Client, m.Event,
			"after the server refused a cursor of %s at line %d, the client went on with cursor %q instead of listing from the beginning", m.Method, line, cursor)
	}
	if scope, ok := r.scopes[listing.CursorKey(m.Method, cursor)]; hasCursor && ok {
		r.asked[engine.PendingKey(m.From, m.IDKey)] = scope
	}
}

func (r *cachingRule) response(s *engine.Session, m *message.Msg) {
	key := engine.PendingKey(m.Request.From, m.Request.IDKey)
	scope, paged := r.asked[key]
	delete(r.asked, key)
	if m.Kind == message.KindError {
		if paged {
			r.refused[m.Request.Method] = m.Event.Line
		}
		return
	}
	if message.ResultTypeOf(m.Result) != "complete" {
		return
	}
	hints := checkHints(s, m)
	if paged {
		s.Expect("caching.scope-consistent-pages", hints.Scope == scope, spec.Server, m.Event,
			"a page of %s has cacheScope %q, but the page whose cursor requested it had %q", m.Request.Method, hints.Scope, scope)
	}
	if next, ok := message.StringField(m.Result, "nextCursor"); ok {
		r.remember(listing.CursorKey(m.Request.Method, next), hints.Scope)
	}
}

func (r *cachingRule) remember(key, scope string) {
	if len(r.scopeOrder) >= listing.MaxCursors {
		delete(r.scopes, r.scopeOrder[0])
		r.scopeOrder = r.scopeOrder[1:]
	}
	r.scopes[key] = scope
	r.scopeOrder = append(r.scopeOrder, key)
}

type cacheHints struct {
	TTL   json.RawMessage `json:"ttlMs"`
	Scope string          `json:"cacheScope"`
}

func checkHints(s *engine.Session, m *message.Msg) cacheHints {
	var h cacheHints
	message.Decode(m.Result, &h)
	ok := h.TTL != nil && (h.Scope == "public" || h.Scope == "private")
	s.Expect("caching.hints-present", ok, spec.Server, m.Event,
		"the %s result carries ttlMs %s and cacheScope %q; it needs both, the scope \"public\" or \"private\"", m.Request.Method, engine.OrAbsent(h.TTL), h.Scope)
	if h.TTL != nil {
		s.Expect("caching.ttl-valid", isJSONInteger(h.TTL) && h.TTL[0] != '-', spec.Server, m.Event,
			"the %s result carries ttlMs %s, not an integer of at least 0", m.Request.Method, h.TTL)
	}
	return h
}

func isJSONInteger(raw json.RawMessage) bool {
	return len(raw) > 0 && raw[0] != '"' && engine.IsStringOrInteger(raw)
}
