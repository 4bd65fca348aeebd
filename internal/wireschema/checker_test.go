package wireschema

import (
	"reflect"
	"testing"
)

// A Checker answers exactly as Validate does, for texts it has seen (a
// repeated result, a request whose id alone differs) and texts it has not.
func TestCheckerAnswersAsValidate(t *testing.T) {
	v := load(t, "2025-11-25")
	msgs := []Message{
		{Kind: Request, Method: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)},
		{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`)},
		{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`)},
		{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":7}]}}`)},
		{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":7}]}}`)},
		{Kind: Result, RequestMethod: "ping", Body: []byte(`{"jsonrpc":"2.0","id":"x","result":{"tools":[{"name":7}]}}`)},
		{Kind: Notification, Method: "notifications/message", Body: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)},
		{Kind: Notification, Method: "notifications/message", Body: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)},
		{Kind: Notification, Method: "notifications/message", Body: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":5}}`)},
		{Kind: Result, RequestMethod: "tools/call", Body: []byte(`{"jsonrpc":"2.0","id":5,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":60000}}}`)},
		{Kind: Error, Body: []byte(`{"jsonrpc":"2.0","id":4,"error":{"code":"x"}}`)},
		{Kind: Any, Body: []byte(`{"jsonrpc":"2.0"}`)},
		{Kind: Request, Method: "ping", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"`)},
	}
	c := v.NewChecker()
	for round := 0; round < 2; round++ {
		for _, m := range msgs {
			want, werr := v.Validate(m)
			got, gerr := c.Validate(m)
			if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
				t.Errorf("%s: checker %+v, %v; validate %+v, %v", m.Body, got, gerr, want, werr)
			}
		}
	}
}

// The validator meets an object's members in map order; the problems of a
// message come out in one order all the same.
func TestProblemsInOneOrder(t *testing.T) {
	v := load(t, "2025-11-25")
	m := Message{Kind: Request, Method: "initialize", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":7,"clientInfo":{"name":3,"version":4}}}`)}
	first, _ := v.Validate(m)
	if len(first) < 4 {
		t.Fatalf("expected four problems, got %+v", first)
	}
	for range 20 {
		if p, _ := v.Validate(m); !reflect.DeepEqual(p, first) {
			t.Fatalf("problems came out as %+v, then as %+v", first, p)
		}
	}
}
