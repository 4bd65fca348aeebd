//lint:file-ignore SA1019 the tests exercise logging, deprecated only from 2026-07-28 on.

package exampleserver

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The revisions every feature test runs under: the one mcpverdict judges
// first, and the newest the SDK speaks.
const (
	rev20251125 = "2025-11-25"
	rev20260728 = "2026-07-28"
)

var revisions = []string{rev20251125, rev20260728}

// testTimeout bounds every wait in these tests, so a regression fails
// rather than hangs.
const testTimeout = 60 * time.Second

// notifications collects what the server sends a test client unasked.
type notifications struct {
	progress    chan *mcp.ProgressNotificationParams
	logs        chan *mcp.LoggingMessageParams
	updated     chan string
	listChanged chan struct{}
}

func newNotifications() *notifications {
	return &notifications{
		progress:    make(chan *mcp.ProgressNotificationParams, 100),
		logs:        make(chan *mcp.LoggingMessageParams, 100),
		updated:     make(chan string, 100),
		listChanged: make(chan struct{}, 100),
	}
}

func (n *notifications) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { n.progress <- r.Params },
		LoggingMessageHandler:       func(_ context.Context, r *mcp.LoggingMessageRequest) { n.logs <- r.Params },
		ResourceUpdatedHandler:      func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { n.updated <- r.Params.URI },
		ResourceListChangedHandler:  func(context.Context, *mcp.ResourceListChangedRequest) { n.listChanged <- struct{}{} },
	}
}

// connect starts a fresh example server and connects a client to it in
// memory, asking for the given protocol revision.
func connect(t *testing.T, revision string) (*mcp.ClientSession, *notifications) {
	t.Helper()
	return connectTo(t, New(), revision)
}

func connectTo(t *testing.T, server *mcp.Server, revision string) (*mcp.ClientSession, *notifications) {
	t.Helper()
	ctx := testContext(t)
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	n := newNotifications()
	client := mcp.NewClient(&mcp.Implementation{Name: "exampleserver-test", Version: "1.0.0"}, n.clientOptions())
	cs, err := client.Connect(ctx, clientEnd, &mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatalf("client connect (%s): %v", revision, err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	if got := cs.InitializeResult().ProtocolVersion; got != revision {
		t.Fatalf("negotiated %s, want %s", got, revision)
	}
	return cs, n
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// forEachRevision runs test once per revision, in parallel subtests.
func forEachRevision(t *testing.T, test func(t *testing.T, revision string)) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			t.Parallel()
			test(t, rev)
		})
	}
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{} // a nil map would go out as null
	}
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

// textOf returns the text of a result's only text block.
func textOf(t *testing.T, content []mcp.Content) string {
	t.Helper()
	for _, c := range content {
		if text, ok := c.(*mcp.TextContent); ok {
			return text.Text
		}
	}
	t.Fatalf("no text content in %v", content)
	return ""
}

// wireCode returns the JSON-RPC error code err carries, or fails.
func wireCode(t *testing.T, err error) int64 {
	t.Helper()
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return wire.Code
}

// wantCode fails the test unless err is a JSON-RPC error with code want;
// what names the request in the message.
func wantCode(t *testing.T, err error, want int64, what string) {
	t.Helper()
	if code := wireCode(t, err); code != want {
		t.Errorf("%s: code %d, want %d", what, code, want)
	}
}

// validate checks value against a JSON Schema received on the wire, as a
// client that takes the output schema at its word would.
func validate(t *testing.T, schema any, value any) {
	t.Helper()
	raw, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema %s: %v", raw, err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving schema %s: %v", raw, err)
	}
	var instance any
	if err := remarshal(value, &instance); err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(instance); err != nil {
		t.Errorf("%v does not conform to %s: %v", instance, raw, err)
	}
}

func remarshal(from, to any) error {
	raw, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, to)
}

// receive waits for one value on ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testTimeout):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

// quiet fails if ch delivers anything within a short while.
func quiet[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case v := <-ch:
		t.Errorf("unexpected %s: %+v", what, v)
	case <-time.After(100 * time.Millisecond):
	}
}
