package exampleserver

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The authorization-server stand-in: a loopback OAuth token issuer with
// RFC 8414 metadata and a token endpoint that grants client_credentials
// tokens for one resource, the example server. There is no login: a
// recorded session needs a token the resource server accepts, not a
// browser, which is what the specification leaves outside the session.

// authScope is the scope every MCP request needs.
const authScope = "mcp"

// tokenLifetime bounds an issued token.
const tokenLifetime = time.Hour

// issuedToken is what the resource server knows of a token.
type issuedToken struct {
	scopes   []string
	resource string
	expires  time.Time
}

// tokenIssuer issues and remembers tokens; the resource server asks it
// about each one, as an introspection endpoint would be asked.
type tokenIssuer struct {
	issuer   string // this stand-in's URL, set once it listens
	resource string // the MCP endpoint its tokens are for
	mu       sync.Mutex
	tokens   map[string]issuedToken
}

func newTokenIssuer() *tokenIssuer { return &tokenIssuer{tokens: map[string]issuedToken{}} }

// lookup returns a token's grant when it was issued here, for this
// resource, and has not expired.
func (t *tokenIssuer) lookup(token string) (issuedToken, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	grant, ok := t.tokens[token]
	if !ok || grant.resource != t.resource || time.Now().After(grant.expires) {
		return issuedToken{}, false
	}
	return grant, true
}

// Issue grants a token for scopes (space-separated) to the resource.
func (t *tokenIssuer) Issue(scopes string) string {
	b := make([]byte, 24)
	rand.Read(b)
	token := hex.EncodeToString(b)
	t.mu.Lock()
	t.tokens[token] = issuedToken{scopes: strings.Fields(scopes), resource: t.resource, expires: time.Now().Add(tokenLifetime)}
	t.mu.Unlock()
	return token
}

func (t *tokenIssuer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", t.metadata)
	mux.HandleFunc("POST /token", t.token)
	return mux
}

// metadata is the RFC 8414 document: a token endpoint for the
// client_credentials grant, and no authorization endpoint to log in at.
func (t *tokenIssuer) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                t.issuer,
		"token_endpoint":                        t.issuer + "/token",
		"grant_types_supported":                 []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported":                      []string{authScope},
		"response_types_supported":              []string{},
	})
}

// token grants a client_credentials token for the resource the request
// names (RFC 8707), which must be the example server's endpoint.
func (t *tokenIssuer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	if r.PostForm.Get("resource") != t.resource {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_target",
			"error_description": "resource must be " + t.resource})
		return
	}
	scope := r.PostForm.Get("scope")
	if scope == "" {
		scope = authScope
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"access_token": t.Issue(scope), "token_type": "Bearer",
		"expires_in": int(tokenLifetime.Seconds()), "scope": scope})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
