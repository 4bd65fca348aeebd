package elicitation

import (
	"encoding/json"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Elicitation: the server asks the user, through the client, for form data
// or to visit a URL (client/elicitation).
func init() {
	engine.Register(engine.RuleSpec{
		Sees: append(engine.AskSights("elicitation/create"), engine.Sees(engine.RequestMsgs, spec.Client, "initialize"), engine.Sight{Kinds: engine.RequestMsgs, From: spec.Client, Sessions: engine.StatelessOnly}, engine.Sees(engine.ResponseMsgs, spec.Server)),
		Checks: []engine.Check{
			{ID: "elicitation.capability-declared", Summary: "a client that answers elicitation/create with a result declared the elicitation capability"},
			{ID: "elicitation.capability-has-mode", Summary: "a client declaring elicitation supports form or url mode"},
			{ID: "elicitation.mode-supported", Summary: "the server elicits only in a mode the client declared"},
			{ID: "elicitation.request-params", Summary: `every elicitation request has a message and a mode of "form", "url" or none`},
			{ID: "elicitation.form-schema-present", Summary: "a form mode elicitation request carries a requestedSchema object"},
			{ID: "elicitation.schema-flat-primitive", Summary: "a requestedSchema is a flat object of primitive properties, its string formats among email, uri, date and date-time"},
			{ID: "elicitation.form-not-sensitive", Summary: "no form asks for a password, an API key, a token or payment credentials"},
			{ID: "elicitation.form-no-urls", Summary: "no form's message, field titles or descriptions carry a clickable URL"},
			{ID: "elicitation.url-params", Summary: "a URL mode elicitation request carries a message, a url and (before 2026-07-28) an elicitationId"},
			{ID: "elicitation.url-valid", Summary: "the url of a URL mode elicitation is a valid absolute URL"},
			{ID: "elicitation.url-https", Summary: "the url of a URL mode elicitation is https (or http to a loopback host)"},
			{ID: "elicitation.url-no-user-data", Summary: "the url of a URL mode elicitation carries no credentials or personal data"},
			{ID: "elicitation.url-not-preauthenticated", Summary: "the url of a URL mode elicitation carries no token or signature that grants access by itself"},
			{ID: "elicitation.response-action", Summary: `the client answers with action "accept", "decline" or "cancel"`},
			{ID: "elicitation.accept-content-valid", Summary: "accepted form content is valid against the requestedSchema"},
			{ID: "elicitation.url-accept-no-content", Summary: "an accepted URL mode elicitation carries no content"},
			{ID: "elicitation.modeless-is-form", Summary: "the client treats an elicitation request without mode as form mode"},
			{ID: "elicitation.decline-handled", Summary: "the server answers a retry carrying a declined or cancelled elicitation with no internal error"},
			{ID: "elicitation.undeclared-mode-rejected", Summary: "the client answers an elicitation in a mode it did not declare with error -32602"},
		},
		New: func() engine.Rule {
			return &elicitationRule{ClientFeature: engine.NewClientFeature("elicitation", "elicitation/create")}
		},
	})
}

type elicitationRule struct {
	engine.ClientFeature
	schemas     schemas.SchemaCache
	judgedModes string // the last elicitation capability judged, to judge each once
	// declined holds the retries that carried a decline or cancel, until the
	// server answers them.
	declined map[string]string
}

// elicitParams are the members of elicitation/create params the checks read.
type elicitParams struct {
	Mode            *string         `json:"mode"`
	Message         *string         `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             *string         `json:"url"`
	ElicitationID   *string         `json:"elicitationId"`
}

// mode is the request's mode; a request without one is form mode.
func (p *elicitParams) mode() string {
	if p.Mode == nil {
		return "form"
	}
	return *p.Mode
}

func (r *elicitationRule) Message(s *engine.Session, m *message.Msg) {
	r.declaredModes(s, m)
	r.declineAnswered(s, m)
	asks, replies := r.Observe(s, m)
	for _, a := range asks {
		r.ask(s, a)
	}
	for _, rep := range replies {
		r.reply(s, rep)
	}
}

// ElicitModes returns the modes a client's capabilities declare: an empty
// elicitation object means form mode only.
func ElicitModes(c engine.Caps) (form, url bool) {
	return c.Declares("elicitation.form"), c.Declares("elicitation.url")
}

func declaredElicitation(c engine.Caps) string {
	if !c.Has("elicitation") {
		return "it declared no elicitation capability"
	}
	return "it declared elicitation " + jsonText(c["elicitation"])
}

func modeDeclared(c engine.Caps, mode string) bool {
	form, url := ElicitModes(c)
	return (mode == "form" && form) || (mode == "url" && url)
}

// declaredModes judges the elicitation capability where the client declares
// it: in initialize, or on every 2026-07-28 request (judged when it changes).
func (r *elicitationRule) declaredModes(s *engine.Session, m *message.Msg) {
	if m.From != spec.Client || m.Kind != message.KindRequest {
		return
	}
	var caps engine.Caps
	switch {
	case m.Method == "initialize":
		var p struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		message.Decode(m.Params, &p)
		caps = engine.ParseCaps(p.Capabilities)
	case s.Stateless():
		caps = engine.MetaCaps(m)
	}
	if len(caps) == 0 || !caps.Has("elicitation") || jsonText(caps["elicitation"]) == r.judgedModes {
		return
	}
	r.judgedModes = jsonText(caps["elicitation"])
	form, url := ElicitModes(caps)
	s.Expect("elicitation.capability-has-mode", form || url, spec.Client, m.Event,
		"the client declares elicitation %s, which names neither form nor url mode", r.judgedModes)
}

func (r *elicitationRule) ask(s *engine.Session, a *engine.Ask) {
	var p elicitParams
	if !message.Decode(a.Params, &p) {
		s.Fail("elicitation.request-params", spec.Server, a.Event, "elicitation/create has no params object with a string message and mode")
		return
	}
	validMode := checkElicitParams(s, a, &p)
	if a.Caps != nil && validMode {
		s.Expect("elicitation.mode-supported", modeDeclared(a.Caps, p.mode()), spec.Server, a.Event,
			"the server elicits in %s mode, which the client did not declare (%s)", p.mode(), declaredElicitation(a.Caps))
	}
	switch p.mode() {
	case "form":
		checkForm(s, a, &p)
	case "url":
		checkURLRequest(s, a, &p)
	}
}

// checkElicitParams judges the parameters every elicitation carries and
// reports whether its mode is one the checks know.
func checkElicitParams(s *engine.Session, a *engine.Ask, p *elicitParams) (validMode bool) {
	validMode = p.Mode == nil || *p.Mode == "form" || *p.Mode == "url"
	switch {
	case p.Message == nil:
		s.Fail("elicitation.request-params", spec.Server, a.Event, "elicitation/create has no message")
	case !validMode:
		s.Fail("elicitation.request-params", spec.Server, a.Event, "elicitation/create has mode %q, not \"form\" or \"url\"", p.mode())
	default:
		s.Pass("elicitation.request-params", spec.Server)
	}
	return validMode
}

func checkForm(s *engine.Session, a *engine.Ask, p *elicitParams) {
	if !engine.IsJSONObject(p.RequestedSchema) {
		s.Fail("elicitation.form-schema-present", spec.Server, a.Event, "form mode elicitation/create has no requestedSchema object")
		return
	}
	s.Pass("elicitation.form-schema-present", spec.Server)
	problem := FlatPrimitiveProblem(p.RequestedSchema)
	s.Expect("elicitation.schema-flat-primitive", problem == "", spec.Server, a.Event, "%s", problem)
	fields := SensitiveFields(p.RequestedSchema)
	s.Expect("elicitation.form-not-sensitive", len(fields) == 0, spec.Server, a.Event,
		"the form asks for %s, which name a secret or credential: such data must go through URL mode", engine.QuoteIDs(fields))
	urls := formURLs(engine.Deref(p.Message), p.RequestedSchema)
	s.Expect("elicitation.form-no-urls", len(urls) == 0, spec.Server, a.Event,
		"the form carries URL %s, which a client could render as a link", strings.Join(urls, ", "))
}

func checkURLRequest(s *engine.Session, a *engine.Ask, p *elicitParams) {
	needID := !s.Stateless() // 2026-07-28 dropped elicitationId
	ok := p.Message != nil && p.URL != nil && (!needID || p.ElicitationID != nil)
	s.Expect("elicitation.url-params", ok, spec.Server, a.Event, "URL mode elicitation/create lacks %s", missingURLParams(p, needID))
	if p.URL == nil {
		return
	}
	u := *p.URL
	if !ValidURL(u) {
		s.Fail("elicitation.url-valid", spec.Server, a.Event, "url %q is not a valid absolute URL", u)
		return
	}
	s.Pass("elicitation.url-valid", spec.Server)
	s.Expect("elicitation.url-https", HttpsOrDevelopment(u), spec.Server, a.Event, "url %q is not https (nor http to a loopback host)", u)
	data := UserDataInURL(u)
	s.Expect("elicitation.url-no-user-data", len(data) == 0, spec.Server, a.Event, "the URL carries user data: %s", strings.Join(data, ", "))
	grants := PreauthenticationInURL(u)
	s.Expect("elicitation.url-not-preauthenticated", len(grants) == 0, spec.Server, a.Event,
		"the URL grants access by itself: %s", strings.Join(grants, ", "))
}

func missingURLParams(p *elicitParams, needID bool) string {
	var missing []string
	for _, m := range []struct {
		name    string
		missing bool
	}{{"message", p.Message == nil}, {"url", p.URL == nil}, {"elicitationId", needID && p.ElicitationID == nil}} {
		if m.missing {
			missing = append(missing, m.name)
		}
	}
	return strings.Join(missing, " and ")
}
