package engine

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// The error codes rules of several areas compare answers with: JSON-RPC's
// and those the specification defines.
const (
	CodeMethodNotFound     = -32601
	CodeInvalidParams      = -32602
	CodeHeaderMismatch     = -32020
	CodeMissingCapability  = -32021
	CodeUnsupportedVersion = -32022
)

// versionErrorData is the data member of an UnsupportedProtocolVersionError.
type versionErrorData struct {
	Supported []string `json:"supported"`
	Requested *string  `json:"requested"`
}

func UnsupportedVersionData(m *message.Msg) versionErrorData {
	var d versionErrorData
	if m.Error != nil {
		_ = json.Unmarshal(m.Error.Data, &d)
	}
	return d
}

func IsInvalidParams(e *message.RPCError) bool {
	code, ok := e.IntCode()
	return ok && code == -32602
}
