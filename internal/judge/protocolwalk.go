package judge

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// opaqueMembers hold data the protocol carries but does not define (tool
// arguments, structured content, schemas, error and log data, provider
// metadata): what is inside them is the application's, not MCP's.
var opaqueMembers = map[string]bool{
	"arguments": true, "structuredContent": true, "inputSchema": true, "outputSchema": true,
	"requestedSchema": true, "data": true, "metadata": true, "experimental": true, "_meta": true,
}

// messageBody returns the part of a message rules look into, and its name.
func messageBody(m *Msg) (json.RawMessage, string) {
	if m.Kind == KindResult {
		return m.Result, "result"
	}
	return m.Params, "params"
}

// walkMembers calls visit for every member of every object in a message's
// params or result, in key order, and descends into the member's value when
// visit returns true and the member is protocol data, not opaque. A message
// whose bytes do not hold needle has nothing the visitor looks for and is
// not decoded at all.
func walkMembers(m *Msg, needle []byte, visit func(key string, val any, path string) bool) {
	raw, root := messageBody(m)
	if !bytes.Contains(raw, needle) {
		return
	}
	if doc, ok := decodeAny(raw); ok {
		walkValue(doc, root, visit)
	}
}

func decodeAny(raw json.RawMessage) (any, bool) {
	if raw == nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	return v, dec.Decode(&v) == nil
}

func walkValue(v any, path string, visit func(string, any, string) bool) {
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			walkValue(e, path+"["+strconv.Itoa(i)+"]", visit)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if visit(k, v[k], path+"."+k) && !opaqueMember(k, v[k]) {
				walkValue(v[k], path+"."+k, visit)
			}
		}
	}
}

func opaqueMember(key string, v any) bool {
	if key == "content" {
		_, isObject := v.(map[string]any)
		return isObject // an elicitation result's content: the user's answers
	}
	return opaqueMembers[key]
}

// metaObject is one _meta object found in a message: where it sits, and its
// members in key order.
type metaObject struct {
	path   string
	keys   []string
	values map[string]any
}

// metaObjects lists every _meta object in a message's params or result.
func metaObjects(m *Msg) []metaObject {
	var out []metaObject
	walkMembers(m, metaMemberName, func(key string, val any, path string) bool {
		if obj, ok := val.(map[string]any); ok && key == "_meta" {
			out = append(out, metaObject{path: path, keys: slices.Sorted(maps.Keys(obj)), values: obj})
		}
		return true
	})
	return out
}
