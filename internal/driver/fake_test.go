package driver

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"
	"testing"
)

// fakeServer is a scripted MCP server on the far side of a pair of pipes:
// each method's handler answers a request, or returns silent to leave it
// unanswered. It keeps every message the driver sent.
type fakeServer struct {
	t        testing.TB
	handlers map[string]func(req fakeRequest) (result any, rpcErr *RPCError, silent bool)
	out      io.WriteCloser

	mu   sync.Mutex
	seen []fakeRequest
}

type fakeRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Raw    string          `json:"-"`
}

type fakeHandler = func(req fakeRequest) (any, *RPCError, bool)

// newFakeServer starts the server and returns the driver's end.
func newFakeServer(t testing.TB, handlers map[string]fakeHandler) (*fakeServer, Conn) {
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	s := &fakeServer{t: t, handlers: handlers, out: fromServerW}
	go s.serve(toServerR)
	t.Cleanup(func() { toServerR.Close(); fromServerW.Close() })
	return s, NewStdioConn(toServerW, fromServerR)
}

func (s *fakeServer) serve(in io.Reader) {
	defer s.out.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var req fakeRequest
		_ = json.Unmarshal(sc.Bytes(), &req)
		req.Raw = sc.Text()
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		if req.Method != "" && req.ID != nil {
			go s.answer(req)
		}
	}
}

func (s *fakeServer) answer(req fakeRequest) {
	h, ok := s.handlers[req.Method]
	if !ok {
		s.send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": RPCError{Code: -32601, Message: "Method not found"}})
		return
	}
	result, rpcErr, silent := h(req)
	switch {
	case silent:
	case rpcErr != nil:
		s.send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": rpcErr})
	default:
		s.send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}

func (s *fakeServer) send(msg any) {
	b, _ := json.Marshal(msg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(b, '\n'))
}

// methods lists the methods of the messages the driver sent, in order.
func (s *fakeServer) methods() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.seen {
		out = append(out, r.Method)
	}
	return out
}

func (s *fakeServer) requests(method string) []fakeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []fakeRequest
	for _, r := range s.seen {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

func answer(result any) fakeHandler {
	return func(fakeRequest) (any, *RPCError, bool) { return result, nil, false }
}

func silence(fakeRequest) (any, *RPCError, bool) { return nil, nil, true }

func initializeWith(caps map[string]any) fakeHandler {
	return answer(map[string]any{
		"protocolVersion": Legacy, "capabilities": caps, "serverInfo": map[string]any{"name": "fake", "version": "1"},
	})
}

func readOnlyTool(name string, schema map[string]any) map[string]any {
	if schema == nil {
		schema = map[string]any{"type": "object"}
	}
	return map[string]any{"name": name, "inputSchema": schema, "annotations": map[string]any{"readOnlyHint": true}}
}

// named keeps the requests whose params name the given tool or prompt.
func named(reqs []fakeRequest, name string) []fakeRequest {
	var out []fakeRequest
	for _, r := range reqs {
		var p struct{ Name string }
		if json.Unmarshal(r.Params, &p) == nil && p.Name == name {
			out = append(out, r)
		}
	}
	return out
}
