package judge

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// callParams are the members of tools/call params the judge reads.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// callResult are the members of a tools/call result the judge reads.
type callResult struct {
	ResultType string          `json:"resultType"`
	RawContent json.RawMessage `json:"content"`
	Content    []contentItem   `json:"-"` // decoded by Msg.resultBlocks
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool            `json:"isError"`
}

// maxDecodeDepth is how deeply encoding/json lets values nest.
const maxDecodeDepth = 10000

// callParamsFields are the members callParams decodes, in field order.
var callParamsFields = []string{"name", "arguments"}

// requestedCall returns the params of a tools/call request as decoding them
// into callParams would, what it set before any failure included.
func requestedCall(r *Request) callParams {
	p, _ := readOrDecode(&r.params, r.Params, readCallParams)
	return p
}

// readCallParams reads tools/call params, whose members f may hold, as
// Decode into callParams would.
func readCallParams(f *objectFields, params []byte) (p callParams, out readOutcome) {
	out = readFields(f, params, callParamsFields, func(field int, value []byte) readOutcome {
		if field == 0 {
			return setString(&p.Name, value)
		}
		p.Arguments = value
		return readDecoded
	})
	return p, out
}

// callResultFields are the members callResult decodes, in field order.
var callResultFields = []string{"resultType", "content", "structuredContent", "isError"}

// readCallResult reads a tools/call result, whose members f may hold, as
// Decode into callResult would.
func readCallResult(f *objectFields, result []byte) (res callResult, out readOutcome) {
	out = readFields(f, result, callResultFields, func(field int, value []byte) readOutcome {
		switch field {
		case 0:
			return setString(&res.ResultType, value)
		case 1:
			res.RawContent = value
		case 2:
			res.Structured = value
		case 3:
			return setBool(&res.IsError, value)
		}
		return readDecoded
	})
	return res, out
}

// toolResult returns m's result as Decode into callResult gives it. The
// progress rule reads the members of the answer to a request that carried
// a token: those are not read again.
func toolResult(m *Msg) (callResult, bool) {
	return readOrDecode(&m.result, m.Result, readCallResult)
}

func (r *toolsRule) callResult(s *Session, m *Msg) {
	res, ok := toolResult(m)
	if !ok {
		return
	}
	var isArray bool
	if res.Content, isArray = m.resultBlocks(res.RawContent); res.RawContent != nil && !isArray {
		return // content must be an array of blocks: the result is not one to judge
	}
	p := requestedCall(m.Request)
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

func (r *toolsRule) callRejected(s *Session, m *Msg) {
	p := requestedCall(m.Request)
	if def := r.calledTool(s, m, p.Name, false); def != nil {
		judgeInputValidated(s, m, &p, def, false)
	}
}

// judgeEmbeddedCapability holds a server whose tool result embeds a
// resource to having declared the resources capability.
func judgeEmbeddedCapability(s *Session, m *Msg, name string, content []contentItem) {
	if !capabilitiesKnown(s, "server.resources") {
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
func judgeStructuredText(s *Session, m *Msg, name string, res *callResult) {
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
		if b.Type == "text" && b.Text.isSet() && json.Unmarshal([]byte(b.Text.value()), &got) == nil && reflect.DeepEqual(got, want) {
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
func carriesVerbatim(content []contentItem, structured json.RawMessage) bool {
	if len(structured) > 2*maxDecodeDepth {
		return false
	}
	for _, b := range content {
		if b.Type == "text" && b.Text.isSet() && b.Text.equals(structured) {
			return true
		}
	}
	return false
}

// judgeOutput holds a successful result of a tool with an outputSchema to
// carrying structuredContent that conforms to it. A tool execution error
// (isError) reports a failure, not the tool's output, so it is not held.
func judgeOutput(s *Session, m *Msg, name string, def *toolDef, res *callResult) {
	const id = "tools.output-schema-conformance"
	if def.output == nil || res.IsError {
		return
	}
	if res.Structured == nil {
		s.Fail(id, spec.Server, m.Event, "tool %q declares an outputSchema but its result carries no structuredContent", name)
		return
	}
	if def.outputSchema == nil {
		def.outputSchema = compileOffline(def.output)
	}
	if !def.outputSchema.usable() {
		return
	}
	err := def.outputSchema.validate(m.result.checked(res.Structured))
	switch {
	case errors.Is(err, errUndecided):
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
func judgeInputValidated(s *Session, m *Msg, p *callParams, def *toolDef, succeeded bool) {
	if !def.inputSchema.usable() {
		return
	}
	err := def.inputSchema.validateArguments(m.Request.params.checked(p.Arguments))
	if err == nil || errors.Is(err, errUndecided) {
		return
	}
	s.Expect("tools.input-validated", !succeeded, spec.Server, m.Event,
		"tools/call %q carried arguments its inputSchema rejects (%v), and the server answered with a successful result", p.Name, err)
}
