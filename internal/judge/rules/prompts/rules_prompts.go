package prompts

import (
	"encoding/json"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/listing"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Prompts: what the server lists, how it answers prompts/get for what it
// listed and what it did not, and the content of the prompts it returns.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: engine.FeatureSights("prompts"),
		Checks: []engine.Check{
			{ID: "prompts.capability-declared", Summary: "a server that answers prompts/* requests with results declared the prompts capability"},
			{ID: "prompts.list-answered", Summary: "a server that declared prompts answers prompts/list with a prompts array, not method-not-found"},
			{ID: "prompts.list-changed-notified", Summary: "a server that declared prompts.listChanged announces a changed prompt list with notifications/prompts/list_changed"},
			{ID: "prompts.image-content", Summary: "image content in a prompt message is base64 data with a MIME type"},
			{ID: "prompts.audio-content", Summary: "audio content in a prompt message is base64 data with a MIME type"},
			{ID: "prompts.embedded-resource", Summary: "an embedded resource in a prompt message has a URI, a MIME type, and text or base64 blob"},
			{ID: "prompts.error-codes", Summary: "prompts/get of an unlisted prompt, or without a required argument, is answered with error -32602"},
			{ID: "prompts.arguments-validated", Summary: "prompts/get without a required argument is not answered with a prompt"},
			{ID: "prompts.client-pages", Summary: "a client given a nextCursor by prompts/list asks for the next page before it moves on"},
		},
		New: newPromptsRule,
	})
}

// maxPrompts bounds the prompt definitions a session keeps.
const maxPrompts = 4096

type promptsRule struct {
	engine.BaseRule
	listing.Feature
	// required maps each listed prompt to its required arguments.
	required map[string][]string
	// listedWhole is set once a whole prompts listing was seen: a prompt
	// outside every listing is then one the server does not have.
	listedWhole bool
	// unfollowed holds the nextCursors the client has not asked for yet.
	unfollowed []unfollowedCursor
}

type unfollowedCursor struct {
	cursor string
	ev     *trace.Event
	// later is set once the client sent another request after it.
	later bool
}

func newPromptsRule() engine.Rule {
	r := &promptsRule{
		Feature: listing.NewFeature("prompts", "name", listing.FeatureChecks{
			Declared: "prompts.capability-declared", Answered: "prompts.list-answered", Changed: "prompts.list-changed-notified",
		}),
		required: map[string][]string{},
	}
	r.OnPage = r.listed
	return r
}

func (r *promptsRule) Message(s *engine.Session, m *message.Msg) {
	if r.Observe(s, m) {
		return
	}
	switch {
	case m.From == spec.Client && m.Kind == message.KindRequest:
		r.clientRequest(s, m)
	case m.From == spec.Server && m.Request != nil && m.Request.Method == "prompts/get":
		r.answered(s, m)
	}
}

func (r *promptsRule) End(s *engine.Session) {
	r.Finish(s)
	for _, c := range r.unfollowed {
		if c.later {
			s.Fail("prompts.client-pages", spec.Client, c.ev,
				"prompts/list returned nextCursor %s and the client went on without asking for the next page", message.QuoteJSON(c.cursor))
		}
	}
}

// listed remembers each listed prompt's required arguments, and a cursor
// the client should follow.
func (r *promptsRule) listed(_ *engine.Session, m *message.Msg, p listing.ListPage) {
	for _, item := range p.Items {
		var def struct {
			Name      *string `json:"name"`
			Arguments []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"arguments"`
		}
		if !message.Decode(item, &def) || def.Name == nil || len(r.required) >= maxPrompts {
			continue
		}
		req := []string{}
		for _, a := range def.Arguments {
			if a.Required {
				req = append(req, a.Name)
			}
		}
		r.required[*def.Name] = req
	}
	r.listedWhole = r.listedWhole || p.Complete
	if p.Next != "" && len(r.unfollowed) < listing.MaxOpenListings {
		r.unfollowed = append(r.unfollowed, unfollowedCursor{cursor: p.Next, ev: m.Event})
	}
}

// clientRequest passes a prompts/list that follows a cursor, and marks the
// cursors still unfollowed as passed over.
func (r *promptsRule) clientRequest(s *engine.Session, m *message.Msg) {
	if len(r.unfollowed) == 0 {
		return // most requests: no need to look for a cursor
	}
	cursor, hasCursor := listing.ParamsCursor(m.Params)
	kept := r.unfollowed[:0]
	for _, c := range r.unfollowed {
		if hasCursor && m.Method == "prompts/list" && c.cursor == cursor {
			s.Pass("prompts.client-pages", spec.Client)
			continue
		}
		c.later = true
		kept = append(kept, c)
	}
	r.unfollowed = kept
}

// answered judges a prompts/get response against what the server listed,
// and the content of the prompt it returned.
func (r *promptsRule) answered(s *engine.Session, m *message.Msg) {
	if m.Kind == message.KindResult && message.InputRequired(m.Result) {
		return // the server asks for more input; it has not answered yet
	}
	var p struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	message.Decode(m.Request.Params, &p)
	required, listed := r.required[p.Name]
	missing := missingArgument(required, p.Arguments)
	switch {
	case !listed && r.listedWhole:
		judgePromptError(s, m, fmt.Sprintf("prompt %q, which no listing named,", p.Name))
	case listed && missing != "":
		judgePromptError(s, m, fmt.Sprintf("prompt %q without its required argument %q", p.Name, missing))
		s.Expect("prompts.arguments-validated", m.Kind != message.KindResult, spec.Server, m.Event,
			"prompts/get for prompt %q without its required argument %q was answered with a prompt", p.Name, missing)
	}
	if m.Kind == message.KindResult {
		judgePromptContent(s, m, p.Name)
	}
}

func missingArgument(required []string, args map[string]json.RawMessage) string {
	for _, name := range required {
		if _, ok := args[name]; !ok {
			return name
		}
	}
	return ""
}

func judgePromptError(s *engine.Session, m *message.Msg, what string) {
	code, isInt := m.Error.IntCode()
	answer := "a result"
	if m.Kind == message.KindError && m.Error != nil {
		answer = "error " + string(m.Error.Code)
	}
	s.Expect("prompts.error-codes", isInt && code == engine.CodeInvalidParams, spec.Server, m.Event,
		"prompts/get for %s was answered with %s, not error -32602 (invalid params)", what, answer)
}
