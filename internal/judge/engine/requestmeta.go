package engine

import (
	"encoding/json"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// The per-request and per-response protocol fields of _meta (2026-07-28).
const (
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	MetaClientCaps      = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo      = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo      = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID  = "io.modelcontextprotocol/subscriptionId"
)

// MissingRequiredMeta lists the required per-request fields params._meta
// lacks, or carries with the wrong JSON type.
func MissingRequiredMeta(params json.RawMessage) []string {
	meta := message.MetaOf(params)
	var out []string
	if !IsJSONString(meta.Get(MetaProtocolVersion)) {
		out = append(out, MetaProtocolVersion)
	}
	if !IsJSONObject(meta.Get(MetaClientCaps)) {
		out = append(out, MetaClientCaps)
	}
	return out
}

func IsJSONString(raw json.RawMessage) bool {
	var s string
	return raw != nil && json.Unmarshal(raw, &s) == nil
}

func IsJSONObject(raw json.RawMessage) bool {
	var o map[string]json.RawMessage
	return raw != nil && json.Unmarshal(raw, &o) == nil && o != nil
}

// RequestCaps returns the client capabilities a request declared for itself.
func RequestCaps(r *message.Request) Caps {
	if r == nil {
		return nil
	}
	return ParseCaps(message.MetaOf(r.Params).Get(MetaClientCaps))
}

// RequestVersion returns the protocol version a request declared.
func RequestVersion(r *message.Request) string {
	if r == nil {
		return ""
	}
	return RequestVersionOf(r.Params)
}

func RequestVersionOf(params json.RawMessage) string {
	var v string
	_ = json.Unmarshal(message.MetaOf(params).Get(MetaProtocolVersion), &v)
	return v
}

// InputRequest is one entry of an InputRequiredResult's inputRequests.
type InputRequest struct {
	Key    string
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// InputRequests lists a result's inputRequests in key order.
func InputRequests(m *message.Msg) []InputRequest {
	var res struct {
		InputRequests map[string]InputRequest `json:"inputRequests"`
	}
	if m.Kind != message.KindResult || !message.Decode(m.Result, &res) {
		return nil
	}
	out := make([]InputRequest, 0, len(res.InputRequests))
	for k, r := range res.InputRequests {
		r.Key = k
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// NeededCapability names the client capability an input request relies on
// ("" for a method that needs none this build knows of).
func (r InputRequest) NeededCapability() string {
	var p struct {
		Mode  string          `json:"mode"`
		Tools json.RawMessage `json:"tools"`
	}
	message.Decode(r.Params, &p)
	switch {
	case r.Method == "elicitation/create" && p.Mode == "url":
		return "elicitation.url"
	case r.Method == "elicitation/create":
		return "elicitation.form"
	case r.Method == "sampling/createMessage" && p.Tools != nil:
		return "sampling.tools"
	case r.Method == "sampling/createMessage":
		return "sampling"
	case r.Method == "roots/list":
		return "roots"
	}
	return ""
}

// Declares reports whether caps declare a capability; an empty elicitation
// object declares form mode, as the elicitation page allows.
func (c Caps) Declares(capability string) bool {
	if capability != "elicitation.form" || c.Has("elicitation.form") {
		return c.Has(capability)
	}
	obj, ok := c["elicitation"].(map[string]any)
	return ok && len(obj) == 0
}

// CapabilityPaths flattens a capabilities object to the dotted paths of its
// leaves ("elicitation.url", "roots"), sorted.
func CapabilityPaths(caps map[string]any, prefix string) []string {
	var out []string
	for k, v := range caps {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			out = append(out, CapabilityPaths(sub, prefix+k+".")...)
		} else {
			out = append(out, prefix+k)
		}
	}
	sort.Strings(out)
	return out
}

func ExtensionIDProblem(id string) string {
	k := SplitMetaKey(id)
	if !k.HasPrefix {
		return "has no prefix; extension identifiers need one"
	}
	if p := prefixProblem(k.Prefix); p != "" {
		return p
	}
	return nameProblem(k.Name)
}
