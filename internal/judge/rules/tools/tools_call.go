package tools

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// CallParams are the members of tools/call params the judge reads.
type CallParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// CallResult are the members of a tools/call result the judge reads.
type CallResult struct {
	ResultType string                `json:"resultType"`
	RawContent json.RawMessage       `json:"content"`
	Content    []message.ContentItem `json:"-"` // decoded by Msg.resultBlocks
	Structured json.RawMessage       `json:"structuredContent"`
	IsError    bool                  `json:"isError"`
}

// maxDecodeDepth is how deeply encoding/json lets values nest.
const maxDecodeDepth = 10000

// callParamsFields are the members callParams decodes, in field order.
var callParamsFields = []string{"name", "arguments"}

// RequestedCall returns the params of a tools/call request as decoding them
// into callParams would, what it set before any failure included.
func RequestedCall(r *message.Request) CallParams {
	p, _ := message.ReadOrDecode(&r.ParamsMembers, r.Params, readCallParams)
	return p
}

// readCallParams reads tools/call params, whose members f may hold, as
// Decode into callParams would.
func readCallParams(f *message.ObjectFields, params []byte) (p CallParams, out message.ReadOutcome) {
	out = message.ReadFields(f, params, callParamsFields, func(field int, value []byte) message.ReadOutcome {
		if field == 0 {
			return message.SetString(&p.Name, value)
		}
		p.Arguments = value
		return message.ReadDecoded
	})
	return p, out
}

// callResultFields are the members callResult decodes, in field order.
var callResultFields = []string{"resultType", "content", "structuredContent", "isError"}

// ReadCallResult reads a tools/call result, whose members f may hold, as
// Decode into callResult would.
func ReadCallResult(f *message.ObjectFields, result []byte) (res CallResult, out message.ReadOutcome) {
	out = message.ReadFields(f, result, callResultFields, func(field int, value []byte) message.ReadOutcome {
		switch field {
		case 0:
			return message.SetString(&res.ResultType, value)
		case 1:
			res.RawContent = value
		case 2:
			res.Structured = value
		case 3:
			return message.SetBool(&res.IsError, value)
		}
		return message.ReadDecoded
	})
	return res, out
}

// ToolResult returns m's result as Decode into callResult gives it. The
// progress rule reads the members of the answer to a request that carried
// a token: those are not read again.
func ToolResult(m *message.Msg) (CallResult, bool) {
	return message.ReadOrDecode(&m.ResultMembers, m.Result, ReadCallResult)
}

func (r *toolsRule) callResult(s *engine.Session, m *message.Msg) {
	res, ok := ToolResult(m)
	if !ok {
		return
	}
	var isArray bool
	if res.Content, isArray = m.ResultBlocks(res.RawContent); res.RawContent != nil && !isArray {
		return // content must be an array of blocks: the result is not one to judge
	}
	p := RequestedCall(m.Request)
	if res.ResultType == "input_required" {
		return // the server asks for more input; it has not answered yet
	}
	judgeEmbeddedCapability(s, m, p.Name, res.Content)
	judgeStructuredText(s, m, p.Name, &res)
	def := r.calledTool(s, m, p.Name, !res.IsError)
	if def == nil {
		return
	}
	judgeOutput(s, m, p.Name, def, &res)
	judgeInputValidated(s, m, &p, def, !res.IsError)
}

func (r *toolsRule) callRejected(s *engine.Session, m *message.Msg) {
	p := RequestedCall(m.Request)
	if def := r.calledTool(s, m, p.Name, false); def != nil {
		judgeInputValidated(s, m, &p, def, false)
	}
}

// judgeEmbeddedCapability holds a server whose tool result embeds a
// resource to having declared the resources capability.
func judgeEmbeddedCapability(s *engine.Session, m *message.Msg, name string, content []message.ContentItem) {
	if !engine.CapabilitiesKnown(s, "server.resources") {
		return
	}
	for _, b := range content {
		if b.Type == "resource" {
			s.Expect("tools.embedded-resources-capability", s.ServerCaps.Has("resources"), spec.Server, m.Event,
				"tools/call %q returned an embedded resource, but the server did not declare the resources capability", name)
			return
		}
	}
}

// judgeStructuredText holds a result with structuredContent to carrying
// the same JSON in a text block, for clients that read only content.
func judgeStructuredText(s *engine.Session, m *message.Msg, name string, res *CallResult) {
	if res.Structured != nil && carriesVerbatim(res.Content, res.Structured) {
		s.Pass("tools.structured-content-text", spec.Server)
		return // the same text is the same value: nothing to decode
	}
	var want any
	if res.Structured == nil || json.Unmarshal(res.Structured, &want) != nil {
		return
	}
	for _, b := range res.Content {
		var got any
		if b.Type == "text" && b.Text.IsSet() && json.Unmarshal([]byte(b.Text.Value()), &got) == nil && reflect.DeepEqual(got, want) {
			s.Pass("tools.structured-content-text", spec.Server)
			return
		}
	}
	s.Fail("tools.structured-content-text", spec.Server, m.Event,
		"tools/call %q returned structuredContent but no text block that carries it serialized", name)
}

// carriesVerbatim reports whether a text block holds exactly the text of
// the structured content, as a server that serializes it compactly writes.
// Text too short to nest deeper than encoding/json decodes always decodes.
func carriesVerbatim(content []message.ContentItem, structured json.RawMessage) bool {
	if len(structured) > 2*maxDecodeDepth {
		return false
	}
	for _, b := range content {
		if b.Type == "text" && b.Text.IsSet() && b.Text.Equals(structured) {
			return true
		}
	}
	return false
}

// judgeOutput holds a successful result of a tool with an outputSchema to
// carrying structuredContent that conforms to it. A tool execution error
// (isError) reports a failure, not the tool's output, so it is not held.
func judgeOutput(s *engine.Session, m *message.Msg, name string, def *toolDef, res *CallResult) {
	const id = "tools.output-schema-conformance"
	if def.output == nil || res.IsError {
		return
	}
	if res.Structured == nil {
		s.Fail(id, spec.Server, m.Event, "tool %q declares an outputSchema but its result carries no structuredContent", name)
		return
	}
	if def.outputSchema == nil {
		def.outputSchema = schemas.CompileOffline(def.output)
	}
	if !def.outputSchema.Usable() {
		return
	}
	err := def.outputSchema.Validate(m.ResultMembers.Checked(res.Structured))
	switch {
	case errors.Is(err, schemas.ErrUndecided):
		return
	case err == nil:
		s.Pass(id, spec.Server) // Expect would box the name even to pass
		return
	}
	s.Fail(id, spec.Server, m.Event,
		"tool %q returned structuredContent that does not conform to its outputSchema: %v", name, err)
}

// judgeInputValidated holds a server that received arguments its own
// inputSchema rejects to not answering with a successful result.
func judgeInputValidated(s *engine.Session, m *message.Msg, p *CallParams, def *toolDef, succeeded bool) {
	if !def.inputSchema.Usable() {
		return
	}
	err := def.inputSchema.ValidateArguments(m.Request.ParamsMembers.Checked(p.Arguments))
	if err == nil || errors.Is(err, schemas.ErrUndecided) {
		return
	}
	s.Expect("tools.input-validated", !succeeded, spec.Server, m.Event,
		"tools/call %q carried arguments its inputSchema rejects (%v), and the server answered with a successful result", p.Name, err)
}
