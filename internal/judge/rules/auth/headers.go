package auth

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The RFC 6750/9728 challenge parameters the authorization checks read; a
// parameter value may be quoted or a bare token.
var (
	resourceMetadataParam  = regexp.MustCompile(`(?i)(^|[\s,])resource_metadata\s*=\s*("[^"]+"|[^\s,"]+)`)
	insufficientScopeParam = regexp.MustCompile(`(?i)(^|[\s,])error\s*=\s*"?insufficient_scope"?`)
	scopeParam             = regexp.MustCompile(`(?i)(^|[\s,])scope\s*=\s*("[^"]*"|[^\s,"]+)`)
	bearerScheme           = regexp.MustCompile(`(?i)(^|[\s,])bearer(\s|$)`)
)

// challengeNamesMetadata reports whether a WWW-Authenticate value is a
// Bearer challenge with a resource_metadata parameter.
func challengeNamesMetadata(v string) bool {
	return bearerScheme.MatchString(v) && resourceMetadataParam.MatchString(v)
}

// challengeNamesScope reports whether a WWW-Authenticate value is a
// Bearer challenge with a scope parameter (RFC 6750 section 3).
func challengeNamesScope(v string) bool {
	return bearerScheme.MatchString(v) && scopeParam.MatchString(v)
}

// challengeMetadataPath returns the path of the URL a challenge's
// resource_metadata names, or "".
func challengeMetadataPath(v string) string {
	m := resourceMetadataParam.FindStringSubmatch(v)
	if m == nil || !bearerScheme.MatchString(v) {
		return ""
	}
	u, err := url.Parse(strings.Trim(m[2], `"`))
	if err != nil {
		return ""
	}
	return u.Path
}

// challengeScopes returns the scopes a challenge's scope parameter names,
// and whether it has one.
func challengeScopes(v string) ([]string, bool) {
	m := scopeParam.FindStringSubmatch(v)
	if m == nil || !bearerScheme.MatchString(v) {
		return nil, false
	}
	return strings.Fields(strings.Trim(m[2], `"`)), true
}

// challengeNamesInsufficientScope reports whether a WWW-Authenticate value
// is a Bearer challenge with error="insufficient_scope".
func challengeNamesInsufficientScope(v string) bool {
	return bearerScheme.MatchString(v) && insufficientScopeParam.MatchString(v)
}

// describeChallenge says what a response's challenge was, for a finding;
// the value comes from the server and is quoted.
func describeChallenge(v string) string {
	if v == "" {
		return "has no WWW-Authenticate header"
	}
	if len(v) > 120 {
		v = v[:120] + "..."
	}
	return "has WWW-Authenticate " + message.QuoteJSON(v)
}

// queryToken reports whether a request path carries an access_token query
// parameter (the recording keeps query names, never values).
func queryToken(path string) bool {
	_, query, ok := strings.Cut(path, "?")
	if !ok {
		return false
	}
	values, _ := url.ParseQuery(query)
	_, has := values["access_token"]
	return has
}

// pathOf is a recorded request path without its query.
func pathOf(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return p
}

// isMetadataPath reports whether a request asks for protected resource
// metadata at its well-known URI (RFC 9728 section 3), at the root or
// under the endpoint's path.
func isMetadataPath(path string) bool {
	p, _, _ := strings.Cut(path, "?")
	return p == "/.well-known/oauth-protected-resource" || strings.HasPrefix(p, "/.well-known/oauth-protected-resource/")
}

// isHTTPRequest reports whether ev records an HTTP request the client sent.
func isHTTPRequest(ev *trace.Event) bool {
	return ev.Kind == trace.KindHTTP && ev.Direction == trace.ClientToServer && ev.SSE == nil
}
