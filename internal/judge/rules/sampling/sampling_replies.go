package sampling

import (
	"regexp"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// reply judges the client's answer to a sampling request.
func (r *samplingRule) reply(s *engine.Session, rep *engine.Reply) {
	var p samplingParams
	if !message.Decode(rep.Ask.Params, &p) {
		return
	}
	if rep.Ask.Key == "" {
		checkSamplingRejections(s, rep, &p)
		checkRejectionCode(s, rep)
	}
	checkToolsDeclared(s, rep, &p)
	var res samplingResult
	if rep.Result == nil || !message.Decode(rep.Result, &res) {
		return
	}
	checkResultToolUse(s, rep, &res)
	checkToolChoice(s, rep, &p, &res)
	r.rememberToolUses(&res)
}

// checkResultToolUse holds a result's role and stop reason to the tool uses
// it carries.
func checkResultToolUse(s *engine.Session, rep *engine.Reply, res *samplingResult) {
	uses := countType(blocks(res.Content), "tool_use")
	if uses > 0 {
		s.Expect("sampling.tool-use-role", res.Role == "assistant", spec.Client, rep.Event,
			"the result carries %d tool use(s) with role %q, not \"assistant\"", uses, res.Role)
	}
	if res.StopReason == "" || (uses == 0 && res.StopReason != "toolUse") {
		return
	}
	s.Expect("sampling.stop-reason-tool-use", (uses > 0) == (res.StopReason == "toolUse"), spec.Client, rep.Event,
		"the result has stopReason %q and carries %d tool use(s)", res.StopReason, uses)
}

// checkSamplingRejections holds a client to the errors it should return for
// malformed tool loops. Only JSON-RPC asks can be refused with an error.
func checkSamplingRejections(s *engine.Session, rep *engine.Reply, p *samplingParams) {
	refused := engine.IsInvalidParams(rep.Error)
	if MissingToolResult(p.Messages) {
		s.Expect("sampling.rejects-missing-tool-result", refused, spec.Client, rep.Event,
			"the sampling request has a tool use without a tool result, but the client did not answer with error -32602 (Invalid params)")
	}
	if mixedToolResults(p.Messages) >= 0 {
		s.Expect("sampling.rejects-mixed-tool-results", refused, spec.Client, rep.Event,
			"the sampling request mixes tool results with other content, but the client did not answer with error -32602 (Invalid params)")
	}
}

// userRejection matches an error message that reports a user's refusal.
var userRejection = regexp.MustCompile(`(?i)\b(user|human)\b.*\b(reject|declin|denied|refus)|\b(reject|declin|denied|refus)\w*\b.*\bby\s+(the\s+)?user\b`)

// checkRejectionCode: an error whose message says the user rejected the
// request should carry code -1.
func checkRejectionCode(s *engine.Session, rep *engine.Reply) {
	if rep.Error == nil {
		return
	}
	code, _ := rep.Error.IntCode()
	said := rep.Error.Message != nil && userRejection.MatchString(*rep.Error.Message)
	if code == -1 || said {
		s.Expect("sampling.rejection-code", code == -1, spec.Client, rep.Event,
			"the client reports the user's rejection (%q) with error code %s, not -1", engine.Deref(rep.Error.Message), rep.Error.Code)
	}
}

func checkToolsDeclared(s *engine.Session, rep *engine.Reply, p *samplingParams) {
	if !p.toolEnabled() || rep.Ask.Caps == nil {
		return
	}
	ok := rep.Result == nil || rep.Ask.Caps.Has("sampling.tools")
	s.Expect("sampling.tools-declared", ok, spec.Client, rep.Event,
		"the client answered a sampling request with tools with a result, but did not declare sampling.tools")
}

func checkToolChoice(s *engine.Session, rep *engine.Reply, p *samplingParams, res *samplingResult) {
	if p.ToolChoice == nil {
		return
	}
	uses := countType(blocks(res.Content), "tool_use")
	switch p.ToolChoice.Mode {
	case "none":
		s.Expect("sampling.tool-choice-none", uses == 0, spec.Client, rep.Event,
			`the client's result uses %d tool(s), though toolChoice mode is "none"`, uses)
	case "required":
		// A loop that already used a tool, or a generation cut off by
		// maxTokens, has not completed without one.
		if !hasToolUse(p.Messages) && res.StopReason != "maxTokens" {
			s.Expect("sampling.tool-choice-required", uses > 0, spec.Client, rep.Event,
				`the client's result (stopReason %q) uses no tool, though toolChoice mode is "required"`, res.StopReason)
		}
	}
}

// MissingToolResult reports whether some assistant tool use has no tool
// result with its id in the message after it.
func MissingToolResult(msgs []SamplingMessage) bool {
	for i, m := range msgs {
		uses := toolUseIDs(m.blocks())
		if m.Role != "assistant" || len(uses) == 0 {
			continue
		}
		if i+1 >= len(msgs) {
			return true
		}
		results := map[string]bool{}
		for _, id := range toolResultIDs(msgs[i+1].blocks()) {
			results[id] = true
		}
		for _, id := range uses {
			if !results[id] {
				return true
			}
		}
	}
	return false
}

func (r *samplingRule) rememberToolUses(res *samplingResult) {
	if res.StopReason != "toolUse" {
		return
	}
	for _, id := range toolUseIDs(blocks(res.Content)) {
		if len(r.toolUses) >= maxToolUses {
			clear(r.toolUses) // a server that never follows up must not grow the state
		}
		r.toolUses[id] = true
	}
}

// checkFollowUp judges a request that carries tool uses the client returned
// with stopReason "toolUse": the server is replying to them.
func (r *samplingRule) checkFollowUp(s *engine.Session, a *engine.Ask, msgs []SamplingMessage) {
	for i, m := range msgs {
		uses := toolUseIDs(m.blocks())
		if m.Role != "assistant" || !r.anyPending(uses) {
			continue
		}
		problem := toolUseAnswer(msgs, i)
		s.Expect("sampling.tool-use-answered", problem == "", spec.Server, a.Event,
			"replying to the client's toolUse result: %s", problem)
		for _, id := range uses {
			delete(r.toolUses, id)
		}
	}
}

func (r *samplingRule) anyPending(ids []string) bool {
	for _, id := range ids {
		if r.toolUses[id] {
			return true
		}
	}
	return false
}
