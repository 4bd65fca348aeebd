package exampleserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// modernMeta is the _meta every 2026-07-28 request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// TestHTTPFrontChecks holds the HTTP server to the status and JSON-RPC
// error the 2026-07-28 transport ties to each malformed request, where
// the SDK alone answers otherwise.
func TestHTTPFrontChecks(t *testing.T) {
	url := serveHTTP(t)
	cases := []struct {
		name    string
		headers map[string]string
		body    string
		code    int64
	}{
		{"version header disagrees with _meta",
			map[string]string{"MCP-Protocol-Version": "1999-01-01", "Mcp-Method": "tools/list"},
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`, -32020},
		{"no version anywhere and no session",
			nil,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`, -32602},
		{"prompts/get without a name",
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/get"},
			`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{` + modernMeta + `,"arguments":{}}}`, -32602},
		{"resources/read with a null uri",
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read"},
			`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{` + modernMeta + `,"uri":null}}`, -32602},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, code := postRaw(t, url, c.headers, c.body)
			if status != http.StatusBadRequest || code != c.code {
				t.Errorf("answered %d with error %d, want 400 with %d", status, code, c.code)
			}
		})
	}
}

// TestHTTPFrontChecksPassConforming shows the checks leave a well-formed
// request of either protocol to the SDK.
func TestHTTPFrontChecksPassConforming(t *testing.T) {
	url := serveHTTP(t)
	headers := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
	status, code := postRaw(t, url, headers, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`)
	if status != http.StatusOK || code != 0 {
		t.Errorf("a conforming 2026-07-28 tools/list got %d with error %d", status, code)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if status, code := postRaw(t, url, nil, init); status != http.StatusOK || code != 0 {
		t.Errorf("a 2025-11-25 initialize got %d with error %d", status, code)
	}
}

// postRaw posts body with headers and returns the status and the JSON-RPC
// error code of the answer (0 for none), reading an SSE answer's data line.
func postRaw(t *testing.T, url string, headers map[string]string, body string) (int, int64) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, errorCode(t, string(raw))
}

// errorCode is the JSON-RPC error code in a JSON or SSE answer body.
func errorCode(t *testing.T, body string) int64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimPrefix(line, "data: ")
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var msg struct {
			Error *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("answer %q: %v", body, err)
		}
		if msg.Error != nil {
			return msg.Error.Code
		}
		return 0
	}
	t.Fatalf("no JSON-RPC message in the answer %q", body)
	return 0
}
