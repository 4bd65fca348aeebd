//lint:file-ignore SA1019 logging is deprecated only from 2026-07-28 on; this server offers it to 2025-11-25 clients, and the SDK still serves it to 2026-07-28 ones.

package exampleserver

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logTo sends a notifications/message to the session's client. The SDK
// sends it only at or above the level the client asked for, and nothing
// until the client asks (logging/setLevel, or the request's _meta under
// 2026-07-28). Data never carries note text or other user content, only
// names and counts, so that logs hold nothing a user did not mean to share.
func logTo(ctx context.Context, ss *mcp.ServerSession, level mcp.LoggingLevel, logger string, data map[string]any) {
	if ss == nil {
		return
	}
	// Logging is best effort: a message that cannot be delivered must not
	// fail the tool call that produced it.
	_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: logger, Data: data})
}

// logLevels are the syslog levels the specification defines.
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// rejectUnknownLogLevels answers a log level the specification does not
// define with invalid params, as logging asks; the SDK would accept it. It
// checks logging/setLevel and, under 2026-07-28, the level any request
// carries in its _meta.
func rejectUnknownLogLevels(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		level, given := requestedLogLevel(method, req)
		if given && !slices.Contains(logLevels, level) {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("unknown log level %q; use one of debug, info, notice, warning, error, critical, alert, emergency", level),
			}
		}
		return next(ctx, method, req)
	}
}

func requestedLogLevel(method string, req mcp.Request) (mcp.LoggingLevel, bool) {
	if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && p != nil && method == "logging/setLevel" {
		return p.Level, true
	}
	raw, ok := metaOf(req)[mcp.MetaKeyLogLevel]
	if !ok {
		return "", false
	}
	level, _ := raw.(string)
	return mcp.LoggingLevel(level), true
}
