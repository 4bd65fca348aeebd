package tools

import (
	"bytes"
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/listing"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Tools: what the server lists (names, schemas, x-mcp-header annotations)
// and how its tools/call results keep to what it listed.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: engine.FeatureSights("tools"),
		Checks: []engine.Check{
			{ID: "tools.capability-declared", Summary: "a server that answers tools/* requests with results declared the tools capability"},
			{ID: "tools.list-answered", Summary: "a server that declared tools answers tools/list with a tools array, not method-not-found"},
			{ID: "tools.list-changed-notified", Summary: "a server that declared tools.listChanged announces a changed tool list with notifications/tools/list_changed"},
			{ID: "tools.list-order-stable", Summary: "tools/list returns an unchanged set of tools in the same order"},
			{ID: "tools.input-schema-valid", Summary: "every listed tool's inputSchema is a valid JSON Schema object"},
			{ID: "tools.name-length", Summary: "tool names are 1 to 128 characters long"},
			{ID: "tools.name-case-sensitive", Summary: "a tools/call naming a listed tool in other case is not answered with a successful result"},
			{ID: "tools.name-charset", Summary: "tool names use only ASCII letters, digits, underscore, hyphen and dot"},
			{ID: "tools.name-unique", Summary: "no tool name appears twice in one listing"},
			{ID: "tools.embedded-resources-capability", Summary: "a server whose tool results embed resources declared the resources capability"},
			{ID: "tools.structured-content-text", Summary: "a result with structuredContent also carries it serialized in a text block"},
			{ID: "tools.output-schema-conformance", Summary: "a tool with an outputSchema returns structuredContent that conforms to it"},
			{ID: "tools.input-validated", Summary: "a tools/call whose arguments violate the tool's inputSchema is not answered with a successful result"},
			{ID: "tools.x-mcp-header-not-sensitive", Summary: "no parameter named as a secret is mirrored into a header"},
		},
		New: newToolsRule,
	})
}

// maxTools bounds the tool definitions a session keeps.
const maxTools = 4096

// toolDef is what the judge keeps of a tool the server listed.
type toolDef struct {
	// raw is the definition as listed, so a changed definition is judged anew.
	raw           json.RawMessage
	input, output json.RawMessage
	// inputSchema and outputSchema are compiled on first use, once.
	inputSchema, outputSchema *schemas.CompiledSchema
}

type toolsRule struct {
	engine.BaseRule
	listing.Feature
	tools map[string]*toolDef
	// listedWhole is set once a whole tools listing was seen.
	listedWhole bool
}

func newToolsRule() engine.Rule {
	r := &toolsRule{
		Feature: listing.NewFeature("tools", "name", listing.FeatureChecks{
			Declared: "tools.capability-declared", Answered: "tools.list-answered",
			Changed: "tools.list-changed-notified", Order: "tools.list-order-stable",
		}),
		tools: map[string]*toolDef{},
	}
	r.OnPage = r.listed
	return r
}

func (r *toolsRule) Message(s *engine.Session, m *message.Msg) {
	if r.Observe(s, m) {
		return
	}
	if m.From != spec.Server || m.Request == nil || m.Request.Method != "tools/call" {
		return
	}
	if m.Kind == message.KindResult {
		r.callResult(s, m)
	} else if m.Kind == message.KindError {
		r.callRejected(s, m)
	}
}

func (r *toolsRule) End(s *engine.Session) { r.Finish(s) }

// listed judges the tools of a tools/list page, and the listing's names
// once it is whole.
func (r *toolsRule) listed(s *engine.Session, m *message.Msg, p listing.ListPage) {
	for i, name := range r.PageKeys(p) {
		if item := p.Items[i]; !r.listedUnder(name, item) {
			r.define(s, m, item)
		}
	}
	if p.Complete {
		r.listedWhole = true
		judgeNamesUnique(s, m, p.Keys) // the tool names, as key is "name"
	}
}

// define keeps a listed tool and judges its definition the first time it
// is seen (again when it changes).
func (r *toolsRule) define(s *engine.Session, m *message.Msg, item json.RawMessage) {
	var t struct {
		Name   *string         `json:"name"`
		Input  json.RawMessage `json:"inputSchema"`
		Output json.RawMessage `json:"outputSchema"`
	}
	if !message.Decode(item, &t) || t.Name == nil || len(r.tools) >= maxTools || r.listedUnder(*t.Name, item) {
		return
	}
	if bytes.Equal(t.Output, []byte("null")) {
		t.Output = nil
	}
	def := &toolDef{raw: item, input: t.Input, output: t.Output}
	r.tools[*t.Name] = def
	judgeToolName(s, m, *t.Name)
	judgeInputSchema(s, m, *t.Name, def)
	if s.Stateless() { // x-mcp-header is a 2026-07-28 annotation
		judgeHeadersNotSensitive(s, m, *t.Name, def.input)
	}
}

// listedUnder reports whether item is, to the byte, the definition kept
// under name: define would then do nothing. A definition is kept only
// under the name it decodes to, so a wrong name finds nothing rather than
// a wrong answer; listed tries the key the listing read, which finds an
// unchanged tool without decoding it.
func (r *toolsRule) listedUnder(name string, item json.RawMessage) bool {
	def := r.tools[name]
	return def != nil && bytes.Equal(def.raw, item)
}

// judgeInputSchema holds a listed tool's inputSchema to being a valid JSON
// Schema object.
func judgeInputSchema(s *engine.Session, m *message.Msg, name string, def *toolDef) {
	const id = "tools.input-schema-valid"
	if def.input == nil {
		s.Fail(id, spec.Server, m.Event, "tool %q has no inputSchema", name)
		return
	}
	def.inputSchema = schemas.CompileOffline(def.input)
	if def.inputSchema.Unresolved {
		return
	}
	s.Expect(id, def.inputSchema.Invalid == "", spec.Server, m.Event,
		"tool %q has an inputSchema that is not a valid JSON Schema object: %s", name, def.inputSchema.Invalid)
}
