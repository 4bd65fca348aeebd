package capture

import (
	"net/url"
	"strings"
)

// RedactURL renders u for a trace, a log line or an error message without
// the parts that can carry a credential: the userinfo, the values of the
// query and the fragment each become "[redacted]". Query names are kept,
// since they say what was sent without saying what it was.
func RedactURL(u *url.URL) string {
	if u == nil {
		return "<nil>"
	}
	bare := *u
	bare.User = nil
	bare.RawQuery, bare.ForceQuery = redactQuery(u.RawQuery), false
	bare.Fragment, bare.RawFragment = "", ""
	s := bare.String()
	if u.User != nil {
		s = withRedactedUserinfo(s)
	}
	if u.Fragment != "" {
		s += "#" + redacted
	}
	return s
}

// recordedPath is a request's path as a trace keeps it: without its query,
// unless a parameter's name says it holds a credential (access_token,
// api_key); then with the names of its parameters, so that a token sent in
// the query shows, and never their values. A query of other parameters
// stays out, as the endpoint an HTTP with SSE server names (its session id
// in the query) is compared with the path of each POST.
func recordedPath(u *url.URL) string {
	if !queryNamesCredential(u.RawQuery) {
		return u.Path
	}
	return u.Path + "?" + redactQuery(u.RawQuery)
}

// queryNamesCredential reports whether a parameter of a raw query is named
// as a credential.
func queryNamesCredential(raw string) bool {
	for param := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(param, "=")
		if name, err := url.QueryUnescape(name); err == nil && namesCredential(strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// redactQuery keeps the names of a raw query's parameters and redacts
// their values; a parameter without "=" may itself be the secret.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	params := strings.Split(raw, "&")
	for i, param := range params {
		if name, _, ok := strings.Cut(param, "="); ok {
			params[i] = name + "=" + redacted
		} else if param != "" {
			params[i] = redacted
		}
	}
	return strings.Join(params, "&")
}

// withRedactedUserinfo puts "[redacted]@" before the host of a URL string
// that had its userinfo removed, so that the reader still learns there was
// one.
func withRedactedUserinfo(s string) string {
	i := strings.Index(s, "//")
	if i < 0 {
		return redacted + "@" + s
	}
	return s[:i+2] + redacted + "@" + s[i+2:]
}
