package cli

import (
	"os"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

// authFlags give check --url a bearer token to send; mcpverdict never logs
// in at an authorization server to get one.
type authFlags struct {
	token    string
	tokenEnv string
}

// bearerToken resolves --auth-token and --auth-token-env to the token
// (empty when neither is given).
func (a authFlags) bearerToken(url string) (string, error) {
	switch {
	case a.token == "" && a.tokenEnv == "":
		return "", nil
	case a.token != "" && a.tokenEnv != "":
		return "", exitcode.New(exitcode.Usage, "--auth-token and --auth-token-env both give a token: give one")
	case url == "":
		return "", exitcode.New(exitcode.Usage, "--auth-token and --auth-token-env need --url: a token authorizes HTTP requests")
	case a.token != "":
		return validToken(a.token, "--auth-token")
	}
	v, ok := os.LookupEnv(a.tokenEnv)
	if !ok || v == "" {
		return "", exitcode.New(exitcode.Usage, "--auth-token-env %s: the variable is not set or empty; export the bearer token in it", a.tokenEnv)
	}
	return validToken(v, "the variable "+a.tokenEnv)
}

// validToken refuses a token an Authorization header could not carry
// (RFC 6750 b64token); the message never shows the token.
func validToken(token, from string) (string, error) {
	token = strings.TrimSpace(token)
	for i := 0; i < len(token); i++ {
		c := token[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/=", c) >= 0) {
			return "", exitcode.New(exitcode.Usage, "%s holds a character a bearer token cannot have (RFC 6750: letters, digits and -._~+/=)", from)
		}
	}
	if token == "" {
		return "", exitcode.New(exitcode.Usage, "%s is empty", from)
	}
	return token, nil
}
