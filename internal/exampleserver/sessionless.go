package exampleserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rejectMissingProtocolMeta holds a session that began with server/discover
// to the 2026-07-28 rule that every request carry its protocol version in
// _meta: a request without it is malformed and gets invalid params. The SDK
// instead treats such a request as a legacy one and, since discover filled
// in the session's parameters, serves it as though the client had shaken
// hands. Sessions that did shake hands (initialize) are left alone.
func rejectMissingProtocolMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !exemptFromProtocolMeta(method) && !speaksNewProtocol(req) && discoveredSession(req) {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("invalid params: %q lacks _meta %q, which every request of this session must carry", method, mcp.MetaKeyProtocolVersion),
			}
		}
		return next(ctx, method, req)
	}
}

// exemptFromProtocolMeta spares notifications (there is nothing to answer)
// and the requests that choose a protocol: discover itself, and initialize
// and ping, which a legacy client may still send to the same process.
func exemptFromProtocolMeta(method string) bool {
	return strings.HasPrefix(method, "notifications/") || method == "initialize" || method == "ping" || method == "server/discover"
}

// discoveredSession reports whether the request's session learned its
// protocol version from a per-request _meta (server/discover or a
// 2026-07-28 request) rather than from initialize.
func discoveredSession(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= firstSessionlessRevision
}
