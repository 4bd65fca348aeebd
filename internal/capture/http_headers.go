package capture

import (
	"net/http"
	"strings"
)

// redacted stands for the value of a credential header: the trace says the
// header was sent, never what it held.
const redacted = "[redacted]"

// recordedHeaderNames are the headers a trace keeps, lower-cased: the ones
// the streamable-HTTP transport defines (plus every mcp-param-*), content
// negotiation, and the response headers the spec's clauses speak of (405's
// allow, 401's www-authenticate, SSE's cache-control and x-accel-buffering).
// Everything else is left out: an allowlist cannot leak a header it has
// never heard of. host is not kept because the proxy rewrites it to the
// upstream's, so it would say nothing about the client.
var recordedHeaderNames = map[string]bool{
	"accept":               true,
	"content-type":         true,
	"content-encoding":     true,
	"origin":               true,
	"last-event-id":        true,
	"mcp-session-id":       true,
	"mcp-protocol-version": true,
	"mcp-method":           true,
	"mcp-name":             true,
	"cache-control":        true,
	"x-accel-buffering":    true,
	"www-authenticate":     true,
	"location":             true,
	"allow":                true,
	"retry-after":          true,
}

// credentialHeaderNames carry secrets: only their presence is recorded.
var credentialHeaderNames = map[string]bool{
	"authorization":       true,
	"proxy-authorization": true,
	"cookie":              true,
	"set-cookie":          true,
}

// recordedHeaders returns what a trace may hold of h: allowlisted headers
// under lower-cased names (several values joined with ", "), and credential
// headers with their value replaced by "[redacted]".
func recordedHeaders(h http.Header) map[string]string {
	var out map[string]string
	for name, values := range h {
		lower := strings.ToLower(name)
		value := strings.Join(values, ", ")
		switch {
		case credentialHeaderNames[lower]:
			value = redacted
		case recordedHeaderNames[lower], strings.HasPrefix(lower, "mcp-param-"):
		default:
			continue
		}
		if out == nil {
			out = make(map[string]string, len(h))
		}
		out[lower] = value
	}
	return out
}

// hopByHopHeaders belong to one connection, not to the message (RFC 9110
// §7.6.1), so a proxy does not forward them.
var hopByHopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Connection",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// forwardableHeaders returns a copy of h without the hop-by-hop headers,
// including any that its Connection header names.
func forwardableHeaders(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for _, field := range h.Values("Connection") {
		for name := range strings.SplitSeq(field, ",") {
			out.Del(strings.TrimSpace(name))
		}
	}
	for _, name := range hopByHopHeaders {
		out.Del(name)
	}
	return out
}
