package driver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A server that declares tasks gets its task-requiring tool called as a
// task, never plainly; the driver polls the task until it completes, then
// fetches its result, lists the tasks and asks to cancel the finished one.
func TestATaskIsFollowedToItsEnd(t *testing.T) {
	var mu sync.Mutex
	polls := 0
	task := func(status string) map[string]any {
		return map[string]any{"taskId": "t1", "status": status, "createdAt": "2025-11-25T10:30:00Z",
			"lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": 60000, "pollInterval": 10}
	}
	tool := readOnlyTool("research", nil)
	tool["execution"] = map[string]any{"taskSupport": "required"}
	srv, conn := newFakeServer(t, map[string]fakeHandler{
		"initialize": initializeWith(map[string]any{"tools": map[string]any{},
			"tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}),
		"ping":       answer(map[string]any{}),
		"tools/list": answer(map[string]any{"tools": []any{tool}}),
		"tools/call": answer(map[string]any{"task": task("working")}),
		"tasks/list": answer(map[string]any{"tasks": []any{}}),
		"tasks/get": func(req fakeRequest) (any, *RPCError, bool) {
			if !strings.Contains(string(req.Params), `"t1"`) {
				return nil, &RPCError{Code: -32602, Message: "Task not found"}, false
			}
			mu.Lock()
			defer mu.Unlock()
			if polls++; polls < 3 {
				return task("working"), nil, false
			}
			return task("completed"), nil, false
		},
		"tasks/result": answer(map[string]any{"content": []any{}}),
		"tasks/cancel": func(fakeRequest) (any, *RPCError, bool) {
			return nil, &RPCError{Code: -32602, Message: "already completed"}, false
		},
	})
	if _, err := Run(context.Background(), conn, Options{StepTimeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	calls := named(srv.requests("tools/call"), "research")
	if len(calls) != 1 || !strings.Contains(string(calls[0].Params), `"task":{`) {
		t.Fatalf("tools/call requests %v: want one, task-augmented", calls)
	}
	var tail []string
	for _, m := range srv.methods() {
		if strings.HasPrefix(m, "tasks/") && (len(tail) == 0 || tail[len(tail)-1] != m) {
			tail = append(tail, m)
		}
	}
	want := []string{"tasks/list", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"}
	if !slices.Equal(tail, want) {
		t.Errorf("tasks requests %v, want %v", tail, want)
	}
	gets := srv.requests("tasks/get")
	var first struct{ TaskID string }
	if len(gets) != 4 || json.Unmarshal(gets[0].Params, &first) != nil || first.TaskID != noSuchTask {
		t.Errorf("tasks/get requests %d, the first for %q: want the unknown task, then three polls", len(gets), first.TaskID)
	}
}
