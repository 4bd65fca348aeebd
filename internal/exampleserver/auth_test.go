package exampleserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// authServer is a running example server with --auth: its endpoint and
// its authorization-server stand-in.
type authServer struct{ endpoint, issuer string }

func serveAuth(t *testing.T, faults AuthFaults) authServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls, issuers := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	opts := HTTPOptions{Auth: true, Faults: faults, IssuerReady: func(u string) { issuers <- u }}
	go func() { done <- ServeHTTPWith(ctx, "127.0.0.1:0", opts, func(u string) { urls <- u }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTPWith returned %v on shutdown", err)
		}
	})
	select {
	case u := <-urls:
		return authServer{endpoint: u, issuer: <-issuers}
	case err := <-done:
		t.Fatalf("ServeHTTPWith: %v", err)
	case <-time.After(testTimeout):
		t.Fatal("ServeHTTPWith never became ready")
	}
	return authServer{}
}

// token asks the stand-in's token endpoint for a token, as a client would.
func (a authServer) token(t *testing.T, scope string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {a.endpoint}, "scope": {scope}}
	resp, err := http.PostForm(a.issuer+"/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 || body.AccessToken == "" {
		t.Fatalf("token endpoint: %d %v", resp.StatusCode, err)
	}
	return body.AccessToken
}

func postDiscover(t *testing.T, target, authorization string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", target, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "server/discover")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestAuthChallengesAndAcceptsIssuedTokens(t *testing.T) {
	a := serveAuth(t, AuthFaults{})
	resp := postDiscover(t, a.endpoint, "")
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != 401 || !strings.Contains(challenge, `resource_metadata="`+strings.TrimSuffix(a.endpoint, EndpointPath)+metadataPath+`"`) {
		t.Errorf("no token: %d %q, want 401 naming the metadata", resp.StatusCode, challenge)
	}
	if resp := postDiscover(t, a.endpoint, "Bearer not-issued"); resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("foreign token: %d %q, want 401 invalid_token", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp := postDiscover(t, a.endpoint, "Bearer "+a.token(t, "other")); resp.StatusCode != 403 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="insufficient_scope"`) {
		t.Errorf("token without the mcp scope: %d %q, want 403 insufficient_scope", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	token := a.token(t, authScope)
	if resp := postDiscover(t, a.endpoint, "Bearer "+token); resp.StatusCode != 200 {
		t.Errorf("issued token: %d, want 200", resp.StatusCode)
	}
	if resp := postDiscover(t, a.endpoint+"?access_token="+token, ""); resp.StatusCode != 401 {
		t.Errorf("token in the query: %d, want 401", resp.StatusCode)
	}
	meta, err := http.Get(strings.TrimSuffix(a.endpoint, EndpointPath) + metadataPath)
	if err != nil {
		t.Fatal(err)
	}
	defer meta.Body.Close()
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := json.NewDecoder(meta.Body).Decode(&doc); err != nil || doc.Resource != a.endpoint || len(doc.AuthorizationServers) != 1 || doc.AuthorizationServers[0] != a.issuer {
		t.Errorf("metadata: %+v %v", doc, err)
	}
}

func TestAuthFaults(t *testing.T) {
	a := serveAuth(t, AuthFaults{NoChallenge: true})
	if resp := postDiscover(t, a.endpoint, ""); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("no-challenge: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	b := serveAuth(t, AuthFaults{NoMetadata: true})
	if resp := postDiscover(t, b.endpoint, ""); resp.StatusCode != 401 || strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata") {
		t.Errorf("no-metadata: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if meta, err := http.Get(strings.TrimSuffix(b.endpoint, EndpointPath) + metadataPath); err != nil || meta.StatusCode != 404 {
		t.Errorf("no-metadata serves its metadata: %v", err)
	}
	c := serveAuth(t, AuthFaults{QueryToken: true})
	if resp := postDiscover(t, c.endpoint+"?access_token="+c.token(t, authScope), ""); resp.StatusCode != 200 {
		t.Errorf("query-token: %d, want 200", resp.StatusCode)
	}
}
