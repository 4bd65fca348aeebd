package base

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// How a 2026-07-28 server answers a request it cannot serve as sent: one
// missing a required _meta field, or one that needs a client capability
// the request did not declare.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.ResponseMsgs, spec.Server)},
		Checks: []engine.Check{
			{ID: "protocolmeta.reject-malformed", Summary: "the server answers a request missing a required _meta field with error -32602"},
			{ID: "protocolmeta.malformed-http-400", Summary: "over HTTP, the answer to a request missing a required _meta field has status 400"},
			{ID: "protocolmeta.declared-capabilities", Summary: "the server asks for no client input (elicitation, sampling, roots) the request's client capabilities do not declare"},
			{ID: "protocolmeta.missing-capability-error", Summary: "a request that needs an undeclared client capability is answered with error -32021 listing exactly missing capabilities"},
			{ID: "protocolmeta.missing-capability-http-400", Summary: "over HTTP, error -32021 comes with status 400"},
		},
		New:      func() engine.Rule { return &requestRejectionRule{} },
		Messages: engine.StatelessOnly,
	})
}

type requestRejectionRule struct {
	engine.BaseRule
	statuses engine.ExchangeStatus
}

func (r *requestRejectionRule) HTTP(_ *engine.Session, ev *trace.Event) { r.statuses.Note(ev) }

func (r *requestRejectionRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || !engine.AnswersClientRequest(m) {
		return
	}
	if missing := engine.MissingRequiredMeta(m.Request.Params); len(missing) > 0 {
		r.checkMalformedAnswer(s, m, missing)
		return
	}
	if code, _ := m.Error.IntCode(); m.Kind == message.KindError && code == engine.CodeMissingCapability {
		r.checkMissingCapabilityError(s, m)
	}
	for _, in := range engine.InputRequests(m) {
		checkCapabilityUse(s, m, in)
	}
}

func (r *requestRejectionRule) checkMalformedAnswer(s *engine.Session, m *message.Msg, missing []string) {
	s.Expect("protocolmeta.reject-malformed", rejectsMalformed(m, missing), spec.Server, m.Event,
		"request %q (line %d) lacks %s, yet the server answered with %s, not error -32602", m.Request.Method, m.Request.Line,
		strings.Join(missing, " and "), engine.AnswerName(m))
	r.statuses.Expect400(s, m, "protocolmeta.malformed-http-400", "the answer to malformed request "+engine.Quote(m.Request.Method))
}

// rejectsMalformed reports whether m rejects a request missing fields with
// -32602. Over HTTP a request whose body lacks the protocol version the
// MCP-Protocol-Version header carries may instead be rejected as a header
// mismatch (-32020), as the transport specifies.
func rejectsMalformed(m *message.Msg, missing []string) bool {
	code, _ := m.Error.IntCode()
	if m.Kind != message.KindError {
		return false
	}
	headerCase := code == engine.CodeHeaderMismatch && m.Event.Transport == trace.StreamableHTTP && slices.Contains(missing, engine.MetaProtocolVersion)
	return code == engine.CodeInvalidParams || headerCase
}

func (r *requestRejectionRule) checkMissingCapabilityError(s *engine.Session, m *message.Msg) {
	var data struct {
		Required map[string]any `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(m.Error.Data, &data)
	declared := engine.RequestCaps(m.Request)
	var problem string
	switch paths := engine.CapabilityPaths(data.Required, ""); {
	case len(paths) == 0:
		problem = "lists no capability in data.requiredCapabilities"
	default:
		if both := declaredOf(declared, paths); len(both) > 0 {
			problem = "lists " + strings.Join(both, ", ") + ", which the request's clientCapabilities declare"
		}
	}
	s.Expect("protocolmeta.missing-capability-error", problem == "", spec.Server, m.Event,
		"error -32021 answering %q (line %d) %s", m.Request.Method, m.Request.Line, problem)
	r.statuses.Expect400(s, m, "protocolmeta.missing-capability-http-400", "error -32021")
}

func declaredOf(c engine.Caps, paths []string) []string {
	var out []string
	for _, p := range paths {
		if c.Declares(p) {
			out = append(out, p)
		}
	}
	return out
}

// checkCapabilityUse: asking the client for input its capabilities do not
// declare is relying on an undeclared capability, where the server had to
// answer -32021 instead.
func checkCapabilityUse(s *engine.Session, m *message.Msg, in engine.InputRequest) {
	need := in.NeededCapability()
	if need == "" {
		return
	}
	declared := engine.RequestCaps(m.Request).Declares(need)
	s.Expect("protocolmeta.declared-capabilities", declared, spec.Server, m.Event,
		"input request %q (%s) answering %q (line %d) relies on client capability %s, which the request does not declare",
		in.Key, in.Method, m.Request.Method, m.Request.Line, need)
	if !declared {
		s.Fail("protocolmeta.missing-capability-error", spec.Server, m.Event,
			"request %q (line %d) needs client capability %s, which it does not declare, yet the server answered with an input request, not error -32021",
			m.Request.Method, m.Request.Line, need)
	}
}
