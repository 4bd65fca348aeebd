package mrtr

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// mrtrFlow is an InputRequiredResult awaiting the client's retry.
type mrtrFlow struct {
	key   string // method and target
	id    string // the original request's id, as written
	idKey string
	line  int
	state *string
	keys  []string // inputRequests keys, nil without inputRequests
	asked bool     // the result carried inputRequests
}

// mrtrFlows keeps the flows awaiting a retry, by method and target, and
// the requestStates they issued, the most recent ones only.
type mrtrFlows struct {
	byTarget map[string]*mrtrFlow
	byState  map[string]string
	order    []string
}

const maxFlows = 256

func newMRTRFlows() *mrtrFlows {
	return &mrtrFlows{byTarget: map[string]*mrtrFlow{}, byState: map[string]string{}}
}

// flowKey names what a request acts on: its method and the tool, prompt or
// resource it names.
func flowKey(method string, params json.RawMessage) string {
	target, _ := message.StringField(params, mrtrMethods[method])
	return method + "\x00" + target
}

func (f *mrtrFlows) Open(req *message.Request, res inputRequiredResult, keys []string, ev *trace.Event) {
	key := flowKey(req.Method, req.Params)
	if _, replaced := f.byTarget[key]; !replaced {
		f.order = append(f.order, key)
	}
	f.byTarget[key] = &mrtrFlow{key: key, id: engine.DisplayID(req.IDKey), idKey: req.IDKey, line: ev.Line,
		state: res.RequestState, keys: keys, asked: res.InputRequests != nil}
	if res.RequestState != nil {
		f.byState[*res.RequestState] = key
	}
	if len(f.order) > maxFlows {
		f.close(f.order[0])
	}
}

func (f *mrtrFlows) close(key string) {
	if fl := f.byTarget[key]; fl != nil && fl.state != nil && f.byState[*fl.state] == key {
		delete(f.byState, *fl.state)
	}
	delete(f.byTarget, key)
	for i, k := range f.order {
		if k == key {
			f.order = append(f.order[:i], f.order[i+1:]...)
			break
		}
	}
}

// retryParams are the members a retry adds to its request.
type retryParams struct {
	InputResponses json.RawMessage `json:"inputResponses"`
	RequestState   *string         `json:"requestState"`
}

// retryInfo is what the server's answer to a retry is judged by.
type retryInfo struct {
	malformed string
	missing   []string
	extra     []string
}

func (r *mrtrRule) clientRequest(s *engine.Session, m *message.Msg) {
	var p retryParams
	if _, ok := mrtrMethods[m.Method]; !ok || !message.Decode(m.Params, &p) || (p.InputResponses == nil && p.RequestState == nil) {
		return
	}
	key := flowKey(m.Method, m.Params)
	flow := r.flows.byTarget[key]
	if flow == nil {
		r.foreignState(s, m, p)
		r.retries[engine.PendingKey(m.From, m.IDKey)] = retryInfo{malformed: malformedResponses(p.InputResponses)}
		return
	}
	r.flows.close(key)
	judgeRetry(s, m, flow, p)
	r.retries[engine.PendingKey(m.From, m.IDKey)] = compareInputs(flow, p.InputResponses)
}

// foreignState fails a request that carries the requestState issued for
// another request's retry.
func (r *mrtrRule) foreignState(s *engine.Session, m *message.Msg, p retryParams) {
	if p.RequestState == nil {
		return
	}
	if other, ok := r.flows.byState[*p.RequestState]; ok {
		fl := r.flows.byTarget[other]
		s.Fail("mrtr.state-not-reused", spec.Client, m.Event,
			"%s carries the requestState issued for request %s (line %d), which it does not retry", m.Method, fl.id, fl.line)
	}
}

func judgeRetry(s *engine.Session, m *message.Msg, flow *mrtrFlow, p retryParams) {
	s.Expect("mrtr.retry-new-id", m.IDKey != flow.idKey, spec.Client, m.Event,
		"the retry of %s reuses id %s of the request it retries (line %d)", m.Method, m.ID, flow.line)
	if flow.state != nil {
		echoed := p.RequestState != nil && *p.RequestState == *flow.state
		s.Expect("mrtr.request-state-echoed", echoed, spec.Client, m.Event,
			"the retry of request %s carries requestState %s, not the %q issued at line %d", flow.id, describeState(p.RequestState), *flow.state, flow.line)
		if echoed {
			s.Pass("mrtr.state-not-reused", spec.Client)
		}
	} else {
		s.Expect("mrtr.no-unsolicited-request-state", p.RequestState == nil, spec.Client, m.Event,
			"the retry of request %s carries requestState %s, though the InputRequiredResult at line %d issued none", flow.id, describeState(p.RequestState), flow.line)
	}
	if flow.asked {
		missing := compareInputs(flow, p.InputResponses).missing
		s.Expect("mrtr.inputs-constructed", len(missing) == 0, spec.Client, m.Event,
			"the retry of request %s lacks inputResponses for %s, requested at line %d", flow.id, strings.Join(missing, ", "), flow.line)
	}
}

func describeState(state *string) string {
	if state == nil {
		return "(none)"
	}
	return message.JSONQuote(*state)
}

// compareInputs sets a retry's inputResponses against what was requested.
func compareInputs(flow *mrtrFlow, responses json.RawMessage) retryInfo {
	info := retryInfo{malformed: malformedResponses(responses)}
	var got map[string]json.RawMessage
	message.Decode(responses, &got)
	for _, k := range flow.keys {
		if _, ok := got[k]; !ok {
			info.missing = append(info.missing, message.JSONQuote(k))
		}
	}
	for k := range got {
		if !slices.Contains(flow.keys, k) {
			info.extra = append(info.extra, message.JSONQuote(k))
		}
	}
	sort.Strings(info.extra)
	return info
}

// malformedResponses says what makes inputResponses invalid: not an object,
// or a value that is not a result object.
func malformedResponses(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var values map[string]json.RawMessage
	if !message.Decode(raw, &values) || values == nil {
		return "inputResponses " + string(raw) + ", which is not an object"
	}
	for _, k := range sortedRawKeys(values) {
		if v := values[k]; len(v) == 0 || v[0] != '{' {
			return "inputResponses[" + message.JSONQuote(k) + "] = " + string(v) + ", which is not a result object"
		}
	}
	return ""
}

func sortedRawKeys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// judgeRetryAnswer holds the server's answer to a retry to what the retry
// carried: invalid inputs refused, extra ones ignored, missing ones asked
// for again.
func judgeRetryAnswer(s *engine.Session, m *message.Msg, info retryInfo) {
	inputRequired := m.IsInputRequired()
	code, _ := message.RPCErrorCode(m)
	switch {
	case info.malformed != "":
		if !inputRequired {
			s.Expect("mrtr.invalid-input-responses-rejected", m.Kind == message.KindError, spec.Server, m.Event,
				"the server answered %q, which carried %s, with a result instead of a JSON-RPC error", m.Request.Method, info.malformed)
		}
	case len(info.missing) > 0:
		if m.Kind == message.KindError || inputRequired {
			s.Expect("mrtr.missing-inputs-requested-again", inputRequired, spec.Server, m.Event,
				"the server answered a retry lacking %s with error %s instead of a new InputRequiredResult asking for it again", strings.Join(info.missing, ", "), message.ErrorCodeText(m))
		}
	case len(info.extra) > 0:
		s.Expect("mrtr.extra-responses-ignored", m.Kind != message.KindError || code != -32602, spec.Server, m.Event,
			"the server refused a retry as invalid params although it carried every requested input (and also %s)", strings.Join(info.extra, ", "))
	}
}
