package progress

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Progress: tokens issued on requests, notifications only for tokens in
// flight, progress that only goes up.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.RequestMsgs | engine.ResponseMsgs}, engine.Sees(engine.NotificationMsgs, "", "notifications/progress", "notifications/tasks/status")},
		Checks: []engine.Check{
			{ID: "progress.token-type", Summary: "a progressToken is a string or an integer"},
			{ID: "progress.token-unique", Summary: "no request carries the progressToken of another request its sender still has in flight"},
			{ID: "progress.increasing", Summary: "each progress notification for a token carries a greater progress than the one before"},
			{ID: "progress.token-active", Summary: "a progress notification names a token its receiver issued on a request still in progress"},
			{ID: "progress.stops-after-completion", Summary: "no progress notification names the token of a request already answered"},
			{ID: "progress.task-stops-at-terminal", Summary: "no progress notification names the token of a task after the task reached completed, failed or cancelled"},
		},
		New: func() engine.Rule { return newProgressRule() },
	})
}

type progressRule struct {
	engine.BaseRule
	// active holds the tokens of requests in progress (and of tasks not yet
	// finished), by issuer and token.
	active map[tokenID]*tokenState
	// finished remembers recently finished tokens, to tell a notification
	// that came too late from one naming a token never issued.
	finished *finishedTokens
	// tasks maps a task id to the token of the request that created it;
	// taskOrder keeps them oldest first, to bound them.
	tasks     map[string]tokenID
	taskOrder []string
	// created is createdTask's scratch, empty between messages.
	created struct {
		Task *taskFields `json:"task"`
	}
	// spare is the state of the latest finished token, for the next
	// token to take: most requests with a token finish before the next.
	spare *tokenState
}

type tokenState struct {
	req  engine.RequestKey
	id   json.RawMessage // the request id, for messages
	task string          // set once a CreateTaskResult answered the request
	last float64
	seen bool // a notification arrived for it
}

func newProgressRule() *progressRule {
	return &progressRule{active: map[tokenID]*tokenState{}, finished: &finishedTokens{}, tasks: map[string]tokenID{}}
}

// tokenID names a progress token by its issuer and its id key: a struct,
// not a joined string, so that looking one up allocates nothing.
type tokenID struct {
	issuer spec.Party
	token  string
}

func tokenKey(issuer spec.Party, token string) tokenID { return tokenID{issuer, token} }

func (r *progressRule) Message(s *engine.Session, m *message.Msg) {
	switch {
	case m.Kind == message.KindRequest:
		r.request(s, m)
	case m.Kind == message.KindNotification && m.Method == "notifications/progress":
		r.notification(s, m)
	case m.Kind == message.KindNotification && m.Method == "notifications/tasks/status":
		r.taskStatus(m.Params, m.Event)
	case m.Kind == message.KindResult || m.Kind == message.KindError:
		r.response(m)
	}
}

func (r *progressRule) request(s *engine.Session, m *message.Msg) {
	raw, ok := m.ParamsMeta().Lookup("progressToken")
	if !ok {
		return
	}
	if !engine.IsStringOrInteger(raw) {
		s.Fail("progress.token-type", m.From, m.Event, "request %q carries progressToken %s, which is neither a string nor an integer", m.Method, raw)
		return
	}
	s.Pass("progress.token-type", m.From)
	key := tokenKey(m.From, s.Run.IDs.Key(raw))
	prev := r.active[key]
	if prev != nil {
		s.Fail("progress.token-unique", m.From, m.Event, "request %q reuses progressToken %s of request %s, still in progress", m.Method, raw, prev.id)
		return
	}
	s.Pass("progress.token-unique", m.From)
	if m.IDKey != "" {
		r.active[key] = r.newToken(tokenState{id: m.ID, req: engine.RequestKey{From: m.From, IDKey: m.IDKey}})
	}
}

// newToken returns st in a tokenState of the rule's own, the spare one
// when there is one. It allocates only when there is none: returning &st
// would put st on the heap on every call.
func (r *progressRule) newToken(st tokenState) *tokenState {
	p := r.spare
	if p == nil {
		p = new(tokenState)
	}
	r.spare = nil
	*p = st
	return p
}
