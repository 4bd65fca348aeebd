package elicitation

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// elicitResult is an ElicitResult as the reply checks read it.
type elicitResult struct {
	Action  *string         `json:"action"`
	Content json.RawMessage `json:"content"`
}

func (res *elicitResult) accepted() bool { return res.Action != nil && *res.Action == "accept" }

func (res *elicitResult) hasContent() bool {
	return len(res.Content) > 0 && string(res.Content) != "null"
}

// reply judges the client's answer to an elicitation request.
func (r *elicitationRule) reply(s *engine.Session, rep *engine.Reply) {
	var p elicitParams
	if !message.Decode(rep.Ask.Params, &p) {
		return
	}
	checkUndeclaredMode(s, rep, &p)
	if rep.Error != nil {
		checkModelessError(s, rep, &p)
		return
	}
	var res elicitResult
	if !message.Decode(rep.Result, &res) {
		return
	}
	action := engine.Deref(res.Action)
	s.Expect("elicitation.response-action", action == "accept" || action == "decline" || action == "cancel", spec.Client, rep.Event,
		`the elicitation result has action %q, not "accept", "decline" or "cancel"`, action)
	if res.accepted() {
		r.checkAccepted(s, rep, &p, &res)
	} else if rep.RetryID != "" && (action == "decline" || action == "cancel") {
		r.noteDecline(rep.RetryID, action)
	}
	checkModelessResult(s, rep, &p, &res)
}

// checkUndeclaredMode holds a handshake client to refusing, with -32602, an
// elicitation in a mode it did not declare. (2026-07-28 input requests have
// no error form.)
func checkUndeclaredMode(s *engine.Session, rep *engine.Reply, p *elicitParams) {
	mode := p.mode()
	if rep.Ask.Key != "" || rep.Ask.Caps == nil || (mode != "form" && mode != "url") || modeDeclared(rep.Ask.Caps, mode) {
		return
	}
	s.Expect("elicitation.undeclared-mode-rejected", engine.IsInvalidParams(rep.Error), spec.Client, rep.Event,
		"the server elicited in %s mode, which the client did not declare, and the client did not answer with error -32602 (Invalid params)", mode)
}

func (r *elicitationRule) checkAccepted(s *engine.Session, rep *engine.Reply, p *elicitParams, res *elicitResult) {
	switch p.mode() {
	case "url":
		s.Expect("elicitation.url-accept-no-content", !res.hasContent(), spec.Client, rep.Event,
			"the client accepted a URL mode elicitation with content %s; URL mode data never passes through the client", res.Content)
	case "form":
		sch := r.schemas.Compile(p.RequestedSchema)
		if sch == nil {
			return
		}
		content := res.Content
		if !res.hasContent() {
			content = json.RawMessage(`{}`)
		}
		problem := schemas.Validate(sch, content)
		s.Expect("elicitation.accept-content-valid", problem == "", spec.Client, rep.Event,
			"the accepted content %s does not match the requestedSchema: %s", content, problem)
	}
}

// checkModelessError: refusing a request without mode as invalid params,
// from a client that does elicit forms, is not treating it as form mode.
func checkModelessError(s *engine.Session, rep *engine.Reply, p *elicitParams) {
	if p.Mode != nil || rep.Ask.Caps == nil || !modeDeclared(rep.Ask.Caps, "form") || !engine.IsInvalidParams(rep.Error) {
		return
	}
	s.Fail("elicitation.modeless-is-form", spec.Client, rep.Event,
		"the client refused an elicitation without mode as invalid params, though it declared form mode, which a missing mode means")
}

// checkModelessResult: accepting a request without mode with no content,
// though its form requires fields, is answering it as URL mode.
func checkModelessResult(s *engine.Session, rep *engine.Reply, p *elicitParams, res *elicitResult) {
	if p.Mode != nil {
		return
	}
	asURL := res.accepted() && !res.hasContent() && len(requiredFields(p.RequestedSchema)) > 0
	s.Expect("elicitation.modeless-is-form", !asURL, spec.Client, rep.Event,
		"the client accepted an elicitation without mode with no content, as URL mode is answered, though its form requires %s",
		engine.QuoteIDs(requiredFields(p.RequestedSchema)))
}

// maxDeclines bounds the retries awaiting the server's answer.
const maxDeclines = 256

func (r *elicitationRule) noteDecline(retryID, action string) {
	if r.declined == nil || len(r.declined) >= maxDeclines {
		r.declined = map[string]string{}
	}
	r.declined[retryID] = action
}

// declineAnswered judges the server's answer to a retry that carried a
// declined or cancelled elicitation: an internal error there is the server
// failing on the answer it was told to expect.
func (r *elicitationRule) declineAnswered(s *engine.Session, m *message.Msg) {
	if m.From != spec.Server || m.Request == nil || (m.Kind != message.KindResult && m.Kind != message.KindError) {
		return
	}
	action, ok := r.declined[m.Request.IDKey]
	if !ok {
		return
	}
	delete(r.declined, m.Request.IDKey)
	code, _ := m.Error.IntCode()
	s.Expect("elicitation.decline-handled", m.Kind == message.KindResult || code != -32603, spec.Server, m.Event,
		"the server answered the retry whose elicitation the user chose to %s with an internal error (-32603)", action)
}
