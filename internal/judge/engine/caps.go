package engine

import (
	"encoding/json"
	"strings"
)

// Caps is a capabilities object as a party declared it.
type Caps map[string]any

// ParseCaps decodes a capabilities object; nil when absent or malformed.
func ParseCaps(raw json.RawMessage) Caps {
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

// Methods and notifications that need a capability of the party that
// receives (for requests) or sends (for notifications) them.
var (
	RequestGates = map[string]string{
		"tools/list": "server.tools", "tools/call": "server.tools",
		"resources/list": "server.resources", "resources/read": "server.resources",
		"resources/templates/list": "server.resources",
		"resources/subscribe":      "server.resources.subscribe", "resources/unsubscribe": "server.resources.subscribe",
		"prompts/list": "server.prompts", "prompts/get": "server.prompts",
		"logging/setLevel":       "server.logging",
		"completion/complete":    "server.completions",
		"sampling/createMessage": "client.sampling",
		"elicitation/create":     "client.elicitation",
		"roots/list":             "client.roots",
	}
	NotificationGates = map[string]string{
		"notifications/tools/list_changed":     "server.tools.listChanged",
		"notifications/prompts/list_changed":   "server.prompts.listChanged",
		"notifications/resources/list_changed": "server.resources.listChanged",
		"notifications/resources/updated":      "server.resources.subscribe",
		"notifications/message":                "server.logging",
		"notifications/roots/list_changed":     "client.roots.listChanged",
	}
)

// CapabilitiesKnown reports whether the session has told us the capabilities
// a gate reads: a handshake session once initialize completed, a stateless
// session once the server answered server/discover (client capabilities
// travel on each request).
func CapabilitiesKnown(s *Session, gate string) bool {
	if strings.HasPrefix(gate, "client.") {
		return s.ClientCaps != nil || s.InitRequest != nil
	}
	return s.ServerCaps != nil || s.InitResult != nil
}

func AdvertisesExtensions(c Caps) bool {
	ext, ok := c["extensions"].(map[string]any)
	return ok && len(ext) > 0
}
