package elicitation

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// Query parameters that carry a credential: a URL with one hands whoever
// holds it the user's access, which is also sensitive user data.
var credentialParams = map[string]bool{
	"access_token": true, "id_token": true, "refresh_token": true, "token": true, "jwt": true,
	"api_key": true, "apikey": true, "password": true, "passwd": true, "pwd": true,
	"secret": true, "client_secret": true, "session": true, "sessionid": true, "session_id": true,
	"auth": true, "authorization": true,
}

// Query parameters of signed URLs, which grant access on their own.
var signatureParams = map[string]bool{
	"sig": true, "signature": true, "x-amz-signature": true, "x-amz-credential": true,
	"x-goog-signature": true, "x-goog-credential": true,
}

// Query parameters that name the end user.
var personalParams = map[string]bool{
	"email": true, "e-mail": true, "phone": true, "ssn": true, "dob": true, "birthdate": true, "address": true,
}

var emailAddress = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)

// ValidURL reports whether s is an absolute URL: a scheme and something
// after it. Web schemes need a host; others may have none (file:///path) or
// an opaque part (mailto:).
func ValidURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	if webSchemes[strings.ToLower(u.Scheme)] {
		return u.Host != ""
	}
	return u.Host != "" || u.Opaque != "" || u.Path != ""
}

var webSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true}

// HttpsOrDevelopment reports whether a URL is https, or http to a loopback
// host, which only a development setup serves.
func HttpsOrDevelopment(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return true
	case "http":
		return isLoopback(u.Hostname())
	}
	return false
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// UserDataInURL lists what in a URL is sensitive information about the end
// user: credentials in its userinfo, credential or personal query
// parameters, e-mail addresses. It names parameters, never their values.
func UserDataInURL(s string) []string {
	return flaggedInURL(s, func(name string, values []string) bool {
		key := strings.ToLower(name)
		return credentialParams[key] || personalParams[key] || emailInValues(values)
	})
}

// PreauthenticationInURL lists what in a URL grants access by itself: a
// password, a credential parameter, a signature.
func PreauthenticationInURL(s string) []string {
	return flaggedInURL(s, func(name string, _ []string) bool {
		key := strings.ToLower(name)
		return credentialParams[key] || signatureParams[key]
	})
}

// flaggedInURL lists a password in a URL's userinfo and the query parameters
// flag picks out.
func flaggedInURL(s string, flag func(name string, values []string) bool) []string {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	var out []string
	if _, ok := u.User.Password(); ok {
		out = append(out, "a password in the userinfo")
	}
	query := u.Query()
	for _, name := range engine.SortedKeysOf(query) {
		if flag(name, query[name]) {
			out = append(out, "query parameter "+name)
		}
	}
	return out
}

func emailInValues(values []string) bool {
	for _, v := range values {
		if emailAddress.MatchString(v) {
			return true
		}
	}
	return false
}
