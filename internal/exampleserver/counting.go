package exampleserver

import (
	"context"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slow_count's bounds: by default it takes 4 × 500 ms = 2 s, long enough for
// a client to watch progress and to cancel it midway.
const (
	defaultCountTo    = 4
	maxCountTo        = 10
	defaultIntervalMS = 500
	minIntervalMS     = 10
	maxIntervalMS     = 1000
)

type slowCountArgs struct {
	To         int `json:"to,omitempty" jsonschema:"the number to count up to, one step at a time"`
	IntervalMS int `json:"interval_ms,omitempty" jsonschema:"milliseconds to wait before each step"`
}

type slowCountResult struct {
	Counted int `json:"counted" jsonschema:"the number reached"`
}

func slowCountTool() *mcp.Tool {
	return newTool("slow_count", "Count slowly", pureQuery,
		fmt.Sprintf("Counts from 1 up to `to` (default %d, at most %d), waiting `interval_ms` (default %d) before each step. "+
			"Sends notifications/progress after each step when the request carries a progressToken, and stops as soon as the request is cancelled.",
			defaultCountTo, maxCountTo, defaultIntervalMS),
		schemaFor[slowCountArgs](func(p map[string]*jsonschema.Schema) {
			between(p["to"], 1, maxCountTo)
			withDefault(p["to"], defaultCountTo)
			between(p["interval_ms"], minIntervalMS, maxIntervalMS)
			withDefault(p["interval_ms"], defaultIntervalMS)
		}))
}

func slowCount(ctx context.Context, req *mcp.CallToolRequest, in slowCountArgs) (*mcp.CallToolResult, slowCountResult, error) {
	ticker := time.NewTicker(time.Duration(in.IntervalMS) * time.Millisecond)
	defer ticker.Stop()
	for step := 1; step <= in.To; step++ {
		select {
		case <-ctx.Done():
			return nil, slowCountResult{}, fmt.Errorf("slow_count cancelled after %d of %d steps", step-1, in.To)
		case <-ticker.C:
		}
		reportProgress(ctx, req, step, in.To)
	}
	return nil, slowCountResult{Counted: in.To}, nil
}

// reportProgress sends one progress notification if the client asked for
// them by sending a progress token; without one, it must not send any.
func reportProgress(ctx context.Context, req *mcp.CallToolRequest, step, total int) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return
	}
	// A failed notification (the client went away) is no reason to stop
	// counting: cancellation arrives through ctx.
	_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token,
		Progress:      float64(step),
		Total:         float64(total),
		Message:       fmt.Sprintf("counted %d of %d", step, total),
	})
}
