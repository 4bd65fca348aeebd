package exampleserver

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP starts ServeHTTP on a free loopback port and returns the
// endpoint URL; the server stops, and the test checks it stopped cleanly,
// when the test ends.
func serveHTTP(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, "127.0.0.1:0", func(url string) { urls <- url }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeHTTP returned %v on shutdown", err)
			}
		case <-time.After(testTimeout):
			t.Error("ServeHTTP did not return after its context ended")
		}
	})
	select {
	case url := <-urls:
		return url
	case err := <-done:
		t.Fatalf("ServeHTTP: %v", err)
	case <-time.After(testTimeout):
		t.Fatal("ServeHTTP never became ready")
	}
	return ""
}

func connectHTTP(t *testing.T, url, revision string) (*mcp.ClientSession, *notifications) {
	t.Helper()
	n := newNotifications()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1.0.0"}, n.clientOptions())
	cs, err := client.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatalf("connecting over HTTP (%s): %v", revision, err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != revision {
		t.Fatalf("negotiated %s, want %s", got, revision)
	}
	return cs, n
}

func TestHTTPEndToEnd(t *testing.T) {
	url := serveHTTP(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("endpoint URL %q", url)
	}
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			cs, n := connectHTTP(t, url, rev)
			if got := len(toolsByName(t, cs)); got != len(wantTools) {
				t.Errorf("%d tools over HTTP, want %d", got, len(wantTools))
			}
			if res := callTool(t, cs, "add", map[string]any{"a": 1, "b": 1}); res.IsError || !strings.Contains(textOf(t, res.Content), `"sum":2`) {
				t.Errorf("add over HTTP = %+v", res)
			}
			params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"to": 2, "interval_ms": 10}}
			params.SetProgressToken("http")
			if _, err := cs.CallTool(testContext(t), params); err != nil {
				t.Fatal(err)
			}
			receive(t, n.progress, "progress over HTTP")
			note := "http-" + strings.ReplaceAll(rev, "-", "")
			if err := cs.Subscribe(testContext(t), &mcp.SubscribeParams{URI: noteURI(note)}); err != nil {
				t.Fatal(err)
			}
			callTool(t, cs, "remember", map[string]any{"name": note, "line": "over the wire"})
			if uri := receive(t, n.updated, "resources/updated over HTTP"); uri != noteURI(note) {
				t.Errorf("updated %s", uri)
			}
		})
	}
}

func post(t *testing.T, url, origin string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"origin-test","version":"1"}}}`
	req, err := http.NewRequestWithContext(testContext(t), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestHTTPChecksOrigin(t *testing.T) {
	url := serveHTTP(t)
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	for origin, allowed := range map[string]bool{
		"":                       true,
		"http://" + host:         true,
		"http://localhost:6274":  true,
		"http://127.0.0.1:3000":  true,
		"https://evil.example":   false,
		"http://evil.example:80": false,
		"null":                   false,
	} {
		resp := post(t, url, origin)
		if refused := resp.StatusCode == http.StatusForbidden; refused == allowed {
			t.Errorf("Origin %q: status %d", origin, resp.StatusCode)
		}
		if allowed {
			continue
		}
		var body struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct{ Code int }
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.JSONRPC != "2.0" || body.ID != nil || body.Error.Code != -32600 {
			t.Errorf("Origin %q: 403 body %+v (%v)", origin, body, err)
		}
	}
}

func TestHTTPServesOnlyTheEndpoint(t *testing.T) {
	url := serveHTTP(t)
	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other: %d, want 404", resp.StatusCode)
	}
}

func TestServeHTTPRefusesABadAddress(t *testing.T) {
	if err := ServeHTTP(t.Context(), "not an address", nil); err == nil || !strings.Contains(err.Error(), "not an address") {
		t.Errorf("ServeHTTP(bad address) = %v", err)
	}
}

func TestEndpointURLNamesLoopbackForAnUnspecifiedAddress(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8080": "http://127.0.0.1:8080/mcp",
		"[::]:8080":    "http://127.0.0.1:8080/mcp",
		"127.0.0.1:9":  "http://127.0.0.1:9/mcp",
		"[::1]:8080":   "http://[::1]:8080/mcp",
		"10.1.2.3:80":  "http://10.1.2.3:80/mcp",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := endpointURL(tcp); got != want {
			t.Errorf("endpointURL(%s) = %s, want %s", addr, got, want)
		}
	}
}
