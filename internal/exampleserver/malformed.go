package exampleserver

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// rejectLine decides whether one line a stdio client sent may go on to the
// SDK. The SDK ends the whole session on a line it cannot decode (bad JSON,
// a "jsonrpc" other than "2.0", a method or id of the wrong type) without a
// word, and answers a fractional id with a different, truncated one. For
// such a line rejectLine returns the JSON-RPC error response to send
// instead, with JSON-RPC's codes (-32700 parse error, -32600 invalid
// request); for any other line it returns nil.
//
// The error echoes the request's id when it has a valid one and otherwise
// has none: MCP ids are strings or integers, never null, and 2025-11-25
// lets an error response omit the id it could not determine. A malformed
// response (no method, but a result or an error) gets no answer.
//
// Batches are allowed only when the session negotiated a revision that has
// them (2025-03-26 requires servers to accept them; 2025-06-18 removed
// them); otherwise a batch is an invalid request.
func rejectLine(line []byte, batchesAllowed bool) []byte {
	trimmed := bytes.TrimSpace(line)
	switch {
	case len(trimmed) == 0:
		return nil // blank lines are skipped by the SDK
	case !json.Valid(trimmed):
		return errorResponse(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
	case trimmed[0] == '[' && batchesAllowed:
		return nil
	case trimmed[0] == '[':
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported from revision 2025-06-18 on")
	case trimmed[0] != '{':
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	var env struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(trimmed, &env) != nil {
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a member has the wrong type")
	}
	if env.Method == nil && (env.Result != nil || env.Error != nil) {
		if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
			return []byte{} // a broken response: drop it, answer nothing
		}
		return nil
	}
	id, idOK := validRequestID(env.ID)
	switch {
	case env.ID != nil && !idOK:
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: an id must be a string or an integer")
	case env.JSONRPC == nil || *env.JSONRPC != "2.0":
		return errorResponse(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
		return errorResponse(id, jsonrpc.CodeInvalidRequest, "invalid request: a member has the wrong type (method must be a string; params an object)")
	}
	return nil
}

// validRequestID returns the id if it is one MCP allows: a string or an
// integer. An absent id is valid (a notification) and returns nil.
func validRequestID(raw json.RawMessage) (json.RawMessage, bool) {
	if raw == nil {
		return nil, true
	}
	switch c := raw[0]; {
	case c == '"':
		return raw, json.Unmarshal(raw, new(string)) == nil
	case c == '-' || ('0' <= c && c <= '9'):
		var n float64
		if json.Unmarshal(raw, &n) != nil || n != math.Trunc(n) {
			return nil, false
		}
		return raw, true
	}
	return nil, false // null, true, false, objects, arrays
}

func errorResponse(id json.RawMessage, code int64, message string) []byte {
	resp := map[string]any{
		"jsonrpc": "2.0",
		"error":   map[string]any{"code": code, "message": message},
	}
	if id != nil {
		resp["id"] = id
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		panic(err)
	}
	return append(raw, '\n')
}
