package base

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Error codes (2026-07-28): how MCP partitions the JSON-RPC server-error
// range, which codes are retired, and what the defined codes mean.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.ErrorMsgs}},
		Checks: []engine.Check{
			{ID: "errorcode.retired", Summary: "no party emits -32002 or -32042, the codes earlier revisions defined"},
			{ID: "errorcode.legacy-range", Summary: "no party uses a code of the legacy sub-range -32000 to -32019"},
			{ID: "errorcode.mcp-range-defined", Summary: "no party emits a code of the MCP sub-range -32020 to -32099 the specification does not define"},
			{ID: "errorcode.defined-meaning", Summary: "the defined MCP codes are used with their meaning: -32020 for HTTP header mismatches, -32022 for a version the server does not support"},
			{ID: "errorcode.outside-reserved", Summary: "codes for purposes the specification does not define lie outside the JSON-RPC reserved range -32768 to -32000"},
		},
		New:      func() engine.Rule { return errorCodeRule{} },
		Messages: engine.StatelessOnly,
	})
}

type errorCodeRule struct{ engine.BaseRule }

var (
	retiredCodes   = map[int64]string{-32002: "resource not found in 2025-11-25 and earlier", -32042: "URL elicitation required in 2025-11-25"}
	definedMCPCode = map[int64]bool{engine.CodeHeaderMismatch: true, engine.CodeMissingCapability: true, engine.CodeUnsupportedVersion: true}
	jsonRPCCodes   = map[int64]bool{-32700: true, -32600: true, -32601: true, -32602: true, -32603: true}
)

func (errorCodeRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || m.Kind != message.KindError {
		return
	}
	code, ok := m.Error.IntCode()
	if !ok {
		return // jsonrpc.error-code-integer judges it
	}
	meaning, retired := retiredCodes[code]
	s.Expect("errorcode.retired", !retired, m.From, m.Event, "error code %d (%s) is retired; implementations of 2026-07-28 must not emit it", code, meaning)
	if retired {
		return // the other ranges would only say it again
	}
	checkCodeRanges(s, m, code)
	checkDefinedMeaning(s, m, code)
}

// checkCodeRanges places a code in MCP's partition of the JSON-RPC
// server-error range.
func checkCodeRanges(s *engine.Session, m *message.Msg, code int64) {
	inLegacy := code >= -32019 && code <= -32000
	s.Expect("errorcode.legacy-range", !inLegacy, m.From, m.Event, "error code %d lies in the legacy sub-range -32000 to -32019, which new implementations should not use", code)
	inMCP := code >= -32099 && code <= -32020
	s.Expect("errorcode.mcp-range-defined", !inMCP || definedMCPCode[code], m.From, m.Event,
		"error code %d lies in the sub-range -32020 to -32099 reserved for the MCP specification, which does not define it", code)
	checkOutsideReserved(s, m, code, inLegacy || inMCP)
}

// checkOutsideReserved judges the codes the specification does not define:
// they belong outside -32768 to -32000. The MCP sub-ranges are judged above.
func checkOutsideReserved(s *engine.Session, m *message.Msg, code int64, inMCPRanges bool) {
	switch {
	case jsonRPCCodes[code] || inMCPRanges:
	case code >= -32768 && code <= -32000:
		s.Fail("errorcode.outside-reserved", m.From, m.Event, "error code %d is not one JSON-RPC or MCP defines, yet lies in the reserved range -32768 to -32000", code)
	default:
		s.Pass("errorcode.outside-reserved", m.From)
	}
}

func checkDefinedMeaning(s *engine.Session, m *message.Msg, code int64) {
	switch code {
	case engine.CodeHeaderMismatch:
		s.Expect("errorcode.defined-meaning", m.Event.Transport == trace.StreamableHTTP, m.From, m.Event,
			"error code -32020 (HeaderMismatch) was sent over %s, which has no HTTP headers to mismatch", m.Event.Transport)
	case engine.CodeUnsupportedVersion:
		checkUnsupportedVersionMeaning(s, m)
	}
}

// checkUnsupportedVersionMeaning: -32022 says the request's version is one
// the server does not support, so the version must not be on the list of
// versions the same error says the server supports.
func checkUnsupportedVersionMeaning(s *engine.Session, m *message.Msg) {
	requested := engine.RequestVersion(m.Request)
	supported := engine.UnsupportedVersionData(m).Supported
	if requested == "" || supported == nil {
		return
	}
	s.Expect("errorcode.defined-meaning", !slices.Contains(supported, requested), m.From, m.Event,
		"error -32022 (UnsupportedProtocolVersion) answers a request for %q, which the error's own supported list %q includes", requested, supported)
}
