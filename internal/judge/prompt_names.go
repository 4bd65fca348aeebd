package judge

// promptNames learns the server's prompts from a complete prompts/list
// (every page, from the first to one without nextCursor), so a completion
// for a prompt outside it can be told apart. A list_changed notification
// makes the list unknown again.
type promptNames struct {
	known   map[string]bool // the complete list, nil while unknown
	partial map[string]bool // the pages gathered so far
	next    string          // the cursor that continues the pages gathered
}

// maxPromptNames bounds the names kept; a longer list is left unknown.
const maxPromptNames = 10000

func (p *promptNames) observe(m *Msg) {
	switch {
	case m.Kind == KindNotification && m.Method == "notifications/prompts/list_changed":
		p.known, p.partial = nil, nil
	case m.Kind == KindResult && m.Request != nil && m.Request.Method == "prompts/list" && !m.Answered:
		p.page(m)
	}
}

func (p *promptNames) page(m *Msg) {
	var res struct {
		Prompts []struct {
			Name string `json:"name"`
		} `json:"prompts"`
		NextCursor *string `json:"nextCursor"`
	}
	if !Decode(m.Result, &res) {
		return
	}
	cursor, paged := stringField(m.Request.Params, "cursor")
	switch {
	case !paged:
		p.partial = map[string]bool{}
	case p.partial == nil || cursor != p.next:
		p.partial = nil // a page of a listing not followed from its start
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

// unknown reports whether the complete list is known and lacks name.
func (p *promptNames) unknown(name string) bool { return p.known != nil && !p.known[name] }
