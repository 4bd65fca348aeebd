package elicitation

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// URL mode elicitations the server requires through a -32042 error, and the
// completion notifications it may send for them (2025-11-25).
func init() {
	engine.Register(engine.RuleSpec{
		Sees: append(engine.AskSights("elicitation/create"), engine.Sees(engine.ErrorMsgs, spec.Server), engine.Sees(engine.NotificationMsgs, spec.Server, "notifications/elicitation/complete")),
		Checks: []engine.Check{
			{ID: "elicitation.complete-has-id", Summary: "notifications/elicitation/complete carries an elicitationId string"},
			{ID: "elicitation.complete-known-id", Summary: "the server announces the completion only of URL elicitations it put to this client"},
			{ID: "elicitation.required-error-code", Summary: "an error that lists required URL elicitations has code -32042"},
			{ID: "elicitation.required-error-justified", Summary: "a -32042 error requires at least one URL mode elicitation"},
			{ID: "elicitation.required-error-lists", Summary: "a -32042 error lists the elicitations required"},
			{ID: "elicitation.required-error-url-mode", Summary: "every elicitation a -32042 error lists is URL mode with an elicitationId"},
		},
		New: func() engine.Rule {
			return &elicitationCompleteRule{asks: engine.AskTracker{Method: "elicitation/create"}}
		},
	})
}

// maxElicitationIDs bounds the elicitation ids remembered per session.
const maxElicitationIDs = 1024

type elicitationCompleteRule struct {
	engine.BaseRule
	asks   engine.AskTracker
	issued map[string]bool
	order  []string // issued ids, oldest first, to forget the oldest
}

// requiredElicitation is one entry of a -32042 error's data.elicitations.
type requiredElicitation struct {
	Mode          *string `json:"mode"`
	ElicitationID *string `json:"elicitationId"`
}

func (r *elicitationCompleteRule) Message(s *engine.Session, m *message.Msg) {
	asks, _ := r.asks.Observe(s, m)
	for _, a := range asks {
		var p elicitParams
		if message.Decode(a.Params, &p) && p.mode() == "url" && p.ElicitationID != nil {
			r.issue(*p.ElicitationID)
		}
	}
	switch {
	case m.From == spec.Server && m.Kind == message.KindError && m.Error != nil:
		r.requiredError(s, m)
	case m.From == spec.Server && m.Kind == message.KindNotification && m.Method == "notifications/elicitation/complete":
		r.complete(s, m)
	}
}

func (r *elicitationCompleteRule) issue(id string) {
	if r.issued == nil {
		r.issued = map[string]bool{}
	}
	if r.issued[id] {
		return
	}
	if len(r.order) >= maxElicitationIDs {
		delete(r.issued, r.order[0])
		r.order = r.order[1:]
	}
	r.issued[id] = true
	r.order = append(r.order, id)
}

func (r *elicitationCompleteRule) requiredError(s *engine.Session, m *message.Msg) {
	var data struct {
		Elicitations json.RawMessage `json:"elicitations"`
	}
	message.Decode(m.Error.Data, &data)
	code, _ := m.Error.IntCode()
	if data.Elicitations != nil {
		s.Expect("elicitation.required-error-code", code == -32042, spec.Server, m.Event,
			"an error that lists required elicitations has code %s, not -32042 (URLElicitationRequiredError)", m.Error.Code)
	}
	if code != -32042 {
		return
	}
	r.requiredList(s, m, data.Elicitations)
}

// requiredList judges the elicitations a -32042 error lists, and remembers
// their ids for the completion notifications that may follow.
func (r *elicitationCompleteRule) requiredList(s *engine.Session, m *message.Msg, raw json.RawMessage) {
	var list []requiredElicitation
	ok := message.Decode(raw, &list) && len(list) > 0
	s.Expect("elicitation.required-error-lists", ok, spec.Server, m.Event,
		"the -32042 error does not list the elicitations required (data.elicitations is %s)", engine.OrAbsent(raw))
	s.Expect("elicitation.required-error-justified", anyURLMode(list), spec.Server, m.Event,
		"the server returned -32042 (URLElicitationRequiredError) without requiring any URL mode elicitation")
	for i, e := range list {
		isURL := e.Mode != nil && *e.Mode == "url" && e.ElicitationID != nil
		s.Expect("elicitation.required-error-url-mode", isURL, spec.Server, m.Event,
			"elicitation %d of the -32042 error is not URL mode with an elicitationId", i)
		if isURL {
			r.issue(*e.ElicitationID)
		}
	}
}

func (r *elicitationCompleteRule) complete(s *engine.Session, m *message.Msg) {
	var p struct {
		ElicitationID *string `json:"elicitationId"`
	}
	hasID := message.Decode(m.Params, &p) && p.ElicitationID != nil
	s.Expect("elicitation.complete-has-id", hasID, spec.Server, m.Event,
		"notifications/elicitation/complete has no elicitationId string")
	if hasID {
		s.Expect("elicitation.complete-known-id", r.issued[*p.ElicitationID], spec.Server, m.Event,
			"notifications/elicitation/complete names elicitation %q, which the server never put to this client", *p.ElicitationID)
	}
}

func anyURLMode(list []requiredElicitation) bool {
	for _, e := range list {
		if e.Mode != nil && *e.Mode == "url" {
			return true
		}
	}
	return false
}
