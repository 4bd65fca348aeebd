package judge

import "encoding/json"

// The error codes rules of several areas compare answers with: JSON-RPC's
// and those the specification defines.
const (
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeHeaderMismatch     = -32020
	codeMissingCapability  = -32021
	codeUnsupportedVersion = -32022
)

// versionErrorData is the data member of an UnsupportedProtocolVersionError.
type versionErrorData struct {
	Supported []string `json:"supported"`
	Requested *string  `json:"requested"`
}

func unsupportedVersionData(m *Msg) versionErrorData {
	var d versionErrorData
	if m.Error != nil {
		_ = json.Unmarshal(m.Error.Data, &d)
	}
	return d
}

func isInvalidParams(e *RPCError) bool {
	code, ok := e.IntCode()
	return ok && code == -32602
}
