package judge

import (
	"encoding/json"
	"strings"
)

// Caps is a capabilities object as a party declared it.
type Caps map[string]any

// parseCaps decodes a capabilities object; nil when absent or malformed.
func parseCaps(raw json.RawMessage) Caps {
	var c Caps
	if raw == nil || json.Unmarshal(raw, &c) != nil {
		return nil
	}
	return c
}

// Has reports whether a dotted capability path is declared: an object (even
// empty) or true declares it; false, null or absence does not.
func (c Caps) Has(path string) bool {
	var cur any = map[string]any(c)
	for rest, more := path, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ".")
		obj, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = obj[part]; !ok {
			return false
		}
	}
	switch v := cur.(type) {
	case nil:
		return false
	case bool:
		return v
	}
	return true
}

// merge adds every capability of o to c (2026-07-28 clients declare
// capabilities per request; the session's are their union).
func (c Caps) merge(o Caps) Caps {
	if c == nil {
		c = Caps{}
	}
	for k, v := range o {
		c[k] = v
	}
	return c
}
