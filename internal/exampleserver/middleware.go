package exampleserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/time/rate"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The specification makes rate limiting a MUST for tool calls and for
// completion. The limit is generous (no honest client or test driver comes
// near it) so that it never makes a recorded session depend on timing.
const (
	requestsPerSecond = 50
	requestBurst      = 200
	// codeRateLimited lies outside the JSON-RPC reserved range, where
	// 2026-07-28 asks implementations to put codes of their own.
	codeRateLimited = -31429
)

type rateLimit struct{ limiter *rate.Limiter }

func newRateLimit() *rateLimit {
	return &rateLimit{limiter: rate.NewLimiter(requestsPerSecond, requestBurst)}
}

func (r *rateLimit) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if exemptFromRateLimit(method) || r.limiter.Allow() {
			return next(ctx, method, req)
		}
		return nil, &jsonrpc.Error{
			Code:    codeRateLimited,
			Message: fmt.Sprintf("rate limit exceeded (%d requests a second): retry %q shortly", requestsPerSecond, method),
		}
	}
}

// exemptFromRateLimit spares notifications (there is no response to refuse
// them with), the handshake, and ping, which must be answered promptly.
func exemptFromRateLimit(method string) bool {
	return strings.HasPrefix(method, "notifications/") || method == "initialize" || method == "ping"
}

// recoverPanics turns a panic in any handler, ours or the SDK's, into an
// internal error for that one request. Without it, one bad request would
// end the process and every session with it.
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error handling %s", method)}
			}
		}()
		return next(ctx, method, req)
	}
}

// rejectNonObjectArguments answers a tools/call whose arguments are present
// but not an object (null, a list, a string) with invalid params: such a
// request does not satisfy the CallToolRequest schema, which makes it a
// protocol error. The SDK would otherwise report some of these as tool
// errors and panic on null for a tool whose input schema has defaults.
func rejectNonObjectArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil && !isObjectOrAbsent(call.Params.Arguments) {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("tools/call %q: arguments must be a JSON object, not %s", call.Params.Name, call.Params.Arguments),
			}
		}
		return next(ctx, method, req)
	}
}

func isObjectOrAbsent(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) == 0 || trimmed[0] == '{'
}

// firstSessionlessRevision is the first revision without the initialize
// handshake: sessions that shook hands speak an earlier one.
const firstSessionlessRevision = "2026-07-28"

// pinRequestedVersion makes the SDK keep, as the version the client asked
// for in initialize, the version the server answers with. The SDK picks
// 2026-07-28 behaviours (resultType in results, subscription ids in
// notifications, no list_changed on the session) from the version the
// client asked for, so a client asking for one the server does not know
// (2099-01-01, say) would negotiate 2025-11-25 and still be served as
// 2026-07-28.
func pinRequestedVersion(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.InitializeParams); ok && p != nil && method == "initialize" {
			p.ProtocolVersion = handshakeVersion(p.ProtocolVersion)
		}
		return next(ctx, method, req)
	}
}

// handshakeVersion is the version the SDK answers an initialize asking for
// requested with: requested itself if the server speaks it and it has the
// handshake, else the newest version that does.
func handshakeVersion(requested string) string {
	supported := mcp.SupportedProtocolVersions() // newest first
	if slices.Contains(supported, requested) && requested < firstSessionlessRevision {
		return requested
	}
	for _, v := range supported {
		if v < firstSessionlessRevision {
			return v
		}
	}
	return requested
}

// codeResourceNotFound2025 is the resource-not-found code of 2025-11-25 and
// earlier; 2026-07-28 replaced it with invalid params.
const codeResourceNotFound2025 = -32002

// resourceNotFoundCodeByRevision gives a missing resource the error code of
// the revision the request speaks: the SDK always uses -32602, which
// 2026-07-28 requires but 2025-11-25 (and earlier) do not: they ask for
// -32002. Requests of the 2026-07-28 protocol carry their version in _meta;
// every other request belongs to a session that negotiated an older one.
func resourceNotFoundCodeByRevision(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var wire *jsonrpc.Error
		if method != "resources/read" || !errors.As(err, &wire) || !isResourceNotFound(wire) || speaksNewProtocol(req) || !namesAURI(req) {
			return res, err
		}
		legacy := *wire
		legacy.Code = codeResourceNotFound2025
		return nil, &legacy
	}
}

// namesAURI tells a missing resource from a request that named none: the
// latter is malformed, and stays invalid params.
func namesAURI(req mcp.Request) bool {
	read, ok := req.(*mcp.ReadResourceRequest)
	return ok && read.Params != nil && read.Params.URI != ""
}

func isResourceNotFound(e *jsonrpc.Error) bool {
	return e.Code == jsonrpc.CodeInvalidParams && e.Message == "Resource not found"
}

func speaksNewProtocol(req mcp.Request) bool {
	v, _ := metaOf(req)[mcp.MetaKeyProtocolVersion].(string)
	return v >= firstSessionlessRevision
}

// metaOf returns the request's _meta. Params are pointers that may be nil
// when a request has no params, and reading _meta through a nil pointer
// panics.
func metaOf(req mcp.Request) map[string]any {
	params := req.GetParams()
	if params == nil || reflect.ValueOf(params).IsNil() {
		return nil
	}
	return params.GetMeta()
}
