package exampleserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// AuthFaults switch on, one by one, the ways a resource server gets
// authorization wrong, so that each makes its clause fail.
type AuthFaults struct {
	// NoChallenge answers 401 without a WWW-Authenticate header.
	NoChallenge bool
	// NoMetadata answers 401 with a challenge that names no
	// resource_metadata, and serves no protected resource metadata.
	NoMetadata bool
	// QueryToken accepts a token from the access_token query parameter.
	QueryToken bool
}

// ParseAuthFaults reads the names of --auth-fault: no-challenge,
// no-metadata and query-token.
func ParseAuthFaults(names []string) (AuthFaults, error) {
	var f AuthFaults
	for _, name := range names {
		switch name {
		case "no-challenge":
			f.NoChallenge = true
		case "no-metadata":
			f.NoMetadata = true
		case "query-token":
			f.QueryToken = true
		default:
			return f, fmt.Errorf("--auth-fault %q is not one of no-challenge, no-metadata, query-token", name)
		}
	}
	return f, nil
}

// metadataPath is where the protected resource metadata of EndpointPath
// is served (RFC 9728 section 3.1, the path form); the root form is
// served too.
const (
	metadataPath     = "/.well-known/oauth-protected-resource" + EndpointPath
	metadataRootPath = "/.well-known/oauth-protected-resource"
)

// resourceServer guards the MCP endpoint with bearer tokens of its issuer.
type resourceServer struct {
	issuer *tokenIssuer
	origin string // the server's own http://host:port
	faults AuthFaults
}

func newResourceServer(endpoint, issuer string, faults AuthFaults) *resourceServer {
	t := newTokenIssuer()
	t.issuer, t.resource = issuer, endpoint
	return &resourceServer{issuer: t, origin: strings.TrimSuffix(endpoint, EndpointPath), faults: faults}
}

// handler serves the metadata at both well-known paths and the guarded
// endpoint.
func (rs *resourceServer) handler(endpoint http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+metadataPath, rs.metadata)
	mux.HandleFunc("GET "+metadataRootPath, rs.metadata)
	mux.Handle(EndpointPath, rs.guard(endpoint))
	return mux
}

func (rs *resourceServer) metadataURL() string { return rs.origin + metadataPath }

// metadata is the RFC 9728 document.
func (rs *resourceServer) metadata(w http.ResponseWriter, _ *http.Request) {
	if rs.faults.NoMetadata {
		http.NotFound(w, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 rs.issuer.resource,
		"authorization_servers":    []string{rs.issuer.issuer},
		"scopes_supported":         []string{authScope},
		"bearer_methods_supported": []string{"header"},
	})
}

// guard lets a request through with a valid token of the mcp scope; one
// without a token, or with one the issuer never gave for this resource, is
// answered 401, and one whose token lacks the scope 403 (RFC 6750 3.1).
func (rs *resourceServer) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := rs.bearer(r)
		if !ok {
			rs.challenge(w, http.StatusUnauthorized, "")
			return
		}
		grant, valid := rs.issuer.lookup(token)
		switch {
		case !valid:
			rs.challenge(w, http.StatusUnauthorized, "invalid_token")
		case !slices.Contains(grant.scopes, authScope):
			rs.challenge(w, http.StatusForbidden, "insufficient_scope")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// bearer finds the request's token: the Authorization header only, unless
// the QueryToken fault also takes it from the query.
func (rs *resourceServer) bearer(r *http.Request) (string, bool) {
	if scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") && token != "" {
		return token, true
	}
	if q := r.URL.Query().Get("access_token"); rs.faults.QueryToken && q != "" {
		return q, true
	}
	return "", false
}

func (rs *resourceServer) challenge(w http.ResponseWriter, status int, code string) {
	params := []string{`scope="` + authScope + `"`}
	if code != "" {
		params = append([]string{`error="` + code + `"`}, params...)
	}
	if !rs.faults.NoMetadata {
		params = append(params, `resource_metadata="`+rs.metadataURL()+`"`)
	}
	if status == http.StatusForbidden || !rs.faults.NoChallenge {
		w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	}
	w.WriteHeader(status)
}
