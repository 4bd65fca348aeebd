package completion

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Completion: answered only by a server that declared completions, at most
// 100 values, and the standard errors for the failures a trace can show.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Methods: []string{"completion/complete", "prompts/list", "notifications/prompts/list_changed"}}},
		Checks: []engine.Check{
			{ID: "completion.capability-declared", Summary: "a server that answers completion/complete with a result declared the completions capability"},
			{ID: "completion.values-limit", Summary: "a completion result carries at most 100 values"},
			{ID: "completion.unsupported-error", Summary: "a server without the completions capability refuses completion/complete with -32601 (Method not found)"},
			{ID: "completion.unknown-prompt-error", Summary: "completion/complete for a prompt the server's complete prompts/list did not name is refused with -32602 (Invalid params)"},
			{ID: "completion.invalid-params-error", Summary: "completion/complete without a valid ref or argument is refused with -32602 (Invalid params)"},
			{ID: "completion.rejects-invalid", Summary: "completion/complete without a valid ref or argument is refused with an error, not answered with suggestions"},
		},
		New: func() engine.Rule { return newCompletionRule() },
	})
}

type completionRule struct {
	engine.BaseRule
	prompts engine.PromptNames
	// asked holds what each pending completion/complete request is
	// expected to get, by pending key.
	asked map[string]completionAsk
}

// completionAsk is what a completion request should be answered with.
type completionAsk struct {
	unsupported   bool   // the server declared no completions capability
	malformed     string // what is wrong with ref or argument, "" when fine
	unknownPrompt string // a prompt name the server's full list lacks
}

func newCompletionRule() *completionRule {
	return &completionRule{asked: map[string]completionAsk{}}
}

func (r *completionRule) Message(s *engine.Session, m *message.Msg) {
	r.prompts.Observe(m)
	switch {
	case m.Kind == message.KindRequest && m.Method == "completion/complete" && m.IDKey != "":
		r.asked[engine.PendingKey(m.From, m.IDKey)] = r.classify(s, m)
	case m.Request != nil && !m.Answered && m.Request.Method == "completion/complete":
		ask := r.asked[engine.PendingKey(m.Request.From, m.Request.IDKey)]
		delete(r.asked, engine.PendingKey(m.Request.From, m.Request.IDKey))
		judgeCompletion(s, m, ask)
	}
}

type completeParams struct {
	Ref *struct {
		Type string          `json:"type"`
		Name json.RawMessage `json:"name"`
		URI  json.RawMessage `json:"uri"`
	} `json:"ref"`
	Argument *struct {
		Name  *string `json:"name"`
		Value *string `json:"value"`
	} `json:"argument"`
}

func (r *completionRule) classify(s *engine.Session, m *message.Msg) completionAsk {
	ask := completionAsk{unsupported: engine.CapabilitiesKnown(s, "server.completions") && !s.ServerCaps.Has("completions")}
	var p completeParams
	if !message.Decode(m.Params, &p) {
		ask.malformed = "params that are not an object"
		return ask
	}
	ask.malformed = malformedCompletion(p)
	if ask.malformed == "" && p.Ref.Type == "ref/prompt" {
		var name string
		if json.Unmarshal(p.Ref.Name, &name) == nil && r.prompts.Unknown(name) {
			ask.unknownPrompt = name
		}
	}
	return ask
}

// malformedCompletion says what makes a completion request invalid.
func malformedCompletion(p completeParams) string {
	switch {
	case p.Ref == nil:
		return "no ref"
	case p.Ref.Type == "ref/prompt" && !engine.IsJSONString(p.Ref.Name):
		return "a ref/prompt without a name"
	case p.Ref.Type == "ref/resource" && !engine.IsJSONString(p.Ref.URI):
		return "a ref/resource without a uri"
	case p.Ref.Type != "ref/prompt" && p.Ref.Type != "ref/resource":
		return "a ref of type " + message.JSONQuote(p.Ref.Type)
	case p.Argument == nil || p.Argument.Name == nil || p.Argument.Value == nil:
		return "no argument with both a name and a value"
	}
	return ""
}

func judgeCompletion(s *engine.Session, m *message.Msg, ask completionAsk) {
	code, isCode := message.RPCErrorCode(m)
	switch {
	case ask.unsupported:
		s.Expect("completion.unsupported-error", isCode && code == -32601, spec.Server, m.Event,
			"the server, which declared no completions capability, answered completion/complete by %s, not an error with code -32601 (Method not found)", engine.DescribeAnswer(m))
	case ask.malformed != "":
		s.Expect("completion.rejects-invalid", m.Kind == message.KindError, spec.Server, m.Event,
			"the server answered completion/complete (%s) with suggestions instead of refusing it", ask.malformed)
		s.Expect("completion.invalid-params-error", isCode && code == -32602, spec.Server, m.Event,
			"the server answered completion/complete (%s) by %s, not an error with code -32602 (Invalid params)", ask.malformed, engine.DescribeAnswer(m))
	case ask.unknownPrompt != "":
		s.Expect("completion.unknown-prompt-error", isCode && code == -32602, spec.Server, m.Event,
			"the server answered completion/complete for prompt %q, which its prompts/list does not name, by %s, not an error with code -32602 (Invalid params)", ask.unknownPrompt, engine.DescribeAnswer(m))
	}
	if m.Kind == message.KindResult {
		judgeCompletionResult(s, m)
	}
}

func judgeCompletionResult(s *engine.Session, m *message.Msg) {
	if engine.CapabilitiesKnown(s, "server.completions") {
		s.Expect("completion.capability-declared", s.ServerCaps.Has("completions"), spec.Server, m.Event,
			"the server answered completion/complete with suggestions without declaring the completions capability")
	}
	var res struct {
		Completion struct {
			Values []json.RawMessage `json:"values"`
		} `json:"completion"`
	}
	if message.Decode(m.Result, &res) && res.Completion.Values != nil {
		n := len(res.Completion.Values)
		s.Expect("completion.values-limit", n <= 100, spec.Server, m.Event,
			"the completion result carries %d values; at most 100 are allowed", n)
	}
}
