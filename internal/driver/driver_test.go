package driver

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestATimedOutCallIsCancelledAndTheSessionGoesOn(t *testing.T) {
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize": initializeWith(map[string]any{"tools": map[string]any{}}),
		"ping":       answer(map[string]any{}),
		"tools/list": answer(map[string]any{"tools": []any{readOnlyTool("stuck", nil), readOnlyTool("quick", nil)}}),
		"tools/call": func(req fakeRequest) (any, *RPCError, bool) {
			if strings.Contains(string(req.Params), `"stuck"`) {
				return nil, nil, true
			}
			return map[string]any{"content": []any{}}, nil, false
		},
	})
	res, err := Run(context.Background(), conn, Options{StepTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Run: %v (notes %q)", err, res.Notes)
	}
	got := strings.Join(srv.methods(), " ")
	want := "tools/call notifications/cancelled ping tools/call"
	if !strings.Contains(got, want) {
		t.Errorf("the driver sent %q; want the stuck call cancelled, a ping, then the next call (%q)", got, want)
	}
	cancelled := srv.requests("notifications/cancelled")[0]
	stuck := srv.requests("tools/call")[0]
	if !strings.Contains(string(cancelled.Params), `"requestId":`+string(stuck.ID)) {
		t.Errorf("cancellation %s does not name the stuck call %s", cancelled.Params, stuck.ID)
	}
}

func TestAnUnansweredPingEndsTheSessionAsHung(t *testing.T) {
	_, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize": initializeWith(map[string]any{"tools": map[string]any{}}),
		"ping":       silence,
	})
	start := time.Now()
	res, err := Run(context.Background(), conn, Options{StepTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrHung) {
		t.Fatalf("Run = %v, want ErrHung", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a hung server took %s to give up on", d)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "counts as hung") }) {
		t.Errorf("no note says the server is hung: %q", res.Notes)
	}
}

func TestCancellationWaitsUntilTheCallIsInFlight(t *testing.T) {
	var srv *fakeServer
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize": initializeWith(map[string]any{"tools": map[string]any{}}),
		"ping":       answer(map[string]any{}),
		"tools/list": answer(map[string]any{"tools": []any{readOnlyTool("count", map[string]any{
			"type": "object", "properties": map[string]any{"interval_ms": map[string]any{"type": "integer", "minimum": 10, "default": 500}},
		})}}),
		"tools/call": func(req fakeRequest) (any, *RPCError, bool) {
			var p struct {
				Meta struct {
					Token string `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(req.Params, &p)
			srv.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": map[string]any{"progressToken": p.Meta.Token, "progress": 1}})
			time.Sleep(50 * time.Millisecond)
			return map[string]any{"content": []any{}}, nil, false
		},
	})
	if _, err := Run(context.Background(), conn, Options{StepTimeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	calls := named(srv.requests("tools/call"), "count")
	if len(calls) != 2 {
		t.Fatalf("%d tool calls, want the call and the one cancelled", len(calls))
	}
	if !strings.Contains(string(calls[0].Params), `"interval_ms":10`) {
		t.Errorf("the first call does not use the smallest interval: %s", calls[0].Params)
	}
	if !strings.Contains(string(calls[1].Params), `"interval_ms":250`) {
		t.Errorf("the cancelled call does not take a quarter second: %s", calls[1].Params)
	}
	cancels := srv.requests("notifications/cancelled")
	if len(cancels) != 1 || !strings.Contains(string(cancels[0].Params), string(calls[1].ID)) {
		t.Errorf("cancellations %v do not name the second call %s", cancels, calls[1].ID)
	}
}

func TestStatelessSessionAnswersInputRequests(t *testing.T) {
	rounds := 0
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"server/discover": answer(map[string]any{"resultType": "complete", "supportedVersions": []string{Modern}, "capabilities": map[string]any{"tools": map[string]any{}}}),
		"tools/list":      answer(map[string]any{"resultType": "complete", "tools": []any{readOnlyTool("ask", nil)}}),
		"tools/call": func(req fakeRequest) (any, *RPCError, bool) {
			rounds++
			if rounds == 1 {
				return map[string]any{"resultType": "input_required", "requestState": "opaque-1", "inputRequests": map[string]any{
					"who":   map[string]any{"method": "elicitation/create", "params": map[string]any{"mode": "form", "message": "name?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}}},
					"roots": map[string]any{"method": "roots/list", "params": map[string]any{}},
				}}, nil, false
			}
			return map[string]any{"resultType": "complete", "content": []any{}}, nil, false
		},
	})
	if _, err := Run(context.Background(), conn, Options{Revision: Modern, StepTimeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	calls := srv.requests("tools/call")
	if len(calls) < 2 {
		t.Fatalf("%d tool calls, want the call and its retry", len(calls))
	}
	if string(calls[0].ID) == string(calls[1].ID) {
		t.Errorf("the retry reuses id %s", calls[0].ID)
	}
	var retry struct {
		RequestState   string                     `json:"requestState"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		Meta           map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(calls[1].Params, &retry)
	if retry.RequestState != "opaque-1" || len(retry.InputResponses) != 2 {
		t.Errorf("retry params %s: want requestState echoed and both inputs answered", calls[1].Params)
	}
	if !strings.Contains(string(retry.InputResponses["who"]), `"action":"accept"`) {
		t.Errorf("elicitation answer %s", retry.InputResponses["who"])
	}
	for _, r := range srv.seen {
		if r.Method != "" && !strings.Contains(string(r.Params), `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`) {
			t.Errorf("%s carries no protocol version in _meta: %s", r.Method, r.Params)
		}
	}
}

func TestDiscoverRefusedByALegacyServer(t *testing.T) {
	_, conn := newFakeServer(t, map[string]fakeHandler{})
	_, err := Run(context.Background(), conn, Options{Revision: Modern, StepTimeout: time.Second})
	if !errors.Is(err, ErrLegacyServer) {
		t.Fatalf("Run = %v, want ErrLegacyServer", err)
	}
}

func TestDiscoverWithAModernErrorIsNotLegacy(t *testing.T) {
	_, conn := newFakeServer(t, map[string]fakeHandler{
		"server/discover": func(fakeRequest) (any, *RPCError, bool) {
			return nil, &RPCError{Code: -32022, Message: "Unsupported protocol version", Data: json.RawMessage(`{"supported":["2027-01-01"]}`)}, false
		},
	})
	_, err := Run(context.Background(), conn, Options{Revision: Modern, StepTimeout: time.Second})
	var he *HandshakeError
	if !errors.As(err, &he) || errors.Is(err, ErrLegacyServer) {
		t.Fatalf("Run = %v, want a handshake error, not a legacy server", err)
	}
}

func TestPromptArgumentsRetryWithValuesOfTheOtherKind(t *testing.T) {
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize":   initializeWith(map[string]any{"prompts": map[string]any{}}),
		"ping":         answer(map[string]any{}),
		"prompts/list": answer(map[string]any{"prompts": []any{map[string]any{"name": "p", "arguments": []any{map[string]any{"name": "topic", "required": true}}}}}),
		"prompts/get": func(req fakeRequest) (any, *RPCError, bool) {
			if strings.Contains(string(req.Params), `"topic":"1"`) {
				return map[string]any{"messages": []any{}}, nil, false
			}
			return nil, &RPCError{Code: -32602, Message: "topic must be a number"}, false
		},
	})
	if _, err := Run(context.Background(), conn, Options{StepTimeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	gets := named(srv.requests("prompts/get"), "p")
	if len(gets) != 2 || !strings.Contains(string(gets[0].Params), `"topic":"mcpverdict"`) {
		t.Fatalf("prompts/get requests %v: want a word, then a number", gets)
	}
}

func TestTheServerClosingEndsTheSession(t *testing.T) {
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize": initializeWith(map[string]any{}),
		"ping": func(fakeRequest) (any, *RPCError, bool) {
			return nil, nil, true
		},
	})
	go func() {
		for len(srv.requests("ping")) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		srv.out.Close()
	}()
	_, err := Run(context.Background(), conn, Options{StepTimeout: 5 * time.Second})
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Run = %v, want ErrClosed", err)
	}
}
