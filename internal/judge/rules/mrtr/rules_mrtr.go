package mrtr

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Multi round-trip requests (2026-07-28): the server asks for input with an
// InputRequiredResult instead of requests of its own, and the client's
// retry carries the inputs and the exact requestState.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, ""), engine.Sees(engine.ResponseMsgs, spec.Server)},
		Checks: []engine.Check{
			{ID: "mrtr.no-server-requests", Summary: "the server sends no requests of its own; it asks for client input inside an InputRequiredResult"},
			{ID: "mrtr.supported-requests-only", Summary: "InputRequiredResult answers only prompts/get, resources/read and tools/call"},
			{ID: "mrtr.input-required-not-empty", Summary: "an InputRequiredResult carries inputRequests, requestState or both"},
			{ID: "mrtr.input-keys-unique", Summary: "the keys of inputRequests are unique"},
			{ID: "mrtr.input-request-kind", Summary: "every inputRequests value is an elicitation/create, sampling/createMessage or roots/list request"},
			{ID: "mrtr.inputs-constructed", Summary: "a retry after inputRequests carries inputResponses for every key requested"},
			{ID: "mrtr.request-state-echoed", Summary: "a retry carries exactly the requestState of the InputRequiredResult"},
			{ID: "mrtr.no-unsolicited-request-state", Summary: "a retry after an InputRequiredResult without requestState carries none"},
			{ID: "mrtr.retry-new-id", Summary: "a retry has a JSON-RPC id other than the original request's"},
			{ID: "mrtr.state-not-reused", Summary: "a requestState is sent only on the retry of the request it was issued for"},
			{ID: "mrtr.invalid-input-responses-rejected", Summary: "a request whose inputResponses is not an object of result objects is refused with a JSON-RPC error"},
			{ID: "mrtr.extra-responses-ignored", Summary: "a retry with every requested input plus unrequested ones is not refused as invalid params"},
			{ID: "mrtr.missing-inputs-requested-again", Summary: "a retry missing requested inputs is answered with a new InputRequiredResult, not an error"},
		},
		New:      func() engine.Rule { return newMRTRRule() },
		Messages: engine.StatelessOnly,
	})
}

// mrtrMethods are the requests an InputRequiredResult may answer, with the
// parameter that names what they act on.
var mrtrMethods = map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}

// inputMethods are the requests inputRequests may carry.
var inputMethods = map[string]bool{"elicitation/create": true, "sampling/createMessage": true, "roots/list": true}

type mrtrRule struct {
	engine.BaseRule
	flows   *mrtrFlows
	retries map[string]retryInfo // pending retries by pending key
}

func newMRTRRule() *mrtrRule {
	return &mrtrRule{flows: newMRTRFlows(), retries: map[string]retryInfo{}}
}

func (r *mrtrRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Server:
		s.Fail("mrtr.no-server-requests", spec.Server, m.Event,
			"the server sent request %q; under 2026-07-28 it asks for client input with an InputRequiredResult", m.Method)
	case m.Kind == message.KindRequest:
		r.clientRequest(s, m)
	case m.Request != nil && !m.Answered && m.From == spec.Server:
		r.response(s, m)
	}
}

func (r *mrtrRule) response(s *engine.Session, m *message.Msg) {
	key := engine.PendingKey(m.Request.From, m.Request.IDKey)
	if info, ok := r.retries[key]; ok {
		delete(r.retries, key)
		judgeRetryAnswer(s, m, info)
	}
	if m.IsInputRequired() {
		r.inputRequired(s, m)
	}
}

type inputRequiredResult struct {
	InputRequests json.RawMessage `json:"inputRequests"`
	RequestState  *string         `json:"requestState"`
}

func (r *mrtrRule) inputRequired(s *engine.Session, m *message.Msg) {
	_, supported := mrtrMethods[m.Request.Method]
	s.Expect("mrtr.supported-requests-only", supported, spec.Server, m.Event,
		"the server answered %q with an InputRequiredResult; only prompts/get, resources/read and tools/call may get one", m.Request.Method)
	var res inputRequiredResult
	message.Decode(m.Result, &res)
	s.Expect("mrtr.input-required-not-empty", res.InputRequests != nil || res.RequestState != nil, spec.Server, m.Event,
		"the InputRequiredResult carries neither inputRequests nor requestState")
	keys := judgeInputRequests(s, m, res.InputRequests)
	if supported {
		r.flows.Open(m.Request, res, keys, m.Event)
	}
}

// judgeInputRequests judges the inputRequests map and returns its keys.
func judgeInputRequests(s *engine.Session, m *message.Msg, raw json.RawMessage) []string {
	if raw == nil {
		return nil
	}
	s.Pass("mrtr.no-server-requests", spec.Server) // the server asked for input the 2026-07-28 way
	keys, dup := engine.ObjectKeys(raw)
	s.Expect("mrtr.input-keys-unique", dup == "", spec.Server, m.Event, "inputRequests uses key %q more than once", dup)
	var requests map[string]struct {
		Method string `json:"method"`
	}
	message.Decode(raw, &requests)
	for _, k := range keys {
		method := requests[k].Method
		s.Expect("mrtr.input-request-kind", inputMethods[method], spec.Server, m.Event,
			"inputRequests[%q] is a %q request; only elicitation/create, sampling/createMessage and roots/list may be asked for", k, method)
	}
	return keys
}
