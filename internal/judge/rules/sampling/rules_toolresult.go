package sampling

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// ToolResultContent in sampling requests (schema reference): a tool result
// answers a tool use of an earlier message, and its structured content
// conforms to the output schema of the tool that use named.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: engine.AskSights("sampling/createMessage"),
		Checks: []engine.Check{
			{ID: "toolresult.matches-tool-use", Summary: "every tool result of a sampling request carries the id of a tool use in an earlier message"},
			{ID: "toolresult.output-schema", Summary: "a tool result's structuredContent conforms to the outputSchema of the tool its tool use named"},
		},
		New: func() engine.Rule { return &toolResultRule{asks: engine.AskTracker{Method: "sampling/createMessage"}} },
	})
}

type toolResultRule struct {
	engine.BaseRule
	asks    engine.AskTracker
	schemas schemas.SchemaCache
}

// toolBlock is a content block of a sampling message, with the members that
// tie a tool result to its tool use and its tool.
type toolBlock struct {
	Type              string          `json:"type"`
	ID                string          `json:"id"`
	Name              string          `json:"name"`
	ToolUseID         string          `json:"toolUseId"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

type toolDefinition struct {
	Name         string          `json:"name"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

func (r *toolResultRule) Message(s *engine.Session, m *message.Msg) {
	asks, _ := r.asks.Observe(s, m)
	for _, a := range asks {
		var p struct {
			Messages []SamplingMessage `json:"messages"`
			Tools    []toolDefinition  `json:"tools"`
		}
		if message.Decode(a.Params, &p) {
			r.checkMessages(s, a, p.Messages, p.Tools)
		}
	}
}

// checkMessages walks the conversation in order, remembering the tools each
// tool use named, and judges every tool result against them.
func (r *toolResultRule) checkMessages(s *engine.Session, a *engine.Ask, msgs []SamplingMessage, tools []toolDefinition) {
	usedTool := map[string]string{} // tool use id -> tool name
	for i, msg := range msgs {
		blocks := toolBlocks(msg.Content)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				r.checkToolResult(s, a, i, b, usedTool, tools)
			}
		}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				usedTool[b.ID] = b.Name
			}
		}
	}
}

func (r *toolResultRule) checkToolResult(s *engine.Session, a *engine.Ask, i int, b toolBlock, usedTool map[string]string, tools []toolDefinition) {
	name, matched := usedTool[b.ToolUseID]
	s.Expect("toolresult.matches-tool-use", matched, spec.Server, a.Event,
		"message %d of a sampling request holds a tool result for %q, the id of no tool use in an earlier message", i, b.ToolUseID)
	schema := outputSchemaOf(tools, name)
	if !matched || b.StructuredContent == nil || schema == nil {
		return
	}
	compiled := r.schemas.Compile(schema)
	if compiled == nil {
		return // an invalid outputSchema is jsonschema.valid's finding
	}
	problem := schemas.Validate(compiled, b.StructuredContent)
	s.Expect("toolresult.output-schema", problem == "", spec.Server, a.Event,
		"message %d of a sampling request holds a tool result for %q whose structuredContent does not conform to tool %q's outputSchema: %s",
		i, b.ToolUseID, name, problem)
}

func outputSchemaOf(tools []toolDefinition, name string) json.RawMessage {
	for _, t := range tools {
		if t.Name == name && t.OutputSchema != nil {
			return t.OutputSchema
		}
	}
	return nil
}

// toolBlocks decodes a content member, a single block or an array of them.
func toolBlocks(content json.RawMessage) []toolBlock { return oneOrMany[toolBlock](content) }

// oneOrMany decodes a member that holds one T or an array of them.
func oneOrMany[T any](raw json.RawMessage) []T {
	if many := []T(nil); json.Unmarshal(raw, &many) == nil {
		return many
	}
	if one := new(T); json.Unmarshal(raw, one) == nil {
		return []T{*one}
	}
	return nil
}
