package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/sse"
)

const (
	initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpverdict-test","version":"1.0.0"}}}`
	initializedNote   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// mcpClient is a hand-written streamable-HTTP client: it sends raw JSON and
// keeps the exact bytes it gets back.
type mcpClient struct {
	t        testing.TB
	endpoint string
	http     *http.Client
	session  string
	protocol string
	// onFrame, when set, runs as each SSE frame arrives, before the next
	// byte is read.
	onFrame func(name string, f clientFrame)
}

func newMCPClient(t testing.TB, endpoint string) *mcpClient {
	return &mcpClient{t: t, endpoint: endpoint, http: &http.Client{}}
}

// clientResponse is one response as the client received it.
type clientResponse struct {
	status int
	header http.Header
	body   []byte
	frames []clientFrame
}

// clientFrame is one SSE frame the client received.
type clientFrame struct {
	raw   string
	data  string
	id    *string
	event string
	// fields is false for a frame of comments only, which is not recorded.
	fields bool
}

// post sends one JSON-RPC message and reads the whole response.
func (c *mcpClient) post(name, msg string) *clientResponse {
	c.t.Helper()
	req := c.request(context.Background(), http.MethodPost, name, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return c.do(name, req)
}

// delete ends the session.
func (c *mcpClient) delete(name string) *clientResponse {
	c.t.Helper()
	return c.do(name, c.request(context.Background(), http.MethodDelete, name, nil))
}

// openGet opens the GET stream; read it with readStream.
func (c *mcpClient) openGet(ctx context.Context, name string) *http.Response {
	c.t.Helper()
	req := c.request(ctx, http.MethodGet, name, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("GET %s: %v", name, err)
	}
	return resp
}

func (c *mcpClient) request(ctx context.Context, method, name string, body io.Reader) *http.Request {
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint, body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set(tapHeader, name)
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", c.protocol)
	}
	return req
}

func (c *mcpClient) do(name string, req *http.Request) *clientResponse {
	c.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, name, err)
	}
	defer resp.Body.Close()
	out := &clientResponse{status: resp.StatusCode, header: resp.Header}
	if isEventStream(resp.Header) {
		out.body, out.frames, err = c.readStream(name, resp.Body)
	} else {
		out.body, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		c.t.Fatalf("%s %s: reading the response: %v", req.Method, name, err)
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" && c.session == "" {
		c.session = sid
	}
	return out
}

// readStream reads an SSE body to its end, frame by frame.
func (c *mcpClient) readStream(name string, body io.Reader) ([]byte, []clientFrame, error) {
	var (
		all    bytes.Buffer
		frames []clientFrame
		p      sse.Parser
	)
	buf := make([]byte, 4096)
	for {
		n, err := body.Read(buf)
		all.Write(buf[:n])
		_ = p.Feed(buf[:n], func(f *sse.Frame) error {
			cf := clientFrame{raw: string(f.Raw), data: string(f.Data), id: f.ID, event: f.Event, fields: !f.Empty()}
			frames = append(frames, cf)
			if c.onFrame != nil {
				c.onFrame(name, cf)
			}
			return nil
		})
		if err == io.EOF {
			return all.Bytes(), frames, nil
		}
		if err != nil {
			return all.Bytes(), frames, err
		}
	}
}

// messages returns the JSON-RPC messages a response carried.
func (r *clientResponse) messages() []string {
	if r.frames == nil {
		if len(r.body) == 0 {
			return nil
		}
		return []string{compactJSON(string(r.body))}
	}
	var out []string
	for _, f := range r.frames {
		if f.data != "" {
			out = append(out, compactJSON(f.data))
		}
	}
	return out
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
