package exampleserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSlowCountReportsProgress(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, n := connect(t, rev)
		params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"to": 3, "interval_ms": 10}}
		params.SetProgressToken("count-1")
		res, err := cs.CallTool(testContext(t), params)
		if err != nil || res.IsError {
			t.Fatalf("slow_count: %v %+v", err, res)
		}
		validate(t, toolsByName(t, cs)["slow_count"].OutputSchema, res.StructuredContent)
		for step := 1; step <= 3; step++ {
			p := receive(t, n.progress, "progress")
			if p.ProgressToken != "count-1" || p.Progress != float64(step) || p.Total != 3 || p.Message == "" {
				t.Errorf("progress %d = %+v", step, p)
			}
		}
		quiet(t, n.progress, "progress after the result")
	})
}

func TestSlowCountWithoutTokenSendsNoProgress(t *testing.T) {
	cs, n := connect(t, rev20251125)
	callTool(t, cs, "slow_count", map[string]any{"to": 2, "interval_ms": 10})
	quiet(t, n.progress, "progress without a progressToken")
}

func TestSlowCountTakesTwoSecondsByDefault(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("takes 2 s")
	}
	cs, _ := connect(t, rev20251125)
	start := time.Now()
	res := callTool(t, cs, "slow_count", nil)
	if elapsed := time.Since(start); elapsed < 2*time.Second || elapsed > 8*time.Second {
		t.Errorf("slow_count took %v, want about 2 s", elapsed)
	}
	var out slowCountResult
	if err := remarshal(res.StructuredContent, &out); err != nil || out.Counted != defaultCountTo {
		t.Errorf("structuredContent = %v", res.StructuredContent)
	}
}

// Cancelling the request ends the call at once, and the server's handler
// returns at once rather than counting on.
func TestSlowCountStopsWhenCancelled(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		server, handlerReturned := New(), make(chan time.Time, 10)
		server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				if method == "tools/call" {
					handlerReturned <- time.Now()
				}
				return res, err
			}
		})
		cs, n := connectTo(t, server, rev)
		ctx, cancel := context.WithCancel(testContext(t))
		params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"to": 10, "interval_ms": 200}}
		params.SetProgressToken(7)
		errc := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, params)
			errc <- err
		}()
		receive(t, n.progress, "first progress")
		cancelled := time.Now()
		cancel()
		if err := receive(t, errc, "the call to end"); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v", err)
		}
		// Counting on would take another 1.8 s.
		if lag := receive(t, handlerReturned, "the handler to return").Sub(cancelled); lag > time.Second {
			t.Errorf("the handler returned %v after the cancellation", lag)
		}
	})
}
