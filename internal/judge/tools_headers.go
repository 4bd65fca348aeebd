package judge

import (
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxHeaderAnnotations bounds the x-mcp-header annotations read from one
// inputSchema.
const maxHeaderAnnotations = 256

// headerAnnotation is one x-mcp-header annotation of a tool's inputSchema.
type headerAnnotation struct {
	// path is the chain of keywords and property names from the schema
	// root to the annotated schema.
	path   []string
	value  json.RawMessage
	schema map[string]json.RawMessage
}

// findHeaderAnnotations collects every x-mcp-header in a schema, wherever
// it sits, so that misplaced ones are found too. Keywords whose values are
// data, not schemas, are skipped.
func findHeaderAnnotations(raw json.RawMessage, path []string, out *[]headerAnnotation) {
	if len(*out) >= maxHeaderAnnotations {
		return
	}
	var arr []json.RawMessage
	if Decode(raw, &arr) {
		for i, el := range arr {
			findHeaderAnnotations(el, append(path, strconv.Itoa(i)), out)
		}
		return
	}
	var obj map[string]json.RawMessage
	if !Decode(raw, &obj) {
		return
	}
	if v, ok := obj["x-mcp-header"]; ok {
		*out = append(*out, headerAnnotation{path: slices.Clone(path), value: v, schema: obj})
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		switch k {
		case "x-mcp-header", "const", "enum", "default", "examples":
		case "properties":
			findInProperties(obj[k], path, out)
		default:
			findHeaderAnnotations(obj[k], append(path, k), out)
		}
	}
}

func findInProperties(raw json.RawMessage, path []string, out *[]headerAnnotation) {
	var props map[string]json.RawMessage
	if !Decode(raw, &props) {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		findHeaderAnnotations(props[name], append(path, "properties", name), out)
	}
}

// reachable reports whether a path is a chain of properties keys alone.
func (a *headerAnnotation) reachable() bool {
	if len(a.path) == 0 || len(a.path)%2 != 0 {
		return false
	}
	for i := 0; i < len(a.path); i += 2 {
		if a.path[i] != "properties" {
			return false
		}
	}
	return true
}

// property is the name of the annotated parameter, "" at the schema root.
func (a *headerAnnotation) property() string {
	if len(a.path) == 0 {
		return ""
	}
	return a.path[len(a.path)-1]
}

func (a *headerAnnotation) where() string { return "/" + strings.Join(a.path, "/") }

// name returns the annotation's value when it is a string.
func (a *headerAnnotation) name() (string, bool) {
	var v string
	return v, json.Unmarshal(a.value, &v) == nil
}

// judgeHeaders holds every x-mcp-header annotation of a listed tool to the
// constraints of the tools page, and remembers a tool that breaks one.
func (r *toolsRule) judgeHeaders(s *Session, m *Msg, tool string, def *toolDef) {
	var anns []headerAnnotation
	findHeaderAnnotations(def.input, nil, &anns)
	ok := true
	for i := range anns {
		for _, judge := range headerConstraints {
			ok = judge(s, m.Event, tool, &anns[i]) && ok
		}
		judgeHeaderNotSensitive(s, m.Event, tool, &anns[i])
	}
	def.badHeader = !judgeHeadersUnique(s, m.Event, tool, anns) || !ok
}

// headerConstraints are the MUST constraints on one annotation; each
// reports whether the annotation met it.
var headerConstraints = []func(*Session, *trace.Event, string, *headerAnnotation) bool{
	judgeHeaderNonEmpty, judgeHeaderNoControl, judgeHeaderToken, judgeHeaderPrimitive, judgeHeaderReachable,
}

func judgeHeaderNonEmpty(s *Session, ev *trace.Event, tool string, a *headerAnnotation) bool {
	v, isString := a.name()
	if !isString {
		return true // judged by the token check
	}
	s.Expect("tools.x-mcp-header-nonempty", v != "", spec.Server, ev, "tool %q has an empty x-mcp-header at %s", tool, a.where())
	return v != ""
}

func judgeHeaderNoControl(s *Session, ev *trace.Event, tool string, a *headerAnnotation) bool {
	v, isString := a.name()
	if !isString || v == "" {
		return true
	}
	ok := strings.IndexFunc(v, unicode.IsControl) < 0
	s.Expect("tools.x-mcp-header-no-control", ok, spec.Server, ev, "tool %q has x-mcp-header %s at %s, which contains a control character", tool, quoteJSON(v), a.where())
	return ok
}

// judgeHeaderToken holds the annotation to RFC 9110's 1*tchar; the empty
// value and control characters are left to their own checks.
func judgeHeaderToken(s *Session, ev *trace.Event, tool string, a *headerAnnotation) bool {
	v, isString := a.name()
	if isString && (v == "" || strings.IndexFunc(v, unicode.IsControl) >= 0) {
		return true
	}
	ok := isString && strings.IndexFunc(v, func(c rune) bool { return !isTchar(c) }) < 0
	s.Expect("tools.x-mcp-header-token", ok, spec.Server, ev, "tool %q has x-mcp-header %s at %s, which is not an HTTP field-name token (1*tchar)", tool, a.value, a.where())
	return ok
}

func isTchar(c rune) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c < unicode.MaxASCII && strings.ContainsRune("!#$%&'*+-.^_`|~", c)
}

func judgeHeaderPrimitive(s *Session, ev *trace.Event, tool string, a *headerAnnotation) bool {
	var typ string
	Decode(a.schema["type"], &typ)
	ok := typ == "integer" || typ == "string" || typ == "boolean"
	declared := "no type"
	if t := a.schema["type"]; t != nil {
		declared = "type " + string(t)
	}
	s.Expect("tools.x-mcp-header-primitive", ok, spec.Server, ev,
		"tool %q has x-mcp-header %s at %s on a parameter with %s; only integer, string and boolean parameters may carry one", tool, a.value, a.where(), declared)
	return ok
}

func judgeHeaderReachable(s *Session, ev *trace.Event, tool string, a *headerAnnotation) bool {
	ok := a.reachable()
	s.Expect("tools.x-mcp-header-reachable", ok, spec.Server, ev,
		"tool %q has x-mcp-header %s at %s, which is not reached from the schema root through properties keys alone", tool, a.value, a.where())
	return ok
}

// judgeHeadersUnique holds the annotations of one inputSchema to being
// unique, compared without regard to case.
func judgeHeadersUnique(s *Session, ev *trace.Event, tool string, anns []headerAnnotation) bool {
	seen := map[string]bool{}
	for i := range anns {
		v, isString := anns[i].name()
		if !isString {
			continue
		}
		k := strings.ToLower(v)
		if seen[k] {
			s.Fail("tools.x-mcp-header-unique", spec.Server, ev, "tool %q has x-mcp-header %s more than once (compared without case)", tool, quoteJSON(v))
			return false
		}
		seen[k] = true
	}
	if len(seen) > 0 {
		s.Pass("tools.x-mcp-header-unique", spec.Server)
	}
	return true
}

// sensitiveNames are parameter or header names that can only carry secrets.
var sensitiveNames = []string{"password", "passwd", "passphrase", "secret", "apikey", "accesstoken", "refreshtoken",
	"authtoken", "bearertoken", "sessiontoken", "privatekey"}

// judgeHeaderNotSensitive flags a parameter whose name says it carries a
// secret and that is mirrored into a header anyway.
func judgeHeaderNotSensitive(s *Session, ev *trace.Event, tool string, a *headerAnnotation) {
	v, _ := a.name()
	for _, name := range []string{v, a.property()} {
		if word := sensitiveWord(name); word != "" {
			s.Fail("tools.x-mcp-header-not-sensitive", spec.Server, ev,
				"tool %q mirrors parameter %s into header Mcp-Param-%s, though its name (%q) marks it as a secret", tool, a.where(), v, word)
			return
		}
	}
	s.Pass("tools.x-mcp-header-not-sensitive", spec.Server)
}

func sensitiveWord(name string) string {
	squashed := strings.Map(func(c rune) rune {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			return unicode.ToLower(c)
		}
		return -1
	}, name)
	for _, w := range sensitiveNames {
		if strings.Contains(squashed, w) {
			return w
		}
	}
	return ""
}

// maxSafeInteger is 2^53-1, the largest integer a double holds exactly.
var maxSafeInteger = new(big.Float).SetInt64(1<<53 - 1)

// judgeHeaderCall holds a client's tools/call to the safe integer range for
// values mirrored into headers, and a Streamable HTTP client to not calling
// a tool whose annotations it had to reject.
func (r *toolsRule) judgeHeaderCall(s *Session, m *Msg, tool string, def *toolDef, args json.RawMessage) {
	def.called = true
	if def.badHeader && s.Transport == trace.StreamableHTTP {
		s.Fail("tools.x-mcp-header-tool-rejected", spec.Client, m.Event,
			"the client called tool %q, whose x-mcp-header annotations break the constraints, instead of excluding it", tool)
	}
	var anns []headerAnnotation
	findHeaderAnnotations(def.input, nil, &anns)
	for i := range anns {
		judgeSafeInteger(s, m, tool, &anns[i], args)
	}
}

func judgeSafeInteger(s *Session, m *Msg, tool string, a *headerAnnotation, args json.RawMessage) {
	var typ string
	if !Decode(a.schema["type"], &typ) || typ != "integer" || !a.reachable() {
		return
	}
	v := valueAt(args, a.path)
	f, ok := new(big.Float).SetString(string(v))
	if v == nil || !ok {
		return
	}
	inRange := new(big.Float).Abs(f).Cmp(maxSafeInteger) <= 0
	s.Expect("tools.x-mcp-header-safe-integer", inRange, spec.Client, m.Event,
		"tools/call %q sends %s for header parameter %s, outside -(2^53-1) to 2^53-1", tool, v, a.where())
}

// valueAt reads the argument at a chain of properties keys.
func valueAt(args json.RawMessage, path []string) json.RawMessage {
	for i := 1; i < len(path) && args != nil; i += 2 {
		var obj map[string]json.RawMessage
		if !Decode(args, &obj) {
			return nil
		}
		args = obj[path[i]]
	}
	return args
}

// endHeaders passes each Streamable HTTP session's rejected tools the
// client never called.
func (r *toolsRule) endHeaders(s *Session) {
	if s.Transport != trace.StreamableHTTP {
		return
	}
	for _, def := range r.tools {
		if def.badHeader && !def.called {
			s.Pass("tools.x-mcp-header-tool-rejected", spec.Client)
		}
	}
}
