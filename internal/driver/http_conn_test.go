package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// httpFake is a scripted streamable-HTTP server: answer gives the result
// for a request (nil: 400 with a plain-text body); every request's method
// and headers are kept.
type httpFake struct {
	answer func(method string, params json.RawMessage) any
	sse    bool

	mu   sync.Mutex
	seen []httpSeen
}

type httpSeen struct {
	verb, method string
	header       http.Header
}

func (f *httpFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(body, &msg)
	f.mu.Lock()
	f.seen = append(f.seen, httpSeen{verb: r.Method, method: msg.Method, header: r.Header.Clone()})
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodGet:
		w.WriteHeader(http.StatusMethodNotAllowed)
	case r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusOK)
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	default:
		f.respond(w, msg.ID, msg.Method, msg.Params)
	}
}

func (f *httpFake) respond(w http.ResponseWriter, id json.RawMessage, method string, params json.RawMessage) {
	result := f.answer(method, params)
	if result == nil {
		http.Error(w, "no such thing", http.StatusBadRequest)
		return
	}
	reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	if method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "session-1")
	}
	if !f.sse || method == "initialize" {
		w.Header().Set("Content-Type", "application/json")
		w.Write(reply)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "id: 1\ndata:\n\n")
	fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n")
	fmt.Fprintf(w, "data: %s\n\n", reply)
}

func (f *httpFake) requests(verb string) []httpSeen {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []httpSeen
	for _, s := range f.seen {
		if s.verb == verb {
			out = append(out, s)
		}
	}
	return out
}

func TestHTTPSessionKeepsItsIDAndVersionAndEndsWithDelete(t *testing.T) {
	fake := &httpFake{sse: true, answer: func(method string, _ json.RawMessage) any {
		switch method {
		case "initialize":
			return map[string]any{"protocolVersion": Legacy, "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "f", "version": "1"}}
		case "tools/list":
			return map[string]any{"tools": []any{readOnlyTool("t", nil)}}
		}
		return map[string]any{}
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	res, err := Run(context.Background(), NewHTTPConn(HTTPOptions{URL: srv.URL + "/mcp"}), Options{StepTimeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Run: %v (notes %q)", err, res.Notes)
	}
	for _, s := range fake.requests(http.MethodPost) {
		if s.method == "initialize" {
			continue
		}
		if s.header.Get("Mcp-Session-Id") != "session-1" || s.header.Get("Mcp-Protocol-Version") != Legacy {
			t.Errorf("%s was sent without the session id or version: %v", s.method, s.header)
		}
		if !strings.Contains(s.header.Get("Accept"), "text/event-stream") {
			t.Errorf("%s accepts %q", s.method, s.header.Get("Accept"))
		}
	}
	if len(fake.requests(http.MethodGet)) != 1 || len(fake.requests(http.MethodDelete)) != 1 {
		t.Errorf("GET %d, DELETE %d: want the optional stream tried once and the session deleted", len(fake.requests(http.MethodGet)), len(fake.requests(http.MethodDelete)))
	}
}

func TestHTTPStatelessRequestsCarryTheirMetadataHeaders(t *testing.T) {
	fake := &httpFake{answer: func(method string, _ json.RawMessage) any {
		switch method {
		case "server/discover":
			return map[string]any{"resultType": "complete", "supportedVersions": []string{Modern}, "capabilities": map[string]any{"tools": map[string]any{}}}
		case "tools/list":
			return map[string]any{"resultType": "complete", "tools": []any{
				readOnlyTool("sql", map[string]any{"type": "object", "properties": map[string]any{
					"region": map[string]any{"type": "string", "x-mcp-header": "Region", "default": "eu-west"},
				}, "required": []string{"region"}}),
				readOnlyTool("broken", map[string]any{"type": "object", "properties": map[string]any{
					"n": map[string]any{"type": "number", "x-mcp-header": "N"},
				}}),
			}}
		}
		return map[string]any{"resultType": "complete"}
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	res, err := Run(context.Background(), NewHTTPConn(HTTPOptions{URL: srv.URL}), Options{Revision: Modern, StepTimeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var calls []httpSeen
	for _, s := range fake.requests(http.MethodPost) {
		if s.header.Get("Mcp-Method") != s.method || s.header.Get("Mcp-Protocol-Version") != Modern {
			t.Errorf("%s: Mcp-Method %q, MCP-Protocol-Version %q", s.method, s.header.Get("Mcp-Method"), s.header.Get("Mcp-Protocol-Version"))
		}
		if s.method == "tools/call" {
			calls = append(calls, s)
		}
	}
	if len(calls) == 0 || calls[0].header.Get("Mcp-Name") != "sql" || calls[0].header.Get("Mcp-Param-Region") != "eu-west" {
		t.Fatalf("tools/call headers: %v", calls)
	}
	for _, c := range calls {
		if c.header.Get("Mcp-Name") == "broken" {
			t.Error("a tool with an invalid x-mcp-header annotation was called")
		}
	}
	if len(fake.requests(http.MethodDelete)) != 0 {
		t.Error("a stateless session sent DELETE")
	}
	_ = res
}

func TestHTTPErrorStatusFailsTheRequestAtOnce(t *testing.T) {
	srv := httptest.NewServer(&httpFake{answer: func(string, json.RawMessage) any { return nil }})
	defer srv.Close()
	start := time.Now()
	_, err := Run(context.Background(), NewHTTPConn(HTTPOptions{URL: srv.URL}), Options{StepTimeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "HTTP 400") {
		t.Fatalf("Run = %v, want the 400 named", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a 400 took %s to surface", d)
	}
}
