package judge

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// How a 2026-07-28 server answers a request it cannot serve as sent: one
// missing a required _meta field, or one that needs a client capability
// the request did not declare.
func init() {
	register(RuleSpec{
		Sees: []sight{sees(responseMsgs, spec.Server)},
		Checks: []Check{
			{ID: "protocolmeta.reject-malformed", Summary: "the server answers a request missing a required _meta field with error -32602"},
			{ID: "protocolmeta.malformed-http-400", Summary: "over HTTP, the answer to a request missing a required _meta field has status 400"},
			{ID: "protocolmeta.declared-capabilities", Summary: "the server asks for no client input (elicitation, sampling, roots) the request's client capabilities do not declare"},
			{ID: "protocolmeta.missing-capability-error", Summary: "a request that needs an undeclared client capability is answered with error -32021 listing exactly missing capabilities"},
			{ID: "protocolmeta.missing-capability-http-400", Summary: "over HTTP, error -32021 comes with status 400"},
		},
		New:      func() Rule { return &requestRejectionRule{} },
		Messages: statelessOnly,
	})
}

type requestRejectionRule struct {
	BaseRule
	statuses exchangeStatus
}

func (r *requestRejectionRule) HTTP(_ *Session, ev *trace.Event) { r.statuses.note(ev) }

func (r *requestRejectionRule) Message(s *Session, m *Msg) {
	if !s.Stateless() || !answersClientRequest(m) {
		return
	}
	if missing := missingRequiredMeta(m.Request.Params); len(missing) > 0 {
		r.checkMalformedAnswer(s, m, missing)
		return
	}
	if code, _ := m.Error.IntCode(); m.Kind == KindError && code == codeMissingCapability {
		r.checkMissingCapabilityError(s, m)
	}
	for _, in := range inputRequests(m) {
		checkCapabilityUse(s, m, in)
	}
}

func (r *requestRejectionRule) checkMalformedAnswer(s *Session, m *Msg, missing []string) {
	s.Expect("protocolmeta.reject-malformed", rejectsMalformed(m, missing), spec.Server, m.Event,
		"request %q (line %d) lacks %s, yet the server answered with %s, not error -32602", m.Request.Method, m.Request.Line,
		strings.Join(missing, " and "), answerName(m))
	r.statuses.expect400(s, m, "protocolmeta.malformed-http-400", "the answer to malformed request "+quote(m.Request.Method))
}

// rejectsMalformed reports whether m rejects a request missing fields with
// -32602. Over HTTP a request whose body lacks the protocol version the
// MCP-Protocol-Version header carries may instead be rejected as a header
// mismatch (-32020), as the transport specifies.
func rejectsMalformed(m *Msg, missing []string) bool {
	code, _ := m.Error.IntCode()
	if m.Kind != KindError {
		return false
	}
	headerCase := code == codeHeaderMismatch && m.Event.Transport == trace.StreamableHTTP && slices.Contains(missing, metaProtocolVersion)
	return code == codeInvalidParams || headerCase
}

func (r *requestRejectionRule) checkMissingCapabilityError(s *Session, m *Msg) {
	var data struct {
		Required map[string]any `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(m.Error.Data, &data)
	declared := requestCaps(m.Request)
	var problem string
	switch paths := capabilityPaths(data.Required, ""); {
	case len(paths) == 0:
		problem = "lists no capability in data.requiredCapabilities"
	default:
		if both := declaredOf(declared, paths); len(both) > 0 {
			problem = "lists " + strings.Join(both, ", ") + ", which the request's clientCapabilities declare"
		}
	}
	s.Expect("protocolmeta.missing-capability-error", problem == "", spec.Server, m.Event,
		"error -32021 answering %q (line %d) %s", m.Request.Method, m.Request.Line, problem)
	r.statuses.expect400(s, m, "protocolmeta.missing-capability-http-400", "error -32021")
}

func declaredOf(c Caps, paths []string) []string {
	var out []string
	for _, p := range paths {
		if c.declares(p) {
			out = append(out, p)
		}
	}
	return out
}

// checkCapabilityUse: asking the client for input its capabilities do not
// declare is relying on an undeclared capability, where the server had to
// answer -32021 instead.
func checkCapabilityUse(s *Session, m *Msg, in inputRequest) {
	need := in.neededCapability()
	if need == "" {
		return
	}
	declared := requestCaps(m.Request).declares(need)
	s.Expect("protocolmeta.declared-capabilities", declared, spec.Server, m.Event,
		"input request %q (%s) answering %q (line %d) relies on client capability %s, which the request does not declare",
		in.Key, in.Method, m.Request.Method, m.Request.Line, need)
	if !declared {
		s.Fail("protocolmeta.missing-capability-error", spec.Server, m.Event,
			"request %q (line %d) needs client capability %s, which it does not declare, yet the server answered with an input request, not error -32021",
			m.Request.Method, m.Request.Line, need)
	}
}
