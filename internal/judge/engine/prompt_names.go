package engine

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// PromptNames learns the server's prompts from a complete prompts/list
// (every page, from the first to one without nextCursor), so a completion
// for a prompt outside it can be told apart. A list_changed notification
// makes the list unknown again.
type PromptNames struct {
	known   map[string]bool // the complete list, nil while unknown
	partial map[string]bool // the pages gathered so far
	next    string          // the cursor that continues the pages gathered
}

// maxPromptNames bounds the names kept; a longer list is left unknown.
const maxPromptNames = 10000

func (p *PromptNames) Observe(m *message.Msg) {
	switch {
	case m.Kind == message.KindNotification && m.Method == "notifications/prompts/list_changed":
		p.known, p.partial = nil, nil
	case m.Kind == message.KindResult && m.Request != nil && m.Request.Method == "prompts/list" && !m.Answered:
		p.page(m)
	}
}

func (p *PromptNames) page(m *message.Msg) {
	var res struct {
		Prompts []struct {
			Name string `json:"name"`
		} `json:"prompts"`
		NextCursor *string `json:"nextCursor"`
	}
	if !message.Decode(m.Result, &res) || !p.follows(m.Request.Params) {
		return
	}
	for _, pr := range res.Prompts {
		p.partial[pr.Name] = true
	}
	switch {
	case len(p.partial) > maxPromptNames:
		p.partial = nil
	case res.NextCursor == nil:
		p.known, p.partial = p.partial, nil
	default:
		p.next = *res.NextCursor
	}
}

// follows reports whether a prompts/list request starts a listing or
// continues the one gathered so far; a page of any other listing drops it.
func (p *PromptNames) follows(params json.RawMessage) bool {
	cursor, paged := message.StringField(params, "cursor")
	switch {
	case !paged:
		p.partial = map[string]bool{}
	case p.partial == nil || cursor != p.next:
		p.partial = nil
		return false
	}
	return true
}

// Unknown reports whether the complete list is known and lacks name.
func (p *PromptNames) Unknown(name string) bool { return p.known != nil && !p.known[name] }
