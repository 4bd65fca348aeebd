package capture

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// redacted stands for the value of a credential header: the trace says the
// header was sent, never what it held.
const redacted = "[redacted]"

// recordedHeaderNames are the headers a trace keeps, lower-cased: the ones
// the streamable-HTTP transport defines (plus every mcp-param-*), content
// negotiation, and the response headers the spec's clauses speak of (405's
// allow, 401's www-authenticate, SSE's cache-control and x-accel-buffering).
// Everything else is left out, but for the presence of the headers whose
// name says they hold a credential (credentialWords): an allowlist cannot
// leak a header it has never heard of. host is not kept because the proxy
// rewrites it to the upstream's, so it would say nothing about the client.
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

// credentialWords mark a header name as one that carries a secret when one
// of its words (between "-", "_" and ".") is one of them or ends with one:
// authorization, set-cookie, x-api-key, x-apikey, x-auth-token,
// mcp-param-password and every header named like them, known or not, is
// recorded as present with its value "[redacted]". Whole words, so that
// mcp-param-author or mcp-param-max-tokens, which the judge holds to the
// arguments they mirror, keep their values; so does www-authenticate, a
// challenge rather than a credential.
var credentialWords = []string{
	"auth", "authorization", "cookie", "credential", "credentials", "key",
	"passphrase", "passwd", "password", "secret", "token",
}

// namesCredential reports whether a lower-cased header name says it
// carries a secret.
func namesCredential(lower string) bool {
	for word := range strings.FieldsFuncSeq(lower, isNameSeparator) {
		for _, credential := range credentialWords {
			if strings.HasSuffix(word, credential) {
				return true
			}
		}
	}
	return false
}

func isNameSeparator(r rune) bool { return r == '-' || r == '_' || r == '.' }

// recordedHeaders returns what a trace may hold of h: allowlisted headers
// and mcp-param-* under lower-cased names (several values joined with
// ", "), and headers whose name says they carry a credential with their
// value replaced by "[redacted]".
func recordedHeaders(h http.Header) map[string]string {
	var out map[string]string
	for name, values := range h {
		lower := strings.ToLower(name)
		value := strings.Join(values, ", ")
		switch {
		case recordedHeaderNames[lower]:
			value = recordedValue(lower, value)
		case lower == "authorization" && value == trace.InvalidTokenCredential:
			// The probe's made-up token is public: kept, so the judge
			// knows the server was sent a token it must refuse.
		case namesCredential(lower):
			value = redacted
		case strings.HasPrefix(lower, "mcp-param-"):
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

// recordedValue is what the trace keeps of an allowlisted header: its
// value, but for a URL that could carry a credential.
func recordedValue(lower, value string) string {
	if lower != "location" {
		return value
	}
	u, err := url.Parse(value)
	if err != nil {
		return redacted
	}
	return RedactURL(u)
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
