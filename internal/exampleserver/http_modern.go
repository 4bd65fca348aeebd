package exampleserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxRequestBody bounds what the front checks read of a POST; the SDK
// refuses larger bodies anyway.
const maxRequestBody = 8 << 20

// protocolVersionHeader names the HTTP header that carries a request's
// protocol version.
const protocolVersionHeader = "MCP-Protocol-Version"

// postedRequest is what the front checks read of a POST body: the one
// request it carries, if it carries exactly one.
type postedRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
		Name json.RawMessage            `json:"name"`
		URI  json.RawMessage            `json:"uri"`
	} `json:"params"`
}

// metaVersion is the protocol version the request names in its _meta, or "".
func (p *postedRequest) metaVersion() string {
	var v string
	json.Unmarshal(p.Params.Meta[mcp.MetaKeyProtocolVersion], &v)
	return v
}

// rejection is an answer the front checks give in place of the SDK's.
type rejection struct {
	code    int64
	message string
}

// checkPosted answers, before the SDK sees it, a single request that the
// 2026-07-28 rules refuse where the SDK would answer differently: a header
// version that disagrees with the body's (the SDK refuses an unknown
// version in plain text, without the JSON-RPC HeaderMismatch error), a
// request that names no protocol version and belongs to no session (the
// SDK answers it with error code 0 and status 200), and a request of a
// named primitive that names none (the SDK blames the Mcp-Name header the
// client rightly left out, instead of the params). Everything else,
// batches included, goes on to the SDK's own checks.
func checkPosted(r *http.Request, req *postedRequest) *rejection {
	header, meta := r.Header.Get(protocolVersionHeader), req.metaVersion()
	switch {
	case meta >= firstSessionlessRevision && header != meta:
		return &rejection{mcp.CodeHeaderMismatch, fmt.Sprintf("header mismatch: %s %q does not match _meta %q %q", protocolVersionHeader, header, mcp.MetaKeyProtocolVersion, meta)}
	case meta == "" && header == "" && r.Header.Get("Mcp-Session-Id") == "" && !exemptFromProtocolMeta(req.Method):
		return &rejection{jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: %q lacks _meta %q and belongs to no session (a client of 2025-11-25 or earlier sends initialize first)", req.Method, mcp.MetaKeyProtocolVersion)}
	case meta >= firstSessionlessRevision && !namesPrimitive(req):
		return &rejection{jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: %q names no %s", req.Method, primitiveMember(req.Method))}
	}
	return nil
}

// primitiveMember is the params member that names what a request is about,
// the one the Mcp-Name header mirrors, or "" for other methods.
func primitiveMember(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read":
		return "uri"
	}
	return ""
}

// namesPrimitive reports whether a request that must name a tool, prompt
// or resource names one as a string.
func namesPrimitive(req *postedRequest) bool {
	var raw json.RawMessage
	switch primitiveMember(req.Method) {
	case "":
		return true
	case "name":
		raw = req.Params.Name
	default:
		raw = req.Params.URI
	}
	var s string
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil
}

// frontChecks applies checkPosted to every POST and sends the request on,
// body restored, to modern (the 2026-07-28 handler) when its header or its
// _meta names that revision or a later one, else to legacy.
func frontChecks(modern, legacy http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		newer := r.Header.Get(protocolVersionHeader) >= firstSessionlessRevision
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
			if err != nil {
				http.Error(w, "cannot read the request body", http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			var req postedRequest
			if isSingleRequest(body, &req) {
				if rej := checkPosted(r, &req); rej != nil {
					writeRejection(w, req.ID, rej)
					return
				}
				newer = newer || req.metaVersion() >= firstSessionlessRevision
			}
		}
		if newer {
			modern.ServeHTTP(w, r)
			return
		}
		legacy.ServeHTTP(w, r)
	})
}

// isSingleRequest decodes body into req when it is one JSON-RPC request
// (an object with a method and an id).
func isSingleRequest(body []byte, req *postedRequest) bool {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, req) != nil {
		return false
	}
	return req.Method != "" && len(req.ID) > 0 && !bytes.Equal(req.ID, []byte("null"))
}

// writeRejection answers 400 Bad Request with a JSON-RPC error response to
// the request of id.
func writeRejection(w http.ResponseWriter, id json.RawMessage, rej *rejection) {
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rejection       `json:"error"`
	}{"2.0", id, *rej})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(append(body, '\n'))
}

// MarshalJSON writes a rejection as a JSON-RPC error object.
func (r rejection) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{r.code, r.message})
}
