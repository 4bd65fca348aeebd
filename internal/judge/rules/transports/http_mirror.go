package transports

import (
	"encoding/json"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// mirror is one header a 2026-07-28 client mirrors from a request's body:
// Mcp-Name from params.name or params.uri, Mcp-Param-{Name} from an
// argument a tool annotated with x-mcp-header.
type mirror struct {
	// Label names the header as the specification writes it.
	Label  string
	Header string
	Sent   bool
	// Source is the body value (nil when absent); Text is its header form
	// when Mirrorable (a string, integer or boolean).
	Source     json.RawMessage
	Text       string
	Mirrorable bool
	Integer    bool
	// Redacted is set when the recorder kept only that the header was
	// sent: its name says credential, so its value is not in the trace,
	// and nothing that depends on the value can be judged.
	Redacted bool
}

// redactedValue is what capture records for a credential header's value.
const redactedValue = "[redacted]"

// decoded is what the header carries once a Base64 sentinel is decoded.
func (h mirror) decoded() (value string, encoded, ok bool) { return decodeHeader(h.Header) }

// Matches reports whether the header carries the body's value; integers
// compare by value.
func (h mirror) Matches() bool {
	v, _, ok := h.decoded()
	return ok && h.Mirrorable && (v == h.Text || (h.Integer && numericEqual(v, h.Source)))
}

func newMirror(label string, x *httpExchange, source json.RawMessage) mirror {
	h := mirror{Label: label, Source: source}
	h.Header, h.Sent = x.Header(strings.ToLower(label))
	h.Redacted = h.Sent && h.Header == redactedValue
	h.Text, h.Integer, h.Mirrorable = headerText(source)
	return h
}

// nameSources maps the methods that carry Mcp-Name to the params member
// it mirrors.
var nameSources = map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}

// nameMirror returns the request's Mcp-Name, or nil for a method without one.
func nameMirror(x *httpExchange, m *message.Msg) *mirror {
	member, ok := nameSources[m.Method]
	if !ok {
		return nil
	}
	var params map[string]json.RawMessage
	message.Decode(m.Params, &params)
	h := newMirror("Mcp-Name", x, params[member])
	return &h
}

// paramMirrors returns the Mcp-Param headers of a tools/call, from the
// annotations of the tool as last listed; nil for another method or a tool
// without them.
func paramMirrors(tool *engine.ListedTool, x *httpExchange, m *message.Msg) []mirror {
	if tool == nil || m.Method != "tools/call" {
		return nil
	}
	var params struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	message.Decode(m.Params, &params)
	out := make([]mirror, 0, len(tool.Params))
	for _, a := range tool.Params {
		out = append(out, newMirror("Mcp-Param-"+a.Name, x, valueAt(params.Arguments, a.Path)))
	}
	return out
}

// valueAt reads the value at a chain of object keys; nil when absent.
func valueAt(doc json.RawMessage, path []string) json.RawMessage {
	for _, key := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(doc, &obj) != nil {
			return nil
		}
		doc = obj[key]
	}
	return doc
}

// calledTool returns the listed tool a tools/call names, or nil.
func calledTool(s *engine.Session, m *message.Msg) (string, *engine.ListedTool) {
	var params struct {
		Name string `json:"name"`
	}
	if m.Method != "tools/call" || !message.Decode(m.Params, &params) {
		return "", nil
	}
	tool, _ := engine.ToolHeadersFact.Of(s).Get(params.Name)
	return params.Name, tool
}
