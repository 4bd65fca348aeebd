package driver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// outgoing is what the HTTP connection reads from a message it sends: enough
// to set the request metadata headers and to follow the answer.
type outgoing struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params struct {
		Name      *string         `json:"name"`
		URI       *string         `json:"uri"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

func (o *outgoing) isRequest() bool { return o.Method != "" && len(o.ID) > 0 }

// mirroredName is the body field the 2026-07-28 Mcp-Name header mirrors,
// for the methods that have one.
func (o *outgoing) mirroredName() (string, bool) {
	switch o.Method {
	case "tools/call", "prompts/get":
		if o.Params.Name != nil {
			return *o.Params.Name, true
		}
	case "resources/read":
		if o.Params.URI != nil {
			return *o.Params.URI, true
		}
	}
	return "", false
}

// setModernHeaders sets the request metadata headers 2026-07-28 requires on
// a POSTed request: Mcp-Method, Mcp-Name and one Mcp-Param-{Name} per
// x-mcp-header annotation of the called tool.
func setModernHeaders(h http.Header, o *outgoing, params map[string]string) {
	if !o.isRequest() {
		return
	}
	h.Set("Mcp-Method", o.Method)
	if name, ok := o.mirroredName(); ok {
		h.Set("Mcp-Name", headerValue(name))
	}
	for header, value := range params {
		h.Set("Mcp-Param-"+header, value)
	}
}

// headerValue is a value as the Value Encoding rules carry it: plain when
// it is visible ASCII without edge whitespace, else Base64 between the
// sentinels (as is a plain value that looks like the sentinel form).
func headerValue(v string) string {
	if headerSafe(v) && !(strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=")) {
		return v
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
}

func headerSafe(v string) bool {
	if v != strings.TrimSpace(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c < 0x20 || c > 0x7e) && c != '\t' {
			return false
		}
	}
	return true
}

// paramHeader is one x-mcp-header annotation: the header name part and the
// chain of properties keys that leads to the annotated property.
type paramHeader struct {
	name string
	path []string
}

// toolHeaders reads the x-mcp-header annotations of an input schema. A
// schema that breaks the annotation constraints gives an error: the
// transport requires the client to drop such a tool.
func toolHeaders(inputSchema json.RawMessage) ([]paramHeader, error) {
	var out []paramHeader
	seen := map[string]bool{}
	err := walkHeaders(inputSchema, nil, &out, seen, true)
	return out, err
}

func walkHeaders(raw json.RawMessage, path []string, out *[]paramHeader, seen map[string]bool, reachable bool) error {
	var node map[string]json.RawMessage
	if json.Unmarshal(raw, &node) != nil {
		return nil
	}
	if ann, ok := node["x-mcp-header"]; ok {
		if err := checkAnnotation(ann, node, path, seen, reachable); err != nil {
			return err
		}
		var name string
		_ = json.Unmarshal(ann, &name)
		*out = append(*out, paramHeader{name: name, path: append([]string(nil), path...)})
	}
	for key, child := range node {
		if err := walkChild(key, child, path, out, seen, reachable); err != nil {
			return err
		}
	}
	return nil
}

// walkChild descends into every subschema: through properties the
// annotation stays reachable, through anything else it would not be.
func walkChild(key string, child json.RawMessage, path []string, out *[]paramHeader, seen map[string]bool, reachable bool) error {
	switch key {
	case "properties":
		var props map[string]json.RawMessage
		if json.Unmarshal(child, &props) != nil {
			return nil
		}
		for name, sub := range props {
			if err := walkHeaders(sub, append(append([]string(nil), path...), name), out, seen, reachable); err != nil {
				return err
			}
		}
	case "items", "prefixItems", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$defs", "definitions", "additionalProperties", "patternProperties":
		var list []json.RawMessage
		if json.Unmarshal(child, &list) != nil {
			list = []json.RawMessage{child}
		}
		for _, sub := range list {
			if err := walkHeaders(sub, path, out, seen, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAnnotation(ann json.RawMessage, node map[string]json.RawMessage, path []string, seen map[string]bool, reachable bool) error {
	var name string
	if json.Unmarshal(ann, &name) != nil || !isToken(name) {
		return fmt.Errorf("x-mcp-header %s is not an HTTP field-name token", ann)
	}
	if !reachable || len(path) == 0 {
		return fmt.Errorf("x-mcp-header %q is not on a property reachable through properties alone", name)
	}
	if seen[strings.ToLower(name)] {
		return fmt.Errorf("x-mcp-header %q is used twice", name)
	}
	seen[strings.ToLower(name)] = true
	var typ string
	_ = json.Unmarshal(node["type"], &typ)
	if typ != "string" && typ != "integer" && typ != "boolean" {
		return fmt.Errorf("x-mcp-header %q annotates a property of type %q, not string, integer or boolean", name, typ)
	}
	return nil
}

// isToken reports RFC 9110 token syntax: 1*tchar.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// paramValues reads each annotated property from the call's arguments;
// absent and null values give no header.
func paramValues(headers []paramHeader, arguments json.RawMessage) map[string]string {
	out := map[string]string{}
	for _, h := range headers {
		v, ok := valueAt(arguments, h.path)
		if !ok {
			continue
		}
		if s, ok := headerText(v); ok {
			out[h.name] = headerValue(s)
		}
	}
	return out
}

func valueAt(raw json.RawMessage, path []string) (json.RawMessage, bool) {
	for _, key := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
		next, ok := obj[key]
		if !ok {
			return nil, false
		}
		raw = next
	}
	return raw, string(raw) != "null"
}

// headerText converts a primitive to the text the header carries: strings
// as they are, integers in decimal, booleans in lower case.
func headerText(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return strconv.FormatBool(b), true
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		if i, err := n.Int64(); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if f, err := n.Float64(); err == nil && f == float64(int64(f)) {
			return strconv.FormatInt(int64(f), 10), true
		}
	}
	return "", false
}
