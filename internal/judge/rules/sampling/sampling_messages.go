package sampling

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// samplingParams are the members of a sampling/createMessage request the
// sampling checks read.
type samplingParams struct {
	Messages         []SamplingMessage `json:"messages"`
	Tools            json.RawMessage   `json:"tools"`
	ToolChoice       *toolChoice       `json:"toolChoice"`
	IncludeContext   *string           `json:"includeContext"`
	ModelPreferences *modelPreferences `json:"modelPreferences"`
}

type toolChoice struct {
	Mode string `json:"mode"`
}

type modelPreferences struct {
	CostPriority         *float64 `json:"costPriority"`
	SpeedPriority        *float64 `json:"speedPriority"`
	IntelligencePriority *float64 `json:"intelligencePriority"`
}

type SamplingMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// contentBlock is one block of a message's content; only the members that
// tie tool uses to tool results are read.
type contentBlock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	ToolUseID string `json:"toolUseId"`
}

// toolEnabled reports whether the request asks for tool use: the schema has
// the client refuse tools or toolChoice unless it declared sampling.tools.
func (p *samplingParams) toolEnabled() bool {
	return (len(p.Tools) > 0 && string(p.Tools) != "null") || p.ToolChoice != nil
}

// blocks decodes a content member, a single block or an array of them.
func blocks(content json.RawMessage) []contentBlock {
	var many []contentBlock
	if json.Unmarshal(content, &many) == nil {
		return many
	}
	var one contentBlock
	if json.Unmarshal(content, &one) == nil {
		return []contentBlock{one}
	}
	return nil
}

func (m SamplingMessage) blocks() []contentBlock { return blocks(m.Content) }

func countType(bs []contentBlock, typ string) int {
	n := 0
	for _, b := range bs {
		if b.Type == typ {
			n++
		}
	}
	return n
}

// toolUseIDs lists the ids of a message's tool_use blocks, sorted.
func toolUseIDs(bs []contentBlock) []string {
	return blockIDs(bs, "tool_use", func(b contentBlock) string { return b.ID })
}

// toolResultIDs lists the tool use ids a message's tool_result blocks answer, sorted.
func toolResultIDs(bs []contentBlock) []string {
	return blockIDs(bs, "tool_result", func(b contentBlock) string { return b.ToolUseID })
}

func blockIDs(bs []contentBlock, typ string, id func(contentBlock) string) []string {
	var out []string
	for _, b := range bs {
		if b.Type == typ {
			out = append(out, id(b))
		}
	}
	sort.Strings(out)
	return out
}

// mixedToolResults returns the index of the first user message that mixes
// tool results with other content, or -1.
func mixedToolResults(msgs []SamplingMessage) int {
	for i, m := range msgs {
		bs := m.blocks()
		if n := countType(bs, "tool_result"); m.Role == "user" && n > 0 && n < len(bs) {
			return i
		}
	}
	return -1
}

// toolUseAnswer says what is wrong with the message answering the assistant
// tool uses at msgs[i], or "" when the next message is a user message of
// tool results only, one for each tool use.
func toolUseAnswer(msgs []SamplingMessage, i int) string {
	uses := toolUseIDs(msgs[i].blocks())
	if i+1 >= len(msgs) {
		return fmt.Sprintf("tool uses %s of message %d are the last message, with no tool results after them", engine.QuoteIDs(uses), i)
	}
	next := msgs[i+1]
	bs := next.blocks()
	switch {
	case next.Role != "user":
		return fmt.Sprintf("tool uses %s of message %d are followed by a %q message, not a user message of tool results", engine.QuoteIDs(uses), i, next.Role)
	case countType(bs, "tool_result") != len(bs):
		return fmt.Sprintf("tool uses %s of message %d are followed by a user message that is not tool results only", engine.QuoteIDs(uses), i)
	}
	if results := toolResultIDs(bs); !EqualStrings(uses, results) {
		return fmt.Sprintf("tool uses %s of message %d are answered by tool results %s", engine.QuoteIDs(uses), i, engine.QuoteIDs(results))
	}
	return ""
}

// UnbalancedToolUse returns the index of the first assistant message whose
// tool uses are not answered, and what is wrong, or -1.
func UnbalancedToolUse(msgs []SamplingMessage) (int, string) {
	for i, m := range msgs {
		if m.Role != "assistant" || countType(m.blocks(), "tool_use") == 0 {
			continue
		}
		if problem := toolUseAnswer(msgs, i); problem != "" {
			return i, problem
		}
	}
	return -1, ""
}

func EqualStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
