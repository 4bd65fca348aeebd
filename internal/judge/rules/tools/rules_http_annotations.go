package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The x-mcp-header annotations of a tool's inputSchema (2026-07-28), held
// to their constraints wherever a tools/list result shows them.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.ResultMsgs, "", "tools/list")},
		Checks: []engine.Check{
			{ID: "http.x-mcp-header-nonempty", Summary: "no x-mcp-header annotation is empty"},
			{ID: "http.x-mcp-header-token", Summary: "every x-mcp-header value is an HTTP field-name token"},
			{ID: "http.x-mcp-header-no-control", Summary: "no x-mcp-header value holds a control character"},
			{ID: "http.x-mcp-header-unique", Summary: "x-mcp-header values are unique, ignoring case, within an inputSchema"},
			{ID: "http.x-mcp-header-primitive", Summary: "x-mcp-header annotates only integer, string or boolean properties"},
			{ID: "http.x-mcp-header-reachable", Summary: "x-mcp-header annotates only properties reached from the root through properties keys"},
		},
		New:      func() engine.Rule { return annotationRule{} },
		Messages: engine.StatelessOnly,
	})
}

type annotationRule struct{ engine.BaseRule }

func (annotationRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || m.Kind != message.KindResult || m.Request == nil || m.Request.Method != "tools/list" {
		return
	}
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	message.Decode(m.Result, &res)
	for _, tool := range res.Tools {
		params := FindAnnotations(tool.InputSchema)
		engine.ToolHeadersFact.Of(s).Put(tool.Name, &engine.ListedTool{Params: params, Invalid: judgeAnnotations(s, m, tool.Name, params), Listed: m.Event})
	}
}

// schemaKeywords hold one subschema or an array of them; schemaMaps hold
// an object of subschemas. Other keywords hold data, never schemas.
var (
	schemaKeywords = []string{"items", "prefixItems", "additionalProperties", "oneOf", "anyOf", "allOf", "not",
		"if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"}
	schemaMaps = []string{"$defs", "definitions", "patternProperties", "dependentSchemas"}
)

func FindAnnotations(schema json.RawMessage) []engine.HeaderAnnotation {
	var out []engine.HeaderAnnotation
	walkSchema(schema, nil, true, &out)
	return out
}

func walkSchema(node json.RawMessage, path []string, static bool, out *[]engine.HeaderAnnotation) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(node, &obj) != nil {
		walkList(node, path, out)
		return
	}
	if raw, ok := obj["x-mcp-header"]; ok {
		var name string
		_ = json.Unmarshal(raw, &name)
		*out = append(*out, engine.HeaderAnnotation{Raw: raw, Name: name, Path: path, Static: static && len(path) > 0, Type: obj["type"]})
	}
	walkChildren(obj, "properties", path, static, out)
	for _, key := range schemaKeywords {
		if sub, ok := obj[key]; ok {
			walkSchema(sub, path, false, out)
		}
	}
	for _, key := range schemaMaps {
		walkChildren(obj, key, path, false, out)
	}
}

// walkList walks an array of subschemas (oneOf, prefixItems, ...).
func walkList(node json.RawMessage, path []string, out *[]engine.HeaderAnnotation) {
	var list []json.RawMessage
	if json.Unmarshal(node, &list) == nil {
		for _, item := range list {
			walkSchema(item, path, false, out)
		}
	}
}

// walkChildren walks an object of subschemas in key order; under
// properties each key extends the path.
func walkChildren(obj map[string]json.RawMessage, key string, path []string, static bool, out *[]engine.HeaderAnnotation) {
	var children map[string]json.RawMessage
	if json.Unmarshal(obj[key], &children) != nil {
		return
	}
	names := make([]string, 0, len(children))
	for name := range children {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		walkSchema(children[name], append(slices.Clone(path), name), static, out)
	}
}

var tokenPattern = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")

// annotationVerdict collects the findings on one tool's annotations and
// the problems that make the tool invalid.
type annotationVerdict struct {
	s        *engine.Session
	at       *trace.Event
	problems []string
}

func (v *annotationVerdict) Expect(check string, ok bool, where, why string) {
	v.s.Expect(check, ok, spec.Server, v.at, "%s %s", where, why)
	if !ok {
		v.problems = append(v.problems, where+" "+why)
	}
}

// judgeAnnotations holds a tool's annotations to each constraint and
// returns why the tool is invalid, or "".
func judgeAnnotations(s *engine.Session, m *message.Msg, tool string, params []engine.HeaderAnnotation) string {
	v := &annotationVerdict{s: s, at: m.Event}
	seen := map[string]bool{}
	for _, a := range params {
		where := fmt.Sprintf("tool %q: x-mcp-header %s at %q", tool, a.Raw, strings.Join(a.Path, "."))
		v.Expect("http.x-mcp-header-nonempty", string(a.Raw) != `""`, where, "is empty")
		v.Expect("http.x-mcp-header-token", tokenPattern.MatchString(a.Name), where, "is not an HTTP field-name token")
		v.Expect("http.x-mcp-header-no-control", !hasControl(a.Name), where, "holds a control character")
		v.Expect("http.x-mcp-header-unique", !seen[strings.ToLower(a.Name)], where, "repeats another annotation of the schema")
		seen[strings.ToLower(a.Name)] = true
		if kind, declared := primitiveType(a.Type); declared {
			v.Expect("http.x-mcp-header-primitive", kind != "", where, "annotates a property of type "+string(a.Type))
		}
		v.Expect("http.x-mcp-header-reachable", a.Static, where, "is not on a property reached through properties keys alone")
	}
	return strings.Join(v.problems, "; ")
}

func hasControl(v string) bool {
	return strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// primitiveType returns the primitive type a property declares ("" when
// it declares another), allowing a nullable one; declared is false when
// the property states no type.
func primitiveType(raw json.RawMessage) (kind string, declared bool) {
	var one string
	var many []string
	switch {
	case raw == nil:
		return "", false
	case json.Unmarshal(raw, &one) == nil:
		many = []string{one}
	case json.Unmarshal(raw, &many) != nil:
		return "", true
	}
	many = slices.DeleteFunc(many, func(t string) bool { return t == "null" })
	if len(many) == 1 && (many[0] == "integer" || many[0] == "string" || many[0] == "boolean") {
		return many[0], true
	}
	return "", true
}
