package sampling

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Sampling: the server asks the client's LLM for a message (client/sampling).
func init() {
	engine.Register(engine.RuleSpec{
		Sees: engine.AskSights("sampling/createMessage"),
		Checks: []engine.Check{
			{ID: "sampling.capability-declared", Summary: "a client that answers sampling/createMessage with a result declared the sampling capability"},
			{ID: "sampling.tools-need-capability", Summary: "the server sends tools or toolChoice only to a client that declared sampling.tools"},
			{ID: "sampling.tools-declared", Summary: "a client that answers a tool-enabled sampling request with a result declared sampling.tools"},
			{ID: "sampling.include-context-avoided", Summary: `the server does not use includeContext "thisServer" or "allServers"`},
			{ID: "sampling.include-context-needs-capability", Summary: `the server uses includeContext "thisServer" or "allServers" only when the client declared sampling.context`},
			{ID: "sampling.message-shape", Summary: `every sampling message has role "user" or "assistant" and a content`},
			{ID: "sampling.tool-results-only", Summary: "a user message with tool results holds tool results only"},
			{ID: "sampling.tool-use-balanced", Summary: "every assistant message with tool uses is followed by a user message answering each of them with a tool result"},
			{ID: "sampling.tool-use-answered", Summary: `the server's follow-up to a "toolUse" result answers each tool use with a matching tool result, and nothing else`},
			{ID: "sampling.model-preferences-range", Summary: "model preference priorities lie between 0 and 1"},
			{ID: "sampling.tool-use-role", Summary: `a result that carries tool uses has role "assistant"`},
			{ID: "sampling.stop-reason-tool-use", Summary: `a result stops for "toolUse" exactly when it carries tool uses`},
			{ID: "sampling.tool-choice-none", Summary: `a client answering with toolChoice mode "none" uses no tool`},
			{ID: "sampling.tool-choice-required", Summary: `a client answering with toolChoice mode "required" uses a tool`},
			{ID: "sampling.rejection-code", Summary: "a client reports a user's rejection of a sampling request with error -1"},
			{ID: "sampling.rejects-missing-tool-result", Summary: "a client answers a request whose tool uses lack tool results with error -32602"},
			{ID: "sampling.rejects-mixed-tool-results", Summary: "a client answers a request mixing tool results with other content with error -32602"},
		},
		New: func() engine.Rule {
			return &samplingRule{ClientFeature: engine.NewClientFeature("sampling", "sampling/createMessage"), toolUses: map[string]bool{}}
		},
	})
}

// maxToolUses bounds the tool uses kept while their follow-up is awaited.
const maxToolUses = 256

type samplingRule struct {
	engine.ClientFeature
	// toolUses are the ids of tool uses the client returned with stopReason
	// "toolUse", awaiting the server's follow-up request.
	toolUses map[string]bool
}

type samplingResult struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	StopReason string          `json:"stopReason"`
}

func (r *samplingRule) Message(s *engine.Session, m *message.Msg) {
	asks, replies := r.Observe(s, m)
	for _, a := range asks {
		var p samplingParams
		if message.Decode(a.Params, &p) {
			r.ask(s, a, &p)
		}
	}
	for _, rep := range replies {
		r.reply(s, rep)
	}
}

func (r *samplingRule) ask(s *engine.Session, a *engine.Ask, p *samplingParams) {
	checkSamplingCapabilities(s, a, p)
	checkMessageShape(s, a, p.Messages)
	checkToolResultsOnly(s, a, p.Messages)
	checkToolUseBalance(s, a, p.Messages)
	r.checkFollowUp(s, a, p.Messages)
	checkModelPreferences(s, a, p.ModelPreferences)
}

func checkSamplingCapabilities(s *engine.Session, a *engine.Ask, p *samplingParams) {
	if p.toolEnabled() && a.Caps != nil {
		s.Expect("sampling.tools-need-capability", a.Caps.Has("sampling.tools"), spec.Server, a.Event,
			"the sampling request carries tools or toolChoice, but the client did not declare sampling.tools")
	}
	deprecated := p.IncludeContext != nil && (*p.IncludeContext == "thisServer" || *p.IncludeContext == "allServers")
	if deprecated {
		s.Fail("sampling.include-context-avoided", spec.Server, a.Event, "the sampling request uses includeContext %q, a deprecated value", *p.IncludeContext)
	} else {
		s.Pass("sampling.include-context-avoided", spec.Server)
	}
	if !deprecated || a.Caps != nil {
		s.Expect("sampling.include-context-needs-capability", !deprecated || a.Caps.Has("sampling.context"), spec.Server, a.Event,
			"the sampling request uses includeContext %q, but the client did not declare sampling.context", engine.Deref(p.IncludeContext))
	}
}

func checkMessageShape(s *engine.Session, a *engine.Ask, msgs []SamplingMessage) {
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			s.Fail("sampling.message-shape", spec.Server, a.Event, "sampling message %d has role %q, not \"user\" or \"assistant\"", i, m.Role)
			return
		}
		if len(m.Content) == 0 || string(m.Content) == "null" {
			s.Fail("sampling.message-shape", spec.Server, a.Event, "sampling message %d has no content", i)
			return
		}
	}
	if len(msgs) > 0 {
		s.Pass("sampling.message-shape", spec.Server)
	}
}

func checkToolResultsOnly(s *engine.Session, a *engine.Ask, msgs []SamplingMessage) {
	withResults := false
	for _, m := range msgs {
		withResults = withResults || (m.Role == "user" && countType(m.blocks(), "tool_result") > 0)
	}
	if !withResults {
		return
	}
	i := mixedToolResults(msgs)
	s.Expect("sampling.tool-results-only", i < 0, spec.Server, a.Event,
		"sampling message %d mixes tool results with other content", i)
}

func checkToolUseBalance(s *engine.Session, a *engine.Ask, msgs []SamplingMessage) {
	if !hasToolUse(msgs) {
		return
	}
	i, problem := UnbalancedToolUse(msgs)
	s.Expect("sampling.tool-use-balanced", i < 0, spec.Server, a.Event, "%s", problem)
}

func hasToolUse(msgs []SamplingMessage) bool {
	for _, m := range msgs {
		if m.Role == "assistant" && countType(m.blocks(), "tool_use") > 0 {
			return true
		}
	}
	return false
}

func checkModelPreferences(s *engine.Session, a *engine.Ask, mp *modelPreferences) {
	if mp == nil {
		return
	}
	for _, p := range []struct {
		name  string
		value *float64
	}{{"costPriority", mp.CostPriority}, {"speedPriority", mp.SpeedPriority}, {"intelligencePriority", mp.IntelligencePriority}} {
		if p.value != nil {
			s.Expect("sampling.model-preferences-range", *p.value >= 0 && *p.value <= 1, spec.Server, a.Event,
				"modelPreferences.%s is %v, outside 0..1", p.name, *p.value)
		}
	}
}
