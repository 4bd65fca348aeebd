package judge

import (
	"encoding/json"
	"sort"
)

// The per-request and per-response protocol fields of _meta (2026-07-28).
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaClientCaps      = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo      = "io.modelcontextprotocol/clientInfo"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID  = "io.modelcontextprotocol/subscriptionId"
)

// missingRequiredMeta lists the required per-request fields params._meta
// lacks, or carries with the wrong JSON type.
func missingRequiredMeta(params json.RawMessage) []string {
	meta := metaOf(params)
	var out []string
	if !isJSONString(meta.get(metaProtocolVersion)) {
		out = append(out, metaProtocolVersion)
	}
	if !isJSONObject(meta.get(metaClientCaps)) {
		out = append(out, metaClientCaps)
	}
	return out
}

func isJSONString(raw json.RawMessage) bool {
	var s string
	return raw != nil && json.Unmarshal(raw, &s) == nil
}

func isJSONObject(raw json.RawMessage) bool {
	var o map[string]json.RawMessage
	return raw != nil && json.Unmarshal(raw, &o) == nil && o != nil
}

// requestCaps returns the client capabilities a request declared for itself.
func requestCaps(r *Request) Caps {
	if r == nil {
		return nil
	}
	return parseCaps(metaOf(r.Params).get(metaClientCaps))
}

// requestVersion returns the protocol version a request declared.
func requestVersion(r *Request) string {
	if r == nil {
		return ""
	}
	return requestVersionOf(r.Params)
}

func requestVersionOf(params json.RawMessage) string {
	var v string
	_ = json.Unmarshal(metaOf(params).get(metaProtocolVersion), &v)
	return v
}

// inputRequest is one entry of an InputRequiredResult's inputRequests.
type inputRequest struct {
	Key    string
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// inputRequests lists a result's inputRequests in key order.
func inputRequests(m *Msg) []inputRequest {
	var res struct {
		InputRequests map[string]inputRequest `json:"inputRequests"`
	}
	if m.Kind != KindResult || !Decode(m.Result, &res) {
		return nil
	}
	out := make([]inputRequest, 0, len(res.InputRequests))
	for k, r := range res.InputRequests {
		r.Key = k
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// neededCapability names the client capability an input request relies on
// ("" for a method that needs none this build knows of).
func (r inputRequest) neededCapability() string {
	var p struct {
		Mode  string          `json:"mode"`
		Tools json.RawMessage `json:"tools"`
	}
	Decode(r.Params, &p)
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

// declares reports whether caps declare a capability; an empty elicitation
// object declares form mode, as the elicitation page allows.
func (c Caps) declares(capability string) bool {
	if capability != "elicitation.form" || c.Has("elicitation.form") {
		return c.Has(capability)
	}
	obj, ok := c["elicitation"].(map[string]any)
	return ok && len(obj) == 0
}

// capabilityPaths flattens a capabilities object to the dotted paths of its
// leaves ("elicitation.url", "roots"), sorted.
func capabilityPaths(caps map[string]any, prefix string) []string {
	var out []string
	for k, v := range caps {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			out = append(out, capabilityPaths(sub, prefix+k+".")...)
		} else {
			out = append(out, prefix+k)
		}
	}
	sort.Strings(out)
	return out
}

func extensionIDProblem(id string) string {
	k := splitMetaKey(id)
	if !k.hasPrefix {
		return "has no prefix; extension identifiers need one"
	}
	if p := prefixProblem(k.prefix); p != "" {
		return p
	}
	return nameProblem(k.name)
}
